"unk.op"() ({
  "unk.inner"() ({
    "unk.leaf"() : () -> ()
  }) : () -> ()
