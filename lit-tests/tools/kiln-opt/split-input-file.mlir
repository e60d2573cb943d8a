// RUN: %kiln-opt %s --split-input-file --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s
// RUN: %kiln-opt %s --split-input-file --allow-unregistered-dialect --mlir-print-op-generic --output-split-marker='// =====' | FileCheck %s --check-prefix=MARKER
// RUN: %kiln-opt %s --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=WHOLE
// Each chunk is a module of its own; the outputs are joined with the output split marker,
// each ending with an empty line, as mlir-opt prints them.

// CHECK:      "builtin.module"() ({
// CHECK-NEXT:   "unk.first"() : () -> ()
// CHECK-NEXT: }) : () -> ()
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT:   "unk.second"() : () -> ()
// CHECK-NEXT: }) : () -> ()
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: ^bb0:
// CHECK-NEXT: }) : () -> ()
// CHECK-NOT: {{.}}

// MARKER: "unk.first"
// MARKER: {{^// =====$}}
// MARKER: "unk.second"
// MARKER: {{^// =====$}}

// Without --split-input-file the markers are plain comments: one module.
// WHOLE:      "builtin.module"() ({
// WHOLE-NEXT:   "unk.first"() : () -> ()
// WHOLE-NEXT:   "unk.second"() : () -> ()
// WHOLE-NEXT: }) : () -> ()

"unk.first"() : () -> ()

// -----

"unk.second"() : () -> ()

// -----
