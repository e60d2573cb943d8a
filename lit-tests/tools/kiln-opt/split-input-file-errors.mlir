// RUN: not %kiln-opt %s --split-input-file --allow-unregistered-dialect --mlir-print-op-generic 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// A failing chunk prints nothing and makes the run fail, but the other chunks are still
// processed; diagnostics carry line numbers of the whole file (as mlir-opt 22 does).

// CHECK:      "unk.ok"() : () -> ()
// CHECK:      // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT:   "unk.also_ok"() : () -> ()

"unk.ok"() : () -> ()

// -----

// ERR: split-input-file-errors.mlir:[[@LINE+1]]:11: error: use of undeclared SSA value name
"unk.bad"(%undefined) : (i32) -> ()

// -----

"unk.also_ok"() : () -> ()
