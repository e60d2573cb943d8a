"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (i32, i32), sym_name = "while_loop"}> ({
  ^bb0(%arg0: i32):
    %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %2:2 = "scf.while"(%0, %1) ({
    ^bb0(%arg3: i32, %arg4: i32):
      %5 = "arith.cmpi"(%arg3, %arg0) <{predicate = 2 : i64}> : (i32, i32) -> i1
      "scf.condition"(%5, %arg3, %arg4) : (i1, i32, i32) -> ()
    }, {
    ^bb0(%arg1: i32, %arg2: i32):
      %3 = "arith.addi"(%arg1, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      %4 = "arith.muli"(%arg2, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "scf.yield"(%3, %4) : (i32, i32) -> ()
    }) : (i32, i32) -> (i32, i32)
    "func.return"(%2#0, %2#1) : (i32, i32) -> ()
  }) : () -> ()
}) : () -> ()

