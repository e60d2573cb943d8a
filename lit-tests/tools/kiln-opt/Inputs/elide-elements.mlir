func.func @consts() -> (tensor<4xi32>, tensor<2xf32>, tensor<8xf32>, tensor<1xi32>) {
  %0 = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = arith.constant dense<1.0> : tensor<8xf32>
  %3 = arith.constant dense<7> : tensor<1xi32>
  "test.sparse"() {s = sparse<[[0], [2]], [1, 5]> : tensor<4xi32>} : () -> ()
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<2xf32>, tensor<8xf32>, tensor<1xi32>
}
