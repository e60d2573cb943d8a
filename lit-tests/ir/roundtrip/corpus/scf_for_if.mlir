"builtin.module"() ({
  "func.func"() <{function_type = (index, index, index, f32, i1) -> f32, sym_name = "loops"}> ({
  ^bb0(%arg0: index, %arg1: index, %arg2: index, %arg3: f32, %arg4: i1):
    %0 = "scf.for"(%arg0, %arg1, %arg2, %arg3) ({
    ^bb0(%arg11: index, %arg12: f32):
      %8 = "arith.index_cast"(%arg11) : (index) -> i64
      %9 = "arith.sitofp"(%8) : (i64) -> f32
      %10 = "arith.addf"(%arg12, %9) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "scf.yield"(%10) : (f32) -> ()
    }) : (index, index, index, f32) -> f32
    "scf.for"(%arg0, %arg1, %arg2) ({
    ^bb0(%arg9: index):
      "scf.for"(%arg9, %arg1, %arg2) ({
      ^bb0(%arg10: index):
        "kiln.use"(%arg9, %arg10) : (index, index) -> ()
        "scf.yield"() : () -> ()
      }) : (index, index, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    %1:2 = "scf.if"(%arg4) ({
      "scf.yield"(%0, %arg0) : (f32, index) -> ()
    }, {
      %7 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
      "scf.yield"(%7, %arg1) : (f32, index) -> ()
    }) : (i1) -> (f32, index)
    "scf.if"(%arg4) ({
      "kiln.side_effect"() : () -> ()
      "scf.yield"() : () -> ()
    }, {
    }) : (i1) -> ()
    %2 = "scf.parallel"(%arg0, %arg0, %arg1, %arg1, %arg2, %arg2, %arg3) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
    ^bb0(%arg5: index, %arg6: index):
      %5 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      "scf.reduce"(%5) ({
      ^bb0(%arg7: f32, %arg8: f32):
        %6 = "arith.addf"(%arg7, %arg8) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
        "scf.reduce.return"(%6) : (f32) -> ()
      }) : (f32) -> ()
    }) : (index, index, index, index, index, index, f32) -> f32
    %3 = "scf.execute_region"() ({
      "scf.yield"(%2) : (f32) -> ()
    }) : () -> f32
    %4 = "scf.index_switch"(%arg0) <{cases = array<i64: 2, 5>}> ({
      "scf.yield"(%arg3) : (f32) -> ()
    }, {
      "scf.yield"(%3) : (f32) -> ()
    }, {
      "scf.yield"(%1#0) : (f32) -> ()
    }) : (index) -> f32
    "func.return"(%4) : (f32) -> ()
  }) : () -> ()
}) : () -> ()

