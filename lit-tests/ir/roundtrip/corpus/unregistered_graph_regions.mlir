"builtin.module"() ({
  "test.unreg_container"() ({
    %2 = "test.user"(%3, %4#1) : (i64, f32) -> i64
    %3 = "test.def"(%2) : (i64) -> i64
    %4:2 = "test.pair"() : () -> (i1, f32)
    "test.inner"() ({
    ^bb0(%arg0: i64):
      %6 = "test.use"(%7, %arg0, %2) : (i32, i64, i64) -> i32
      %7 = "test.def"(%6, %arg0) : (i32, i64) -> i32
      "test.end"() : () -> ()
    }) : () -> ()
    "test.cfg"() ({
      "test.br"()[^bb1] : () -> ()
    ^bb1:  // pred: ^bb0
      %5 = "test.def"() : () -> i8
      "test.use"(%5, %3) : (i8, i64) -> ()
      "test.end"() : () -> ()
    }) : () -> ()
  }) {sym_name = "g"} : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "f"}> ({
    "test.wrap"() ({
      %0 = "test.use"(%1) : (index) -> index
      %1 = "test.def"() : () -> index
    }) : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

