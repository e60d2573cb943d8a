//! An elementwise kernel over two cores with a tail tile, against a scalar reference.

mod common;

use common::*;
use kiln_bytecode::isa::{BinaryOp, DType, Inst, Reg, Scalar, ScalarOp, Src, UnaryOp};

const TILE: u32 = 256;

/// `z = exp(x) * y + 1` over `n` f32: cores take full tiles round robin, core 0 the tail.
fn kernel(n: u32) -> Vec<Inst> {
    let full = n / TILE * TILE;
    let tail = n - full;
    let (x, y, z) =
        (ub(DType::F32, 0, 1, TILE), ub(DType::F32, 1024, 1, TILE), ub(DType::F32, 2048, 1, TILE));
    let body =
        |x: kiln_bytecode::isa::Buf, y, z: kiln_bytecode::isa::Buf, off: Option<Reg>, base: i64, len: u32| {
            vec![
                Inst::Load { dst: x, src: view(0, off, base, &[(len, 1)]), zero_pad: false },
                Inst::Load { dst: y, src: view(1, off, base, &[(len, 1)]), zero_pad: false },
                Inst::Unary { op: UnaryOp::Exp, dst: z, src: x },
                Inst::Binary { op: BinaryOp::Mul, dst: z, a: Src::Buf(z), b: Src::Buf(y) },
                Inst::Binary { op: BinaryOp::Add, dst: z, a: Src::Buf(z), b: Src::Imm(Scalar::Float(1.0)) },
                Inst::Store {
                    dst: view(2, off, base, &[(len, 1)]),
                    src: z,
                    atomic: kiln_bytecode::isa::Atomic::None,
                },
            ]
        };
    let mut code = vec![
        Inst::BlockIdx { dst: Reg(0) },
        Inst::Const { dst: Reg(3), value: TILE as i64 },
        Inst::BlockNum { dst: Reg(1) },
        Inst::Scalar { op: ScalarOp::Mul, dst: Reg(1), a: Reg(1), b: Reg(3) },
        Inst::Scalar { op: ScalarOp::Mul, dst: Reg(2), a: Reg(0), b: Reg(3) },
        Inst::Const { dst: Reg(4), value: full as i64 },
        Inst::For { iv: Reg(5), lo: Reg(2), hi: Reg(4), step: Reg(1), body: 6 },
    ];
    code.extend(body(x, y, z, Some(Reg(5)), 0, TILE));
    if tail > 0 {
        let (x, y, z) =
            (ub(DType::F32, 0, 1, tail), ub(DType::F32, 1024, 1, tail), ub(DType::F32, 2048, 1, tail));
        code.push(Inst::Const { dst: Reg(6), value: 0 });
        code.push(Inst::Scalar { op: ScalarOp::Eq, dst: Reg(7), a: Reg(0), b: Reg(6) });
        code.push(Inst::If { cond: Reg(7), then_len: 6, else_len: 0 });
        code.extend(body(x, y, z, None, full as i64, tail));
    }
    code
}

#[test]
fn two_cores_with_a_tail() {
    for n in [1000u32, 512, 100] {
        let s = spec(DType::F32, &[n as u64]);
        let m = module(kernel(n), 2, &[s.clone(), s.clone()], std::slice::from_ref(&s));
        let (x, y) = (randoms(n as usize, 1, -4.0, 4.0), randoms(n as usize, 2, -2.0, 2.0));
        let out = run(&m, &[tensor(s.clone(), f32_bytes(&x)), tensor(s.clone(), f32_bytes(&y))]).unwrap();
        let z = f32s(&out.tensors[0].bytes);
        // The VM's `exp` is within one ulp of `libm`'s: `exp(x) * y` within two ulps, plus one
        // rounding of the sum.
        for (i, ((&a, &b), &got)) in x.iter().zip(&y).zip(&z).enumerate() {
            let product = libm::exp(f64::from(a)) as f32 * b;
            let want = product + 1.0;
            let tol = f32::EPSILON * (2.0 * product.abs() + want.abs());
            assert!((got - want).abs() <= tol, "n = {n}, element {i}: {got} against {want}");
        }
        let c = &out.counters.total;
        assert_eq!((c.launches, c.gm_read, c.gm_written), (1, 8 * u64::from(n), 4 * u64::from(n)));
        let tiles = u64::from(n.div_ceil(TILE));
        assert_eq!(c.dma, 3 * tiles);
        assert_eq!(out.counters.kernels[0], *c);
    }
}
