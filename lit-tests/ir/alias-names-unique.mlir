// An alias name kept from the input (`#sparse`, on an opaque attribute of a dialect
// mlir-opt registers) is not given again to the attributes the printer numbers itself
// (sparse_tensor encodings, which it names `#sparse`, `#sparse1`, ...): they take the next
// free names, so the output parses back (the parse_roundtrip fuzz target found the clash).
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %s | %kiln-opt --allow-unregistered-dialect --verify-roundtrip -o /dev/null
// RUN: %kiln-opt --allow-unregistered-dialect --verify-roundtrip %s -o /dev/null

// CHECK: #sparse = #sparse_tensor.ercoding<{ map = (d0) -> (d0 : compressed) }>
// CHECK-NEXT: #sparse1 = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>
// CHECK-NEXT: #sparse2 = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
// CHECK: "test.a"() {v = #sparse} : () -> ()
// CHECK-NEXT: "test.b"() {v = #sparse1} : () -> ()
// CHECK-NEXT: "test.c"() {v = #sparse2} : () -> ()
#sparse = #sparse_tensor.ercoding<{ map = (d0) -> (d0 : compressed) }>
"test.a"() {v = #sparse} : () -> ()
"test.b"() {v = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>} : () -> ()
"test.c"() {v = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>} : () -> ()
