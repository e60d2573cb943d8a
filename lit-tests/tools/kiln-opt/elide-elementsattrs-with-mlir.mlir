// REQUIRES: mlir-opt
// --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger prints as mlir-opt 22 prints, byte for byte, in the
// custom and the generic form.
// RUN: %kiln-opt %S/Inputs/elide-elements.mlir --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=1 > %t.ours
// RUN: mlir-opt %S/Inputs/elide-elements.mlir --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=1 > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: %kiln-opt %S/Inputs/elide-elements.mlir --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=2 --mlir-print-op-generic > %t.ours-generic
// RUN: mlir-opt %S/Inputs/elide-elements.mlir --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=2 --mlir-print-op-generic > %t.theirs-generic
// RUN: diff %t.ours-generic %t.theirs-generic
