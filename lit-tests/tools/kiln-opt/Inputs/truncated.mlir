"func.func"() <{function_type = () -> (), sym_name = "truncated"}> ({
  "func.return"() : () -> ()
}) : () -