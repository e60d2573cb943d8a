//! Deferred loads leave the UB as copying at every load would: random kernels of loads
//! (contiguous and strided, dense and padded buffers, zero-padded, overlapping), stores (into
//! the GM a later or pending load reads), elementwise groups over loaded buffers,
//! reductions (which read a pending source from GM), copies and fills run once with deferral
//! and once copying at each load (`VmConfig::fast_paths`), both observed by an event sink,
//! compared byte for byte and event for event, counters and errors included.

mod common;

use common::*;
use kiln_bytecode::isa::{
    Atomic, BinaryOp, Buf, DType, Inst, Pipe, ReduceOp, Reg, Scalar, ScalarOp, Src, UnaryOp,
};
use kiln_bytecode::module::Module;
use kiln_vm::{Outputs, VmConfig};

/// Runs `m` deferring loads and copying each at once, both observed, and checks that they
/// report the same events.
fn both(m: &Module, x: &[f32]) -> (Result<Outputs, String>, Result<Outputs, String>) {
    let input = vec![tensor(m.host.inputs[0].clone(), f32_bytes(x))];
    let (deferred, eager) = fast_and_reference(VmConfig::default(), m, &input);
    assert_same_runs("deferred loads", &deferred, &eager);
    (deferred.map(|(o, _)| o), eager.map(|(o, _)| o))
}

fn assert_same(case: usize, deferred: &Result<Outputs, String>, eager: &Result<Outputs, String>) {
    match (deferred, eager) {
        (Ok(d), Ok(e)) => {
            assert_eq!(d.tensors[0].bytes, e.tensors[0].bytes, "case {case}: results differ");
            assert_eq!(d.counters.total, e.counters.total, "case {case}: counters differ");
        }
        (Err(d), Err(e)) => assert_eq!(d, e, "case {case}: errors differ"),
        (d, e) => panic!("case {case}: deferred {d:?}, eager {e:?}"),
    }
}

/// GM slots of `slot` elements: argument 0 (the input) and argument 1 (the output) have
/// `SLOTS` each; random loads read slots of either, random stores write the first `SCRATCH`
/// of argument 1, and the kernel ends by storing every buffer to the slots after them.
const SLOTS: usize = 12;
const SCRATCH: usize = 4;

/// A random kernel over `bufs` (all of one shape, `slot` elements apart in GM at most).
fn kernel(rng: &mut Rng, bufs: &[Buf], slot: i64, ops: usize) -> Vec<Inst> {
    let (rows, cols) = (bufs[0].rows, bufs[0].cols);
    // A dense view, or one whose rows are `cols + 3` apart (several runs).
    let dims = |rng: &mut Rng| -> Vec<(u32, i64)> {
        if rng.below(3) == 0 && rows > 1 {
            vec![(rows, i64::from(cols) + 3), (cols, 1)]
        } else {
            vec![(rows, i64::from(cols)), (cols, 1)]
        }
    };
    let pick = |rng: &mut Rng| bufs[rng.below(bufs.len())];
    let mut code = Vec::new();
    for _ in 0..ops {
        code.push(match rng.below(13) {
            0..=3 => {
                let arg = rng.below(2) as u16;
                let base = rng.below(SCRATCH) as i64 * slot + rng.below(4) as i64;
                Inst::Load {
                    dst: pick(rng),
                    src: view(arg, None, base, &dims(rng)),
                    zero_pad: rng.below(5) == 0,
                }
            }
            4 => {
                let base = rng.below(SCRATCH) as i64 * slot + rng.below(4) as i64;
                Inst::Store { dst: view(1, None, base, &dims(rng)), src: pick(rng), atomic: Atomic::None }
            }
            5..=7 => {
                let (a, b) = (Src::Buf(pick(rng)), Src::Buf(pick(rng)));
                let op = [BinaryOp::Add, BinaryOp::Mul, BinaryOp::Max, BinaryOp::Sub][rng.below(4)];
                Inst::Binary { op, dst: pick(rng), a, b }
            }
            8 => {
                Inst::Unary { op: [UnaryOp::Exp, UnaryOp::Neg][rng.below(2)], dst: pick(rng), src: pick(rng) }
            }
            9 => Inst::Copy { dst: pick(rng), src: pick(rng) },
            10 => Inst::Fill { dst: pick(rng), value: Scalar::Float(0.25) },
            // Into the first column of a buffer (the source's own now and then).
            11 => Inst::Reduce {
                op: [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Prod][rng.below(3)],
                dst: Buf { cols: 1, ..pick(rng) },
                src: pick(rng),
                accumulate: rng.below(2) == 0,
            },
            _ => Inst::Barrier { pipe: Pipe::V },
        });
    }
    code.extend(bufs.iter().enumerate().map(|(i, b)| Inst::Store {
        dst: view(1, None, (SCRATCH + i) as i64 * slot, &[(rows, i64::from(cols)), (cols, 1)]),
        src: *b,
        atomic: Atomic::None,
    }));
    code
}

fn module_of(code: Vec<Inst>, elems: u64) -> Module {
    module(code, 1, &[spec(DType::F32, &[elems])], &[spec(DType::F32, &[elems])])
}

#[test]
fn random_kernels_match_copying_at_every_load() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut ran = 0;
    for case in 0..400 {
        let rows = [1u32, 2, 3][rng.below(3)];
        let cols = [1u32, 8, 37, 64, 200][rng.below(5)];
        // Dense buffers, or rows padded to 32 bytes and more.
        let pitch = if rng.below(2) == 0 { cols } else { (cols * 4).div_ceil(32) * 8 + 8 };
        let span = ((rows - 1) * pitch + cols) * 4;
        // Addresses on a 32-byte grid of a few spans: buffers overlap now and then.
        let grid = (span.div_ceil(32) * 32).max(32);
        let nbufs = 2 + rng.below(4);
        let bufs: Vec<Buf> = (0..nbufs)
            .map(|_| {
                let addr = (rng.below(2 * nbufs) as u32 * grid / 2) / 32 * 32;
                Buf { pitch, ..ub(DType::F32, addr, rows, cols) }
            })
            .collect();
        if bufs.iter().any(|b| u64::from(b.addr) + b.span_bytes() > 16384) {
            continue;
        }
        let slot = i64::from(rows) * (i64::from(cols) + 3) + 4;
        assert!(SCRATCH + nbufs <= SLOTS);
        let ops = 6 + rng.below(16);
        let code = kernel(&mut rng, &bufs, slot, ops);
        let elems = SLOTS as u64 * slot as u64;
        let m = module_of(code, elems);
        let x = randoms(elems as usize, rng.next(), -2.0, 2.0);
        let (deferred, eager) = both(&m, &x);
        assert_same(case, &deferred, &eager);
        ran += usize::from(deferred.is_ok());
    }
    assert!(ran >= 200, "only {ran} of the kernels ran to the end");
}

/// A 1x64 `f32` UB buffer at `addr`.
fn row(addr: u32) -> Buf {
    ub(DType::F32, addr, 1, 64)
}

/// A load of 64 elements of argument `arg` from `base` into `dst`.
fn load(dst: Buf, arg: u16, base: i64) -> Inst {
    Inst::Load { dst, src: view(arg, None, base, &[(64, 1)]), zero_pad: false }
}

/// Runs `code` over the 128 elements `x` (and a 128-element output) both ways, checks that
/// they agree and returns the output.
fn agreed(code: Vec<Inst>, x: &[f32]) -> Vec<f32> {
    let (deferred, eager) = both(&module_of(code, 128), x);
    assert_same(0, &deferred, &eager);
    f32s(&deferred.expect("the kernel runs").tensors[0].bytes)
}

#[test]
fn a_store_over_a_pending_loads_source_waits_for_the_load() {
    // Load argument 1's first 64 elements (zeros), overwrite them in GM with the input, then
    // add the loaded buffer in a group: the group must see the zeros.
    let [a, b, c] = [0, 256, 512].map(row);
    let code = vec![
        load(b, 0, 0),
        load(a, 1, 0),
        Inst::Store { dst: view(1, None, 0, &[(64, 1)]), src: b, atomic: Atomic::None },
        Inst::Binary { op: BinaryOp::Add, dst: c, a: Src::Buf(a), b: Src::Imm(Scalar::Float(1.0)) },
        Inst::Unary { op: UnaryOp::Neg, dst: c, src: c },
        Inst::Store { dst: view(1, None, 64, &[(64, 1)]), src: c, atomic: Atomic::None },
    ];
    let out = agreed(code, &randoms(128, 3, 1.0, 2.0));
    assert!(out[64..].iter().all(|&v| v == -1.0), "the group saw the stored values: {:?}", &out[64..68]);
}

#[test]
fn tiles_loaded_in_a_loop_match() {
    // The benchmark's shape of kernel: a loop over tiles, each loaded, run through a group and
    // stored; the loop's loads are deferred and prefetched by their stride.
    let (a, b, c) = (ub(DType::F32, 0, 2, 256), ub(DType::F32, 2048, 2, 256), ub(DType::F32, 4096, 2, 256));
    let (tile, tiles) = (512i64, 9i64);
    let (iv, lo, hi, step, off) = (Reg(0), Reg(1), Reg(2), Reg(3), Reg(4));
    let tile_view = |arg| view(arg, Some(off), 0, &[(2, 256), (256, 1)]);
    let body = vec![
        Inst::Const { dst: Reg(5), value: tile },
        Inst::Scalar { op: ScalarOp::Mul, dst: off, a: iv, b: Reg(5) },
        Inst::Load { dst: a, src: tile_view(0), zero_pad: false },
        Inst::Load { dst: b, src: view(0, Some(off), tile * tiles, &[(2, 256), (256, 1)]), zero_pad: false },
        Inst::Binary { op: BinaryOp::Mul, dst: c, a: Src::Buf(a), b: Src::Buf(b) },
        Inst::Unary { op: UnaryOp::Tanh, dst: c, src: c },
        Inst::Binary { op: BinaryOp::Add, dst: c, a: Src::Buf(c), b: Src::Buf(a) },
        Inst::Store { dst: tile_view(1), src: c, atomic: Atomic::None },
    ];
    let mut code = vec![
        Inst::Const { dst: lo, value: 0 },
        Inst::Const { dst: hi, value: tiles },
        Inst::Const { dst: step, value: 1 },
        Inst::For { iv, lo, hi, step, body: body.len() as u32 },
    ];
    code.extend(body);
    let n = (2 * tile * tiles) as u64;
    let m = module(code, 1, &[spec(DType::F32, &[n])], &[spec(DType::F32, &[n / 2])]);
    let x = randoms(n as usize, 11, -3.0, 3.0);
    let (deferred, eager) = both(&m, &x);
    assert_same(0, &deferred, &eager);
    let out = f32s(&deferred.unwrap().tensors[0].bytes);
    let half = n as usize / 2;
    for i in [0, 511, 512, half - 1] {
        let want = is_tanh_of_product_plus(x[i], x[half + i], out[i]);
        assert!(want, "element {i}: {} from {} and {}", out[i], x[i], x[half + i]);
    }
}

/// `out` is `tanh(a * b) + a` within the VM's documented `tanh` bound (1 ulp) of `libm`.
fn is_tanh_of_product_plus(a: f32, b: f32, out: f32) -> bool {
    let t = libm::tanh(f64::from(a * b)) as f32;
    let ulp = f32::from_bits(t.abs().to_bits() + 1) - t.abs();
    (out - (t + a)).abs() <= ulp + f32::EPSILON * (t + a).abs()
}

#[test]
fn a_group_over_part_of_a_pending_load_sees_and_keeps_its_bytes() {
    // `y` is the second half of `x`'s bytes and a third beyond: the group reads the loaded
    // half and writes all of `y`, so the load must land before the group and not after it.
    let [x, y, z] = [0, 128, 1024].map(row);
    let code = vec![
        load(z, 0, 64),
        load(x, 0, 0),
        Inst::Binary { op: BinaryOp::Add, dst: y, a: Src::Buf(y), b: Src::Buf(z) },
        Inst::Unary { op: UnaryOp::Neg, dst: y, src: y },
        Inst::Store { dst: view(1, None, 0, &[(64, 1)]), src: x, atomic: Atomic::None },
        Inst::Store { dst: view(1, None, 64, &[(64, 1)]), src: y, atomic: Atomic::None },
    ];
    let x_in = randoms(128, 5, 1.0, 2.0);
    let out = agreed(code, &x_in);
    assert_eq!(out[..32], x_in[..32], "x's first half is as loaded");
    assert_eq!(out[32], -(x_in[32] + x_in[64]), "x's second half is y's first, computed");
}
