// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --no-verify-each -p 'builtin.module(kiln-codegen-tile{target=tiny-npu},kiln-codegen-bufferize,kiln-codegen-lower)'
// RUN: not %kiln-opt %s --split-input-file --no-verify-each -p 'builtin.module(kiln-codegen-tile{target=tiny-npu},kiln-codegen-bufferize,kiln-codegen-lower)' --debug-only=dialect-conversion 2>&1 | FileCheck %s --check-prefix=TRACE
// Cube kernels written by hand that kiln-codegen-tile or the cube lowerings refuse, on the kernel
// (kiln-codegen-outline never makes them: it splits such regions). A lowering's refusal is the
// conversion's error with the pattern's reason as a note.

// A conv2d kernel holds the conv alone: its epilogue belongs in a vector kernel. The trace shows
// every kernel pattern tried on it: the others do not match its kind, the conv pattern declines.
// TRACE:      * Pattern : 'AssemblingKernel' {
// TRACE-NEXT: } -> FAILURE : pattern failed to match
// TRACE:      * Pattern : 'ConvKernel' {
// TRACE-NEXT:   ** Failure : a conv2d kernel holds one conv2d and its one result
// TRACE-NEXT: } -> FAILURE : pattern failed to match
// TRACE:      * Pattern : 'GatherKernel' {
// TRACE-NEXT: } -> FAILURE : pattern failed to match
// TRACE-NEXT: * Pattern : 'AttentionKernel' {
// TRACE-NEXT: } -> FAILURE : pattern failed to match
// TRACE-NEXT: } -> FAILURE : no matched legalization pattern
// expected-error@+3 {{failed to legalize operation 'func.func' that was explicitly marked illegal}}
// expected-note@+2 {{patterns tried: AssemblingKernel, VectorKernel, ConvKernel, CubeKernel, GatherKernel, AttentionKernel}}
// expected-note@+1 {{'ConvKernel' declined: a conv2d kernel holds one conv2d and its one result}}
func.func private @conv_epilogue_kernel0(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32> attributes {npuvec.core = #npuvec.core<aic>, npuvec.kind = "matmul"} {
  %0 = hl.conv2d %x, %w : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x4x4xf32>
  %1 = hl.relu %0 : tensor<1x4x4x4xf32>
  return %1 : tensor<1x4x4x4xf32>
}

// -----

// A matmul epilogue is elementwise on the result's tiles: a reduction is not.
// expected-error@+1 {{'hl.reduce_sum' cannot run in a matmul epilogue}}
func.func private @mix_reduce_kernel0(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>) -> tensor<16x1xf32> attributes {npuvec.core = #npuvec.core<mix>, npuvec.kind = "mix"} {
  %0 = hl.matmul %a, %b : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  %1 = hl.reduce_sum %0 {axes = [1], keep_dims = true} : tensor<16x64xf32> -> tensor<16x1xf32>
  return %1 : tensor<16x1xf32>
}

// -----

// An epilogue keeps the result's type.
// expected-error@+1 {{'hl.add' in a matmul epilogue changes the type to tensor<2x16x64xf32>}}
func.func private @mix_wide_kernel0(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %c: tensor<2x16x64xf32>) -> tensor<16x64xf32> attributes {npuvec.core = #npuvec.core<mix>, npuvec.kind = "mix"} {
  %0 = hl.matmul %a, %b : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  %1 = hl.add %0, %c : tensor<16x64xf32>, tensor<2x16x64xf32> -> tensor<2x16x64xf32>
  %2 = hl.reduce_sum %1 {axes = [0], keep_dims = false} : tensor<2x16x64xf32> -> tensor<16x64xf32>
  return %2 : tensor<16x64xf32>
}

// -----

// An operand spans every batch dim or none of them.
// expected-error@+1 {{a matmul epilogue operand of type tensor<2x1x16x64xf32> broadcasts over some batch dims only}}
func.func private @mix_batch_kernel0(%a: tensor<2x3x16x32xf32>, %b: tensor<2x3x32x64xf32>, %c: tensor<2x1x16x64xf32>) -> tensor<2x3x16x64xf32> attributes {npuvec.core = #npuvec.core<mix>, npuvec.kind = "mix"} {
  %0 = hl.batch_matmul %a, %b : tensor<2x3x16x32xf32>, tensor<2x3x32x64xf32> -> tensor<2x3x16x64xf32>
  %1 = hl.add %0, %c : tensor<2x3x16x64xf32>, tensor<2x1x16x64xf32> -> tensor<2x3x16x64xf32>
  return %1 : tensor<2x3x16x64xf32>
}
