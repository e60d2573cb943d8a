"builtin.module"() <{sym_name = "outer"}> ({
  "builtin.module"() <{sym_name = "inner_named"}> ({
    "func.func"() <{function_type = () -> (), sym_name = "ext", sym_visibility = "private"}> ({
    }) : () -> ()
  }) : () -> ()
  "builtin.module"() ({
  ^bb0:
  }) : () -> ()
  "builtin.module"() ({
    "kiln.op"() : () -> ()
  }) {kiln.empty_attrs} : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "use"}> ({
    "kiln.call"() {callee = @inner_named::@ext} : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>, kiln.version = 3 : i32} : () -> ()

