"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32, vector<4xf64>, i32) -> f32, sym_name = "math"}> ({
  ^bb0(%arg0: f32, %arg1: f32, %arg2: vector<4xf64>, %arg3: i32):
    %0 = "math.sqrt"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %1 = "math.exp"(%0) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f32
    %2 = "math.log"(%1) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %3 = "math.powf"(%2, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %4 = "math.absf"(%3) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %5 = "math.sin"(%4) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %6 = "math.cos"(%5) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %7 = "math.tanh"(%6) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %8 = "math.fma"(%7, %arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32, f32) -> f32
    %9 = "math.rsqrt"(%8) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %10 = "math.floor"(%9) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %11 = "math.ceil"(%10) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %12 = "math.atan2"(%11, %arg0) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %13 = "math.exp2"(%arg2) <{fastmath = #arith.fastmath<none>}> : (vector<4xf64>) -> vector<4xf64>
    %14 = "math.absi"(%arg3) : (i32) -> i32
    %15 = "math.ctlz"(%14) : (i32) -> i32
    %16 = "math.ipowi"(%15, %arg3) : (i32, i32) -> i32
    %17 = "math.fpowi"(%12, %16) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f32
    %18 = "math.roundeven"(%17) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    "func.return"(%18) : (f32) -> ()
  }) : () -> ()
}) : () -> ()

