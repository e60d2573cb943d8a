// Every `hl` op at least once, with static shapes, so that the interpreter can run each
// function on seeded inputs (`dialects/tests/hl_every_op.rs`). The results are pinned by a
// snapshot: a change of any bit of any op's reference semantics shows up there.

func.func @binary(%a: tensor<3x4xf16>, %b: tensor<4xf16>, %c: tensor<2x3xbf16>, %d: tensor<2x3xbf16>,
                  %e: tensor<5xf32>, %f: tensor<5xf32>, %i: tensor<6xi32>, %j: tensor<6xi32>,
                  %k: tensor<4xi8>, %l: tensor<1xi8>, %m: tensor<3xi64>, %n: tensor<3xi64>)
    -> (tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>,
        tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
        tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<4xi8>, tensor<4xi8>, tensor<3xi64>, tensor<3xi64>) {
  %0 = hl.add %a, %b : tensor<3x4xf16>, tensor<4xf16> -> tensor<3x4xf16>
  %1 = hl.sub %a, %b : tensor<3x4xf16>, tensor<4xf16> -> tensor<3x4xf16>
  %2 = hl.mul %a, %b : tensor<3x4xf16>, tensor<4xf16> -> tensor<3x4xf16>
  %3 = hl.div %a, %b : tensor<3x4xf16>, tensor<4xf16> -> tensor<3x4xf16>
  %4 = hl.pow %a, %b : tensor<3x4xf16>, tensor<4xf16> -> tensor<3x4xf16>
  %5 = hl.maximum %a, %b : tensor<3x4xf16>, tensor<4xf16> -> tensor<3x4xf16>
  %6 = hl.minimum %a, %b : tensor<3x4xf16>, tensor<4xf16> -> tensor<3x4xf16>
  %7 = hl.div %c, %d : tensor<2x3xbf16>
  %8 = hl.pow %c, %d : tensor<2x3xbf16>
  %9 = hl.div %e, %f : tensor<5xf32>
  %10 = hl.pow %e, %f : tensor<5xf32>
  %11 = hl.sub %e, %f : tensor<5xf32>
  %12 = hl.div %i, %j : tensor<6xi32>
  %13 = hl.mul %i, %j : tensor<6xi32>
  %14 = hl.pow %i, %j : tensor<6xi32>
  %15 = hl.add %k, %l : tensor<4xi8>, tensor<1xi8> -> tensor<4xi8>
  %16 = hl.maximum %k, %l : tensor<4xi8>, tensor<1xi8> -> tensor<4xi8>
  %17 = hl.sub %m, %n : tensor<3xi64>
  %18 = hl.minimum %m, %n : tensor<3xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18
    : tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>,
      tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
      tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<4xi8>, tensor<4xi8>, tensor<3xi64>, tensor<3xi64>
}

func.func @logic(%p: tensor<8xi1>, %q: tensor<8xi1>) -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) {
  %0 = hl.and %p, %q : tensor<8xi1>
  %1 = hl.or %p, %q : tensor<8xi1>
  %2 = hl.not %p : tensor<8xi1>
  return %0, %1, %2 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>
}

func.func @unary_f16(%x: tensor<2x5xf16>)
    -> (tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>,
        tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>,
        tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>) {
  %0 = hl.neg %x : tensor<2x5xf16>
  %1 = hl.abs %x : tensor<2x5xf16>
  %2 = hl.exp %x : tensor<2x5xf16>
  %3 = hl.log %x : tensor<2x5xf16>
  %4 = hl.sqrt %x : tensor<2x5xf16>
  %5 = hl.rsqrt %x : tensor<2x5xf16>
  %6 = hl.reciprocal %x : tensor<2x5xf16>
  %7 = hl.tanh %x : tensor<2x5xf16>
  %8 = hl.sigmoid %x : tensor<2x5xf16>
  %9 = hl.relu %x : tensor<2x5xf16>
  %10 = hl.silu %x : tensor<2x5xf16>
  %11 = hl.erf %x : tensor<2x5xf16>
  %12 = hl.floor %x : tensor<2x5xf16>
  %13 = hl.ceil %x : tensor<2x5xf16>
  %14 = hl.round %x : tensor<2x5xf16>
  %15 = hl.sign %x : tensor<2x5xf16>
  %16 = hl.gelu %x : tensor<2x5xf16>
  %17 = hl.gelu %x {approximate = #hl.approx<tanh>} : tensor<2x5xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17
    : tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>,
      tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>,
      tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>
}

func.func @unary_other(%x: tensor<7xf32>, %y: tensor<3xbf16>, %i: tensor<4xi32>)
    -> (tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<3xbf16>, tensor<3xbf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = hl.exp %x : tensor<7xf32>
  %1 = hl.tanh %x : tensor<7xf32>
  %2 = hl.gelu %x {approximate = #hl.approx<tanh>} : tensor<7xf32>
  %3 = hl.rsqrt %y : tensor<3xbf16>
  %4 = hl.erf %y : tensor<3xbf16>
  %5 = hl.neg %i : tensor<4xi32>
  %6 = hl.abs %i : tensor<4xi32>
  %7 = hl.relu %i : tensor<4xi32>
  %8 = hl.sign %i : tensor<4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8
    : tensor<7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<3xbf16>, tensor<3xbf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

func.func @cast_cmp_select_clamp(%x: tensor<6xf32>, %y: tensor<6xf32>, %h: tensor<6xf16>, %i: tensor<6xi32>, %p: tensor<6xi1>)
    -> (tensor<6xf16>, tensor<6xi8>, tensor<6xi1>, tensor<6xf32>, tensor<6xbf16>,
        tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>,
        tensor<6xf32>, tensor<6xf32>, tensor<6xf16>, tensor<6xi32>) {
  %0 = hl.cast %x : tensor<6xf32> -> tensor<6xf16>
  %1 = hl.cast %x : tensor<6xf32> -> tensor<6xi8>
  %2 = hl.cast %i : tensor<6xi32> -> tensor<6xi1>
  %3 = hl.cast %p : tensor<6xi1> -> tensor<6xf32>
  %4 = hl.cast %h : tensor<6xf16> -> tensor<6xbf16>
  %5 = hl.cmp %x, %y {predicate = #hl.cmp<eq>} : tensor<6xf32>, tensor<6xf32> -> tensor<6xi1>
  %6 = hl.cmp %x, %y {predicate = #hl.cmp<ne>} : tensor<6xf32>, tensor<6xf32> -> tensor<6xi1>
  %7 = hl.cmp %x, %y {predicate = #hl.cmp<lt>} : tensor<6xf32>, tensor<6xf32> -> tensor<6xi1>
  %8 = hl.cmp %x, %y {predicate = #hl.cmp<le>} : tensor<6xf32>, tensor<6xf32> -> tensor<6xi1>
  %9 = hl.cmp %x, %y {predicate = #hl.cmp<gt>} : tensor<6xf32>, tensor<6xf32> -> tensor<6xi1>
  %10 = hl.cmp %x, %y {predicate = #hl.cmp<ge>} : tensor<6xf32>, tensor<6xf32> -> tensor<6xi1>
  %11 = hl.cmp %i, %i {predicate = #hl.cmp<le>} : tensor<6xi32>, tensor<6xi32> -> tensor<6xi1>
  %12 = hl.select %7, %x, %y : tensor<6xi1>, tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
  %13 = hl.clamp %x {max = 1.0 : f32, min = -0.5 : f32} : tensor<6xf32>
  %14 = hl.clamp %h {min = 0.25 : f32} : tensor<6xf16>
  %15 = hl.clamp %i {max = 10.0 : f32} : tensor<6xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15
    : tensor<6xf16>, tensor<6xi8>, tensor<6xi1>, tensor<6xf32>, tensor<6xbf16>,
      tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>,
      tensor<6xf32>, tensor<6xf32>, tensor<6xf16>, tensor<6xi32>
}

func.func @constants_broadcast(%x: tensor<1x3xf32>)
    -> (tensor<4x3xf32>, tensor<3xi32>, tensor<2xi1>, tensor<2x2xi8>, tensor<i64>, tensor<2xf16>, tensor<1xbf16>) {
  %0 = hl.broadcast_to %x : tensor<1x3xf32> -> tensor<4x3xf32>
  %1 = hl.constant dense<[1, 2, 3]> : tensor<3xi32>
  %2 = hl.constant dense<[true, false]> : tensor<2xi1>
  %3 = hl.constant dense<-5> : tensor<2x2xi8>
  %4 = hl.constant dense<7> : tensor<i64>
  %5 = hl.constant dense<0.5> : tensor<2xf16>
  %6 = hl.constant dense<-2.5> : tensor<1xbf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4x3xf32>, tensor<3xi32>, tensor<2xi1>, tensor<2x2xi8>, tensor<i64>, tensor<2xf16>, tensor<1xbf16>
}

func.func @reduce(%x: tensor<3x4x5xf32>, %h: tensor<3x7xf16>, %i: tensor<4x3xi32>)
    -> (tensor<3x5xf32>, tensor<3x1x1xf32>, tensor<4xf32>, tensor<3x4xf32>, tensor<3x5xf32>, tensor<3xf16>, tensor<3xf16>,
        tensor<3xi32>, tensor<3xi64>, tensor<3x1x5xi64>, tensor<4xi64>, tensor<3xi64>) {
  %0 = hl.reduce_sum %x {axes = [1]} : tensor<3x4x5xf32> -> tensor<3x5xf32>
  %1 = hl.reduce_max %x {axes = [1, 2], keep_dims = true} : tensor<3x4x5xf32> -> tensor<3x1x1xf32>
  %2 = hl.reduce_min %x {axes = [0, -1]} : tensor<3x4x5xf32> -> tensor<4xf32>
  %3 = hl.reduce_prod %x {axes = [2]} : tensor<3x4x5xf32> -> tensor<3x4xf32>
  %4 = hl.reduce_mean %x {axes = [1]} : tensor<3x4x5xf32> -> tensor<3x5xf32>
  %5 = hl.reduce_sum %h {axes = [1]} : tensor<3x7xf16> -> tensor<3xf16>
  %6 = hl.reduce_mean %h {axes = [1]} : tensor<3x7xf16> -> tensor<3xf16>
  %7 = hl.reduce_sum %i {axes = [0]} : tensor<4x3xi32> -> tensor<3xi32>
  %8 = hl.argmax %h {axis = 1 : i64} : tensor<3x7xf16> -> tensor<3xi64>
  %9 = hl.argmin %x {axis = 1 : i64, keep_dims = true} : tensor<3x4x5xf32> -> tensor<3x1x5xi64>
  %10 = hl.argmax %i {axis = 1 : i64} : tensor<4x3xi32> -> tensor<4xi64>
  %11 = hl.argmin %i {axis = 0 : i64} : tensor<4x3xi32> -> tensor<3xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11
    : tensor<3x5xf32>, tensor<3x1x1xf32>, tensor<4xf32>, tensor<3x4xf32>, tensor<3x5xf32>, tensor<3xf16>, tensor<3xf16>,
      tensor<3xi32>, tensor<3xi64>, tensor<3x1x5xi64>, tensor<4xi64>, tensor<3xi64>
}

func.func @cube(%a: tensor<4x6xf16>, %b: tensor<6x5xf16>, %bt: tensor<5x6xf16>, %c: tensor<2x3x4xf32>, %d: tensor<1x4x2xf32>,
                %x: tensor<1x4x6x6xf32>, %w: tensor<2x4x3x3xf32>, %g: tensor<4x2x3x3xf32>, %ia: tensor<3x2xi32>, %ib: tensor<2x3xi32>)
    -> (tensor<4x5xf16>, tensor<4x5xf16>, tensor<2x3x2xf32>, tensor<1x2x6x6xf32>, tensor<1x4x2x3xf32>, tensor<3x3xi32>) {
  %0 = hl.matmul %a, %b : tensor<4x6xf16>, tensor<6x5xf16> -> tensor<4x5xf16>
  %1 = hl.matmul %a, %bt {transpose_b = true} : tensor<4x6xf16>, tensor<5x6xf16> -> tensor<4x5xf16>
  %2 = hl.batch_matmul %c, %d : tensor<2x3x4xf32>, tensor<1x4x2xf32> -> tensor<2x3x2xf32>
  %3 = hl.conv2d %x, %w {padding = [1, 1, 1, 1]} : tensor<1x4x6x6xf32>, tensor<2x4x3x3xf32> -> tensor<1x2x6x6xf32>
  %4 = hl.conv2d %x, %g {dilation = [2, 1], groups = 2 : i64, padding = [0, 1, 2, 0], strides = [2, 2]} : tensor<1x4x6x6xf32>, tensor<4x2x3x3xf32> -> tensor<1x4x2x3xf32>
  %5 = hl.matmul %ia, %ib : tensor<3x2xi32>, tensor<2x3xi32> -> tensor<3x3xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x5xf16>, tensor<4x5xf16>, tensor<2x3x2xf32>, tensor<1x2x6x6xf32>, tensor<1x4x2x3xf32>, tensor<3x3xi32>
}

func.func @layout(%x: tensor<4x6xf32>, %y: tensor<4x2xf32>, %b: tensor<2x3xi1>)
    -> (tensor<24xf32>, tensor<6x4xf32>, tensor<4x3xf32>, tensor<2x2xf32>, tensor<1x4x6xf32>, tensor<4x1x6xf32>, tensor<4x6xf32>,
        tensor<4x8xf32>, tensor<4x2xi1>) {
  %0 = hl.reshape %x : tensor<4x6xf32> -> tensor<24xf32>
  %1 = hl.transpose %x {perm = [1, 0]} : tensor<4x6xf32> -> tensor<6x4xf32>
  %2 = hl.slice %x {limits = [4, 3], starts = [0, 0]} : tensor<4x6xf32> -> tensor<4x3xf32>
  %3 = hl.slice %x {limits = [4, 6], starts = [1, 1], strides = [2, 3]} : tensor<4x6xf32> -> tensor<2x2xf32>
  %4 = hl.expand_dims %x {axis = 0 : i64} : tensor<4x6xf32> -> tensor<1x4x6xf32>
  %5 = hl.expand_dims %x {axis = -2 : i64} : tensor<4x6xf32> -> tensor<4x1x6xf32>
  %6 = hl.squeeze %5 {axes = [1]} : tensor<4x1x6xf32> -> tensor<4x6xf32>
  %7 = hl.concat %x, %y {axis = 1 : i64} : tensor<4x6xf32>, tensor<4x2xf32> -> tensor<4x8xf32>
  %8 = hl.concat %b, %b {axis = -2 : i64} : tensor<2x3xi1>, tensor<2x3xi1> -> tensor<4x3xi1>
  %9 = hl.slice %8 {limits = [4, 3], starts = [0, 1]} : tensor<4x3xi1> -> tensor<4x2xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %9
    : tensor<24xf32>, tensor<6x4xf32>, tensor<4x3xf32>, tensor<2x2xf32>, tensor<1x4x6xf32>, tensor<4x1x6xf32>, tensor<4x6xf32>,
      tensor<4x8xf32>, tensor<4x2xi1>
}

func.func @composite(%x: tensor<3x8xf32>, %h: tensor<2x6xf16>, %g: tensor<8xf32>, %bt: tensor<8xf32>,
                     %i: tensor<1x2x3x3xbf16>, %s: tensor<2x1x1xbf16>, %t: tensor<2x1x1xbf16>)
    -> (tensor<3x8xf32>, tensor<2x6xf16>, tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>, tensor<1x2x3x3xbf16>,
        tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x4xf32>, tensor<2x3xf16>) {
  %0 = hl.softmax %x {axis = -1 : i64} : tensor<3x8xf32>
  %1 = hl.softmax %h {axis = 0 : i64} : tensor<2x6xf16>
  %2 = hl.log_softmax %x : tensor<3x8xf32>
  %3 = hl.layer_norm %x, %g, %bt {epsilon = 1.0e-3 : f32} : tensor<3x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<3x8xf32>
  %4 = hl.rms_norm %x, %g : tensor<3x8xf32>, tensor<8xf32> -> tensor<3x8xf32>
  %5 = hl.batch_norm %i, %s, %t, %s, %t {epsilon = 1.0e-3 : f32} : tensor<1x2x3x3xbf16>, tensor<2x1x1xbf16>, tensor<2x1x1xbf16>, tensor<2x1x1xbf16>, tensor<2x1x1xbf16> -> tensor<1x2x3x3xbf16>
  %6 = hl.bias_add %x, %g : tensor<3x8xf32>, tensor<8xf32> -> tensor<3x8xf32>
  %7 = hl.dropout %x {rate = 0.1 : f32} : tensor<3x8xf32>
  %8 = hl.swiglu %x : tensor<3x8xf32> -> tensor<3x4xf32>
  %9 = hl.swiglu %h {axis = 1 : i64} : tensor<2x6xf16> -> tensor<2x3xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
    : tensor<3x8xf32>, tensor<2x6xf16>, tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>, tensor<1x2x3x3xbf16>,
      tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x4xf32>, tensor<2x3xf16>
}

// The ops model importers need: gather (constant indices, one negative), split, pad, iota,
// trilu, the pools, batch_matmul against a rank-2 operand and conv2d with a bias.
func.func @model_ops(%d: tensor<5x3xf32>, %x: tensor<2x6xf16>, %im: tensor<1x2x5x5xf32>, %iq: tensor<1x1x4x4xi32>,
                     %a: tensor<2x3x4xbf16>, %b: tensor<4x2xbf16>, %w: tensor<3x2x3x3xf32>, %bias: tensor<3xf32>)
    -> (tensor<2x2x3xf32>, tensor<2x1xf16>, tensor<2x5xf16>, tensor<4x9xf16>, tensor<3x4xf32>, tensor<2x6xf16>, tensor<2x6xf16>,
        tensor<1x2x3x3xf32>, tensor<1x1x3x3xi32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>,
        tensor<2x3x2xbf16>, tensor<1x3x2x2xf32>) {
  %idx = hl.constant dense<[[4, 0], [-1, 2]]> : tensor<2x2xi64>
  %0 = hl.gather %d, %idx : tensor<5x3xf32>, tensor<2x2xi64> -> tensor<2x2x3xf32>
  %1, %2 = hl.split %x {axis = -1 : i64, sizes = [1, 5]} : tensor<2x6xf16> -> tensor<2x1xf16>, tensor<2x5xf16>
  %3 = hl.pad %x {high = [1, 2], low = [1, 1], value = -2.500000e+00 : f16} : tensor<2x6xf16> -> tensor<4x9xf16>
  %4 = hl.iota {dimension = 0 : i64} : tensor<3x4xf32>
  %5 = hl.trilu %x : tensor<2x6xf16>
  %6 = hl.trilu %x {k = 2 : i64, upper = true} : tensor<2x6xf16>
  %7 = hl.max_pool2d %im {kernel = [3, 3], padding = [1, 1, 1, 1], strides = [2, 2]} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  %8 = hl.max_pool2d %iq {ceil_mode = true, kernel = [2, 2], strides = [2, 2], padding = [1, 1, 0, 0]} : tensor<1x1x4x4xi32> -> tensor<1x1x3x3xi32>
  %9 = hl.avg_pool2d %im {kernel = [3, 3], padding = [1, 1, 1, 1], strides = [2, 2]} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  %10 = hl.avg_pool2d %im {count_include_pad = true, kernel = [3, 3], padding = [1, 1, 1, 1], strides = [2, 2]} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  %11 = hl.global_avg_pool2d %im : tensor<1x2x5x5xf32> -> tensor<1x2x1x1xf32>
  %12 = hl.batch_matmul %a, %b : tensor<2x3x4xbf16>, tensor<4x2xbf16> -> tensor<2x3x2xbf16>
  %13 = hl.conv2d %im, %w, %bias {strides = [2, 2]} : tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32> -> tensor<1x3x2x2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : tensor<2x2x3xf32>, tensor<2x1xf16>, tensor<2x5xf16>, tensor<4x9xf16>, tensor<3x4xf32>, tensor<2x6xf16>, tensor<2x6xf16>,
        tensor<1x2x3x3xf32>, tensor<1x1x3x3xi32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>,
        tensor<2x3x2xbf16>, tensor<1x3x2x2xf32>
}

func.func @trig(%x: tensor<2x5xf32>, %h: tensor<6xf16>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<6xf16>, tensor<6xf16>, tensor<6xf16>, tensor<6xf16>, tensor<6xf16>) {
  %0 = hl.sin %x : tensor<2x5xf32>
  %1 = hl.cos %x : tensor<2x5xf32>
  %2 = hl.tan %x : tensor<2x5xf32>
  %3 = hl.asin %x : tensor<2x5xf32>
  %4 = hl.acos %x : tensor<2x5xf32>
  %5 = hl.atan %x : tensor<2x5xf32>
  %6 = hl.sinh %h : tensor<6xf16>
  %7 = hl.cosh %h : tensor<6xf16>
  %8 = hl.asinh %h : tensor<6xf16>
  %9 = hl.acosh %h : tensor<6xf16>
  %10 = hl.atanh %h : tensor<6xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<6xf16>, tensor<6xf16>, tensor<6xf16>, tensor<6xf16>, tensor<6xf16>
}

func.func @bits(%a: tensor<8xi32>, %b: tensor<8xi32>, %c: tensor<4xi8>, %x: tensor<2x3xf32>, %y: tensor<3xf32>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<4xi8>, tensor<4xi8>, tensor<8xi32>, tensor<2x3xf32>) {
  %k = hl.constant dense<[0, 1, 3, 7]> : tensor<4xi8>
  %0 = hl.bitwise_and %a, %b : tensor<8xi32>
  %1 = hl.bitwise_or %a, %b : tensor<8xi32>
  %2 = hl.bitwise_xor %a, %b : tensor<8xi32>
  %3 = hl.bitwise_not %a : tensor<8xi32>
  %4 = hl.shift_left %c, %k : tensor<4xi8>
  %5 = hl.shift_right %c, %k : tensor<4xi8>
  %6 = hl.rem %a, %b : tensor<8xi32>
  %7 = hl.rem %x, %y : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<4xi8>, tensor<4xi8>, tensor<8xi32>, tensor<2x3xf32>
}

func.func @indexing(%d: tensor<3x4xf32>, %u: tensor<3x2xf32>, %n: tensor<4x5x6xf16>, %s: tensor<2x4xi32>) -> (tensor<3x2xf32>, tensor<3x6xf16>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<4x4xi32>) {
  %i = hl.constant dense<[[3, 0], [-1, 1], [2, 2]]> : tensor<3x2xi64>
  %t = hl.constant dense<[[0, 4], [3, -1], [1, 2]]> : tensor<3x2xi32>
  %r = hl.constant dense<[[2], [0]]> : tensor<2x1xi64>
  %z = hl.constant dense<1> : tensor<4x4xi32>
  %0 = hl.gather_elements %d, %i {axis = 1 : i64} : tensor<3x4xf32>, tensor<3x2xi64> -> tensor<3x2xf32>
  %1 = hl.gather_nd %n, %t : tensor<4x5x6xf16>, tensor<3x2xi32> -> tensor<3x6xf16>
  %2 = hl.scatter_elements %d, %i, %u {axis = 1 : i64} : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32> -> tensor<3x4xf32>
  %3 = hl.scatter_elements %d, %i, %u {axis = 1 : i64, reduction = "mul"} : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32> -> tensor<3x4xf32>
  %4 = hl.scatter_nd %z, %r, %s {reduction = "add"} : tensor<4x4xi32>, tensor<2x1xi64>, tensor<2x4xi32> -> tensor<4x4xi32>
  return %0, %1, %2, %3, %4 : tensor<3x2xf32>, tensor<3x6xf16>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<4x4xi32>
}

func.func @scans(%x: tensor<3x5xf32>, %i: tensor<4xi32>) -> (tensor<3x5xf32>, tensor<4xi32>, tensor<3x5xf32>, tensor<3x2xf32>, tensor<3x2xi64>, tensor<2xi32>, tensor<2xi64>) {
  %0 = hl.cumsum %x {axis = 1 : i64, exclusive = true} : tensor<3x5xf32>
  %1 = hl.cumsum %i {axis = 0 : i64, reverse = true} : tensor<4xi32>
  %2 = hl.cumprod %x {axis = 0 : i64} : tensor<3x5xf32>
  %3, %4 = hl.topk %x {k = 2 : i64} : tensor<3x5xf32> -> tensor<3x2xf32>, tensor<3x2xi64>
  %5, %6 = hl.topk %i {k = 2 : i64, axis = 0 : i64, largest = false} : tensor<4xi32> -> tensor<2xi32>, tensor<2xi64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3x5xf32>, tensor<4xi32>, tensor<3x5xf32>, tensor<3x2xf32>, tensor<3x2xi64>, tensor<2xi32>, tensor<2xi64>
}
