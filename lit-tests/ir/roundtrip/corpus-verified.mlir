// kiln-opt parses, verifies and reprints these corpus files (mlir-opt 22's generic output)
// byte for byte; the corpus unit test reads them without the verifier.
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %S/corpus/unregistered_graph_regions.mlir > %t.graph
// RUN: diff %S/corpus/unregistered_graph_regions.mlir %t.graph
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %S/corpus/vector_dialect_elements.mlir > %t.vec
// RUN: diff %S/corpus/vector_dialect_elements.mlir %t.vec
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %S/corpus/resources_test_dialect.mlir > %t.res
// RUN: diff %S/corpus/resources_test_dialect.mlir %t.res
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %S/corpus/aliases_recursive_order.mlir > %t.rec
// RUN: diff %S/corpus/aliases_recursive_order.mlir %t.rec
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %S/corpus/attrs_dense_resource_quoted.mlir > %t.dr
// RUN: diff %S/corpus/attrs_dense_resource_quoted.mlir %t.dr
