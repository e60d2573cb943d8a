//! Emitting the class form back: `disassemble_class` -> parse -> `emit_class` gives an equal
//! program (and equal bytes), and malformed class IR is a located error.

mod common;

#[path = "../../vm/tests/classes/mod.rs"]
mod classes;

use common::{emit_class_text, emit_class_text_unverified, emit_text, head, tiny};
use kiln_bytecode::isa::Inst;
use kiln_bytecode::shape::ClassModule;
use kiln_targets::Target;

/// Disassembles `p` for `target`, emits the text again and checks that the programs (and
/// their encodings) are equal; returns the text.
fn round_trip(p: &ClassModule, target: &Target) -> String {
    kiln_bytecode::validate_class(p, target).unwrap();
    let text = kiln_emit::disassemble_class(p, target).unwrap();
    let back = emit_with_target(&text, target).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.class, p.class, "{text}");
    assert_eq!(back.module, p.module, "{text}");
    assert_eq!(kiln_bytecode::encode_class(&back), kiln_bytecode::encode_class(p));
    kiln_bytecode::validate_class(&back, target).unwrap();
    text
}

fn emit_with_target(text: &str, target: &Target) -> Result<ClassModule, String> {
    if target.name == tiny().name {
        return emit_class_text(text);
    }
    emit_class_text(&text.replace(&format!("\"{}\"", target.name), "\"tiny-npu\"")).map(|mut p| {
        p.module.target = target.name.clone();
        p
    })
}

#[test]
fn the_head_copy_round_trips() {
    round_trip(&head::program(), &tiny());
}

#[test]
fn the_chain_and_softmax_classes_round_trip() {
    for target in [tiny(), Target::load("ascend910b").unwrap()] {
        for (tile, cols) in [(8, 16), (4, 40)] {
            round_trip(&classes::chain(&target, tile, cols), &target);
            round_trip(&classes::softmax(&target, tile, cols), &target);
        }
    }
}

#[test]
fn a_class_is_not_a_static_module() {
    let text = kiln_emit::disassemble_class(&head::program(), &tiny()).unwrap();
    let e = emit_text(&text).unwrap_err();
    assert!(e.contains("module is a shape class"), "{e}");
}

/// The error of emitting the head copy's text with `from` replaced by `to`.
fn error_after(from: &str, to: &str) -> String {
    let text = kiln_emit::disassemble_class(&head::program(), &tiny()).unwrap();
    assert!(text.contains(from), "`{from}` not in\n{text}");
    emit_class_text(&text.replacen(from, to, 1)).unwrap_err()
}

#[test]
fn malformed_classes_are_located_errors() {
    let cases = [
        (
            "npuvec.param_ranges = array<i64: 1, 1073741824>",
            "npuvec.param_ranges = array<i64: 5, 2>",
            "parameter 0 has the range 5..=2, whose min exceeds its max",
        ),
        (
            "npuvec.param_ranges = array<i64: 1, 1073741824>",
            "npuvec.param_ranges = array<i64: 1>",
            "has 1 launch parameters (`index` arguments) but `npuvec.param_ranges` gives 1 values",
        ),
        (", npuvec.param_ranges = array<i64: 1, 1073741824>", "", "but no `npuvec.param_ranges`"),
        (
            "npuvec.params = [\"n\"]",
            "npuvec.params = [\"n\", \"1\"]",
            "gives 2 launch parameters (`npuvec.params`), its kernel takes 1",
        ),
        (
            "npuvec.params = [\"n\"]",
            "npuvec.params = [\"n +\"]",
            "`npuvec.params` of launch 0, parameter 0: `n +`: column 4: expected a number",
        ),
        (
            "npuvec.size = \"min(n, 8) * 64\"",
            "npuvec.size = \"min(m, 8) * 64\"",
            "column 5: unknown symbol 'm' (the symbols are n)",
        ),
        (
            "extent_dims = array<i64: 0>",
            "extent_dims = array<i64: 2>",
            "'npuvec.load' op expected 'extent_dims' to be dims of the view (0 to 1), but got 2",
        ),
        (
            "extent_dims = array<i64: 0>",
            "extent_dims = array<i64: 0, 1>",
            "'npuvec.load' op expected 1 'extent_dims' (one per extent operand), but got 2",
        ),
        (
            "npuvec.symbols = [\"n\"]",
            "npuvec.symbols = [\"n\", \"n\"]",
            "`npuvec.symbols`: symbol 1 ('n') is empty or named twice",
        ),
        (
            "npuvec.size = \"min(n, 8) * 64\"",
            "npuvec.size = 64",
            "expected `npuvec.size` to be a string, but got 64",
        ),
        (
            "npuvec.input_symbols = array<i64: 0, -1>",
            "npuvec.input_symbols = array<i64: -1, -1>",
            "input 0 dim 0 is `?` but `npuvec.input_symbols` gives it no symbol",
        ),
        (
            "npuvec.output_sizes = [\"min(n, 8)\", \"\"]",
            "npuvec.output_sizes = [\"min(n, 8)\"]",
            "`npuvec.output_sizes` has 1 entries, the outputs have 2 dims",
        ),
    ];
    for (from, to, want) in cases {
        let e = error_after(from, to);
        assert!(e.contains(want) && e.contains("input.mlir:"), "`{to}`: expected `{want}` in\n{e}");
    }
}

/// An extent is an operand use: its value keeps its register up to the store, so a scalar
/// defined after the load, when r0 (`n`) and r1 (the tile) are still live and the extent's value
/// has no other use left, does not take its register r2.
#[test]
fn an_extent_keeps_its_register_live() {
    let text = kiln_emit::disassemble_class(&head::program(), &tiny()).unwrap();
    let unpinned: Vec<String> = text
        .lines()
        .map(|l| l.replace(" {npuvec.reg = 1 : i64}", "").replace(" {npuvec.reg = 2 : i64}", ""))
        .collect();
    let mut lines = unpinned.clone();
    let flag = lines.iter().position(|l| l.contains("\"npuvec.set_flag\"")).expect("a set_flag");
    let extra = "    %extra = \"arith.addi\"(%arg3, %2) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index";
    lines.insert(flag, extra.to_string());
    let p = emit_class_text(&lines.join("\n")).unwrap_or_else(|e| panic!("{e}"));
    let code = &p.module.kernels[0].code;
    let dst = |i: usize| match code[i] {
        Inst::Scalar { dst, .. } => dst,
        ref other => panic!("instruction {i} is {other:?}"),
    };
    let (rows, added) = (dst(1), dst(3));
    let extents = &p.class.kernels[0].extents;
    assert_eq!(
        extents.iter().map(|e| (e.inst, e.dim, e.reg)).collect::<Vec<_>>(),
        [(2, 0, rows), (6, 0, rows)]
    );
    assert_ne!(added, rows, "the extent's register was reused while it is live");
    assert!(!unpinned.join("\n").contains("npuvec.reg = 2"), "the test must not pin the extent");
}

/// The emitter is a library function that may meet IR the verifier has not seen: every text
/// with one line of the chain's disassembly removed, or one attribute value swapped for another
/// kind, is emitted or refused, never a panic, verified first or not.
#[test]
fn damaged_class_text_is_refused_not_a_panic() {
    let text = kiln_emit::disassemble_class(&classes::chain(&tiny(), 8, 16), &tiny()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for skip in 0..lines.len() {
        let damaged: Vec<&str> =
            lines.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, l)| *l).collect();
        let _ = emit_class_text(&damaged.join("\n"));
        let _ = emit_class_text_unverified(&damaged.join("\n"));
    }
    for (from, to) in [
        ("extent_dims = array<i64: 0>", "extent_dims = \"x\""),
        ("extent_dims = array<i64: 0>", "extent_dims = array<i64: 1, 0>"),
        ("[\"n\"]", "array<i64: 1>"),
        ("npuvec.params = [\"n\", \"ceil_div(n, 8)\"]", "npuvec.params = [1]"),
        ("npuvec.size = \"n * 64\"", "npuvec.size = 3"),
        ("npuvec.param_ranges = array<i64: 1, 1099511627776, 1, 4294967296>", "npuvec.param_ranges = 1"),
        (", index, index) -> ()", ", index, f32) -> ()"),
    ] {
        assert!(text.contains(from), "`{from}` not in\n{text}");
        let _ = emit_class_text(&text.replace(from, to));
        assert!(emit_class_text_unverified(&text.replace(from, to)).is_err(), "`{to}` is accepted");
    }
}
