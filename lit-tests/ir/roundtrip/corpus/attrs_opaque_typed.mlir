"builtin.module"() ({
  "kiln.op"() {w = {k = #foo.s<"a:b"> : !foo.t<1>}, x = #foo.bar : i32, y = #foo<"baz"> : index, z = [#foo.q<1, 2> : tensor<2xi8>, #foo.r]} : () -> ()
  "kiln.op"() <{p = #foo.bar : i1}> : () -> ()
}) : () -> ()

