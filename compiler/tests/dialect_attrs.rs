//! Dialect-defined attributes and types: interning identity, parse hooks (through
//! `DialectAsmParser`), print hooks, verify hooks, enum attributes, round trips in the pretty
//! form (also as memref memory spaces, tensor encodings and alias targets), located errors, and
//! the same text through mlir-opt 22 (to which the dialect is unregistered) when installed.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use bumpalo::Bump;
use kiln_compiler::dialect_attrs::{DialectAsmPrinter, ParamSyntax};
use kiln_compiler::syntax::asm::{DialectAsmParser, PResult};
use kiln_compiler::syntax::type_attr::TypeAttrParser;
use kiln_compiler::syntax::{parse_source, print_module, PrintOptions};
use kiln_compiler::{AttrDef, Attribute, Context, Dialect, DialectRegistry, SourceMgr, TypeDef};

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

kiln_compiler::enum_attr! {
    /// A memory space of the test dialect.
    pub enum Space, SPACE = ("tdl", "space", "memory space") {
        /// Global memory.
        Gm = "gm",
        /// Unified buffer.
        Ub = "ub",
    }
}

/// `#tdl.pair<a, b>`: two attributes.
static PAIR: AttrDef = AttrDef {
    dialect: "tdl",
    name: "pair",
    summary: "pair of attributes",
    syntax: ParamSyntax::Custom { parse: parse_pair, print: print_pair },
    verify: Some(verify_pair),
};

/// `!tdl.buf<elem, n>`: an element type and a positive count.
static BUF: TypeDef = TypeDef {
    dialect: "tdl",
    name: "buf",
    summary: "buffer",
    syntax: ParamSyntax::Custom { parse: parse_buf, print: print_buf },
    verify: Some(verify_buf),
};

static TDL: Dialect = Dialect {
    name: "tdl",
    summary: "test dialect",
    ops: &[],
    attrs: &[&SPACE, &PAIR],
    types: &[&BUF],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
};

fn parse_pair<'c>(p: &mut dyn DialectAsmParser<'c>) -> PResult<Vec<Attribute<'c>>> {
    let a = p.parse_attribute()?;
    p.parse_punct(",")?;
    Ok(vec![a, p.parse_attribute()?])
}

fn parse_buf<'c>(p: &mut dyn DialectAsmParser<'c>) -> PResult<Vec<Attribute<'c>>> {
    let elem = p.parse_type()?;
    p.parse_punct(",")?;
    let n = p.parse_integer()?;
    let ctx = p.context();
    Ok(vec![ctx.type_attr(elem), ctx.int_attr(i128::from(n), ctx.int_type(64))])
}

fn print_pair<'c>(p: &mut DialectAsmPrinter<'_, 'c>, params: &[Attribute<'c>]) {
    for (i, &a) in params.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_attribute(a);
    }
}

fn print_buf<'c>(p: &mut DialectAsmPrinter<'_, 'c>, params: &[Attribute<'c>]) {
    if let [elem, n] = params {
        p.print_attribute(*elem);
        p.write(&format!(", {}", n.as_int().unwrap_or_default()));
    }
}

fn verify_pair(params: &[Attribute<'_>]) -> Result<(), String> {
    if params.len() != 2 {
        return Err(format!("expected 2 parameters, got {}", params.len()));
    }
    Ok(())
}

fn verify_buf(params: &[Attribute<'_>]) -> Result<(), String> {
    match params {
        [t, n] if t.as_type().is_some() && n.as_int().is_some_and(|n| n > 0) => Ok(()),
        _ => Err("expected an element type and a positive count".into()),
    }
}

fn registry() -> DialectRegistry {
    let mut r = DialectRegistry::new();
    r.register(&TDL);
    r
}

/// Parses `src` (unregistered ops allowed) and prints it, or renders the diagnostics.
fn reprint(ctx: &Context<'_>, src: &str, generic: bool) -> Result<String, String> {
    let opts = PrintOptions { generic, ..Default::default() };
    match parse_source(ctx, src, "in.mlir") {
        Ok(m) => Ok(print_module(ctx, &m, &opts)),
        Err(diags) => {
            let mut sm = SourceMgr::new();
            sm.add("in.mlir", src);
            Err(diags.iter().map(|d| sm.render(d)).collect())
        }
    }
}

const MODULE: &str = r#"#gm = #tdl.space<gm>
"builtin.module"() ({
  "x.op"() {a = #tdl.space<ub>, b = #gm, c = #tdl<space<ub>>, d = #tdl.pair<1 : i32, "s">, e = #tdl.pair<#tdl.space<gm>, !tdl.buf<i8, 2>>, f = [#tdl.space<ub>]} : () -> ()
  "x.op"() : () -> (tensor<4xf32, #tdl.pair<[1, 2], unit>>, !tdl.buf<f32, 4>)
  "x.op"() : () -> (memref<8x1024xf32, #tdl.space<ub>>, memref<*xi8, #tdl.space<gm>>)
}) : () -> ()
"#;

const PRINTED: &str = r#""builtin.module"() ({
  "x.op"() {a = #tdl.space<ub>, b = #tdl.space<gm>, c = #tdl.space<ub>, d = #tdl.pair<1 : i32, "s">, e = #tdl.pair<#tdl.space<gm>, !tdl.buf<i8, 2>>, f = [#tdl.space<ub>]} : () -> ()
  %0:2 = "x.op"() : () -> (tensor<4xf32, #tdl.pair<[1, 2], unit>>, !tdl.buf<f32, 4>)
  %1:2 = "x.op"() : () -> (memref<8x1024xf32, #tdl.space<ub>>, memref<*xi8, #tdl.space<gm>>)
}) : () -> ()
"#;

#[test]
fn enum_attributes_are_interned_once_per_case() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, registry());
    assert_eq!(Space::Ub.attr(&ctx), Space::Ub.attr(&ctx));
    assert_ne!(Space::Ub.attr(&ctx), Space::Gm.attr(&ctx));
    assert_eq!(Space::of(Space::Gm.attr(&ctx)), Some(Space::Gm));
    assert_eq!(Space::of(ctx.str_attr(b"gm")), None);
    assert_eq!(Space::from_keyword("ub"), Some(Space::Ub));
    assert_eq!(Space::Ub.keyword(), "ub");
    assert_eq!(Space::Ub.attr(&ctx).to_string(), "#tdl.space<ub>");
    // A pair of the same parameters is one value; other parameters make another.
    let one = ctx.int_attr(1, ctx.int_type(32));
    let p1 = ctx.dialect_attr(&PAIR, &[one, Space::Ub.attr(&ctx)]).unwrap();
    let p2 = ctx.dialect_attr(&PAIR, &[one, Space::Ub.attr(&ctx)]).unwrap();
    let p3 = ctx.dialect_attr(&PAIR, &[one, Space::Gm.attr(&ctx)]).unwrap();
    assert_eq!(p1, p2);
    assert_ne!(p1, p3);
    assert_eq!(
        ctx.dialect_attr(&PAIR, &[one]).unwrap_err(),
        "invalid attribute #tdl.pair: expected 2 parameters, got 1"
    );
}

#[test]
fn parsed_values_are_the_built_ones() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, registry());
    ctx.set_allow_unregistered(true);
    let m = parse_source(&ctx, MODULE, "in.mlir").expect("parses");
    let ops: Vec<_> = m.ir.walk(m.top, kiln_compiler::ir::WalkOrder::PreOrder).collect();
    let first = ops[1];
    let attr = |n: &str| m.ir.attr(first, n).unwrap();
    // Pretty, aliased and angle forms all give the interned case.
    for n in ["a", "c"] {
        assert_eq!(attr(n), Space::Ub.attr(&ctx));
    }
    assert_eq!(attr("b"), Space::Gm.attr(&ctx));
    let (def, params) = attr("e").as_dialect().unwrap();
    assert_eq!(def, &PAIR);
    let buf =
        ctx.dialect_type(&BUF, &[ctx.type_attr(ctx.int_type(8)), ctx.int_attr(2, ctx.int_type(64))]).unwrap();
    assert_eq!(params, &[Space::Gm.attr(&ctx), ctx.type_attr(buf)]);
    let mem = m.ir.value_type(m.ir.results(ops[3])[0]);
    let kiln_compiler::TypeKind::MemRef { memory_space, .. } = *mem.kind() else { panic!("a memref") };
    assert_eq!(memory_space, Some(Space::Ub.attr(&ctx)));
}

#[test]
fn dialect_values_round_trip_in_pretty_form() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, registry());
    ctx.set_allow_unregistered(true);
    for generic in [true, false] {
        let out = reprint(&ctx, MODULE, generic).unwrap();
        if generic {
            assert_eq!(out, PRINTED);
        }
        assert_eq!(reprint(&ctx, &out, generic).unwrap(), out);
    }
}

#[test]
fn hook_errors_are_located() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, registry());
    ctx.set_allow_unregistered(true);
    let cases = [
        ("#tdl.space<l1>", "1:26: error: expected tdl.space to be one of: gm, ub"),
        ("#tdl.space", "1:25: error: expected '<'"),
        ("#tdl.pair<1>", "1:26: error: expected ','"),
        ("#tdl.pair<1, 2, 3>", "1:29: error: expected '>'"),
        (
            "#tdl.pair<1, !tdl.buf<f32, 0>>",
            "1:28: error: invalid type !tdl.buf: expected an element type and a positive count",
        ),
        ("#tdl.pair<1, !tdl.buf<f32, x>>", "1:42: error: expected integer value"),
        ("#tdl.pair<1, tensor<>>", "1:35: error: expected non-function type"),
    ];
    for (attr, want) in cases {
        let src = format!("\"x.op\"() {{a = {attr}}} : () -> ()\n");
        let err = reprint(&ctx, &src, true).unwrap_err();
        assert!(err.starts_with(&format!("in.mlir:{want}")), "{attr}: {err}");
    }
    // A kind the dialect lacks stays opaque when unregistered dialects are allowed (Kiln's
    // dialects are subsets of MLIR's); otherwise it is an error
    // (lit-tests/ir/subset-dialects.mlir, lit-tests/dialects/hl/invalid.mlir).
    let src = "\"x.op\"() {a = #tdl.spaces<ub>} : () -> ()\n";
    let out = reprint(&ctx, src, true).unwrap();
    assert!(out.contains("{a = #tdl.spaces<ub>}"), "{out}");
}

#[test]
fn unregistered_dialects_stay_opaque() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let err = TypeAttrParser::new(&ctx).parse_attr("#tdl.space<ub>", 0).unwrap_err();
    assert!(err.message.contains("created with unregistered dialect"), "{}", err.message);
    ctx.set_allow_unregistered(true);
    let (a, _) = TypeAttrParser::new(&ctx).parse_attr("#tdl.space<ub>", 0).unwrap();
    assert!(matches!(
        a.kind(),
        kiln_compiler::AttrKind::Opaque { dialect: "tdl", body: "space<ub>", ty: None }
    ));
    assert_eq!(a.to_string(), "#tdl.space<ub>");
}

#[test]
fn mlir_opt_reads_our_output_back_byte_for_byte() {
    if !Path::new(MLIR_OPT).exists() {
        eprintln!("note: {MLIR_OPT} not installed; skipping");
        return;
    }
    let mut child = Command::new(MLIR_OPT)
        .args(["--allow-unregistered-dialect", "--mlir-print-op-generic"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run mlir-opt");
    // mlir-opt 22 rejects an unregistered dialect's attribute as a memref memory space
    // ("unsupported memory space Attribute": opaque attributes belong to its builtin dialect), so
    // the memref op stays on our side; tensor encodings and everything else go through.
    let ours: String = PRINTED.lines().filter(|l| !l.contains("memref<")).map(|l| format!("{l}\n")).collect();
    child.stdin.take().unwrap().write_all(ours.as_bytes()).unwrap();
    let out = child.wait_with_output().expect("mlir-opt output");
    assert!(out.status.success(), "mlir-opt rejects our output");
    // (mlir-opt ends its output with an empty line)
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{ours}\n"));
}
