"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "first"}> ({
  ^bb0(%arg5: i32):
    %6 = "arith.addi"(%arg5, %arg5) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %7 = "scf.execute_region"() ({
      %12 = "arith.addi"(%6, %6) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "scf.yield"(%12) : (i32) -> ()
    }) : () -> i32
    %8 = "scf.execute_region"() ({
      %9 = "arith.muli"(%6, %6) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      %10 = "scf.execute_region"() ({
        %11 = "arith.subi"(%9, %6) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
        "scf.yield"(%11) : (i32) -> ()
      }) : () -> i32
      "scf.yield"(%10) : (i32) -> ()
    }) : () -> i32
    "func.return"(%8) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "second"}> ({
  ^bb0(%arg0: i32, %arg1: i32):
    %2 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %3 = "kiln.two_regions"() ({
    ^bb0(%arg4: i32):
      %5 = "arith.addi"(%arg4, %2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "kiln.yield"(%5) : (i32) -> ()
    }, {
    ^bb0(%arg2: i32, %arg3: i32):
      %4 = "arith.addi"(%arg2, %arg3) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "kiln.yield"(%4) : (i32) -> ()
    }) : () -> i32
    "func.return"(%3) : (i32) -> ()
  }) : () -> ()
  %0 = "kiln.top_level_value"() : () -> i32
  "func.func"() <{function_type = () -> (), sym_name = "third"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
  %1:2 = "kiln.top_level_pair"(%0) : (i32) -> (i32, i32)
}) : () -> ()

