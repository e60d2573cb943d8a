"builtin.module"() ({
  "func.func"() <{function_type = (i32, f32) -> (i32, f32), sym_name = "ext", sym_visibility = "private"}> ({
  }) {llvm.emit_c_interface} : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "decl_noargs", sym_visibility = "private"}> ({
  }) : () -> ()
  "func.func"() <{arg_attrs = [{foo.arg = 1 : i32}, {foo.noalias}], function_type = (i32, f32) -> (i32, f32), res_attrs = [{foo.res}, {}], sym_name = "multi"}> ({
  ^bb0(%arg3: i32, %arg4: f32):
    %2:2 = "func.call"(%arg3, %arg4) <{callee = @ext}> : (i32, f32) -> (i32, f32)
    "func.call"() <{callee = @decl_noargs}> : () -> ()
    %3 = "func.constant"() <{value = @multi}> : () -> ((i32, f32) -> (i32, f32))
    %4:2 = "func.call_indirect"(%3, %2#0, %2#1) : ((i32, f32) -> (i32, f32), i32, f32) -> (i32, f32)
    "func.return"(%4#0, %4#1) : (i32, f32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "nested_vis", sym_visibility = "nested"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = ((i32) -> (i32, i32), i32) -> ((i32) -> i32), sym_name = "fn_type_arg"}> ({
  ^bb0(%arg1: (i32) -> (i32, i32), %arg2: i32):
    %0:2 = "func.call_indirect"(%arg1, %arg2) : ((i32) -> (i32, i32), i32) -> (i32, i32)
    %1 = "func.constant"() <{value = @id}> : () -> ((i32) -> i32)
    "func.return"(%1) : ((i32) -> i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> i32, sym_name = "id"}> ({
  ^bb0(%arg0: i32):
    "func.return"(%arg0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()

