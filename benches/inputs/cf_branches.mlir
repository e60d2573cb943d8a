func.func @branches(%a: i32, %b: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2(%b, %a : i32, i32)
^bb1(%x: i32):
  cf.br ^bb3(%x : i32)
^bb2(%y: i32, %z: i32):
  %s = arith.addi %y, %z : i32
  cf.cond_br %c, ^bb3(%s : i32), ^bb1(%s : i32)
^bb3(%r: i32):
  %sw = arith.constant 3 : i32
  cf.switch %r : i32, [
    default: ^bb4,
    0: ^bb5(%r : i32),
    42: ^bb4
  ]
^bb4:
  cf.assert %c, "must \"hold\"\n"
  return %r : i32
^bb5(%q: i32):
  return %q : i32
^bb6:
  cf.br ^bb6
}
func.func @weights(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2 {branch_weights = array<i32: 10, 90>}
^bb1:
  return
^bb2:
  return
}
