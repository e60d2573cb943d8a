//! The disassembly of a program compiled for a shape class: parameters as `index` arguments
//! that its code reads as registers, extents (operands naming the value of their register),
//! ranges, `?` dims and the host's expressions.

mod common;

use common::head::program;
use common::tiny;
use kiln_bytecode::isa::Reg;

#[test]
fn a_class_is_written_out() {
    let p = program();
    kiln_bytecode::validate_class(&p, &tiny()).unwrap();
    let text = kiln_emit::disassemble_class(&p, &tiny()).unwrap();
    for want in [
        "npuvec.param_ranges = array<i64: 1, 1073741824>",
        "function_type = (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>, index) -> ()",
        "%arg3: index):",
        "%3 = \"arith.minsi\"(%arg3, %2)",
        "\"npuvec.load\"(%arg1, %4, %1, %3) <{extent_dims = array<i64: 0>, sizes = array<i64: 8, 16>",
        "\"npuvec.store\"(%1, %arg2, %5, %3) <{extent_dims = array<i64: 0>, sizes = array<i64: 8, 16>",
        "npuvec.symbols = [\"n\"]",
        "npuvec.input_symbols = array<i64: 0, -1>",
        "npuvec.output_sizes = [\"min(n, 8)\", \"\"]",
        "npuvec.size = \"min(n, 8) * 64\"",
        "npuvec.params = [\"n\"]",
    ] {
        assert!(text.contains(want), "missing `{want}` in:\n{text}");
    }
    // The module alone is the static skeleton, whose disassembly has none of it.
    let plain = kiln_emit::disassemble(&p.module, &tiny()).unwrap_err();
    assert_eq!(
        plain.to_string(),
        "kernel 'head' instruction 1 (scalar): reads r0 before any instruction writes it"
    );
}

#[test]
fn an_extent_from_a_register_never_written_is_refused() {
    let mut p = program();
    p.class.kernels[0].extents[0].reg = Reg(9);
    let e = kiln_emit::disassemble_class(&p, &tiny()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "kernel 'head' instruction 2 (load): reads r9 before any instruction writes it"
    );
}
