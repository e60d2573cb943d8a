//! Emitting one kernel: a `func.func` with `npuvec.core` becomes a [`Kernel`], each op of its
//! body one instruction (see `docs/backend.md`, "`npuvec` ops").
//!
//! Scalars (`index` values and `i1` comparison results) live in registers ([`regalloc`]).
//! An `arith.constant` of `index` becomes a `Const` unless its only uses are the offsets of
//! loads and stores, which fold it into the view's static `base`; float and integer constants
//! are immediates of the vector ops that use them. `npuvec.base = N` on a load or store with a
//! dynamic offset adds `N` to the view's base (the disassembler writes it for views that have
//! both parts).

use kiln_dialects::arith;
use std::collections::HashMap;

use kiln_bytecode::isa::{
    Atomic, BinaryOp, Buf, CmpPred, Dim, GmView, Inst, Pipe, ReduceOp, Reg, Round, ScalarOp, Src, UnaryOp,
    MAX_VIEW_DIMS, NUM_REGS,
};
use kiln_bytecode::isa::{DType, Scalar, Space};
use kiln_bytecode::module::{Core, Kernel};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{Diagnostic, Ir, OpId, TypeKind, ValueId};
use kiln_targets::Target;

use crate::read::{self, array_attr, bounded_attr, enum_attr, has_attr, Res};
use crate::regalloc::{self, Def, Positions};

/// The attribute that pins a scalar value's register (see the crate documentation).
pub const REG_ATTR: &str = "npuvec.reg";
/// The attribute that adds a static part to a dynamic GM view offset.
pub const BASE_ATTR: &str = "npuvec.base";
/// The attribute that adds a static part to a dynamic offset of `npuvec.gather`'s indices.
pub const INDEX_BASE_ATTR: &str = "npuvec.index_base";

/// The attributes of a GM view: sizes, strides and the static part of a dynamic offset.
pub(crate) const VIEW_ATTRS: [&str; 3] = ["sizes", "strides", BASE_ATTR];
/// The attributes of `npuvec.gather`'s index view.
pub(crate) const INDEX_VIEW_ATTRS: [&str; 3] = ["index_sizes", "index_strides", INDEX_BASE_ATTR];

/// The attribute that gives a buffer's pitch (in elements) when it is not the aligned one.
pub const PITCH_ATTR: &str = "npuvec.pitch";

/// The scalar ops on `index` and their instructions.
const SCALAR_OPS: [(&str, ScalarOp); 7] = [
    ("arith.addi", ScalarOp::Add),
    ("arith.subi", ScalarOp::Sub),
    ("arith.muli", ScalarOp::Mul),
    ("arith.divui", ScalarOp::DivU),
    ("arith.remui", ScalarOp::RemU),
    ("arith.minsi", ScalarOp::MinS),
    ("arith.maxsi", ScalarOp::MaxS),
];

/// `arith.cmpi` predicates by their integer value (eq, ne, slt, sle, sgt, sge).
pub const CMPI: [ScalarOp; 6] =
    [ScalarOp::Eq, ScalarOp::Ne, ScalarOp::Lt, ScalarOp::Le, ScalarOp::Gt, ScalarOp::Ge];

/// The `npuvec` unary ops, in [`UnaryOp::ALL`] order.
pub const UNARY: [&str; 16] = [
    "neg", "abs", "exp", "log", "sqrt", "rsqrt", "recip", "tanh", "erf", "sigmoid", "relu", "floor", "ceil",
    "round", "sign", "not",
];
/// The `npuvec` binary ops, in [`BinaryOp::ALL`] order.
pub const BINARY: [&str; 9] = ["add", "sub", "mul", "div", "max", "min", "pow", "and", "or"];
/// `#npuvec.cmp<..>` keywords, in [`CmpPred::ALL`] order.
pub const CMP: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];
/// `#npuvec.reduce<..>` keywords, in [`ReduceOp::ALL`] order.
pub const REDUCE: [&str; 4] = ["sum", "max", "min", "prod"];
/// `#npuvec.round<..>` keywords, in [`Round::ALL`] order.
pub const ROUND: [&str; 4] = ["rint", "trunc", "floor", "ceil"];
/// `#npuvec.atomic<..>` keywords of [`Atomic::Add`], `Max`, `Min`.
pub const ATOMIC: [&str; 3] = ["add", "max", "min"];

/// The instruction's op of `npuvec` unary op `name` (`npuvec.exp` -> [`UnaryOp::Exp`]).
pub fn unary_op(name: &str) -> Option<UnaryOp> {
    let i = UNARY.iter().position(|&u| Some(u) == name.strip_prefix("npuvec."))?;
    Some(UnaryOp::ALL[i])
}

/// The instruction's op of `npuvec` binary op `name` (`npuvec.max` -> [`BinaryOp::Max`]).
pub fn binary_op(name: &str) -> Option<BinaryOp> {
    let i = BINARY.iter().position(|&u| Some(u) == name.strip_prefix("npuvec."))?;
    Some(BinaryOp::ALL[i])
}

/// The name of the `arith` op of scalar op `op` (not a comparison).
pub fn scalar_op_name(op: ScalarOp) -> &'static str {
    SCALAR_OPS.iter().find(|(_, o)| *o == op).map_or("arith.cmpi", |(n, _)| n)
}

/// The pitch (elements from row to row) of a buffer of `cols` elements of `dtype`: a row
/// rounded up to the target's alignment.
pub fn pitch(target: &Target, cols: u32, dtype: DType) -> u32 {
    let bytes = dtype.bytes() as u64;
    u32::try_from(target.align(cols as u64 * bytes) / bytes).unwrap_or(u32::MAX)
}

/// The entry block of `op`'s first region.
pub fn body(ir: &Ir<'_>, op: OpId) -> Option<kiln_compiler::BlockId> {
    ir.regions(op).first().and_then(|&r| ir.entry_block(r))
}

/// Whether `v` is the offset operand of a load or store (which a constant folds into).
fn is_offset_use(ir: &Ir<'_>, u: &kiln_compiler::ir::Use) -> bool {
    matches!((ir.op(u.op).name, u.index), ("npuvec.load", 1) | ("npuvec.store", 2) | ("npuvec.gather", 1 | 3))
}

/// Whether `op` is an `arith.constant` of `index` that folds into view offsets (no register).
fn folds(ir: &Ir<'_>, op: OpId) -> bool {
    ir.is(op, &arith::CONSTANT_OP)
        && ir.attr(op, REG_ATTR).is_none()
        && ir.results(op).first().is_some_and(|&v| ir.uses(v).iter().all(|u| is_offset_use(ir, u)))
}

/// Whether `v` is of type `index`.
fn is_index(ir: &Ir<'_>, v: ValueId) -> bool {
    matches!(ir.value_type(v).kind(), TypeKind::Index)
}

/// The pinned register of `op` (`npuvec.reg`), if any.
fn fixed_reg<'c>(ir: &Ir<'c>, op: OpId) -> Res<'c, Option<u8>> {
    if ir.attr(op, REG_ATTR).is_none() {
        return Ok(None);
    }
    Ok(Some(bounded_attr(ir, op, REG_ATTR, 0, NUM_REGS as i128 - 1, "")? as u8))
}

/// The values of `func` that need registers, in program order.
fn register_defs<'c>(ir: &Ir<'c>, func: OpId) -> Res<'c, Vec<Def>> {
    let mut defs = Vec::new();
    for op in ir.walk(func, WalkOrder::PreOrder) {
        let name = ir.op(op).name;
        let value = match name {
            "arith.constant" => {
                ir.results(op).first().copied().filter(|&v| is_index(ir, v) && !folds(ir, op))
            }
            "arith.cmpi" | "npuvec.block_idx" | "npuvec.block_num" => ir.results(op).first().copied(),
            _ if SCALAR_OPS.iter().any(|(n, _)| *n == name) => ir.results(op).first().copied(),
            "scf.for" => body(ir, op).and_then(|b| ir.block_args(b).first().copied()),
            _ => None,
        };
        if let Some(value) = value {
            defs.push(Def { value, op, fixed: fixed_reg(ir, op)? });
        }
    }
    Ok(defs)
}

/// Emits kernel `func`.
pub fn emit_kernel<'c>(ir: &Ir<'c>, func: OpId, target: &Target) -> Res<'c, Kernel> {
    let name = ir.attr(func, "sym_name").and_then(|a| a.as_str()).unwrap_or_default();
    let name = String::from_utf8_lossy(name).into_owned();
    let core = enum_attr(ir, func, "npuvec.core", "core")?;
    let core = Core::ALL
        .into_iter()
        .find(|c| c.name() == core)
        .ok_or_else(|| Diagnostic::op_error(ir, func, format!("has unknown core kind `{core}`")))?;
    let block_dim = bounded_attr(ir, func, "npuvec.block_dim", 1, u32::MAX as i128, "")? as u32;
    let missing = ": run kiln-codegen-plan-ub first";
    let ub_bytes = bounded_attr(ir, func, "npuvec.ub_bytes", 0, u32::MAX as i128, missing)? as u32;
    let Some(entry) = body(ir, func) else {
        return Err(Diagnostic::op_error(ir, func, "kernel has no body"));
    };
    let params = ir.block_args(entry);
    let num_args = u16::try_from(params.len())
        .map_err(|_| Diagnostic::op_error(ir, func, "kernel has more than 65535 arguments"))?;
    let at = Positions::new(ir, func);
    let regs = regalloc::allocate(ir, func, &at, &register_defs(ir, func)?)?;
    let args = params.iter().enumerate().map(|(i, &v)| (v, i as u16)).collect();
    let mut e = Emitter { ir, target, args, regs, bufs: HashMap::new(), code: Vec::new() };
    e.block(entry)?;
    Ok(Kernel { name, core, block_dim, ub_bytes, num_args, code: e.code })
}

/// The state of emitting one kernel.
struct Emitter<'a, 'c> {
    ir: &'a Ir<'c>,
    target: &'a Target,
    args: HashMap<ValueId, u16>,
    regs: HashMap<ValueId, Reg>,
    bufs: HashMap<ValueId, Buf>,
    code: Vec<Inst>,
}

impl<'c> Emitter<'_, 'c> {
    fn block(&mut self, block: kiln_compiler::BlockId) -> Res<'c, ()> {
        for op in self.ir.block_ops(block).collect::<Vec<_>>() {
            self.op(op)?;
        }
        Ok(())
    }

    /// The instructions of `op`'s region `i` (none when the region is empty).
    fn region(&mut self, op: OpId, i: usize) -> Res<'c, u32> {
        let start = self.code.len();
        if let Some(&r) = self.ir.regions(op).get(i) {
            for b in self.ir.region_blocks(r).collect::<Vec<_>>() {
                self.block(b)?;
            }
        }
        Ok((self.code.len() - start) as u32)
    }

    fn err(&self, op: OpId, msg: impl std::fmt::Display) -> Diagnostic<'c> {
        Diagnostic::op_error(self.ir, op, msg)
    }

    fn operand(&self, op: OpId, i: usize) -> Res<'c, ValueId> {
        let ops = self.ir.operands(op);
        ops.get(i).copied().ok_or_else(|| {
            self.err(op, format!("expects at least {} operands, but got {}", i + 1, ops.len()))
        })
    }

    fn reg(&self, op: OpId, i: usize) -> Res<'c, Reg> {
        let v = self.operand(op, i)?;
        self.regs
            .get(&v)
            .copied()
            .ok_or_else(|| self.err(op, format!("operand #{i} is not a scalar register value")))
    }

    fn result_reg(&self, op: OpId) -> Res<'c, Reg> {
        let v = self.ir.results(op).first().copied();
        v.and_then(|v| self.regs.get(&v).copied()).ok_or_else(|| self.err(op, "expects one scalar result"))
    }

    fn buf(&self, op: OpId, i: usize) -> Res<'c, Buf> {
        let v = self.operand(op, i)?;
        self.bufs.get(&v).copied().ok_or_else(|| {
            self.err(op, format!("operand #{i} is not a planned on-chip buffer (an `npuvec.buffer` result)"))
        })
    }

    /// The constant `op`'s operand `i` is defined by, as an immediate.
    fn imm(&self, op: OpId, i: usize) -> Res<'c, Scalar> {
        let v = self.operand(op, i)?;
        let c = self.ir.defining_op(v).filter(|&d| self.ir.is(d, &arith::CONSTANT_OP));
        c.and_then(|c| self.ir.attr(c, "value")).and_then(read::scalar).ok_or_else(|| {
            self.err(op, format!("operand #{i} must be a buffer or a float or integer `arith.constant`"))
        })
    }

    fn src(&self, op: OpId, i: usize) -> Res<'c, Src> {
        let v = self.operand(op, i)?;
        match self.bufs.get(&v) {
            Some(&b) => Ok(Src::Buf(b)),
            None => self.imm(op, i).map(Src::Imm),
        }
    }

    /// A GM view: argument operand `gm`, offset operand `offset`, `sizes` and `strides`.
    fn view(&self, op: OpId, gm: usize, offset: usize) -> Res<'c, GmView> {
        self.view_named(op, gm, offset, VIEW_ATTRS)
    }

    /// [`Self::view`] with the attribute names `names` (sizes, strides, static base).
    fn view_named(&self, op: OpId, gm: usize, offset: usize, names: [&str; 3]) -> Res<'c, GmView> {
        let gm_value = self.operand(op, gm)?;
        let arg = *self.args.get(&gm_value).ok_or_else(|| {
            self.err(
                op,
                format!("operand #{gm} must be a GM argument of the kernel, not a value defined inside it"),
            )
        })?;
        let sizes = array_attr(self.ir, op, names[0])?;
        let strides = array_attr(self.ir, op, names[1])?;
        if sizes.len() != strides.len() || sizes.is_empty() || sizes.len() > MAX_VIEW_DIMS {
            return Err(
                self.err(op, format!("needs 1 to {MAX_VIEW_DIMS} `{}` and as many `{}`", names[0], names[1]))
            );
        }
        let mut dims = Vec::with_capacity(sizes.len());
        for (&size, &stride) in sizes.iter().zip(&strides) {
            let size =
                u32::try_from(size).map_err(|_| self.err(op, format!("view size {size} is out of range")))?;
            dims.push(Dim { size, stride });
        }
        let off = self.operand(op, offset)?;
        let folded = self.ir.defining_op(off).filter(|&d| folds(self.ir, d));
        let (reg, base) = match folded {
            Some(c) => {
                let value =
                    self.ir.attr(c, "value").and_then(|a| a.as_int()).and_then(|v| i64::try_from(v).ok());
                (None, value.ok_or_else(|| self.err(c, "expects an index value in range"))?)
            }
            None => {
                let extra = self
                    .ir
                    .attr(op, names[2])
                    .map(|_| bounded_attr(self.ir, op, names[2], i64::MIN as i128, i64::MAX as i128, ""));
                (Some(self.reg(op, offset)?), extra.transpose()?.unwrap_or(0) as i64)
            }
        };
        Ok(GmView { arg, offset: reg, base, dims })
    }

    /// Records the buffers of `npuvec.buffer` `op`.
    fn buffers(&mut self, op: OpId) -> Res<'c, ()> {
        let offsets = array_attr(self.ir, op, "offsets")?;
        let results = self.ir.results(op);
        if offsets.len() != results.len() {
            return Err(
                self.err(op, format!("has {} results but {} `offsets`", results.len(), offsets.len()))
            );
        }
        for (&v, &offset) in results.iter().zip(&offsets) {
            let m = read::memref(self.ir, op, self.ir.value_type(v))?;
            let space = m.space.filter(|&s| s != Space::Gm);
            let Some(space) = space else {
                return Err(self.err(op, "allocates an on-chip buffer, which needs an on-chip memory space"));
            };
            let [rows, cols] = m.shape[..] else {
                return Err(self.err(op, "allocates a buffer that is not 2-D"));
            };
            let fit = |x: u64| {
                u32::try_from(x).map_err(|_| self.err(op, format!("buffer dim {x} is out of range")))
            };
            let (rows, cols) = (fit(rows)?, fit(cols)?);
            let pitch = match self.ir.attr(op, PITCH_ATTR) {
                Some(_) => bounded_attr(self.ir, op, PITCH_ATTR, 0, u32::MAX as i128, "")? as u32,
                None => pitch(self.target, cols, m.dtype),
            };
            let addr = u32::try_from(offset)
                .map_err(|_| self.err(op, format!("offset {offset} is out of range")))?;
            let buf = Buf { space, dtype: m.dtype, addr, rows, cols, pitch };
            self.bufs.insert(v, buf);
        }
        Ok(())
    }

    fn keyword_index(&self, op: OpId, attr: &str, family: &str, keywords: &[&str]) -> Res<'c, usize> {
        let k = enum_attr(self.ir, op, attr, family)?;
        keywords
            .iter()
            .position(|&w| w == k)
            .ok_or_else(|| self.err(op, format!("has unknown `{attr}` keyword `{k}`")))
    }

    fn pipe(&self, op: OpId, attr: &str) -> Res<'c, Pipe> {
        let names: Vec<&str> = Pipe::ALL.iter().map(|p| p.name()).collect();
        Ok(Pipe::ALL[self.keyword_index(op, attr, "pipe", &names)?])
    }

    fn op(&mut self, op: OpId) -> Res<'c, ()> {
        let ir = self.ir;
        let name = ir.op(op).name;
        let inst = match name {
            "func.return" | "scf.yield" => return Ok(()),
            "arith.constant" => match ir.results(op).first().and_then(|v| self.regs.get(v)) {
                Some(&dst) => {
                    let value =
                        ir.attr(op, "value").and_then(|a| a.as_int()).and_then(|v| i64::try_from(v).ok());
                    Inst::Const {
                        dst,
                        value: value.ok_or_else(|| self.err(op, "expects an index value in range"))?,
                    }
                }
                None => return Ok(()),
            },
            "arith.cmpi" => {
                let p = read::int_attr(ir, op, "predicate").and_then(|p| usize::try_from(p).ok());
                let scalar_op = p.and_then(|p| CMPI.get(p)).copied();
                let op_ = scalar_op
                    .ok_or_else(|| self.err(op, "has a predicate other than eq, ne, slt, sle, sgt, sge"))?;
                Inst::Scalar { op: op_, dst: self.result_reg(op)?, a: self.reg(op, 0)?, b: self.reg(op, 1)? }
            }
            "npuvec.block_idx" => Inst::BlockIdx { dst: self.result_reg(op)? },
            "npuvec.block_num" => Inst::BlockNum { dst: self.result_reg(op)? },
            "scf.for" => return self.for_loop(op),
            "scf.if" => return self.if_op(op),
            "npuvec.buffer" => return self.buffers(op),
            "npuvec.alloc" => {
                return Err(self.err(op, "is an unplanned buffer: run kiln-codegen-plan-ub first"));
            }
            "npuvec.load" => Inst::Load {
                src: self.view(op, 0, 1)?,
                dst: self.buf(op, 2)?,
                zero_pad: has_attr(ir, op, "zero_pad"),
            },
            "npuvec.gather" => {
                let index = read::memref(ir, op, ir.value_type(self.operand(op, 2)?))?.dtype;
                Inst::Gather {
                    table: self.view(op, 0, 1)?,
                    indices: self.view_named(op, 2, 3, INDEX_VIEW_ATTRS)?,
                    dst: self.buf(op, 4)?,
                    index,
                }
            }
            "npuvec.store" => {
                let atomic = match ir.attr(op, "atomic") {
                    None => Atomic::None,
                    Some(_) => Atomic::ALL[1 + self.keyword_index(op, "atomic", "atomic", &ATOMIC)?],
                };
                Inst::Store { src: self.buf(op, 0)?, dst: self.view(op, 1, 2)?, atomic }
            }
            "npuvec.copy" => Inst::Copy { src: self.buf(op, 0)?, dst: self.buf(op, 1)? },
            "npuvec.cmp" => Inst::Cmp {
                pred: CmpPred::ALL[self.keyword_index(op, "predicate", "cmp", &CMP)?],
                a: self.src(op, 0)?,
                b: self.src(op, 1)?,
                dst: self.buf(op, 2)?,
            },
            "npuvec.select" => Inst::Select {
                mask: self.buf(op, 0)?,
                a: self.src(op, 1)?,
                b: self.src(op, 2)?,
                dst: self.buf(op, 3)?,
            },
            "npuvec.reduce" => Inst::Reduce {
                op: ReduceOp::ALL[self.keyword_index(op, "kind", "reduce", &REDUCE)?],
                src: self.buf(op, 0)?,
                dst: self.buf(op, 1)?,
                accumulate: has_attr(ir, op, "accumulate"),
            },
            "npuvec.broadcast" => Inst::Broadcast { src: self.buf(op, 0)?, dst: self.buf(op, 1)? },
            "npuvec.fill" => Inst::Fill { value: self.imm(op, 0)?, dst: self.buf(op, 1)? },
            "npuvec.cast" => Inst::Cast {
                src: self.buf(op, 0)?,
                dst: self.buf(op, 1)?,
                round: Round::ALL[self.keyword_index(op, "round", "round", &ROUND)?],
            },
            "npuvec.transpose" => Inst::Transpose { src: self.buf(op, 0)?, dst: self.buf(op, 1)? },
            "npuvec.move" => Inst::MoveL1 { src: self.buf(op, 0)?, dst: self.buf(op, 1)? },
            "npuvec.mmad" => Inst::Mmad {
                a: self.buf(op, 0)?,
                b: self.buf(op, 1)?,
                c: self.buf(op, 2)?,
                accumulate: has_attr(ir, op, "accumulate"),
            },
            "npuvec.fixpipe" => {
                Inst::Fixpipe { src: self.buf(op, 0)?, dst: self.buf(op, 1)?, relu: has_attr(ir, op, "relu") }
            }
            "npuvec.set_flag" | "npuvec.wait_flag" => {
                let (src, dst) = (self.pipe(op, "src")?, self.pipe(op, "dst")?);
                let event = bounded_attr(ir, op, "event", 0, u8::MAX as i128, "")? as u8;
                if name == "npuvec.set_flag" {
                    Inst::SetFlag { src, dst, event }
                } else {
                    Inst::WaitFlag { src, dst, event }
                }
            }
            "npuvec.barrier" => Inst::Barrier { pipe: self.pipe(op, "pipe")? },
            _ => {
                if let Some(&(_, sop)) = SCALAR_OPS.iter().find(|(n, _)| *n == name) {
                    Inst::Scalar {
                        op: sop,
                        dst: self.result_reg(op)?,
                        a: self.reg(op, 0)?,
                        b: self.reg(op, 1)?,
                    }
                } else if let Some(uop) = unary_op(name) {
                    Inst::Unary { op: uop, src: self.buf(op, 0)?, dst: self.buf(op, 1)? }
                } else if let Some(bop) = binary_op(name) {
                    Inst::Binary { op: bop, a: self.src(op, 0)?, b: self.src(op, 1)?, dst: self.buf(op, 2)? }
                } else {
                    return Err(self.err(op, "has no bytecode instruction (kiln-emit handles the npuvec ops of docs/backend.md and the arith and scf ops on index)"));
                }
            }
        };
        self.code.push(inst);
        Ok(())
    }

    fn for_loop(&mut self, op: OpId) -> Res<'c, ()> {
        if !self.ir.results(op).is_empty() || self.ir.operands(op).len() != 3 {
            return Err(self.err(op, "with loop-carried values has no bytecode instruction"));
        }
        let iv = body(self.ir, op).and_then(|b| self.ir.block_args(b).first().copied());
        let iv = iv
            .and_then(|v| self.regs.get(&v).copied())
            .ok_or_else(|| self.err(op, "has no induction variable"))?;
        let (lo, hi, step) = (self.reg(op, 0)?, self.reg(op, 1)?, self.reg(op, 2)?);
        let at = self.code.len();
        self.code.push(Inst::For { iv, lo, hi, step, body: 0 });
        let n = self.region(op, 0)?;
        self.code[at] = Inst::For { iv, lo, hi, step, body: n };
        Ok(())
    }

    fn if_op(&mut self, op: OpId) -> Res<'c, ()> {
        if !self.ir.results(op).is_empty() {
            return Err(self.err(op, "with results has no bytecode instruction"));
        }
        let cond = self.reg(op, 0)?;
        let at = self.code.len();
        self.code.push(Inst::If { cond, then_len: 0, else_len: 0 });
        let then_len = self.region(op, 0)?;
        let else_len = self.region(op, 1)?;
        self.code[at] = Inst::If { cond, then_len, else_len };
        Ok(())
    }
}
