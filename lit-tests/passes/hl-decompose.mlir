// RUN: %kiln-opt %s --hl-decompose | FileCheck %s
// RUN: %kiln-opt %s -p 'builtin.module(func.func(hl-decompose))' | FileCheck %s
// RUN: %kiln-opt %s --hl-decompose=ops=softmax,dropout | FileCheck %s --check-prefix=ONLY
// RUN: %kiln-opt %s -p 'builtin.module(func.func(hl-decompose{ops=gelu}))' | FileCheck %s --check-prefix=GELU
// RUN: not %kiln-opt %s --hl-decompose=ops=softmax,bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %kiln-opt %s -p 'builtin.module(func.func(hl-decompose{ops=relu}))' 2>&1 | FileCheck %s --check-prefix=NOT-COMPOSITE
// RUN: %kiln-opt %s --hl-decompose | FileCheck %s --check-prefix=NONE
// RUN: %kiln-opt %s --hl-decompose --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// hl-decompose expands every composite with static shapes into primitives (the whole module
// verifies afterwards, as kiln-opt verifies after each pass) and keeps composites with
// dynamic dims; `ops=` restricts it to the listed composites, and naming anything else is a
// pipeline error.

// STATS: (S) 14 num-decomposed
// STATS: (S) 2 num-dynamic-kept

// UNKNOWN: hl-decompose: unknown composite 'bogus'; known: softmax, log_softmax, layer_norm, rms_norm, batch_norm, gelu, silu, swiglu, bias_add, dropout, split, conv2d, global_avg_pool2d, batch_matmul, max_pool2d, avg_pool2d, iota, trilu
// NOT-COMPOSITE: hl-decompose: unknown composite 'relu'

// No static composite survives the full run (everything before @dynamic_kept).
// NONE-NOT: hl.softmax
// NONE-NOT: hl.log_softmax
// NONE-NOT: hl.layer_norm
// NONE-NOT: hl.rms_norm
// NONE-NOT: hl.batch_norm
// NONE-NOT: hl.gelu
// NONE-NOT: hl.silu
// NONE-NOT: hl.swiglu
// NONE-NOT: hl.bias_add
// NONE-NOT: hl.dropout
// NONE: func.func @dynamic_kept(

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:      %[[X:.*]]: tensor<8x128xf32>)
// CHECK-NEXT:    %[[M:.*]] = hl.reduce_max %[[X]] {axes = [0], keep_dims = true} : tensor<8x128xf32> -> tensor<1x128xf32>
// CHECK-NEXT:    %[[D:.*]] = hl.sub %[[X]], %[[M]]
// CHECK-NEXT:    %[[E:.*]] = hl.exp %[[D]]
// CHECK-NEXT:    %[[S:.*]] = hl.reduce_sum %[[E]] {axes = [0], keep_dims = true} : tensor<8x128xf32> -> tensor<1x128xf32>
// CHECK-NEXT:    %[[R:.*]] = hl.div %[[E]], %[[S]]
// CHECK-NEXT:    return %[[R]]
// ONLY-LABEL: func.func @softmax(
// ONLY-NOT:     hl.softmax
// ONLY:         hl.reduce_max
// GELU-LABEL: func.func @softmax(
// GELU-NEXT:    hl.softmax
func.func @softmax(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %0 = hl.softmax %x {axis = 0 : i64} : tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// CHECK-LABEL: func.func @log_softmax(
// CHECK-SAME:      %[[X:.*]]: tensor<8x128xf32>)
// CHECK-NEXT:    %[[M:.*]] = hl.reduce_max %[[X]] {axes = [1], keep_dims = true}
// CHECK-NEXT:    %[[D:.*]] = hl.sub %[[X]], %[[M]]
// CHECK-NEXT:    %[[E:.*]] = hl.exp %[[D]]
// CHECK-NEXT:    %[[S:.*]] = hl.reduce_sum %[[E]] {axes = [1], keep_dims = true}
// CHECK-NEXT:    %[[L:.*]] = hl.log %[[S]]
// CHECK-NEXT:    %[[R:.*]] = hl.sub %[[D]], %[[L]]
// CHECK-NEXT:    return %[[R]]
// ONLY-LABEL: func.func @log_softmax(
// ONLY-NEXT:    hl.log_softmax
func.func @log_softmax(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %0 = hl.log_softmax %x : tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// Mean and variance over the last dim, epsilon as a scalar constant of the element type.
// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME:      %[[X:.*]]: tensor<8x128xf32>, %[[G:.*]]: tensor<128xf32>, %[[B:.*]]: tensor<128xf32>)
// CHECK-NEXT:    %[[MEAN:.*]] = hl.reduce_mean %[[X]] {axes = [1], keep_dims = true} : tensor<8x128xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    %[[C:.*]] = hl.sub %[[X]], %[[MEAN]]
// CHECK-NEXT:    %[[SQ:.*]] = hl.mul %[[C]], %[[C]]
// CHECK-NEXT:    %[[VAR:.*]] = hl.reduce_mean %[[SQ]] {axes = [1], keep_dims = true}
// CHECK-NEXT:    %[[EPS:.*]] = hl.constant dense<1.000000e-03> : tensor<f32>
// CHECK-NEXT:    %[[VE:.*]] = hl.add %[[VAR]], %[[EPS]]
// CHECK-NEXT:    %[[RS:.*]] = hl.rsqrt %[[VE]]
// CHECK-NEXT:    %[[N:.*]] = hl.mul %[[C]], %[[RS]]
// CHECK-NEXT:    %[[NG:.*]] = hl.mul %[[N]], %[[G]]
// CHECK-NEXT:    %[[R:.*]] = hl.add %[[NG]], %[[B]]
// CHECK-NEXT:    return %[[R]]
func.func @layer_norm(%x: tensor<8x128xf32>, %g: tensor<128xf32>, %b: tensor<128xf32>) -> tensor<8x128xf32> {
  %0 = hl.layer_norm %x, %g, %b {epsilon = 1.0e-3 : f32} : tensor<8x128xf32>, tensor<128xf32>, tensor<128xf32> -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// The default epsilon is 1e-5, rounded to f16.
// CHECK-LABEL: func.func @rms_norm(
// CHECK-SAME:      %[[X:.*]]: tensor<8x128xf16>, %[[G:.*]]: tensor<128xf16>)
// CHECK-NEXT:    %[[SQ:.*]] = hl.mul %[[X]], %[[X]]
// CHECK-NEXT:    %[[MS:.*]] = hl.reduce_mean %[[SQ]] {axes = [1], keep_dims = true}
// CHECK-NEXT:    %[[EPS:.*]] = hl.constant dense<1.001360e-05> : tensor<f16>
// CHECK-NEXT:    %[[VE:.*]] = hl.add %[[MS]], %[[EPS]]
// CHECK-NEXT:    %[[RS:.*]] = hl.rsqrt %[[VE]]
// CHECK-NEXT:    %[[N:.*]] = hl.mul %[[X]], %[[RS]]
// CHECK-NEXT:    %[[R:.*]] = hl.mul %[[N]], %[[G]]
// CHECK-NEXT:    return %[[R]]
func.func @rms_norm(%x: tensor<8x128xf16>, %g: tensor<128xf16>) -> tensor<8x128xf16> {
  %0 = hl.rms_norm %x, %g : tensor<8x128xf16>, tensor<128xf16> -> tensor<8x128xf16>
  return %0 : tensor<8x128xf16>
}

// Operands in order x, mean, var, gamma, beta.
// CHECK-LABEL: func.func @batch_norm(
// CHECK-SAME:      %[[X:.*]]: tensor<1x4x2x2xbf16>, %[[MEAN:.*]]: tensor<4x1x1xbf16>, %[[VAR:.*]]: tensor<4x1x1xbf16>, %[[G:.*]]: tensor<4x1x1xbf16>, %[[B:.*]]: tensor<4x1x1xbf16>)
// CHECK-NEXT:    %[[C:.*]] = hl.sub %[[X]], %[[MEAN]]
// CHECK-NEXT:    %[[EPS:.*]] = hl.constant dense<{{.*}}> : tensor<bf16>
// CHECK-NEXT:    %[[VE:.*]] = hl.add %[[VAR]], %[[EPS]]
// CHECK-NEXT:    %[[RS:.*]] = hl.rsqrt %[[VE]]
// CHECK-NEXT:    %[[N:.*]] = hl.mul %[[C]], %[[RS]]
// CHECK-NEXT:    %[[NG:.*]] = hl.mul %[[N]], %[[G]]
// CHECK-NEXT:    %[[R:.*]] = hl.add %[[NG]], %[[B]]
// CHECK-NEXT:    return %[[R]]
func.func @batch_norm(%x: tensor<1x4x2x2xbf16>, %m: tensor<4x1x1xbf16>, %v: tensor<4x1x1xbf16>, %g: tensor<4x1x1xbf16>, %b: tensor<4x1x1xbf16>) -> tensor<1x4x2x2xbf16> {
  %0 = hl.batch_norm %x, %m, %v, %g, %b : tensor<1x4x2x2xbf16>, tensor<4x1x1xbf16>, tensor<4x1x1xbf16>, tensor<4x1x1xbf16>, tensor<4x1x1xbf16> -> tensor<1x4x2x2xbf16>
  return %0 : tensor<1x4x2x2xbf16>
}

// erf form: 0.5 * x * (1 + erf(x * (1/sqrt 2))).
// CHECK-LABEL: func.func @gelu(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[HALF:.*]] = hl.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %[[ONE:.*]] = hl.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[K:.*]] = hl.constant dense<0.707106769> : tensor<f32>
// CHECK-NEXT:    %[[XK:.*]] = hl.mul %[[X]], %[[K]]
// CHECK-NEXT:    %[[ERF:.*]] = hl.erf %[[XK]]
// CHECK-NEXT:    %[[ONEP:.*]] = hl.add %[[ONE]], %[[ERF]]
// CHECK-NEXT:    %[[HX:.*]] = hl.mul %[[HALF]], %[[X]]
// CHECK-NEXT:    %[[R:.*]] = hl.mul %[[HX]], %[[ONEP]]
// CHECK-NEXT:    return %[[R]]
// GELU-LABEL: func.func @gelu(
// GELU-NOT:     hl.gelu
// GELU:         hl.erf
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.gelu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// tanh form: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))).
// CHECK-LABEL: func.func @gelu_tanh(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[HALF:.*]] = hl.constant dense<5.000000e-01>
// CHECK-NEXT:    %[[ONE:.*]] = hl.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[X2:.*]] = hl.mul %[[X]], %[[X]]
// CHECK-NEXT:    %[[X3:.*]] = hl.mul %[[X2]], %[[X]]
// CHECK-NEXT:    %[[C:.*]] = hl.constant dense<4.471500e-02>
// CHECK-NEXT:    %[[CX3:.*]] = hl.mul %[[X3]], %[[C]]
// CHECK-NEXT:    %[[SUM:.*]] = hl.add %[[X]], %[[CX3]]
// CHECK-NEXT:    %[[K:.*]] = hl.constant dense<0.797884583>
// CHECK-NEXT:    %[[ARG:.*]] = hl.mul %[[SUM]], %[[K]]
// CHECK-NEXT:    %[[T:.*]] = hl.tanh %[[ARG]]
// CHECK-NEXT:    %[[ONEP:.*]] = hl.add %[[ONE]], %[[T]]
// CHECK-NEXT:    %[[HX:.*]] = hl.mul %[[HALF]], %[[X]]
// CHECK-NEXT:    %[[R:.*]] = hl.mul %[[HX]], %[[ONEP]]
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     hl.erf
func.func @gelu_tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.gelu %x {approximate = #hl.approx<tanh>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @silu(
// CHECK-SAME:      %[[X:.*]]: tensor<2x8xf32>)
// CHECK-NEXT:    %[[S:.*]] = hl.sigmoid %[[X]]
// CHECK-NEXT:    %[[R:.*]] = hl.mul %[[X]], %[[S]]
// CHECK-NEXT:    return %[[R]]
// GELU-LABEL: func.func @silu(
// GELU-NEXT:    hl.silu
func.func @silu(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = hl.silu %x : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// silu of the first half times the second half of the split axis.
// CHECK-LABEL: func.func @swiglu(
// CHECK-SAME:      %[[X:.*]]: tensor<2x8xf32>)
// CHECK-NEXT:    %[[A:.*]] = hl.slice %[[X]] {limits = [2, 4], starts = [0, 0]} : tensor<2x8xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %[[B:.*]] = hl.slice %[[X]] {limits = [2, 8], starts = [0, 4]} : tensor<2x8xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %[[S:.*]] = hl.sigmoid %[[A]]
// CHECK-NEXT:    %[[SA:.*]] = hl.mul %[[A]], %[[S]]
// CHECK-NEXT:    %[[R:.*]] = hl.mul %[[SA]], %[[B]]
// CHECK-NEXT:    return %[[R]]
func.func @swiglu(%x: tensor<2x8xf32>) -> tensor<2x4xf32> {
  %0 = hl.swiglu %x : tensor<2x8xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @swiglu_axis0(
// CHECK-SAME:      %[[X:.*]]: tensor<6x3xf32>)
// CHECK-NEXT:    %[[A:.*]] = hl.slice %[[X]] {limits = [3, 3], starts = [0, 0]}
// CHECK-NEXT:    %[[B:.*]] = hl.slice %[[X]] {limits = [6, 3], starts = [3, 0]}
func.func @swiglu_axis0(%x: tensor<6x3xf32>) -> tensor<3x3xf32> {
  %0 = hl.swiglu %x {axis = 0 : i64} : tensor<6x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// A bias on the last axis is a plain broadcast add; on another axis it is reshaped first so
// that it lines up with that axis.
// CHECK-LABEL: func.func @bias_add(
// CHECK-SAME:      %[[X:.*]]: tensor<2x8xf32>, %[[B:.*]]: tensor<8xf32>, %[[C:.*]]: tensor<2xf32>, %[[Y:.*]]: tensor<5x3x2xf32>, %[[D:.*]]: tensor<3xf32>)
// CHECK-NEXT:    %[[R0:.*]] = hl.add %[[X]], %[[B]]
// CHECK-NEXT:    %[[CR:.*]] = hl.reshape %[[C]] : tensor<2xf32> -> tensor<2x1xf32>
// CHECK-NEXT:    %[[R1:.*]] = hl.add %[[X]], %[[CR]]
// CHECK-NEXT:    %[[DR:.*]] = hl.reshape %[[D]] : tensor<3xf32> -> tensor<3x1xf32>
// CHECK-NEXT:    %[[R2:.*]] = hl.add %[[Y]], %[[DR]] : tensor<5x3x2xf32>, tensor<3x1xf32> -> tensor<5x3x2xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]]
func.func @bias_add(%x: tensor<2x8xf32>, %b: tensor<8xf32>, %c: tensor<2xf32>, %y: tensor<5x3x2xf32>, %d: tensor<3xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<5x3x2xf32>) {
  %0 = hl.bias_add %x, %b : tensor<2x8xf32>, tensor<8xf32> -> tensor<2x8xf32>
  %1 = hl.bias_add %x, %c {axis = 0 : i64} : tensor<2x8xf32>, tensor<2xf32> -> tensor<2x8xf32>
  %2 = hl.bias_add %y, %d {axis = 1 : i64} : tensor<5x3x2xf32>, tensor<3xf32> -> tensor<5x3x2xf32>
  return %0, %1, %2 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<5x3x2xf32>
}

// Dropout at inference is the identity: its uses take the operand.
// CHECK-LABEL: func.func @dropout(
// CHECK-SAME:      %[[X:.*]]: tensor<2x8xf32>)
// CHECK-NEXT:    %[[E:.*]] = hl.exp %[[X]]
// CHECK-NEXT:    return %[[E]], %[[X]]
// ONLY-LABEL: func.func @dropout(
// ONLY-NEXT:    hl.exp
// ONLY-NEXT:    return
func.func @dropout(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %0 = hl.dropout %x {rate = 0.5 : f32} : tensor<2x8xf32>
  %1 = hl.exp %0 : tensor<2x8xf32>
  return %1, %0 : tensor<2x8xf32>, tensor<2x8xf32>
}

// Primitives are left alone.
// CHECK-LABEL: func.func @primitives(
// CHECK-NEXT:    hl.exp
// CHECK-NEXT:    hl.reduce_sum
// CHECK-NEXT:    return
func.func @primitives(%x: tensor<2x8xf32>) -> tensor<2xf32> {
  %0 = hl.exp %x : tensor<2x8xf32>
  %1 = hl.reduce_sum %0 {axes = [1]} : tensor<2x8xf32> -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// Composites with a dynamic dim (operand or result) are kept as they are.
// CHECK-LABEL: func.func @dynamic_kept(
// CHECK-NEXT:    hl.softmax %{{.*}} : tensor<?x?xf16>
// CHECK-NEXT:    hl.bias_add %{{.*}}, %{{.*}} {axis = 1 : i64} : tensor<?x3x?xf32>, tensor<3xf32> -> tensor<?x3x?xf32>
// CHECK-NEXT:    return
func.func @dynamic_kept(%x: tensor<?x?xf16>, %y: tensor<?x3x?xf32>, %d: tensor<3xf32>) -> (tensor<?x?xf16>, tensor<?x3x?xf32>) {
  %0 = hl.softmax %x : tensor<?x?xf16>
  %1 = hl.bias_add %y, %d {axis = 1 : i64} : tensor<?x3x?xf32>, tensor<3xf32> -> tensor<?x3x?xf32>
  return %0, %1 : tensor<?x?xf16>, tensor<?x3x?xf32>
}
