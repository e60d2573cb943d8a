"builtin.module"() ({
  "kiln.strings"() {"0digitkey" = 1 : i8, _under = "u", backslash = "a\\b", dollar$ = "d", dot.key = "k", empty = "", hexesc = "\00\01\1F\7F\FF", "k\22q" = 2 : i8, "key with spaces" = "v", newline = "line1\0Aline2", plain = "hello", punct = "~!@#$%^&*()_+-=[]{}|;:,./<>?`'", quote = "say \22hi\22", spaces = "  lead and trail  ", tab = "a\09b", utf8 = "caf\C3\A9 \E2\82\AC"} : () -> ()
  "kiln.bytes"() {bad_utf8 = "\FF\FE\80", ctrl = "\01\02\1B[0m", mixed = "ok\C3("} : () -> ()
  "kiln.sym"() {sym_name = "has space"} : () -> ()
  "kiln.use_sym"() {digit = @"1st", dollar = @a$b, dot = @a.b, nested = @outer::@inner::@"leaf node", plain = @plain_sym, ref = @"has space"} : () -> ()
  "kiln.op name with space"() : () -> ()
  "kiln.esc\22aped"() : () -> ()
}) : () -> ()

