"unk.op"() {ok = "cafÃ©"} : () -> ()
"unk.op"() {s = "bad ÿþ byte"} : () -> ()
"unk.op"() : () -> () ÿ
