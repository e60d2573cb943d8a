"builtin.module"() ({
  "func.func"() <{function_type = () -> (i32, f32, i64), sym_name = "groups"}> ({
    %0:3 = "kiln.three"() : () -> (i32, f32, i64)
    %1:2 = "kiln.two"(%0#0, %0#2) : (i32, i64) -> (i64, i64)
    %2 = "kiln.one"(%0#1, %1#1) : (f32, i64) -> f32
    %3:5 = "kiln.five"() : () -> (i1, i1, i1, i1, i1)
    "kiln.use"(%3#4, %3#0, %3#2) : (i1, i1, i1) -> ()
    %4:2 = "scf.if"(%3#1) ({
      %6:2 = "kiln.pair"() : () -> (i32, f32)
      "scf.yield"(%6#0, %6#1) : (i32, f32) -> ()
    }, {
      "scf.yield"(%0#0, %2) : (i32, f32) -> ()
    }) : (i1) -> (i32, f32)
    %5:2 = "kiln.pair"() : () -> (i32, f32)
    "func.return"(%4#0, %5#1, %1#0) : (i32, f32, i64) -> ()
  }) : () -> ()
}) : () -> ()

