// RUN: %kiln-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(kiln-codegen{target=tiny-npu})'
// Located errors of the kiln-codegen pipeline.

// conv2d has no cube lowering yet (examples/resnet_block.mlir stops here): the error points
// at the convolution.
func.func @conv(%x: tensor<1x16x8x8xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32> {
  // expected-error@+1 {{no cube lowering for 'hl.conv2d'}}
  %0 = hl.conv2d %x, %w {padding = [1, 1, 1, 1]} : tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32> -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}

// -----

// A dynamic shape stops the pipeline at kiln-codegen-tile, located at the op.
func.func @dynamic(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error@+1 {{kiln-codegen needs static shapes}}
  %0 = hl.exp %x : tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}
