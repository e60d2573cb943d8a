// The model ops without a lowering yet: compiling them is an error located at the op (the
// interpreter runs them: interpret-model-ops.mlir). `hl.gather` needs its own kernel.
// RUN: not %kiln-run %s --entry gather 2>&1 | FileCheck %s --check-prefix=GATHER

// GATHER: model-ops-no-lowering.mlir:[[# @LINE + 2]]:8: error: 'func.func' op no vector lowering for 'hl.gather'
func.func @gather(%d: tensor<5x3xf32>, %i: tensor<2xi32>) -> tensor<2x3xf32> {
  %r = hl.gather %d, %i : tensor<5x3xf32>, tensor<2xi32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
