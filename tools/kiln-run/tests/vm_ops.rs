//! Every unary, binary, compare, cast and reduce per dtype against the `hl` interpreter (the
//! oracle), bit for bit (any NaN matches any NaN), over exhaustive `f16` / `bf16` / `i8`
//! inputs and wide samples of `f32` / `i32` bit patterns with the special values.
//!
//! It lives here, not in `runtime/vm`, because the VM crate must not depend on the IR crates,
//! not even for tests; it shares the VM tests' module builders.

#[path = "../../../runtime/vm/tests/common/mod.rs"]
mod common;

use common::*;
use half::{bf16, f16};
use kiln_bytecode::isa::{Atomic, BinaryOp, Buf, CmpPred, DType, Inst, ReduceOp, Reg, Round, Src, UnaryOp};
use kiln_dialects::hl::interp as hl;
use kiln_targets::Target;
use kiln_vm::{Vm, VmConfig};

const TILE_ROWS: u32 = 4;
const TILE_COLS: u32 = 64;
const TILE: u64 = (TILE_ROWS * TILE_COLS) as u64;

fn ascend() -> Target {
    Target::load("ascend910b").unwrap()
}

/// Runs `op` over `n` elements (a multiple of `TILE`) of each input, tile by tile on two
/// cores; returns the output's bytes.
fn run_tiles(inputs: &[(DType, Vec<u8>)], n: u64, out: DType, op: impl Fn(&[Buf], Buf) -> Inst) -> Vec<u8> {
    run_tiles_with(true, inputs, n, out, op)
}

/// [`run_tiles`] with `exact_transcendentals` as given.
fn run_tiles_with(
    exact: bool,
    inputs: &[(DType, Vec<u8>)],
    n: u64,
    out: DType,
    op: impl Fn(&[Buf], Buf) -> Inst,
) -> Vec<u8> {
    assert_eq!(n % TILE, 0);
    let bufs: Vec<Buf> =
        inputs.iter().enumerate().map(|(i, (d, _))| ub(*d, i as u32 * 2048, TILE_ROWS, TILE_COLS)).collect();
    let dst = ub(out, inputs.len() as u32 * 2048, TILE_ROWS, TILE_COLS);
    let k = inputs.len();
    let mut code = vec![
        Inst::BlockIdx { dst: Reg(0) },
        Inst::Const { dst: Reg(2), value: TILE as i64 },
        Inst::Scalar { op: kiln_bytecode::isa::ScalarOp::Mul, dst: Reg(0), a: Reg(0), b: Reg(2) },
        Inst::Const { dst: Reg(1), value: n as i64 },
        Inst::Const { dst: Reg(2), value: 2 * TILE as i64 },
        Inst::For { iv: Reg(3), lo: Reg(0), hi: Reg(1), step: Reg(2), body: k as u32 + 2 },
    ];
    for (i, b) in bufs.iter().enumerate() {
        code.push(Inst::Load {
            dst: *b,
            src: view(i as u16, Some(Reg(3)), 0, &[(TILE as u32, 1)]),
            zero_pad: false,
        });
    }
    code.push(op(&bufs, dst));
    code.push(Inst::Store {
        dst: view(k as u16, Some(Reg(3)), 0, &[(TILE as u32, 1)]),
        src: dst,
        atomic: Atomic::None,
    });
    let specs: Vec<_> = inputs.iter().map(|(d, _)| spec(*d, &[n])).collect();
    let mut m = module(code, 2, &specs, &[spec(out, &[n])]);
    m.target = "ascend910b".into();
    let tensors: Vec<_> = inputs.iter().map(|(d, b)| tensor(spec(*d, &[n]), b.clone())).collect();
    let config = VmConfig { exact_transcendentals: exact, ..VmConfig::default() };
    Vm::with_config(&ascend(), config).run(&m, &tensors).unwrap().tensors.remove(0).bytes
}

fn hl_dtype(d: DType) -> hl::DType {
    kiln_run::convert::interp_type(d)
}

fn to_hl(d: DType, shape: &[usize], b: &[u8]) -> hl::Tensor {
    let spec =
        kiln_bytecode::module::TensorSpec { dtype: d, shape: shape.iter().map(|&n| n as u64).collect() };
    kiln_run::convert::from_host(&kiln_vm::HostTensor { spec, bytes: b.to_vec() }).unwrap()
}

fn hl_bytes(t: &hl::Tensor) -> Vec<u8> {
    match t.data() {
        hl::TensorData::F32(v) => f32_bytes(v),
        hl::TensorData::F16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        hl::TensorData::BF16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        hl::TensorData::I32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        hl::TensorData::I8(v) => v.iter().map(|&x| x as u8).collect(),
        hl::TensorData::I1(v) => v.iter().map(|&x| u8::from(x)).collect(),
        hl::TensorData::I64(_) => panic!("no i64 in the VM"),
    }
}

fn is_nan(d: DType, e: &[u8]) -> bool {
    match d {
        DType::F32 => f32::from_le_bytes([e[0], e[1], e[2], e[3]]).is_nan(),
        DType::F16 => f16::from_le_bytes([e[0], e[1]]).is_nan(),
        DType::BF16 => bf16::from_le_bytes([e[0], e[1]]).is_nan(),
        _ => false,
    }
}

/// Bit equality per element, any NaN matching any NaN.
fn assert_same(d: DType, vm: &[u8], oracle: &[u8], inputs: &[(DType, Vec<u8>)], what: &str) {
    assert_eq!(vm.len(), oracle.len(), "{what}");
    let eb = d.bytes() as usize;
    for (i, (a, b)) in vm.chunks_exact(eb).zip(oracle.chunks_exact(eb)).enumerate() {
        if a != b && !(is_nan(d, a) && is_nan(d, b)) {
            let ins: Vec<_> = inputs
                .iter()
                .map(|(d, v)| &v[i * d.bytes() as usize..(i + 1) * d.bytes() as usize])
                .collect();
            panic!("{what}: element {i} (inputs {ins:?}): vm {a:?}, interpreter {b:?}");
        }
    }
}

/// Samples of `d`, a multiple of `TILE` long: every bit pattern of 8- and 16-bit types (times
/// `reps` shuffles for binary ops), else special values and random bit patterns.
fn samples(d: DType, seed: u64, reps: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut out = Vec::new();
    match d {
        DType::F16 | DType::BF16 => {
            for r in 0..reps {
                let mut all: Vec<u16> = (0..=u16::MAX).collect();
                if r > 0 || seed > 1 {
                    for i in (1..all.len()).rev() {
                        all.swap(i, next() as usize % (i + 1));
                    }
                }
                out.extend(all.iter().flat_map(|x| x.to_le_bytes()));
            }
        }
        DType::I8 => {
            for r in 0..reps.max(1) * 4 {
                let mut all: Vec<u8> = (0..=255).collect();
                if r > 0 || seed > 1 {
                    for i in (1..all.len()).rev() {
                        all.swap(i, next() as usize % (i + 1));
                    }
                }
                out.extend(all);
            }
        }
        DType::I1 => out.extend((0..TILE * 4).map(|_| (next() & 1) as u8)),
        DType::I64 => panic!("the vector unit has no i64"),
        DType::F32 => {
            let special = [
                0.0f32,
                -0.0,
                1.0,
                -1.0,
                0.5,
                -0.5,
                1.5,
                2.5,
                -2.5,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
                f32::MIN_POSITIVE,
                1e-45,
                f32::MAX,
                f32::MIN,
                3.0,
                1e30,
                100.0,
                -88.0,
            ];
            for k in 0..TILE * 256 {
                let v = match k % 3 {
                    0 => f32::from_bits(next() as u32),
                    1 => (next() % 20000) as f32 / 1000.0 - 10.0,
                    _ => special[next() as usize % special.len()],
                };
                out.extend(v.to_le_bytes());
            }
        }
        DType::I32 => {
            let special = [0i32, 1, -1, i32::MAX, i32::MIN, 2, -2, 7, 31, 32];
            for k in 0..TILE * 64 {
                let v = if k % 2 == 0 { next() as i32 } else { special[next() as usize % special.len()] };
                out.extend(v.to_le_bytes());
            }
        }
    }
    out
}

fn n_of(d: DType, b: &[u8]) -> u64 {
    b.len() as u64 / u64::from(d.bytes())
}

const FLOATS: [DType; 3] = [DType::F32, DType::F16, DType::BF16];
const INTS: [DType; 2] = [DType::I32, DType::I8];

#[test]
fn unary_ops_match_the_interpreter() {
    use hl::UnaryOp as H;
    let float_ops = [
        (UnaryOp::Neg, H::Neg),
        (UnaryOp::Abs, H::Abs),
        (UnaryOp::Exp, H::Exp),
        (UnaryOp::Log, H::Log),
        (UnaryOp::Sqrt, H::Sqrt),
        (UnaryOp::Rsqrt, H::Rsqrt),
        (UnaryOp::Recip, H::Reciprocal),
        (UnaryOp::Tanh, H::Tanh),
        (UnaryOp::Erf, H::Erf),
        (UnaryOp::Sigmoid, H::Sigmoid),
        (UnaryOp::Relu, H::Relu),
        (UnaryOp::Floor, H::Floor),
        (UnaryOp::Ceil, H::Ceil),
        (UnaryOp::Round, H::Round),
        (UnaryOp::Sign, H::Sign),
    ];
    for d in FLOATS.into_iter().chain(INTS) {
        let x = samples(d, 1, 1);
        let n = n_of(d, &x);
        let input = [(d, x.clone())];
        for (op, h) in float_ops {
            let oracle = hl::unary(h, &to_hl(d, &[n as usize], &x));
            let Ok(oracle) = oracle else { continue };
            let vm = run_tiles(&input, n, d, |s, dst| Inst::Unary { op, dst, src: s[0] });
            assert_same(d, &vm, &hl_bytes(&oracle), &input, &format!("{op:?} {d:?}"));
        }
    }
    let m = samples(DType::I1, 3, 1);
    let n = n_of(DType::I1, &m);
    let vm = run_tiles(&[(DType::I1, m.clone())], n, DType::I1, |s, dst| Inst::Unary {
        op: UnaryOp::Not,
        dst,
        src: s[0],
    });
    let oracle = hl::logical_not(&to_hl(DType::I1, &[n as usize], &m)).unwrap();
    assert_same(DType::I1, &vm, &hl_bytes(&oracle), &[], "not i1");
}

#[test]
fn binary_ops_match_the_interpreter() {
    use hl::BinaryOp as H;
    let ops = [
        (BinaryOp::Add, H::Add),
        (BinaryOp::Sub, H::Sub),
        (BinaryOp::Mul, H::Mul),
        (BinaryOp::Div, H::Div),
        (BinaryOp::Max, H::Maximum),
        (BinaryOp::Min, H::Minimum),
        (BinaryOp::Pow, H::Pow),
    ];
    for d in FLOATS.into_iter().chain(INTS) {
        let (a, b) = (samples(d, 2, 2), samples(d, 3, 2));
        let n = n_of(d, &a);
        let input = [(d, a.clone()), (d, b.clone())];
        let (ta, tb) = (to_hl(d, &[n as usize], &a), to_hl(d, &[n as usize], &b));
        for (op, h) in ops {
            let oracle = hl::binary(h, &ta, &tb).unwrap();
            let vm = run_tiles(&input, n, d, |s, dst| Inst::Binary {
                op,
                dst,
                a: Src::Buf(s[0]),
                b: Src::Buf(s[1]),
            });
            assert_same(d, &vm, &hl_bytes(&oracle), &input, &format!("{op:?} {d:?}"));
        }
    }
    let (a, b) = (samples(DType::I1, 4, 1), samples(DType::I1, 5, 1));
    let n = n_of(DType::I1, &a);
    let (ta, tb) = (to_hl(DType::I1, &[n as usize], &a), to_hl(DType::I1, &[n as usize], &b));
    for (op, h) in [(BinaryOp::And, hl::LogicOp::And), (BinaryOp::Or, hl::LogicOp::Or)] {
        let oracle = hl::logical(h, &ta, &tb).unwrap();
        let input = [(DType::I1, a.clone()), (DType::I1, b.clone())];
        let vm = run_tiles(&input, n, DType::I1, |s, dst| Inst::Binary {
            op,
            dst,
            a: Src::Buf(s[0]),
            b: Src::Buf(s[1]),
        });
        assert_same(DType::I1, &vm, &hl_bytes(&oracle), &input, &format!("{op:?}"));
    }
}

#[test]
fn compares_and_select_match_the_interpreter() {
    use hl::CmpOp as H;
    let preds = [
        (CmpPred::Eq, H::Eq),
        (CmpPred::Ne, H::Ne),
        (CmpPred::Lt, H::Lt),
        (CmpPred::Le, H::Le),
        (CmpPred::Gt, H::Gt),
        (CmpPred::Ge, H::Ge),
    ];
    for d in FLOATS.into_iter().chain(INTS) {
        let (a, b) = (samples(d, 6, 1), samples(d, 7, 1));
        let n = n_of(d, &a);
        let input = [(d, a.clone()), (d, b.clone())];
        let (ta, tb) = (to_hl(d, &[n as usize], &a), to_hl(d, &[n as usize], &b));
        for (pred, h) in preds {
            let oracle = hl::compare(h, &ta, &tb).unwrap();
            let vm = run_tiles(&input, n, DType::I1, |s, dst| Inst::Cmp {
                pred,
                dst,
                a: Src::Buf(s[0]),
                b: Src::Buf(s[1]),
            });
            assert_same(DType::I1, &vm, &hl_bytes(&oracle), &input, &format!("{pred:?} {d:?}"));
        }
        let mask: Vec<u8> = (0..n).map(|i| (i % 3 == 0) as u8).collect();
        let oracle = hl::select(&to_hl(DType::I1, &[n as usize], &mask), &ta, &tb).unwrap();
        let input = [(DType::I1, mask), (d, a.clone()), (d, b.clone())];
        let vm = run_tiles(&input, n, d, |s, dst| Inst::Select {
            dst,
            mask: s[0],
            a: Src::Buf(s[1]),
            b: Src::Buf(s[2]),
        });
        assert_same(d, &vm, &hl_bytes(&oracle), &input, &format!("select {d:?}"));
    }
}

#[test]
fn casts_match_the_interpreter() {
    let all = [DType::F32, DType::F16, DType::BF16, DType::I32, DType::I8, DType::I1];
    for from in all {
        let x = samples(from, 8, 1);
        let n = n_of(from, &x);
        let tx = to_hl(from, &[n as usize], &x);
        for to in all {
            // The interpreter truncates float -> int and rounds to nearest otherwise.
            let round = if from.is_float() && !to.is_float() { Round::Trunc } else { Round::Rint };
            let oracle = hl::cast(&tx, hl_dtype(to));
            let input = [(from, x.clone())];
            let vm = run_tiles(&input, n, to, |s, dst| Inst::Cast { dst, src: s[0], round });
            assert_same(to, &vm, &hl_bytes(&oracle), &input, &format!("cast {from:?} -> {to:?}"));
        }
    }
}

#[test]
fn float_to_int_casts_round_by_their_mode() {
    let x = [2.5f32, -2.5, 1.5, -0.5, 3.7, -3.7, 1e10, f32::NAN];
    let mut bytes = f32_bytes(&x);
    bytes.resize(TILE as usize * 4, 0);
    let expect = |f: fn(f32) -> f32| -> Vec<i32> { x.iter().map(|&v| f(v) as i32).collect() };
    for (round, f) in [
        (Round::Rint, f32::round_ties_even as fn(f32) -> f32),
        (Round::Floor, f32::floor),
        (Round::Ceil, f32::ceil),
        (Round::Trunc, f32::trunc),
    ] {
        let vm = run_tiles(&[(DType::F32, bytes.clone())], TILE, DType::I32, |s, dst| Inst::Cast {
            dst,
            src: s[0],
            round,
        });
        let got: Vec<i32> =
            vm.chunks_exact(4).take(x.len()).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        assert_eq!(got, expect(f), "{round:?}");
    }
}

#[test]
fn reductions_match_the_interpreter() {
    use hl::ReduceOp as H;
    let ops = [
        (ReduceOp::Sum, H::Sum),
        (ReduceOp::Max, H::Max),
        (ReduceOp::Min, H::Min),
        (ReduceOp::Prod, H::Prod),
    ];
    let (rows, cols) = (6u32, 50u32);
    for d in FLOATS.into_iter().chain(INTS) {
        let x = samples(d, 9, 1);
        let mut x = x[..(rows * cols * d.bytes()) as usize].to_vec();
        if d == DType::F32 {
            // Keep sums finite and interesting: small values.
            x = f32_bytes(&randoms((rows * cols) as usize, 9, -3.0, 3.0));
        }
        let t = to_hl(d, &[rows as usize, cols as usize], &x);
        for (op, h) in ops {
            let oracle = hl::reduce(h, &t, &[1], false).unwrap();
            let src = ub(d, 0, rows, cols);
            let dst = ub(d, 4096, rows, 1);
            let code = vec![
                Inst::Load {
                    dst: src,
                    src: view(0, None, 0, &[(rows, i64::from(cols)), (cols, 1)]),
                    zero_pad: false,
                },
                Inst::Reduce { op, dst, src, accumulate: false },
                Inst::Store { dst: view(1, None, 0, &[(rows, 1)]), src: dst, atomic: Atomic::None },
            ];
            let m = module(code, 1, &[spec(d, &[rows as u64, cols as u64])], &[spec(d, &[rows as u64])]);
            let out = run(&m, &[tensor(spec(d, &[rows as u64, cols as u64]), x.clone())]).unwrap();
            assert_same(d, &out.tensors[0].bytes, &hl_bytes(&oracle), &[], &format!("{op:?} {d:?}"));
        }
    }
}

/// The distance in ulps of two 16-bit floats' bits of one sign (NaNs equal).
fn ulps16(d: DType, a: u16, b: u16) -> u32 {
    let nan = |x: u16| match d {
        DType::F16 => f16::from_bits(x).is_nan(),
        _ => bf16::from_bits(x).is_nan(),
    };
    if nan(a) && nan(b) {
        return 0;
    }
    let key = |x: u16| if x & 0x8000 != 0 { -i32::from(x & 0x7fff) } else { i32::from(x) };
    key(a).abs_diff(key(b))
}

#[test]
fn fast_transcendentals_are_within_one_ulp_exhaustively_over_f16_and_bf16() {
    use hl::UnaryOp as H;
    for d in [DType::F16, DType::BF16] {
        let x = samples(d, 1, 1);
        let n = n_of(d, &x);
        for (op, h) in [(UnaryOp::Exp, H::Exp), (UnaryOp::Tanh, H::Tanh), (UnaryOp::Sigmoid, H::Sigmoid)] {
            let oracle = hl_bytes(&hl::unary(h, &to_hl(d, &[n as usize], &x)).unwrap());
            let vm =
                run_tiles_with(false, &[(d, x.clone())], n, d, |s, dst| Inst::Unary { op, dst, src: s[0] });
            let bits =
                |b: &[u8]| b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect::<Vec<_>>();
            let worst = bits(&vm).iter().zip(bits(&oracle)).map(|(&a, b)| ulps16(d, a, b)).max();
            assert!(worst <= Some(1), "{op:?} {d:?}: worst {worst:?} ulps");
        }
    }
}

/// A row reduced in two column tiles into an `f32` accumulator (`accumulate` on the second)
/// and cast to `f16` once equals the interpreter's `f16` reduction of the whole row.
#[test]
fn tiled_reductions_into_a_wide_accumulator_match_the_whole_row() {
    use hl::ReduceOp as H;
    let (rows, cols, split) = (3u32, 100u32, 60u32);
    let x: Vec<u8> = randoms((rows * cols) as usize, 41, -2.0, 2.0)
        .into_iter()
        .flat_map(|v| f16::from_f32(v).to_le_bytes())
        .collect();
    let t = to_hl(DType::F16, &[rows as usize, cols as usize], &x);
    for (op, h) in [(ReduceOp::Sum, H::Sum), (ReduceOp::Max, H::Max), (ReduceOp::Prod, H::Prod)] {
        let oracle = hl::reduce(h, &t, &[1], false).unwrap();
        let (a, b) = (ub(DType::F16, 0, rows, split), ub(DType::F16, 2048, rows, cols - split));
        let (acc, out) = (ub(DType::F32, 4096, rows, 1), ub(DType::F16, 6144, rows, 1));
        let c = i64::from(cols);
        let code = vec![
            Inst::Load { dst: a, src: view(0, None, 0, &[(rows, c), (split, 1)]), zero_pad: false },
            Inst::Load {
                dst: b,
                src: view(0, None, i64::from(split), &[(rows, c), (cols - split, 1)]),
                zero_pad: false,
            },
            Inst::Reduce { op, dst: acc, src: a, accumulate: false },
            Inst::Reduce { op, dst: acc, src: b, accumulate: true },
            Inst::Cast { dst: out, src: acc, round: Round::Rint },
            Inst::Store { dst: view(1, None, 0, &[(rows, 1)]), src: out, atomic: Atomic::None },
        ];
        let s = spec(DType::F16, &[rows as u64, cols as u64]);
        let m = module(code, 1, std::slice::from_ref(&s), &[spec(DType::F16, &[rows as u64])]);
        let got = run(&m, &[tensor(s, x.clone())]).unwrap().tensors.remove(0).bytes;
        assert_same(DType::F16, &got, &hl_bytes(&oracle), &[], &format!("{op:?}"));
    }
}
