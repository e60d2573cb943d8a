"builtin.module"() ({
  "kiln.graph_container"() ({
    %2 = "kiln.use_later"(%3, %4#1) : (i32, f32) -> i32
    %3 = "kiln.def"(%2) : (i32) -> i32
    %4:2 = "kiln.def_pair"() : () -> (i64, f32)
    "kiln.cycle"(%5) : (i8) -> ()
    %5 = "kiln.cycle_def"(%5) : (i8) -> i8
  }) : () -> ()
  %0 = "kiln.module_level_forward"(%1) : (index) -> index
  %1 = "kiln.module_level_def"() : () -> index
}) : () -> ()

