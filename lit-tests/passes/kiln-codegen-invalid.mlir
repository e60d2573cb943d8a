// RUN: %kiln-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(kiln-codegen{target=tiny-npu})'
// Located errors of the kiln-codegen pipeline.

// A conv2d whose padding is wider than its kernel's reach has outputs that see only padding:
// the cube lowering has no tap to start their contraction with, and says which output.
func.func @conv(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3x4x6xf32> {
  // expected-error@+1 {{output column 0 of 'hl.conv2d' sees only padding (no cube lowering)}}
  %0 = hl.conv2d %x, %w {padding = [0, 1, 0, 1]} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32> -> tensor<1x3x4x6xf32>
  return %0 : tensor<1x3x4x6xf32>
}

// -----

// conv2d on i32 has no cube lowering (the cube multiplies floats): kiln-codegen-lower cannot
// legalize its kernel, and the conv pattern says why.
func.func @iconv(%x: tensor<1x2x4x4xi32>, %w: tensor<3x2x3x3xi32>) -> tensor<1x3x2x2xi32> {
  // expected-error@+3 {{failed to legalize operation 'func.func'}}
  // expected-note@+2 {{patterns tried}}
  // expected-note@+1 {{'ConvKernel' declined: element type i32 is not supported by the cube (f32, f16, bf16)}}
  %0 = hl.conv2d %x, %w : tensor<1x2x4x4xi32>, tensor<3x2x3x3xi32> -> tensor<1x3x2x2xi32>
  return %0 : tensor<1x3x2x2xi32>
}

// -----

// `?` dims compile to a row shape class only in vector kernels: a matmul over a `?` dim is
// refused at kiln-codegen-tile, naming the kernel and why.
func.func @dynamic_matmul(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {
  // expected-error@+1 {{kernel @dynamic_matmul_kernel0 is not a row shape class: it is a matmul kernel with `?` dims (only vector kernels have a class)}}
  %0 = hl.matmul %x, %w : tensor<?x64xf32>, tensor<64x64xf32> -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// A reduction over a `?` axis is not row-wise.
func.func @dynamic_reduce(%x: tensor<?x64xf32>) -> tensor<64xf32> {
  // expected-error@+1 {{kernel @dynamic_reduce_kernel0 is not a row shape class: it reduces axis 0, which is `?` (a row class reduces static trailing axes)}}
  %0 = hl.reduce_sum %x {axes = [0]} : tensor<?x64xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// The rows of a row class flatten: a value with rows must span every kept axis.
func.func @dynamic_partial(%x: tensor<?x4x16xf32>, %y: tensor<4x16xf32>) -> tensor<?x4x16xf32> {
  // expected-error@+1 {{kernel @dynamic_partial_kernel0 is not a row shape class: a value of type tensor<4x16xf32> spans only some of the kept axes (the rows of a row class flatten)}}
  %0 = hl.add %x, %y : tensor<?x4x16xf32>, tensor<4x16xf32> -> tensor<?x4x16xf32>
  return %0 : tensor<?x4x16xf32>
}
