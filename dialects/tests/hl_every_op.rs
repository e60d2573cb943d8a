//! Every `hl` op runs on the reference interpreter through its declared evaluation:
//! `every_op/every_op.mlir` uses each op of the dialect at least once (checked here against
//! the dialect's op list), every function runs on seeded inputs, and the bits of every result
//! are pinned by a snapshot (a hash per result), so a change to any op's semantics shows. The
//! same program checks the cost entries the declarations give (`Flops`).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use bumpalo::Bump;
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::syntax::parse_source;
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, SourceMgr};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::interp::program::{dtype_of, run_function};
use kiln_dialects::hl::interp::{random_tensor, Tensor, TensorData};

/// FNV-1a over the bits of every element.
fn bits_hash(t: &Tensor) -> u64 {
    let words: Vec<u64> = match t.data() {
        TensorData::F16(v) => v.iter().map(|x| u64::from(x.to_bits())).collect(),
        TensorData::BF16(v) => v.iter().map(|x| u64::from(x.to_bits())).collect(),
        TensorData::F32(v) => v.iter().map(|x| u64::from(x.to_bits())).collect(),
        TensorData::I1(v) => v.iter().map(|&x| u64::from(x)).collect(),
        TensorData::I8(v) => v.iter().map(|&x| x as u8 as u64).collect(),
        TensorData::I32(v) => v.iter().map(|&x| x as u32 as u64).collect(),
        TensorData::I64(v) => v.iter().map(|&x| x as u64).collect(),
    };
    words.iter().fold(0xcbf2_9ce4_8422_2325, |h, w| {
        w.to_le_bytes().iter().fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    })
}

#[test]
fn every_hl_op_evaluates_and_its_bits_are_pinned() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/every_op/every_op.mlir");
    let text = std::fs::read_to_string(path).unwrap();
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mut sm = SourceMgr::new();
    sm.add(path, &text);
    let render = |d: &[kiln_compiler::Diagnostic<'_>]| d.iter().map(|d| sm.render(d)).collect::<String>();
    let module = parse_source(&ctx, &text, path).unwrap_or_else(|d| panic!("{}", render(&d)));
    verify(&ctx, &module.ir, module.top).unwrap_or_else(|d| panic!("{}", render(&d)));
    let ir = &module.ir;

    let used: BTreeSet<&str> = ir.walk(module.top, WalkOrder::PreOrder).map(|op| ir.op(op).name).collect();
    let missing: Vec<&str> =
        kiln_dialects::hl::HL.ops.iter().map(|d| d.name).filter(|n| !used.contains(n)).collect();
    assert!(missing.is_empty(), "every_op.mlir does not use {missing:?}");

    let body = ir.entry_block(ir.regions(module.top)[0]).unwrap();
    let mut out = String::new();
    for (f, func) in ir.block_ops(body).enumerate() {
        let name = ir.attr(func, "sym_name").and_then(|a| a.as_str()).unwrap();
        let name = String::from_utf8_lossy(name).into_owned();
        let entry = ir.entry_block(ir.regions(func)[0]).unwrap();
        let args: Vec<Tensor> = ir
            .block_args(entry)
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                let (shape, elem) = tensor_parts(ir.value_type(a)).unwrap();
                let dims = shape.iter().map(|&d| d as usize).collect();
                random_tensor(dtype_of(elem).unwrap(), dims, (f * 100 + i) as u64)
            })
            .collect();
        let results = run_function(&ctx, ir, func, &args).unwrap_or_else(|d| panic!("{}", render(&[d])));
        for (i, r) in results.iter().enumerate() {
            let _ = writeln!(out, "@{name} #{i}: {} {:?} {:016x}", r.dtype().name(), r.shape(), bits_hash(r));
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn cost_entries_come_from_the_declarations() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/every_op/every_op.mlir");
    let text = std::fs::read_to_string(path).unwrap();
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let module = parse_source(&ctx, &text, path).unwrap_or_else(|_| panic!("{path} parses"));
    let ir = &module.ir;
    let flops = |name: &str| -> Vec<u64> {
        ir.walk(module.top, WalkOrder::PreOrder)
            .filter(|&op| ir.op(op).name == name)
            .map(|op| kiln_dialects::hl::interfaces::cost(ir, op).flops)
            .collect()
    };
    // 2 * (result elements) * (contraction length): matmul K = 6 (also with transpose_b),
    // batch_matmul K = 4 (also against a rank-2 operand), conv2d K = I * KH * KW (4 * 3 * 3;
    // with groups = 2, 2 * 3 * 3; with a bias, 2 * 3 * 3).
    assert_eq!(flops("hl.matmul"), [2 * 20 * 6, 2 * 20 * 6, 2 * 9 * 2]);
    assert_eq!(flops("hl.batch_matmul"), [2 * 12 * 4, 2 * 12 * 4]);
    assert_eq!(flops("hl.conv2d"), [2 * 72 * 36, 2 * 24 * 18, 2 * 12 * 18]);
    // Reductions count input elements, elementwise ops result elements, layout ops nothing.
    assert_eq!(flops("hl.reduce_sum"), [60, 21, 12]);
    assert_eq!(flops("hl.pow")[..2], [10 * 12, 10 * 6]);
    assert_eq!(flops("hl.transpose"), [0]);
    assert_eq!(flops("hl.split"), [0]);
    assert_eq!(flops("hl.max_pool2d"), [8 * 18, 8 * 9]);
}
