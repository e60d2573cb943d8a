// Flags engineers reach for, with mlir-opt 22's behaviour and words.

// --no-implicit-module: the file's one top-level op is what the pipeline runs on and what
// prints; two top-level ops are an error at file:0:0, as mlir-opt reports it.
// RUN: not %kiln-opt %s --allow-unregistered-dialect --split-input-file --no-implicit-module 2>/dev/null | FileCheck %s --check-prefix=NOIMPLICIT
// RUN: not %kiln-opt %s --allow-unregistered-dialect --split-input-file --no-implicit-module 2>&1 >/dev/null | FileCheck %s --check-prefix=NOIMPLICIT-ERR
// NOIMPLICIT: {{^}}func.func @alone() {
// NOIMPLICIT-NOT: module
// NOIMPLICIT-ERR: mlir-flags.mlir:0:0: error: source must contain a single top-level operation, found: 2
// NOIMPLICIT-ERR-NOT: ^

// --verify-roundtrip: the generic and the custom form both parse back to the same IR.
// RUN: %kiln-opt %S/../../../examples/mlp.mlir --verify-roundtrip | FileCheck %s --check-prefix=ROUNDTRIP
// ROUNDTRIP: func.func @mlp(

// --mlir-print-ir-after-failure dumps the IR after the pass that failed (kiln-fuse cannot write
// its report here); --mlir-print-ir-module-scope shows the whole module and names the op.
// RUN: not %kiln-opt %s --allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(kiln-fuse{report=%t.no/such/dir/r.json}))' --mlir-print-ir-after-failure --mlir-print-ir-module-scope --mlir-disable-threading 2>&1 | FileCheck %s --check-prefix=FAILURE
// FAILURE: // -----// IR Dump After KilnFuse Failed (kiln-fuse) ('func.func' operation: @alone) //----- //
// FAILURE-NEXT: module {
// FAILURE: error: kiln-fuse: cannot write report

// --mlir-print-ir-tree-dir writes the dumps into one folder per op and one file per pass, named
// as mlir-opt names them (the pass's position in each pipeline, then its name).
// RUN: rm -rf %t.tree && %kiln-opt %s --allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(cse, canonicalize), symbol-dce)' --mlir-print-ir-after-all --mlir-print-ir-tree-dir=%t.tree -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: IR Dump
// RUN: FileCheck %s --check-prefix=TREE --input-file %t.tree/builtin_module_no-symbol-name/func_func_alone/0_1_canonicalize.mlir
// RUN: FileCheck %s --check-prefix=TREE-TOP --input-file %t.tree/builtin_module_no-symbol-name/1_symbol-dce.mlir
// TREE: // -----// IR Dump After Canonicalize (canonicalize) //----- //
// TREE-NEXT: func.func @alone() {
// TREE-TOP: // -----// IR Dump After SymbolDce (symbol-dce) //----- //
// TREE-TOP-NEXT: module {

// --mlir-print-local-scope prints types and attributes in place of their aliases.
// RUN: %kiln-opt %s --allow-unregistered-dialect --split-input-file --mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// RUN: %kiln-opt %s --allow-unregistered-dialect --split-input-file | FileCheck %s --check-prefix=ALIASED
// LOCAL-NOT: #map = affine_map
// LOCAL: "test.op"() {m = affine_map<(d0) -> (d0 + 1)>}
// ALIASED: #map = affine_map<(d0) -> (d0 + 1)>
// ALIASED: "test.op"() {m = #map}

func.func @alone() {
  return
}

// -----

func.func @one() {
  return
}
func.func @two() {
  return
}

// -----

#map = affine_map<(d0) -> (d0 + 1)>
"test.op"() {m = #map} : () -> ()
