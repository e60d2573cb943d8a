// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// Regression test (fixed in 982cae1): infer.rs did unchecked i64 arithmetic on attribute
// values and dims, so the verifier panicked ("attempt to add with overflow", kiln-opt
// "internal error: the run panicked") on these parseable inputs: slice
// `(l - s + st - 1) / st`, conv2d `d * (k - 1) + 1` and `size + pad`, reshape's element count.
// The valid slice verifies; the others get a diagnostic.

// A slice of a dynamic dim may have any limit; its size is ceil(limit / 2).
func.func @slice_huge_limit(%a: tensor<?xf32>) {
  %0 = hl.slice %a {limits = [9223372036854775807], starts = [0], strides = [2]} : tensor<?xf32> -> tensor<?xf32>
  return
}

// -----

func.func @conv_huge_dilation(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op convolution sizes overflow}}
  %0 = hl.conv2d %x, %w {dilation = [4611686018427387904, 1]} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_huge_padding(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op convolution padding overflows}}
  %0 = hl.conv2d %x, %w {padding = [9223372036854775807, 0, 9223372036854775807, 0]} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @reshape_huge_count(%a: tensor<4294967296x4294967296xf32>) {
  // expected-error @+1 {{'hl.reshape' op element count of 'tensor<4294967296x4294967296xf32>' overflows}}
  %0 = hl.reshape %a : tensor<4294967296x4294967296xf32> -> tensor<16xf32>
  return
}
