//! Custom syntax of `builtin` and `func`: mlir-opt 22's custom output parses and prints back
//! unchanged, and its generic form agrees with mlir-opt's.

use bumpalo::Bump;
use kiln_compiler::syntax::{parse_source, print_module, PrintOptions};
use kiln_compiler::{Context, SourceMgr};

/// mlir-opt 22's custom output for a module exercising every piece of the func syntax.
const CUSTOM: &str = r#"module @m attributes {foo.x = 1 : i32} {
  func.func private @decl(i32, f32 {foo.a}) -> (i32 {foo.r})
  func.func @f(%arg0: i32 {foo.noalias}, %arg1: i32) -> i32 attributes {foo} {
    %0 = call @g(%arg0) {foo.c} : (i32) -> i32
    %1:2 = call @h() : () -> (i32, i32)
    return {foo.d} %0 : i32
  }
  func.func nested @g(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
  func.func @h() -> (i32, i32) {
    %0 = "foo.c"() : () -> i32
    return %0, %0 : i32, i32
  }
  func.func @e() {
    return
  }
  func.func private @fr() -> ((i32) -> i32)
}

"#;

fn print(src: &str, generic: bool) -> String {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(true);
    let m = match parse_source(&ctx, src, "in.mlir") {
        Ok(m) => m,
        Err(d) => {
            let mut sm = SourceMgr::new();
            sm.add("in.mlir", src);
            panic!("{}", d.iter().map(|d| sm.render(d)).collect::<String>());
        }
    };
    print_module(&ctx, &m, &PrintOptions { generic, ..Default::default() }) + "\n"
}

#[test]
fn custom_form_round_trips() {
    assert_eq!(print(CUSTOM, false), CUSTOM);
}

#[test]
fn custom_to_generic_to_custom() {
    let generic = print(CUSTOM, true);
    assert!(generic.contains(
        "\"func.func\"() <{arg_attrs = [{foo.noalias}, {}], function_type = (i32, i32) -> i32, sym_name = \"f\"}> ({"
    ));
    assert!(generic.contains("= \"func.call\"() <{callee = @h}> : () -> (i32, i32)"), "{generic}");
    assert_eq!(print(&generic, false), CUSTOM);
}
