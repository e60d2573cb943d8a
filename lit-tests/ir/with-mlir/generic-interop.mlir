// REQUIRES: mlir-opt
// Our generic form and MLIR's must carry the same IR both ways: mlir-opt reprints the
// reference, our output, and our reading of its output identically.
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.ref
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %s | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.ours
// RUN: diff %t.ref %t.ours
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %s | %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.back
// RUN: diff %t.ref %t.back
// The custom form too, through mlir-opt's parser:
// RUN: %kiln-opt --allow-unregistered-dialect %s | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.custom
// RUN: diff %t.ref %t.custom

func.func private @decl(i64, tensor<?x4xf16>) -> (f32, index)

func.func @body(%a: i64, %t: tensor<?x4xf16>) -> (f32, index) attributes {kiln.tag = "x"} {
  %r:2 = func.call @decl(%a, %t) : (i64, tensor<?x4xf16>) -> (f32, index)
  %u = "unk.op"(%r#0) {b = true, f = 1.5 : f32, i = -7 : i8, s = "q\"\n", arr = [1, "two", @decl],
                       d = {k = unit}, dense = dense<[1, 2, 3]> : tensor<3xi32>, ty = memref<2x?xbf16>}
      : (f32) -> f32
  "unk.region"() ({
  ^bb0(%x: i1):
    "unk.cond_br"(%x)[^bb1, ^bb2] : (i1) -> ()
  ^bb1:
    "unk.yield"() : () -> ()
  ^bb2:
    "unk.yield"(%u) : (f32) -> ()
  }, {
  }) : () -> ()
  return %u, %r#1 : f32, index
}

module @inner attributes {kiln.n = 4 : i64} {
  func.func nested @n() -> i1 {
    %c = "unk.const"() {value = 1 : i1} : () -> i1
    return %c : i1
  }
}
