//! Elementwise groups (runs of `f32` vector instructions executed block by block) give the bits,
//! counters, errors and reported events of one-at-a-time execution: random kernels run once
//! with groups and once without (`VmConfig::fast_paths`), both observed by an event sink,
//! compared byte for byte and event for event; and every
//! binary op followed by every unary op in place, which a group may run as one pass.

mod common;

use common::*;
use kiln_bytecode::isa::{Atomic, BinaryOp, Buf, DType, Inst, Pipe, Scalar, Src, UnaryOp};
use kiln_bytecode::module::Module;
use kiln_vm::{Outputs, Vm, VmConfig};

/// The unary and binary ops with a float form (`not`, `and` and `or` are integer-only).
fn float_unary_ops() -> Vec<UnaryOp> {
    UnaryOp::ALL.into_iter().filter(|op| op.takes_floats()).collect()
}

fn float_binary_ops() -> Vec<BinaryOp> {
    BinaryOp::ALL.into_iter().filter(|op| op.takes_floats()).collect()
}

/// A kernel that loads `bufs.len()` buffers from argument 0, runs `ops` random vector
/// instructions over them (with barriers between some; destinations and unary
/// sources of `bufs[0]`'s shape, binary sources of any) and stores every buffer to argument 1.
fn kernel(rng: &mut Rng, bufs: &[Buf], ops: usize) -> Vec<Inst> {
    let n = bufs[0].rows * bufs[0].cols;
    let dims = |b: &Buf| vec![(b.rows, i64::from(b.cols)), (b.cols, 1)];
    let mut code: Vec<Inst> = bufs
        .iter()
        .enumerate()
        .map(|(i, b)| Inst::Load {
            dst: *b,
            src: view(0, None, i as i64 * i64::from(n), &dims(b)),
            zero_pad: false,
        })
        .collect();
    let src = |rng: &mut Rng| -> Src {
        match rng.below(6) {
            0 => Src::Imm(Scalar::Float([0.5, -1.25, 3.0, 1e-3][rng.below(4)])),
            1 => Src::Imm(Scalar::Int(2)),
            _ => Src::Buf(bufs[rng.below(bufs.len())]),
        }
    };
    let (unary, binary) = (float_unary_ops(), float_binary_ops());
    for _ in 0..ops {
        let full: Vec<&Buf> =
            bufs.iter().filter(|b| (b.rows, b.cols) == (bufs[0].rows, bufs[0].cols)).collect();
        let dst = *full[rng.below(full.len())];
        code.push(match rng.below(9) {
            0 => Inst::Barrier { pipe: Pipe::V },
            1..=3 => {
                Inst::Unary { op: unary[rng.below(unary.len())], dst, src: *full[rng.below(full.len())] }
            }
            _ => {
                let (a, b) = (src(rng), src(rng));
                Inst::Binary { op: binary[rng.below(binary.len())], dst, a, b }
            }
        });
    }
    code.extend(bufs.iter().enumerate().map(|(i, b)| Inst::Store {
        dst: view(1, None, i as i64 * i64::from(n), &dims(b)),
        src: *b,
        atomic: Atomic::None,
    }));
    code
}

fn module_of(code: Vec<Inst>, elems: u64) -> Module {
    module(code, 1, &[spec(DType::F32, &[elems])], &[spec(DType::F32, &[elems])])
}

/// Values with NaNs, infinities, zeros of both signs, subnormals and ordinary numbers.
fn inputs(rng: &mut Rng, n: usize) -> Vec<f32> {
    let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, 1e-40, -3.5, 88.0];
    let plain = randoms(n, rng.next(), -4.0, 4.0);
    plain
        .into_iter()
        .map(|v| if rng.below(10) == 0 { specials[rng.below(specials.len())] } else { v })
        .collect()
}

/// Runs `m` under `config` with groups and one instruction at a time, both observed, and
/// checks that they report the same events (and agree where both succeed or both fail).
fn both(config: VmConfig, m: &Module, x: &[f32]) -> (Result<Outputs, String>, Result<Outputs, String>) {
    let input = vec![tensor(m.host.inputs[0].clone(), f32_bytes(x))];
    let (grouped, single) = fast_and_reference(config, m, &input);
    assert_same_runs("groups", &grouped, &single);
    (grouped.map(|(o, _)| o), single.map(|(o, _)| o))
}

#[test]
fn random_groups_match_one_instruction_at_a_time() {
    let config = VmConfig::default();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..300 {
        let rows = [1u32, 2, 3][rng.below(3)];
        let cols = [1u32, 7, 64, 255, 256, 257, 300][rng.below(7)];
        let pitch_pad = [0u32, 8][rng.below(2)];
        let nbufs = 2 + rng.below(3);
        let row_bytes = (cols + pitch_pad).div_ceil(8) * 32;
        let size = rows * row_bytes;
        let mut bufs: Vec<Buf> = (0..nbufs as u32)
            .map(|i| Buf { pitch: row_bytes / 4, ..ub(DType::F32, i * size, rows, cols) })
            .collect();
        if rng.below(2) == 0 {
            // A broadcast row or column beside the others (its load and store are of its own
            // shape).
            let end = bufs.iter().map(|b| b.addr + b.rows * b.pitch * 4).max().unwrap_or(0);
            let (r, c) = if rng.below(2) == 0 { (1, cols) } else { (rows, 1) };
            bufs.push(Buf { pitch: row_bytes / 4, ..ub(DType::F32, end, r, c) });
        }
        if rng.below(4) == 0 {
            // A buffer that partly overlaps another: a group must end before it.
            let shifted = Buf { addr: bufs[0].addr + 32, ..bufs[0] };
            bufs.push(shifted);
        }
        if bufs.iter().any(|b| u64::from(b.addr) + b.span_bytes() > 16384) {
            continue;
        }
        let ops = 3 + rng.below(12);
        let code = kernel(&mut rng, &bufs, ops);
        let elems = u64::from(rows * cols) * bufs.len() as u64;
        let m = module_of(code, elems);
        let x = inputs(&mut rng, elems as usize);
        let (grouped, single) = both(config, &m, &x);
        let (grouped, single) = (grouped.unwrap(), single.unwrap());
        assert_eq!(grouped.tensors[0].bytes, single.tensors[0].bytes, "case {case}: results differ");
        assert_eq!(grouped.counters.total, single.counters.total, "case {case}: counters differ");
    }
}

#[test]
fn exact_transcendentals_in_groups_are_libm() {
    let config = VmConfig { exact_transcendentals: true, ..VmConfig::default() };
    let (a, b) = (ub(DType::F32, 0, 1, 300), ub(DType::F32, 2048, 1, 300));
    let code = vec![
        Inst::Load { dst: a, src: view(0, None, 0, &[(300, 1)]), zero_pad: false },
        Inst::Unary { op: UnaryOp::Exp, dst: b, src: a },
        Inst::Unary { op: UnaryOp::Tanh, dst: b, src: b },
        Inst::Store { dst: view(1, None, 0, &[(300, 1)]), src: b, atomic: Atomic::None },
    ];
    let m = module(code, 1, &[spec(DType::F32, &[300])], &[spec(DType::F32, &[300])]);
    let x = randoms(300, 7, -3.0, 3.0);
    let (grouped, single) = both(config, &m, &x);
    let got = f32s(&grouped.unwrap().tensors[0].bytes);
    assert_eq!(f32_bytes(&got), single.unwrap().tensors[0].bytes);
    for (v, g) in x.iter().zip(&got) {
        let want = libm::tanh(f64::from(libm::exp(f64::from(*v)) as f32)) as f32;
        assert_eq!(g.to_bits(), want.to_bits(), "exp then tanh of {v}");
    }
}

#[test]
fn a_group_that_would_exhaust_the_budget_fails_at_the_same_instruction() {
    let mut rng = Rng(42);
    let bufs = [ub(DType::F32, 0, 2, 256), ub(DType::F32, 4096, 2, 256)];
    let code = kernel(&mut rng, &bufs, 12);
    let m = module_of(code, 2 * 512);
    let x = inputs(&mut rng, 2 * 512);
    let full = Vm::new(&tiny()).run(&m, &[tensor(m.host.inputs[0].clone(), f32_bytes(&x))]).unwrap();
    // An upper bound of the steps the run takes: a step per instruction, vector repeat and 256
    // bytes moved, and the core's start (one per 256 bytes of the 16 KiB UB, and one).
    let c = &full.counters.total;
    let needed = c.instructions + c.repeats + (c.gm_read + c.gm_written) / 256 + 16384 / 256 + 1;
    let (mut failures, mut successes) = (0, 0);
    for max_steps in (needed / 2)..needed + 8 {
        let (grouped, single) = both(VmConfig { max_steps, ..VmConfig::default() }, &m, &x);
        match (grouped, single) {
            (Ok(g), Ok(s)) => {
                assert_eq!(g.tensors[0].bytes, s.tensors[0].bytes);
                successes += 1;
            }
            (Err(g), Err(s)) => {
                assert_eq!(g, s, "budget {max_steps}");
                failures += 1;
            }
            (g, s) => panic!("budget {max_steps}: grouped {:?}, single {:?}", g.is_ok(), s.is_ok()),
        }
    }
    assert!(successes > 0, "every budget in the range was exhausted");
    assert!(failures > 0, "no budget in the range was exhausted");
}

/// Every binary op followed by every unary op in place (which a group runs as one pass where
/// that keeps the bits) on operands that make NaNs (0 / 0, inf - inf, 0 * inf) and signed
/// zeros: the bits of one instruction at a time, NaN signs included.
#[test]
fn binary_then_unary_in_place_gives_the_bits_of_two_instructions() {
    let config = VmConfig::default();
    let specials = [0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -f32::NAN, 1.5, -2.0];
    let n = specials.len() * specials.len();
    let (a, b) = (ub(DType::F32, 0, 1, n as u32), ub(DType::F32, 1024, 1, n as u32));
    let x: Vec<f32> = (0..n)
        .map(|i| specials[i / specials.len()])
        .chain((0..n).map(|i| specials[i % specials.len()]))
        .collect();
    for op in float_binary_ops() {
        for then in float_unary_ops() {
            let dims = vec![(1, n as i64), (n as u32, 1)];
            let code = vec![
                Inst::Load { dst: a, src: view(0, None, 0, &dims), zero_pad: false },
                Inst::Load { dst: b, src: view(0, None, n as i64, &dims), zero_pad: false },
                Inst::Binary { op, dst: a, a: Src::Buf(a), b: Src::Buf(b) },
                Inst::Unary { op: then, dst: a, src: a },
                Inst::Store { dst: view(1, None, 0, &dims), src: a, atomic: Atomic::None },
            ];
            let m = module_of(code, 2 * n as u64);
            let (grouped, single) = both(config, &m, &x);
            let (grouped, single) = (grouped.unwrap(), single.unwrap());
            assert_eq!(grouped.tensors[0].bytes, single.tensors[0].bytes, "{op:?} then {then:?}");
        }
    }
}
