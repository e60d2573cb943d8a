// Inputs that fail verification, one per split: tests/verifier_vs_mlir_opt.rs compares
// kiln-opt's diagnostics with mlir-opt 22's byte for byte.

func.func @f(%a: i32, %b: i64) -> i32 {
  %0 = arith.addi %a, %a : i32
  %c = "test.x"(%0) ({
  ^bb0(%x: i32):
    "test.y"(%x, %0) : (i32, i32) -> ()
  }) : (i32) -> i32
  return %b : i64
}

// -----

func.func @f(%a: i32) -> i32 {
  "test.use"(%1) : (i32) -> ()
  %1 = arith.addi %a, %a : i32
  %2 = "test.r"() ({
    %3 = arith.addi %a, %a : i32
    "test.t"(%3) : (i32) -> ()
  }) : () -> i32
  return %1 : i32
}

// -----

func.func @f(%a: i32, %t: tensor<4xf32>) -> i32 {
  %0 = arith.addi %a, %a : i32
  %c = "test.x"(%0) ({
  ^bb0(%x: i32):
    %q = arith.addi %x, %0 : i32
    %bad = "arith.addi"(%q, %t) : (i32, tensor<4xf32>) -> i32
    "test.y"(%x, %0) : (i32, i32) -> ()
  }) : (i32) -> i32
  return %0 : i32
}

// -----

func.func @g(%a: index) {
  %cst = "arith.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0]> : tensor<17xf32>} : () -> tensor<17xi32>
  scf.for %i = %a to %a step %a {
    %x = arith.addi %i, %i : index
    "scf.yield"(%x) : (index) -> ()
  }
  return
}

// -----

func.func @h(%a: index) {
  "scf.for"(%a, %a, %a) ({
  ^bb0(%i: index):
    %x = arith.addi %i, %i : index
    "test.t"(%x) : (index) -> ()
  }) : (index, index, index) -> (i32)
  return
}

// -----

func.func @f(%a: i32, %b: f32) {
  %0 = "arith.addi"(%a, %b) : (i32, f32) -> i32
  %1 = "arith.addi"(%b, %a) : (f32, i32) -> i32
  return
}
func.func @g(%a: i32, %b: f32) {
  %0 = "arith.addi"(%a, %b) : (i32, f32) -> i32
  return
}

// -----

func.func @f(%a: index, %b: f32) {
  scf.for %i = %a to %a step %a {
    %0 = "arith.addi"(%i, %b) : (index, f32) -> index
  }
  %1 = "arith.addi"(%b, %a) : (f32, index) -> index
  return
}

// -----

func.func @f(%a: i32, %b: f32) {
  "test.use"(%1) : (i32) -> ()
  %1 = arith.addi %a, %a : i32
  %0 = "arith.addi"(%a, %b) : (i32, f32) -> i32
  return
}
func.func @g(%a: i32, %b: f32) {
  "test.use"(%1) : (i32) -> ()
  "test.use"(%2) : (i32) -> ()
  %1 = arith.addi %a, %a : i32
  %2 = arith.addi %a, %a : i32
  return
}

// -----

func.func @f(%a: i32, %b: f32) {
  %0 = "arith.addi"(%a, %b) : (i32, f32) -> i32
  return
}
%x = "arith.constant"() {value = 1 : i32} : () -> i64
func.func @g(%a: i32, %b: f32) {
  %0 = "arith.addi"(%a, %b) : (i32, f32) -> i32
  return
}

// -----

func.func @f(%a: i32, %b: f32) {
  %0 = "arith.addi"(%a, %b) : (i32, f32) -> i32
  "test.wrap"() ({
    func.func @inner(%c: i32, %d: f32) {
      %1 = "arith.addi"(%c, %d) : (i32, f32) -> i32
      return
    }
  }) : () -> ()
  return
}
func.func @g(%a: i32, %b: f32) {
  "test.wrap"() ({
    func.func @inner2(%c: i32, %d: f32) {
      %1 = "arith.addi"(%c, %d) : (i32, f32) -> i32
      return
    }
  }) : () -> ()
  %0 = "arith.addi"(%a, %b) : (i32, f32) -> i32
  return
}

// -----

func.func @h(%a: index) {
  "test.r"() ({
    "func.func"() <{function_type = () -> (), sym_name = "i"}> ({
      %y = arith.addi %a, %a : index
      func.return
    }) : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @h(%arg0: index) {
  "test.r"() ({
    func.func @i(%arg0: index) {
      %0 = arith.addi %arg0, %arg0 : index
      return
    }
  }) : () -> ()
  %0 = arith.addi %arg0, %arg0 : index
  return
}

// -----

func.func @no_terminator() {
  %0 = "unk.def"() : () -> i32
  func.call @no_terminator() : () -> ()
}

// -----

// An op with successors in the middle of its block.
func.func @succ_not_last() {
  "test.br"()[^bb1] : () -> ()
  "test.other"() : () -> ()
^bb1:
  return
}

// -----

// An empty block in a region of several blocks.
func.func @empty_block() {
  "test.br"()[^bb1] : () -> ()
^bb1:
}

// -----

// A block argument that does not dominate its use.
func.func @arg_dom(%c: i1) {
  "test.cond_br"(%c)[^bb1, ^bb2] : (i1) -> ()
^bb1(%x: i32):
  "test.br"()[^bb3] : () -> ()
^bb2:
  "test.use"(%x) : (i32) -> ()
  "test.br"()[^bb3] : () -> ()
^bb3:
  return
}

// -----

// A value of a module-level op used in a function.
%m = "test.m"() : () -> i32
func.func @uses_module_value() {
  "test.use"(%m) : (i32) -> ()
  return
}

// -----

// A wrong call, and a nested op printed with its region.
func.func @callee(%a: i32) -> i32 {
  return %a : i32
}
func.func @caller(%a: i32) {
  %r = "test.execute"() ({
    %0 = func.call @callee(%a, %a) : (i32, i32) -> i32
    "test.yield"(%0) : (i32) -> ()
  }) : () -> i32
  return
}

