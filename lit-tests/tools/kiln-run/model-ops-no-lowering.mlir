// The model ops without a lowering yet: compiling them is an error located at the op (the
// interpreter runs them: interpret-model-ops.mlir). `hl.pad` (and a pool whose windows reach
// into padding) decomposes into `hl.concat`, which has no vector lowering.
// RUN: not %kiln-run %s --entry pad 2>&1 | FileCheck %s --check-prefix=PAD

// PAD: model-ops-no-lowering.mlir:[[# @LINE + 2]]:8: error: 'func.func' op no vector lowering for 'hl.concat'
func.func @pad(%x: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %r = hl.pad %x {low = [1, 0], high = [0, 0]} : tensor<3x5xf32> -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
