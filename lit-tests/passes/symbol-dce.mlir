// RUN: %kiln-opt %s --allow-unregistered-dialect --symbol-dce | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect --symbol-dce --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// symbol-dce erases unreferenced private symbols, chains of them included, in every symbol
// table; public and nested-visibility symbols stay, and so does every referenced symbol
// (from calls, from attributes, arrays, dictionaries and nested references).

// @dead1, @dead2, @dead3, @inner::@inner_dead and the private module @other.
// STATS: (S) 5 num-dce'd

// CHECK-LABEL: func.func @pub() {
// CHECK-NEXT:    call @used()
// CHECK-NEXT:    "test.ref"() {dict = {k = @in_dict}, list = [@in_array], nest = @inner::@deep, target = @by_attr}
func.func @pub() {
  func.call @used() : () -> ()
  "test.ref"() {target = @by_attr, list = [@in_array], dict = {k = @in_dict}, nest = @inner::@deep} : () -> ()
  return
}

// Referenced private symbols stay, also when only another live private function refers to
// them.
// CHECK-LABEL: func.func private @used() {
// CHECK-NEXT:    call @used_by_used()
// CHECK:       func.func private @used_by_used()
// CHECK-NEXT:  func.func private @by_attr()
// CHECK-NEXT:  func.func private @in_array()
// CHECK-NEXT:  func.func private @in_dict()
func.func private @used() {
  func.call @used_by_used() : () -> ()
  return
}
func.func private @used_by_used()
func.func private @by_attr()
func.func private @in_array()
func.func private @in_dict()

// A chain of dead private functions goes entirely, not only its unreferenced head.
// CHECK-NOT:   @dead1
// CHECK-NOT:   @dead2
// CHECK-NOT:   @dead3
func.func private @dead1() {
  func.call @dead2() : () -> ()
  return
}
func.func private @dead2() {
  func.call @dead3() : () -> ()
  return
}
func.func private @dead3()

// Nested visibility is kept (unlike MLIR, which drops nested symbols of a top-level module).
// CHECK:       func.func nested @nested_vis()
func.func nested @nested_vis()

// Inside a nested symbol table: the private @deep is referenced as @inner::@deep and stays,
// @inner_dead goes, the public @inner_pub stays.
// CHECK-LABEL: module @inner {
// CHECK-NEXT:    func.func private @deep()
// CHECK-NEXT:    func.func @inner_pub() {
// CHECK-NOT:     @inner_dead
module @inner {
  func.func private @deep()
  func.func private @inner_dead()
  func.func @inner_pub() {
    return
  }
}

// A private nested module nothing references goes with everything in it (its public
// function included).
// CHECK-NOT:   module @other
// CHECK-NOT:   func.func @x
module @other attributes {sym_visibility = "private"} {
  func.func @x() {
    return
  }
}

// A public function nothing calls stays.
// CHECK-LABEL: func.func @unused_public() {
func.func @unused_public() {
  return
}
