//! A pipelined elementwise kernel `y = x * 2 + v_ops` over f32 tiles of `TILE` elements, in
//! one or two UB slots (single or double buffered): per tile a load on MTE2, vector work on V,
//! a store on MTE3. The "buffer free" flags (V -> MTE2 for the input, MTE3 -> V for the
//! output) are set before the loop, waited at the head, set at the tail and drained after;
//! MTE2 -> V and V -> MTE3 order each tile's load, compute and store. Each core takes a
//! contiguous run of tiles; slot `s` uses event id `s`.
#![allow(dead_code)]

use crate::common::*;
use kiln_bytecode::isa::{Atomic, BinaryOp, DType, Inst, Pipe, Reg, Scalar, ScalarOp, Src};
use kiln_bytecode::module::Module;
use kiln_vm::HostTensor;

/// Elements per tile (4 KiB of f32: two slots of input and output fill tiny-npu's UB).
pub const TILE: u32 = 1024;

/// The kernel's shape.
#[derive(Clone, Copy)]
pub struct Shape {
    /// UB slots: 1 (single buffered) or 2 (double buffered).
    pub slots: u32,
    /// Cores (`block_dim`).
    pub cores: u32,
    /// Tiles per core (a multiple of `slots`).
    pub tiles_per_core: u32,
    /// Vector `+ 1` instructions per tile after the `* 2`.
    pub v_ops: usize,
}

impl Shape {
    pub fn elements(&self) -> u32 {
        self.cores * self.tiles_per_core * TILE
    }
}

fn flag(set: bool, src: Pipe, dst: Pipe, s: u32) -> Inst {
    let event = s as u8;
    if set {
        Inst::SetFlag { src, dst, event }
    } else {
        Inst::WaitFlag { src, dst, event }
    }
}

pub fn code(sh: Shape) -> Vec<Inst> {
    let per_core = i64::from(sh.tiles_per_core * TILE);
    let mut code = vec![
        Inst::BlockIdx { dst: Reg(0) },
        Inst::Const { dst: Reg(1), value: per_core },
        Inst::Scalar { op: ScalarOp::Mul, dst: Reg(2), a: Reg(0), b: Reg(1) },
        Inst::Scalar { op: ScalarOp::Add, dst: Reg(3), a: Reg(2), b: Reg(1) },
        Inst::Const { dst: Reg(4), value: i64::from(sh.slots * TILE) },
        Inst::Const { dst: Reg(7), value: i64::from(TILE) },
    ];
    for s in 0..sh.slots {
        code.push(flag(true, Pipe::V, Pipe::Mte2, s));
        code.push(flag(true, Pipe::Mte3, Pipe::V, s));
    }
    let mut body = Vec::new();
    for s in 0..sh.slots {
        let (input, output) = (ub(DType::F32, s * 8192, 1, TILE), ub(DType::F32, s * 8192 + 4096, 1, TILE));
        let off = if s == 0 {
            Reg(5)
        } else {
            let r = Reg(7 + s as u8);
            body.push(Inst::Scalar { op: ScalarOp::Add, dst: r, a: Reg(5), b: Reg(7) });
            r
        };
        let gm = |arg| view(arg, Some(off), 0, &[(TILE, 1)]);
        body.extend([
            flag(false, Pipe::V, Pipe::Mte2, s),
            Inst::Load { dst: input, src: gm(0), zero_pad: false },
            flag(true, Pipe::Mte2, Pipe::V, s),
            flag(false, Pipe::Mte2, Pipe::V, s),
            flag(false, Pipe::Mte3, Pipe::V, s),
            Inst::Binary {
                op: BinaryOp::Mul,
                dst: output,
                a: Src::Buf(input),
                b: Src::Imm(Scalar::Float(2.0)),
            },
        ]);
        let add = Inst::Binary {
            op: BinaryOp::Add,
            dst: output,
            a: Src::Buf(output),
            b: Src::Imm(Scalar::Float(1.0)),
        };
        body.extend(std::iter::repeat_n(add, sh.v_ops));
        body.extend([
            flag(true, Pipe::V, Pipe::Mte2, s),
            flag(true, Pipe::V, Pipe::Mte3, s),
            flag(false, Pipe::V, Pipe::Mte3, s),
            Inst::Store { dst: gm(1), src: output, atomic: Atomic::None },
            flag(true, Pipe::Mte3, Pipe::V, s),
        ]);
    }
    code.push(Inst::For { iv: Reg(5), lo: Reg(2), hi: Reg(3), step: Reg(4), body: body.len() as u32 });
    code.extend(body);
    for s in 0..sh.slots {
        code.push(flag(false, Pipe::V, Pipe::Mte2, s));
        code.push(flag(false, Pipe::Mte3, Pipe::V, s));
    }
    code
}

pub fn build(code: Vec<Inst>, sh: Shape) -> Module {
    let s = spec(DType::F32, &[u64::from(sh.elements())]);
    module(code, sh.cores, std::slice::from_ref(&s), std::slice::from_ref(&s))
}

pub fn input(sh: Shape) -> Vec<HostTensor> {
    let n = sh.elements() as usize;
    vec![tensor(spec(DType::F32, &[n as u64]), f32_bytes(&randoms(n, 7, -4.0, 4.0)))]
}

/// Removes instruction `at`, shortening the loop bodies that contain it.
pub fn delete(code: &[Inst], at: usize) -> Vec<Inst> {
    let mut out = code.to_vec();
    for (i, inst) in out.iter_mut().enumerate().take(at) {
        if let Inst::For { body, .. } = inst {
            if at <= i + *body as usize {
                *body -= 1;
            }
        }
    }
    out.remove(at);
    out
}
