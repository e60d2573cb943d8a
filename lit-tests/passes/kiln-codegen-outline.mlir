// RUN: %kiln-opt %s --split-input-file -p kiln-codegen-outline | FileCheck %s
// kiln-codegen-outline: each kernel-sized piece of work becomes a private kernel function
// @<host>_kernel<N> with its core (aiv / aic) and kind, called from the host.

// A fused vector region becomes one vector kernel on the vector core.
// CHECK-LABEL: func.func private @fused_vector_kernel0(
// CHECK-SAME:      %[[X:.*]]: tensor<8x64xf32>, %[[B:.*]]: tensor<64xf32>) -> tensor<8x64xf32> attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
// CHECK-NEXT:    %[[ADD:.*]] = hl.add %[[X]], %[[B]]
// CHECK-NEXT:    %[[EXP:.*]] = hl.exp %[[ADD]]
// CHECK-NEXT:    return %[[EXP]]
// CHECK-LABEL: func.func @fused_vector(
// CHECK-SAME:      %[[A0:.*]]: tensor<8x64xf32>, %[[A1:.*]]: tensor<64xf32>)
// CHECK-NEXT:    %[[R:.*]] = call @fused_vector_kernel0(%[[A0]], %[[A1]]) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     fused.
func.func @fused_vector(%x: tensor<8x64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %r = fused.region vector (%a = %x, %c = %b) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32> {
    %0 = hl.add %a, %c : tensor<8x64xf32>, tensor<64xf32> -> tensor<8x64xf32>
    %1 = hl.exp %0 : tensor<8x64xf32>
    fused.yield %1 : tensor<8x64xf32>
  }
  return %r : tensor<8x64xf32>
}

// -----

// A matmul outside regions is a matmul kernel on the cube core.
// CHECK-LABEL: func.func private @lone_matmul_kernel0(
// CHECK-SAME:      attributes {npuvec.core = #npuvec.core<aic>, npuvec.kind = "matmul"} {
// CHECK-NEXT:    hl.matmul
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @lone_matmul(
// CHECK-NEXT:    call @lone_matmul_kernel0(
func.func @lone_matmul(%a: tensor<16x32xf32>, %b: tensor<32x48xf32>) -> tensor<16x48xf32> {
  %0 = hl.matmul %a, %b : tensor<16x32xf32>, tensor<32x48xf32> -> tensor<16x48xf32>
  return %0 : tensor<16x48xf32>
}

// -----

// A transpose is a layout kernel (on the vector core).
// CHECK-LABEL: func.func private @lone_transpose_kernel0(
// CHECK-SAME:      attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "layout"} {
// CHECK-NEXT:    hl.transpose %{{.*}} {perm = [1, 0]}
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @lone_transpose(
// CHECK-NEXT:    call @lone_transpose_kernel0(
func.func @lone_transpose(%a: tensor<16x32xf32>) -> tensor<32x16xf32> {
  %0 = hl.transpose %a {perm = [1, 0]} : tensor<16x32xf32> -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}

// -----

// Constants and views stay in the host; the kernel takes the reshaped value.
// CHECK-LABEL: func.func private @host_views_kernel0(
// CHECK-SAME:      %[[V:.*]]: tensor<64xf32>) -> tensor<64xf32>
// CHECK-NEXT:    hl.exp %[[V]]
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @host_views(
// CHECK-SAME:      %[[A:.*]]: tensor<4x16xf32>)
// CHECK-NEXT:    hl.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = hl.reshape %[[A]] : tensor<4x16xf32> -> tensor<64xf32>
// CHECK-NEXT:    call @host_views_kernel0(%[[R]])
func.func @host_views(%a: tensor<4x16xf32>) -> tensor<64xf32> {
  %c = hl.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = hl.reshape %a : tensor<4x16xf32> -> tensor<64xf32>
  %e = hl.exp %r : tensor<64xf32>
  return %e : tensor<64xf32>
}

// -----

// A splat constant input is copied into the kernel: no argument for it.
// CHECK-LABEL: func.func private @splat_input_kernel0(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<8x64xf32>) -> tensor<8x64xf32>
// CHECK-NEXT:    %[[C:.*]] = hl.constant dense<2.000000e+00> : tensor<8x64xf32>
// CHECK-NEXT:    hl.mul %[[A]], %[[C]]
// CHECK-LABEL: func.func @splat_input(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<8x64xf32>)
// CHECK:         call @splat_input_kernel0(%[[X]]) : (tensor<8x64xf32>) -> tensor<8x64xf32>
func.func @splat_input(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %c = hl.constant dense<2.0> : tensor<8x64xf32>
  %0 = hl.mul %a, %c : tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// A mix region (matmul + bias + gelu, as hl-decompose and kiln-fuse leave it) is one mix
// kernel: the matmul on the cube, its elementwise epilogue on the vector unit of the same
// kernel (the tile never goes back to GM in between), the splat constants copied in.
// CHECK-LABEL: func.func private @mix_kernel0(
// CHECK-SAME:      %[[X0:[^:]*]]: tensor<16x32xf32>, %[[W0:[^:]*]]: tensor<32x64xf32>, %[[B:[^:]*]]: tensor<64xf32>) -> tensor<16x64xf32> attributes {npuvec.core = #npuvec.core<mix>, npuvec.kind = "mix"} {
// CHECK-NEXT:    hl.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    hl.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[MM:.*]] = hl.matmul %[[X0]], %[[W0]]
// CHECK-NEXT:    hl.add %[[MM]], %[[B]]
// CHECK-NEXT:    hl.erf
// CHECK-NEXT:    hl.add
// CHECK-NEXT:    hl.mul
// CHECK-NEXT:    hl.mul
// CHECK-NEXT:    return
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @mix(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<16x32xf32>, %[[W:[^:]*]]: tensor<32x64xf32>, %[[BIAS:[^:]*]]: tensor<64xf32>)
// CHECK:         %[[E:.*]] = call @mix_kernel0(%[[X]], %[[W]], %[[BIAS]])
// CHECK-NEXT:    return %[[E]]
func.func @mix(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %half = hl.constant dense<5.000000e-01> : tensor<f32>
  %one = hl.constant dense<1.000000e+00> : tensor<f32>
  %r = fused.region mix (%a = %x, %c = %w, %d = %b, %o = %one, %h = %half) : (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64xf32>, tensor<f32>, tensor<f32>) -> tensor<16x64xf32> {
    %0 = hl.matmul %a, %c : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
    %1 = hl.add %0, %d : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
    %2 = hl.erf %1 : tensor<16x64xf32>
    %3 = hl.add %o, %2 : tensor<f32>, tensor<16x64xf32> -> tensor<16x64xf32>
    %4 = hl.mul %h, %1 : tensor<f32>, tensor<16x64xf32> -> tensor<16x64xf32>
    %5 = hl.mul %4, %3 : tensor<16x64xf32>
    fused.yield %5 : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// A mix region whose epilogue is not elementwise on the matmul's tiles (a row reduction) is
// unwrapped: a matmul kernel, then one vector kernel for the rest.
// CHECK-LABEL: func.func private @mix_reduce_kernel0(
// CHECK-SAME:      attributes {npuvec.core = #npuvec.core<aic>, npuvec.kind = "matmul"} {
// CHECK-NEXT:    hl.matmul
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @mix_reduce_kernel1(
// CHECK-SAME:      attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
// CHECK-NEXT:    hl.relu
// CHECK-NEXT:    hl.reduce_sum
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @mix_reduce(
// CHECK:         %[[C:.*]] = call @mix_reduce_kernel0(
// CHECK-NEXT:    %[[E:.*]] = call @mix_reduce_kernel1(%[[C]])
// CHECK-NEXT:    return %[[E]]
func.func @mix_reduce(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>) -> tensor<16x1xf32> {
  %r = fused.region mix (%a = %x, %c = %w) : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x1xf32> {
    %0 = hl.matmul %a, %c : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
    %1 = hl.relu %0 : tensor<16x64xf32>
    %2 = hl.reduce_sum %1 {axes = [1], keep_dims = true} : tensor<16x64xf32> -> tensor<16x1xf32>
    fused.yield %2 : tensor<16x1xf32>
  }
  return %r : tensor<16x1xf32>
}
