"builtin.module"() ({
  %0 = "foo.bar"() {x = #foo.y<1>} : () -> !foo.t
  %1 = "foo.baz"(%0) <{other = "s", prop = 1 : i32}> {attr = [#foo<"opaque data">, #foo.z]} : (!foo.t) -> !foo.t<"param", 3>
  %2:3 = "foo.multi"(%0, %1) : (!foo.t, !foo.t<"param", 3>) -> (i32, !foo<"weird type">, !foo.nested<!foo.inner<i32>>)
  "foo.region_op"(%2#0) ({
  ^bb0(%arg0: i32, %arg1: !foo.t):
    "foo.term"(%arg0)[^bb1] : (i32) -> ()
  ^bb1:  // pred: ^bb0
    "foo.term2"() : () -> ()
  }, {
    "foo.other"() : () -> ()
  }) {dialect.attr} : (i32) -> ()
  "foo.cfg"() ({
    "foo.successors"()[^bb1, ^bb2] : () -> ()
  ^bb1:  // pred: ^bb0
    "foo.successors"(%0)[^bb2] : (!foo.t) -> ()
  ^bb2(%4: i64):  // 2 preds: ^bb0, ^bb1
    "foo.ret"(%4) : (i64) -> ()
  }) : () -> ()
  "bar.empty_region"() ({
  }) : () -> ()
  "bar.empty_block"() ({
  ^bb0:
  }) : () -> ()
  "weird.name-with$chars"() : () -> ()
  "foo.props_only"() <{}> : () -> ()
  %3 = "foo.fn_result"() : () -> ((i32) -> i32)
}) : () -> ()

