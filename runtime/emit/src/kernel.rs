//! Emitting one kernel: a `func.func` with `npuvec.core` becomes a [`Kernel`], each op of its
//! body one instruction (see `docs/backend.md`, "`npuvec` ops").
//!
//! Scalars (`index` values and `i1` comparison results) live in registers ([`regalloc`]).
//! An `arith.constant` of `index` becomes a `Const` unless its only uses are the offsets of
//! loads and stores, which fold it into the view's static `base`; float and integer constants
//! are immediates of the vector ops that use them. `npuvec.base = N` on a load or store with a
//! dynamic offset adds `N` to the view's base (the disassembler writes it for views that have
//! both parts).

use std::collections::HashMap;

use kiln_bytecode::isa::{Atomic, Buf, Dim, GmView, Inst, Pipe, Reg, ScalarOp, Src, MAX_VIEW_DIMS, NUM_REGS};
use kiln_bytecode::isa::{DType, Scalar, Space};
use kiln_bytecode::module::{Core, Kernel};
use kiln_bytecode::opcode::{InstKind, Opcode, Role};
use kiln_bytecode::shape::{Extent, KernelClass};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{Diagnostic, Ir, OpDef, OpId, TypeKind, ValueId};
use kiln_dialects::npuvec::interfaces::instruction;
use kiln_dialects::npuvec::{AtomicKind, CmpPredicate, Pipe as NpuPipe, ReduceKind, RoundMode};
use kiln_dialects::{arith, func, npuvec, scf};
use kiln_targets::Target;

use crate::class::kernel as class;
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
pub(crate) const SCALAR_OPS: [(&OpDef, ScalarOp); 7] = [
    (&arith::ADDI_OP, ScalarOp::Add),
    (&arith::SUBI_OP, ScalarOp::Sub),
    (&arith::MULI_OP, ScalarOp::Mul),
    (&arith::DIVUI_OP, ScalarOp::DivU),
    (&arith::REMUI_OP, ScalarOp::RemU),
    (&arith::MINSI_OP, ScalarOp::MinS),
    (&arith::MAXSI_OP, ScalarOp::MaxS),
];

/// `arith.cmpi` predicates by their integer value (eq, ne, slt, sle, sgt, sge).
pub const CMPI: [ScalarOp; 6] =
    [ScalarOp::Eq, ScalarOp::Ne, ScalarOp::Lt, ScalarOp::Le, ScalarOp::Gt, ScalarOp::Ge];

/// The scalar instruction of `op`, when it is one of the `arith` ops on `index` it has.
fn scalar_op(ir: &Ir<'_>, op: OpId) -> Option<ScalarOp> {
    SCALAR_OPS.iter().find(|(d, _)| ir.is(op, d)).map(|&(_, s)| s)
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

/// Whether `u` is the offset operand of a GM view (which a constant folds into): a scalar
/// operand right after a GM view in its instruction's operands.
fn is_offset_use(ir: &Ir<'_>, u: &kiln_compiler::ir::Use) -> bool {
    let Some(kind) = ir.op(u.op).def.and_then(instruction) else { return false };
    let roles = kind.opcode().info().operands;
    let i = u.index as usize;
    i > 0 && roles.get(i) == Some(&Role::Scalar) && matches!(roles[i - 1], Role::GmRead | Role::GmWrite)
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
        let kind = ir.op(op).def.and_then(instruction).map(InstKind::opcode);
        let value = if ir.is(op, &arith::CONSTANT_OP) {
            ir.results(op).first().copied().filter(|&v| is_index(ir, v) && !folds(ir, op))
        } else if ir.is(op, &arith::CMPI_OP)
            || matches!(kind, Some(Opcode::BlockIdx | Opcode::BlockNum))
            || scalar_op(ir, op).is_some()
        {
            ir.results(op).first().copied()
        } else if ir.is(op, &scf::FOR_OP) {
            body(ir, op).and_then(|b| ir.block_args(b).first().copied())
        } else {
            None
        };
        if let Some(value) = value {
            defs.push(Def { value, op, fixed: fixed_reg(ir, op)? });
        }
    }
    Ok(defs)
}

/// Emits kernel `func` and what it takes at launch in a shape class (nothing for a static
/// kernel).
pub fn emit_kernel<'c>(ir: &Ir<'c>, func: OpId, target: &Target) -> Res<'c, (Kernel, KernelClass)> {
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
    let args = class::args(ir, func)?;
    let num_args = u16::try_from(args.gm.len())
        .map_err(|_| Diagnostic::op_error(ir, func, "kernel has more than 65535 arguments"))?;
    let at = Positions::new(ir, func);
    let params = args.params.iter().enumerate();
    let mut defs: Vec<Def> =
        params.map(|(k, &value)| Def { value, op: func, fixed: Some(k as u8) }).collect();
    defs.extend(register_defs(ir, func)?);
    let regs = regalloc::allocate(ir, func, &at, &defs)?;
    let gm = args.gm.iter().enumerate().map(|(i, &v)| (v, i as u16)).collect();
    let mut e =
        Emitter { ir, target, args: gm, regs, bufs: HashMap::new(), code: Vec::new(), extents: Vec::new() };
    e.block(entry)?;
    let kernel = Kernel { name, core, block_dim, ub_bytes, num_args, code: e.code };
    Ok((kernel, KernelClass { params: args.ranges, extents: e.extents }))
}

/// The state of emitting one kernel.
struct Emitter<'a, 'c> {
    ir: &'a Ir<'c>,
    target: &'a Target,
    args: HashMap<ValueId, u16>,
    regs: HashMap<ValueId, Reg>,
    bufs: HashMap<ValueId, Buf>,
    code: Vec<Inst>,
    /// The extents of the loads and stores emitted so far (a shape class's).
    extents: Vec<Extent>,
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

    fn pipe(&self, op: OpId, attr: &str) -> Res<'c, Pipe> {
        let p = self.ir.attr(op, attr).and_then(NpuPipe::of);
        p.map(Pipe::from).ok_or_else(|| self.err(op, format!("has no valid `{attr}` pipe")))
    }

    fn op(&mut self, op: OpId) -> Res<'c, ()> {
        let ir = self.ir;
        if let Some(kind) = ir.op(op).def.and_then(instruction) {
            let inst = self.instruction(op, kind)?;
            let extents = class::extents(ir, op, self.code.len(), &self.regs)?;
            self.extents.extend(extents);
            self.code.push(inst);
            return Ok(());
        }
        let inst = if ir.is_any(op, &[&func::RETURN_OP, &scf::YIELD_OP]) {
            return Ok(());
        } else if ir.is(op, &arith::CONSTANT_OP) {
            let Some(&dst) = ir.results(op).first().and_then(|v| self.regs.get(v)) else { return Ok(()) };
            let value = ir.attr(op, "value").and_then(|a| a.as_int()).and_then(|v| i64::try_from(v).ok());
            Inst::Const { dst, value: value.ok_or_else(|| self.err(op, "expects an index value in range"))? }
        } else if ir.is(op, &arith::CMPI_OP) {
            let p = read::int_attr(ir, op, "predicate").and_then(|p| usize::try_from(p).ok());
            let scalar_op = p.and_then(|p| CMPI.get(p)).copied();
            let op_ = scalar_op
                .ok_or_else(|| self.err(op, "has a predicate other than eq, ne, slt, sle, sgt, sge"))?;
            Inst::Scalar { op: op_, dst: self.result_reg(op)?, a: self.reg(op, 0)?, b: self.reg(op, 1)? }
        } else if let Some(sop) = scalar_op(ir, op) {
            Inst::Scalar { op: sop, dst: self.result_reg(op)?, a: self.reg(op, 0)?, b: self.reg(op, 1)? }
        } else if ir.is(op, &scf::FOR_OP) {
            return self.for_loop(op);
        } else if ir.is(op, &scf::IF_OP) {
            return self.if_op(op);
        } else if ir.is(op, &npuvec::BUFFER_OP) {
            return self.buffers(op);
        } else if ir.is(op, &npuvec::ALLOC_OP) {
            return Err(self.err(op, "is an unplanned buffer: run kiln-codegen-plan-ub first"));
        } else {
            return Err(self.err(op, "has no bytecode instruction (kiln-emit handles the npuvec ops of docs/backend.md and the arith and scf ops on index)"));
        };
        self.code.push(inst);
        Ok(())
    }

    /// The instruction of `npuvec` op `op`, which declares `kind`; its operands in the order
    /// of the opcode's roles (`kiln_bytecode::opcode::OPCODES`).
    fn instruction(&self, op: OpId, kind: InstKind) -> Res<'c, Inst> {
        let ir = self.ir;
        let unit = |name: &str| has_attr(ir, op, name);
        let typed = |name: &str| ir.attr(op, name);
        let keyword = |what: &str| self.err(op, format!("has no valid `{what}`"));
        Ok(match kind {
            InstKind::Unary(u) => Inst::Unary { op: u, src: self.buf(op, 0)?, dst: self.buf(op, 1)? },
            InstKind::Binary(b) => {
                Inst::Binary { op: b, a: self.src(op, 0)?, b: self.src(op, 1)?, dst: self.buf(op, 2)? }
            }
            InstKind::Op(Opcode::BlockIdx) => Inst::BlockIdx { dst: self.result_reg(op)? },
            InstKind::Op(Opcode::BlockNum) => Inst::BlockNum { dst: self.result_reg(op)? },
            InstKind::Op(Opcode::Load) => {
                Inst::Load { src: self.view(op, 0, 1)?, dst: self.buf(op, 2)?, zero_pad: unit("zero_pad") }
            }
            InstKind::Op(Opcode::Gather) => {
                let index = read::memref(ir, op, ir.value_type(self.operand(op, 2)?))?.dtype;
                Inst::Gather {
                    table: self.view(op, 0, 1)?,
                    indices: self.view_named(op, 2, 3, INDEX_VIEW_ATTRS)?,
                    dst: self.buf(op, 4)?,
                    index,
                }
            }
            InstKind::Op(Opcode::Store) => {
                let atomic = match typed("atomic") {
                    None => Atomic::None,
                    Some(a) => AtomicKind::of(a).ok_or_else(|| keyword("atomic"))?.into(),
                };
                Inst::Store { src: self.buf(op, 0)?, dst: self.view(op, 1, 2)?, atomic }
            }
            InstKind::Op(Opcode::Copy) => Inst::Copy { src: self.buf(op, 0)?, dst: self.buf(op, 1)? },
            InstKind::Op(Opcode::Cmp) => Inst::Cmp {
                pred: typed("predicate")
                    .and_then(CmpPredicate::of)
                    .ok_or_else(|| keyword("predicate"))?
                    .into(),
                a: self.src(op, 0)?,
                b: self.src(op, 1)?,
                dst: self.buf(op, 2)?,
            },
            InstKind::Op(Opcode::Select) => Inst::Select {
                mask: self.buf(op, 0)?,
                a: self.src(op, 1)?,
                b: self.src(op, 2)?,
                dst: self.buf(op, 3)?,
            },
            InstKind::Op(Opcode::Reduce) => Inst::Reduce {
                op: typed("kind").and_then(ReduceKind::of).ok_or_else(|| keyword("kind"))?.into(),
                src: self.buf(op, 0)?,
                dst: self.buf(op, 1)?,
                accumulate: unit("accumulate"),
            },
            InstKind::Op(Opcode::Broadcast) => {
                Inst::Broadcast { src: self.buf(op, 0)?, dst: self.buf(op, 1)? }
            }
            InstKind::Op(Opcode::Fill) => Inst::Fill { value: self.imm(op, 0)?, dst: self.buf(op, 1)? },
            InstKind::Op(Opcode::Cast) => Inst::Cast {
                src: self.buf(op, 0)?,
                dst: self.buf(op, 1)?,
                round: typed("round").and_then(RoundMode::of).ok_or_else(|| keyword("round"))?.into(),
            },
            InstKind::Op(Opcode::Transpose) => {
                Inst::Transpose { src: self.buf(op, 0)?, dst: self.buf(op, 1)? }
            }
            InstKind::Op(Opcode::MoveL1) => Inst::MoveL1 { src: self.buf(op, 0)?, dst: self.buf(op, 1)? },
            InstKind::Op(Opcode::Mmad) => Inst::Mmad {
                a: self.buf(op, 0)?,
                b: self.buf(op, 1)?,
                c: self.buf(op, 2)?,
                accumulate: unit("accumulate"),
            },
            InstKind::Op(Opcode::Fixpipe) => {
                Inst::Fixpipe { src: self.buf(op, 0)?, dst: self.buf(op, 1)?, relu: unit("relu") }
            }
            InstKind::Op(opcode @ (Opcode::SetFlag | Opcode::WaitFlag)) => {
                let (src, dst) = (self.pipe(op, "src")?, self.pipe(op, "dst")?);
                let event = bounded_attr(ir, op, "event", 0, u8::MAX as i128, "")? as u8;
                if opcode == Opcode::SetFlag {
                    Inst::SetFlag { src, dst, event }
                } else {
                    Inst::WaitFlag { src, dst, event }
                }
            }
            InstKind::Op(Opcode::Barrier) => Inst::Barrier { pipe: self.pipe(op, "pipe")? },
            InstKind::Scalar(_)
            | InstKind::Op(
                Opcode::Const | Opcode::Scalar | Opcode::For | Opcode::If | Opcode::Unary | Opcode::Binary,
            ) => return Err(self.err(op, format!("declares instruction {kind:?}, which no npuvec op is"))),
        })
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
