func.func @tensors(%t: tensor<4x?xf32>, %d: index, %s: tensor<f32>, %u: tensor<*xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dim = tensor.dim %t, %c1 : tensor<4x?xf32>
  %e = tensor.empty(%dim) : tensor<?x4xf32>
  %x = tensor.extract %t[%c0, %c1] : tensor<4x?xf32>
  %i = tensor.insert %x into %e[%c1, %c0] : tensor<?x4xf32>
  %sl = tensor.extract_slice %t[0, 1] [2, %d] [1, 1] : tensor<4x?xf32> to tensor<2x?xf32>
  %cast = tensor.cast %t : tensor<4x?xf32> to tensor<*xf32>
  %fe = tensor.from_elements %x, %x : tensor<2xf32>
  %gen = tensor.generate %d {
  ^bb0(%a: index, %b: index):
    %v = arith.constant 1.0 : f32
    tensor.yield %v : f32
  } : tensor<?x3xf32>
  %col = tensor.collapse_shape %sl [[0, 1]] : tensor<2x?xf32> into tensor<?xf32>
  %exp = tensor.expand_shape %fe [[0, 1]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
  %pad = tensor.pad %fe low[1] high[%d] {
  ^bb0(%p: index):
    tensor.yield %x : f32
  } : tensor<2xf32> to tensor<?xf32>
  %ins = tensor.insert_slice %sl into %t[0, 0] [2, %d] [1, 1] : tensor<2x?xf32> into tensor<4x?xf32>
  %rank = tensor.rank %u : tensor<*xf32>
  %spl = tensor.splat %x : tensor<3x3xf32>
  return %i : tensor<?x4xf32>
}
