// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-fuse{opt-level=2}, kiln-codegen-outline{flash-attention=false})' | FileCheck %s
// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-fuse{opt-level=2 attention=false}, kiln-codegen-outline{flash-attention=false})' | FileCheck %s
// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-fuse{opt-level=2}, kiln-codegen-outline{flash-attention=false})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-fuse{opt-level=2}, kiln-codegen-outline)' | FileCheck %s --check-prefix=FLASH
// With flash-attention=false, an attention region is lowered as the kernels of its `parts`,
// each as a region of its ops would be: the same kernels as without attention regions (the
// first two RUN lines check the same output). By default it is one attention kernel (FLASH;
// the kernel itself: kiln-codegen-attention.mlir).

// REMARK: remark: attention region lowered as 4 kernels: flash-attention=false
// FLASH-LABEL: func.func private @padding_kernel0(
// FLASH-SAME:    npuvec.core = #npuvec.core<mix>, npuvec.kind = "attention"
// FLASH-NOT:   func.func private @padding_kernel1(
// CHECK-LABEL: func.func private @padding_kernel0(
// CHECK-SAME:    npuvec.kind = "layout"
// CHECK-LABEL: func.func private @padding_kernel1(
// CHECK-SAME:    npuvec.kind = "mix"
// CHECK-LABEL: func.func private @padding_kernel2(
// CHECK-SAME:    npuvec.kind = "vector"
// CHECK-LABEL: func.func private @padding_kernel3(
// CHECK-SAME:    npuvec.kind = "matmul"
// CHECK-NOT:   func.func private @padding_kernel4(
func.func @padding(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %mask: tensor<1x1x1x8xf32>) -> tensor<1x2x8x16xf32> {
  %t = hl.transpose %k {perm = [0, 1, 3, 2]} : tensor<1x2x8x16xf32> -> tensor<1x2x16x8xf32>
  %s = hl.batch_matmul %q, %t : tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x8x8xf32>
  %c = hl.constant dense<4.0> : tensor<f32>
  %s1 = hl.div %s, %c : tensor<1x2x8x8xf32>, tensor<f32> -> tensor<1x2x8x8xf32>
  %s2 = hl.add %s1, %mask : tensor<1x2x8x8xf32>, tensor<1x1x1x8xf32> -> tensor<1x2x8x8xf32>
  %m = hl.reduce_max %s2 {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
  %x = hl.sub %s2, %m : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
  %e = hl.exp %x : tensor<1x2x8x8xf32>
  %z = hl.reduce_sum %e {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
  %p = hl.div %e, %z : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// An attention region without `parts` (written by hand): every op a kernel of its own.
// REMARK: remark: attention region lowered as 7 kernels: flash-attention=false
// FLASH-LABEL: func.func private @no_parts_kernel0(
// FLASH-SAME:    npuvec.kind = "attention"
// FLASH-NOT:   func.func private @no_parts_kernel1(
// CHECK-LABEL: func.func private @no_parts_kernel0(
// CHECK-SAME:    npuvec.kind = "matmul"
// CHECK-COUNT-5: npuvec.kind = "vector"
// CHECK:       func.func private @no_parts_kernel6(
// CHECK-SAME:    npuvec.kind = "matmul"
// CHECK-LABEL: func.func @no_parts(
// CHECK-COUNT-7: call @no_parts_kernel
// CHECK-NOT:   fused.region
// CHECK:       return
func.func @no_parts(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fused.region attention (%x = %q, %y = %k, %z = %v) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
    %s = hl.matmul %x, %y {transpose_b = true} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x4xf32>
    %m = hl.reduce_max %s {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %d = hl.sub %s, %m : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %e = hl.exp %d : tensor<4x4xf32>
    %r = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %p = hl.div %e, %r : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %o = hl.matmul %p, %z : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    fused.yield %o : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}
