func.func private @ext(i32, f32) -> (i32, f32) attributes {llvm.emit_c_interface}
func.func private @decl_noargs()
func.func @multi(%a: i32 {foo.arg = 1 : i32}, %b: f32 {foo.noalias}) -> (i32 {foo.res}, f32) {
  %0:2 = func.call @ext(%a, %b) : (i32, f32) -> (i32, f32)
  func.call @decl_noargs() : () -> ()
  %f = func.constant @multi : (i32, f32) -> (i32, f32)
  %1:2 = func.call_indirect %f(%0#0, %0#1) : (i32, f32) -> (i32, f32)
  return %1#0, %1#1 : i32, f32
}
func.func nested @nested_vis() {
  return
}
func.func @fn_type_arg(%cb: (i32) -> (i32, i32), %x: i32) -> ((i32) -> i32) {
  %r:2 = func.call_indirect %cb(%x) : (i32) -> (i32, i32)
  %g = func.constant @id : (i32) -> i32
  return %g : (i32) -> i32
}
func.func @id(%x: i32) -> i32 {
  return %x : i32
}
