"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32, i1) -> i32, sym_name = "branches"}> ({
  ^bb0(%arg1: i32, %arg2: i32, %arg3: i1):
    "cf.cond_br"(%arg3, %arg1, %arg2, %arg1)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 2>}> : (i1, i32, i32, i32) -> ()
  ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb2
    "cf.br"(%0)[^bb3] : (i32) -> ()
  ^bb2(%1: i32, %2: i32):  // pred: ^bb0
    %3 = "arith.addi"(%1, %2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "cf.cond_br"(%arg3, %3, %3)[^bb3, ^bb1] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, i32, i32) -> ()
  ^bb3(%4: i32):  // 2 preds: ^bb1, ^bb2
    %5 = "arith.constant"() <{value = 3 : i32}> : () -> i32
    "cf.switch"(%4, %4)[^bb4, ^bb5, ^bb4] <{case_operand_segments = array<i32: 1, 0>, case_values = dense<[0, 42]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (i32, i32) -> ()
  ^bb4:  // 2 preds: ^bb3, ^bb3
    "cf.assert"(%arg3) <{msg = "must \22hold\22\0A"}> : (i1) -> ()
    "func.return"(%4) : (i32) -> ()
  ^bb5(%6: i32):  // pred: ^bb3
    "func.return"(%6) : (i32) -> ()
  ^bb6:  // pred: ^bb6
    "cf.br"()[^bb6] : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i1) -> (), sym_name = "weights"}> ({
  ^bb0(%arg0: i1):
    "cf.cond_br"(%arg0)[^bb1, ^bb2] <{branch_weights = array<i32: 10, 90>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
  ^bb1:  // pred: ^bb0
    "func.return"() : () -> ()
  ^bb2:  // pred: ^bb0
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

