// A Transformer-style block and a small CNN in TOSA (MLIR 22, TOSA v1.0), in the custom form
// torch-mlir prints: attention scores with a softmax, a GELU MLP, an embedding gather, a
// conv -> clamp -> pools -> pad stem.
module {
  func.func @block(%x: tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x3x8xf32>) {
    %w = "tosa.const"() <{values = dense<[[[0.5, -0.25, 0.125, 0.0, 1.0, -1.0, 0.75, 0.25], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], [-0.5, 0.5, -0.5, 0.5, -0.5, 0.5, -0.5, 0.5], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25], [0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0], [0.3, -0.3, 0.3, -0.3, 0.3, -0.3, 0.3, -0.3], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]]]> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
    %b = "tosa.const"() <{values = dense<0.125> : tensor<1x1x8xf32>}> : () -> tensor<1x1x8xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %0 = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
    %1 = tosa.add %0, %b : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
    %2 = tosa.transpose %1 {perms = array<i32: 0, 2, 1>} : (tensor<1x4x8xf32>) -> tensor<1x8x4xf32>
    %3 = tosa.matmul %1, %2, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    %4 = tosa.reduce_max %3 {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
    %5 = tosa.sub %3, %4 : (tensor<1x4x4xf32>, tensor<1x4x1xf32>) -> tensor<1x4x4xf32>
    %6 = tosa.exp %5 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
    %7 = tosa.reduce_sum %6 {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
    %8 = tosa.reciprocal %7 : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
    %9 = tosa.mul %6, %8, %shift : (tensor<1x4x4xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
    %10 = tosa.matmul %9, %1, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
    %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %isq2 = "tosa.const"() <{values = dense<0.707106769> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %11 = tosa.mul %10, %isq2, %shift : (tensor<1x4x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %12 = tosa.erf %11 : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %13 = tosa.add %12, %one : (tensor<1x4x8xf32>, tensor<1x1x1xf32>) -> tensor<1x4x8xf32>
    %14 = tosa.mul %10, %half, %shift : (tensor<1x4x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %15 = tosa.mul %14, %13, %shift : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %16 = tosa.sigmoid %15 : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %17 = tosa.tanh %16 : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %18 = tosa.mul %17, %17, %shift : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %19 = tosa.reduce_sum %18 {axis = 2 : i32} : (tensor<1x4x8xf32>) -> tensor<1x4x1xf32>
    %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %20 = tosa.add %19, %eps : (tensor<1x4x1xf32>, tensor<1x1x1xf32>) -> tensor<1x4x1xf32>
    %21 = tosa.rsqrt %20 : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
    %22 = tosa.mul %17, %21, %shift : (tensor<1x4x8xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
    %s0 = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %s1 = tosa.const_shape {values = dense<[1, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %s2 = tosa.const_shape {values = dense<[0, 2, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %23 = tosa.slice %22, %s0, %s1 : (tensor<1x4x8xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x8xf32>
    %24 = tosa.slice %22, %s2, %s1 : (tensor<1x4x8xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x8xf32>
    %25 = tosa.concat %24, %23 {axis = 1 : i32} : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x4x8xf32>
    %26 = tosa.greater %25, %x : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xi1>
    %27 = tosa.select %26, %25, %x : (tensor<1x4x8xi1>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %28 = tosa.clamp %27 {min_val = -1.0 : f32, max_val = 1.0 : f32} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %29 = tosa.cast %28 : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
    %30 = tosa.cast %29 : (tensor<1x4x8xf16>) -> tensor<1x4x8xf32>
    %table = "tosa.const"() <{values = dense<[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0], [20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0], [30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0], [40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0]]]> : tensor<1x5x8xf32>}> : () -> tensor<1x5x8xf32>
    %ids = "tosa.const"() <{values = dense<[[4, 0, 2]]> : tensor<1x3xi32>}> : () -> tensor<1x3xi32>
    %31 = tosa.gather %table, %ids : (tensor<1x5x8xf32>, tensor<1x3xi32>) -> tensor<1x3x8xf32>
    %flat = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %back = tosa.const_shape {values = dense<[1, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %32 = tosa.reshape %30, %flat : (tensor<1x4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
    %33 = tosa.reshape %32, %back : (tensor<4x8xf32>, !tosa.shape<3>) -> tensor<1x4x8xf32>
    return %33, %31 : tensor<1x4x8xf32>, tensor<1x3x8xf32>
  }

  func.func @cnn(%img: tensor<1x8x8x3xf32>) -> tensor<1x3x3x4xf32> {
    %w = "tosa.const"() <{values = dense<0.125> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
    %bias = "tosa.const"() <{values = dense<[0.5, -0.5, 0.25, 0.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %0 = tosa.conv2d %img, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
    %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %2 = tosa.max_pool2d %1 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
    %3 = tosa.avg_pool2d %2, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x4xf32>
    %p = tosa.const_shape {values = dense<[0, 0, 0, 1, 1, 0, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
    %pv = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %4 = tosa.pad %3, %p, %pv : (tensor<1x2x2x4xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
    return %4 : tensor<1x3x3x4xf32>
  }
}
