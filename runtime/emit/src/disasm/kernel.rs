//! Disassembling one kernel: each instruction becomes the op it was emitted from.
//!
//! Registers become SSA values, one per writing instruction, each op carrying `npuvec.reg`;
//! a register read is the value of the last write in scope. On-chip buffers become one
//! `npuvec.buffer` per distinct buffer at the top of the kernel; a static view offset becomes
//! an `arith.constant` just before its load or store (the emitter folds it back).

use std::collections::HashMap;
use std::ops::Range;

use kiln_bytecode::isa::{Atomic, Buf, DType, GmView, Inst, Reg, Scalar, Space, Src, NUM_REGS};
use kiln_bytecode::module::Kernel;
use kiln_bytecode::opcode::InstKind;
use kiln_bytecode::shape::KernelClass;
use kiln_compiler::{AttrKind, BlockId, FloatKind, OpDef, OpId, Type, ValueId};
use kiln_dialects::npuvec::interfaces::op_of;
use kiln_dialects::npuvec::{AtomicKind, CmpPredicate, Pipe as NpuPipe, ReduceKind, RoundMode};
use kiln_dialects::{arith, func, npuvec, scf};
use kiln_targets::Target;

use super::build::Builder;
use super::DisasmError;
use crate::kernel::{CMPI, SCALAR_OPS};
use crate::REG_ATTR;

/// What a register holds at a point of the disassembly.
#[derive(Clone, Copy)]
enum RegState {
    /// Never written.
    Undef,
    /// The value of its last write, made at region depth `.1`.
    Val(ValueId, usize),
    /// Last written inside a loop or branch that has ended (SSA cannot name it here).
    Closed,
}

/// The element type each GM argument is accessed with (its first load or store).
pub fn arg_dtypes(kernel: &Kernel) -> HashMap<u16, DType> {
    let mut out = HashMap::new();
    for inst in &kernel.code {
        match inst {
            Inst::Load { src: view, dst: buf, .. } | Inst::Store { dst: view, src: buf, .. } => {
                out.entry(view.arg).or_insert(buf.dtype);
            }
            Inst::Gather { dst, table, indices, index } => {
                out.entry(table.arg).or_insert(dst.dtype);
                out.entry(indices.arg).or_insert(*index);
            }
            _ => {}
        }
    }
    out
}

/// The operands `gm, offset` and the attributes of a GM view.
type View<'c> = (ValueId, ValueId, Vec<(&'static str, kiln_compiler::Attribute<'c>)>);

/// The state of disassembling one kernel.
pub struct KernelDisasm<'b, 'a, 'c> {
    b: &'b mut Builder<'a, 'c>,
    kernel: &'b Kernel,
    args: Vec<ValueId>,
    bufs: HashMap<(Space, DType, u32, u32, u32, u32), ValueId>,
    regs: [RegState; NUM_REGS],
    /// The enclosing loops: the depth of each body and the registers of outer values it reads
    /// (its bounds included), which it must not write (SSA has no loop-carried registers
    /// without `iter_args`, and the emitter keeps them live for the whole loop).
    loops: Vec<(usize, Vec<u8>)>,
    /// What the kernel takes at launch in a shape class (its extents), if anything.
    class: Option<&'b KernelClass>,
}

fn key(b: &Buf) -> (Space, DType, u32, u32, u32, u32) {
    (b.space, b.dtype, b.addr, b.rows, b.cols, b.pitch)
}

impl<'b, 'a, 'c> KernelDisasm<'b, 'a, 'c> {
    /// Disassembles `kernel` into `entry`, whose arguments are the GM arguments and then, in a
    /// shape class, one `index` per launch parameter (the values of registers `r0..` when
    /// the kernel starts).
    pub fn run(
        b: &'b mut Builder<'a, 'c>,
        kernel: &'b Kernel,
        class: Option<&'b KernelClass>,
        entry: BlockId,
        target: &Target,
    ) -> Result<(), DisasmError> {
        let all = b.ir.block_args(entry).to_vec();
        let gm = (kernel.num_args as usize).min(all.len());
        let mut regs = [RegState::Undef; NUM_REGS];
        for (r, &v) in regs.iter_mut().zip(&all[gm..]) {
            *r = RegState::Val(v, 0);
        }
        let mut d = KernelDisasm {
            b,
            kernel,
            args: all[..gm].to_vec(),
            bufs: HashMap::new(),
            regs,
            loops: Vec::new(),
            class,
        };
        d.buffers(entry, target);
        d.seq(0, kernel.code.len(), entry, 0)?;
        d.b.op(entry, &func::RETURN_OP, &[], &[], &[], 0);
        Ok(())
    }

    fn err(&self, i: usize, msg: impl std::fmt::Display) -> DisasmError {
        let inst = self.kernel.code.get(i).map_or("?", |c| c.mnemonic());
        DisasmError(format!("kernel '{}' instruction {i} ({inst}): {msg}", self.kernel.name))
    }

    /// One `npuvec.buffer` per distinct buffer, in order of first use (with `npuvec.pitch`
    /// when its pitch is not the one the target's alignment gives).
    fn buffers(&mut self, entry: BlockId, target: &Target) {
        let mut seen = Vec::new();
        for inst in &self.kernel.code {
            for buf in inst_bufs(inst) {
                if !seen.iter().any(|s: &Buf| key(s) == key(&buf)) {
                    seen.push(buf);
                }
            }
        }
        for buf in seen {
            let ty = self.b.memref(&[Some(buf.rows as u64), Some(buf.cols as u64)], buf.dtype, buf.space);
            let mut attrs = vec![("offsets", self.b.i64_array(&[buf.addr as i64]))];
            if buf.pitch != crate::kernel::pitch(target, buf.cols, buf.dtype) {
                attrs.push((crate::PITCH_ATTR, self.b.i64(buf.pitch as i64)));
            }
            let v = self.b.value(entry, &npuvec::BUFFER_OP, &[], &attrs, ty);
            self.bufs.insert(key(&buf), v);
        }
    }

    /// Instructions `from..to` into `block` at region depth `depth`.
    fn seq(&mut self, from: usize, to: usize, block: BlockId, depth: usize) -> Result<(), DisasmError> {
        let mut i = from;
        while i < to {
            i = self.inst(i, to, block, depth)?;
        }
        Ok(())
    }

    /// The code `from..from + len` of instruction `i`'s body, inside code ending at `to`.
    fn span(&self, i: usize, from: usize, len: u32, to: usize) -> Result<Range<usize>, DisasmError> {
        let end = from.checked_add(len as usize).filter(|&e| e <= to);
        end.map(|end| from..end).ok_or_else(|| self.err(i, "body runs past its enclosing code"))
    }

    /// The instructions `code` in a new block of `op`'s region `r` (with induction variable
    /// `iv` as its argument), at depth `depth + 1`; what they wrote is out of scope after.
    fn nested(
        &mut self,
        op: OpId,
        r: usize,
        code: Range<usize>,
        iv: Option<Reg>,
        depth: usize,
    ) -> Result<(), DisasmError> {
        let i = code.start - 1;
        let block = self.b.block_in(op, r);
        if let (Some(reg), Inst::For { lo, hi, step, .. }) = (iv, &self.kernel.code[i]) {
            self.loops.push((depth + 1, vec![lo.0, hi.0, step.0]));
            let index = self.b.ctx.index_type();
            let v = self.b.ir.add_block_arg(block, index, None);
            self.write(i, reg, v, depth + 1)?;
        }
        self.seq(code.start, code.end, block, depth + 1)?;
        if iv.is_some() {
            self.loops.pop();
        }
        self.b.op(block, &scf::YIELD_OP, &[], &[], &[], 0);
        for state in self.regs.iter_mut() {
            if matches!(state, RegState::Val(_, d) if *d > depth) {
                *state = RegState::Closed;
            }
        }
        Ok(())
    }

    fn read(&mut self, i: usize, r: Reg) -> Result<ValueId, DisasmError> {
        match self.regs.get(r.0 as usize).copied().unwrap_or(RegState::Undef) {
            RegState::Val(v, d) => {
                self.loops.iter_mut().filter(|(body, _)| d < *body).for_each(|(_, reads)| reads.push(r.0));
                Ok(v)
            }
            RegState::Undef => Err(self.err(i, format!("reads r{} before any instruction writes it", r.0))),
            RegState::Closed => {
                Err(self.err(i, format!("reads r{} as written inside a loop or branch that has ended", r.0)))
            }
        }
    }

    fn write(&mut self, i: usize, r: Reg, v: ValueId, depth: usize) -> Result<(), DisasmError> {
        if self.loops.iter().any(|(_, reads)| reads.contains(&r.0)) {
            let msg = format!("writes r{} inside a loop that reads its value from before the loop", r.0);
            return Err(self.err(i, msg));
        }
        if let Some(slot) = self.regs.get_mut(r.0 as usize) {
            *slot = RegState::Val(v, depth);
        }
        Ok(())
    }

    fn reg_attr(&self, r: Reg) -> (&'static str, kiln_compiler::Attribute<'c>) {
        (REG_ATTR, self.b.i64(r.0 as i64))
    }

    fn buf(&self, b: &Buf) -> ValueId {
        self.bufs[&key(b)]
    }

    /// The element type an immediate of an op on `dtype` is written with: `dtype` when the
    /// value is exact in it, else `f64` / `i64`.
    fn imm_type(&self, value: Scalar, dtype: DType) -> Type<'c> {
        let ctx = self.b.ctx;
        match value {
            Scalar::Float(v) => {
                let exact = match dtype {
                    DType::F32 => {
                        (v as f32) as f64 == v || v.is_nan() && ((v as f32) as f64).to_bits() == v.to_bits()
                    }
                    DType::F16 => half::f16::from_f64(v).to_f64().to_bits() == v.to_bits(),
                    DType::BF16 => half::bf16::from_f64(v).to_f64().to_bits() == v.to_bits(),
                    _ => false,
                };
                if exact {
                    self.b.elem(dtype)
                } else {
                    ctx.float_type(FloatKind::F64)
                }
            }
            Scalar::Int(v) => {
                let fits = match dtype {
                    DType::I32 => i32::try_from(v).is_ok(),
                    DType::I8 => i8::try_from(v).is_ok(),
                    DType::I1 => v == 0 || v == 1,
                    _ => false,
                };
                if fits {
                    self.b.elem(dtype)
                } else {
                    ctx.int_type(64)
                }
            }
        }
    }

    fn imm(&mut self, block: BlockId, value: Scalar, dtype: DType) -> ValueId {
        let ty = self.imm_type(value, dtype);
        let ctx = self.b.ctx;
        let attr = match value {
            Scalar::Float(v) => {
                let bits = match ty.kind() {
                    kiln_compiler::TypeKind::Float(FloatKind::F32) => (v as f32).to_bits() as u128,
                    kiln_compiler::TypeKind::Float(FloatKind::F16) => {
                        half::f16::from_f64(v).to_bits() as u128
                    }
                    kiln_compiler::TypeKind::Float(FloatKind::BF16) => {
                        half::bf16::from_f64(v).to_bits() as u128
                    }
                    _ => v.to_bits() as u128,
                };
                ctx.attr(AttrKind::Float { bits, ty })
            }
            Scalar::Int(v) => ctx.int_attr(v as i128, ty),
        };
        self.b.value(block, &arith::CONSTANT_OP, &[], &[("value", attr)], ty)
    }

    fn src(&mut self, block: BlockId, s: &Src, dtype: DType) -> ValueId {
        match s {
            Src::Buf(b) => self.buf(b),
            Src::Imm(v) => self.imm(block, *v, dtype),
        }
    }

    /// The GM operand, offset operand and view attributes of `view`.
    fn view(&mut self, i: usize, block: BlockId, view: &GmView) -> Result<View<'c>, DisasmError> {
        self.view_named(i, block, view, crate::kernel::VIEW_ATTRS)
    }

    /// [`Self::view`] with the attribute names `names` (sizes, strides, static base).
    fn view_named(
        &mut self,
        i: usize,
        block: BlockId,
        view: &GmView,
        names: [&'static str; 3],
    ) -> Result<View<'c>, DisasmError> {
        let gm = *self
            .args
            .get(view.arg as usize)
            .ok_or_else(|| self.err(i, format!("names argument {} of {}", view.arg, self.args.len())))?;
        let sizes: Vec<i64> = view.dims.iter().map(|d| d.size as i64).collect();
        let strides: Vec<i64> = view.dims.iter().map(|d| d.stride).collect();
        let mut attrs = vec![(names[0], self.b.i64_array(&sizes)), (names[1], self.b.i64_array(&strides))];
        let offset = match view.offset {
            None => {
                let index = self.b.ctx.index_type();
                let value = self.b.ctx.int_attr(view.base as i128, index);
                self.b.value(block, &arith::CONSTANT_OP, &[], &[("value", value)], index)
            }
            Some(r) => {
                if view.base != 0 {
                    attrs.push((names[2], self.b.i64(view.base)));
                }
                self.read(i, r)?
            }
        };
        Ok((gm, offset, attrs))
    }

    /// The extents of instruction `i`: the values of their registers, as `extents` operands,
    /// and their dims as `extent_dims` (each register must hold a value there, as any read).
    fn extents(
        &mut self,
        i: usize,
        operands: &mut Vec<ValueId>,
        attrs: &mut Vec<(&'static str, kiln_compiler::Attribute<'c>)>,
    ) -> Result<(), DisasmError> {
        let Some(class) = self.class else { return Ok(()) };
        let extents = class.extents_of(i as u32);
        if extents.is_empty() {
            return Ok(());
        }
        for e in extents {
            operands.push(self.read(i, e.reg)?);
        }
        let dims: Vec<i64> = extents.iter().map(|e| i64::from(e.dim)).collect();
        attrs.push(("extent_dims", self.b.i64_array(&dims)));
        Ok(())
    }

    fn plain(
        &mut self,
        block: BlockId,
        def: &'static OpDef,
        operands: &[ValueId],
        attrs: &[(&str, kiln_compiler::Attribute<'c>)],
    ) {
        self.b.op(block, def, operands, attrs, &[], 0);
    }

    /// Disassembles instruction `i` (inside code ending at `to`); returns the next index.
    fn inst(&mut self, i: usize, to: usize, block: BlockId, depth: usize) -> Result<usize, DisasmError> {
        let index = self.b.ctx.index_type();
        let inst = &self.kernel.code[i];
        let unit = self.b.ctx.unit_attr();
        match inst {
            Inst::Const { dst, value } => {
                let attr = self.b.ctx.int_attr(*value as i128, index);
                let v = self.b.value(
                    block,
                    &arith::CONSTANT_OP,
                    &[],
                    &[("value", attr), self.reg_attr(*dst)],
                    index,
                );
                self.write(i, *dst, v, depth)?;
            }
            Inst::Scalar { op, dst, a, b } => {
                let (a, b) = (self.read(i, *a)?, self.read(i, *b)?);
                let reg = self.reg_attr(*dst);
                let v = match CMPI.iter().position(|c| c == op) {
                    Some(p) => {
                        let pred = self.b.i64(p as i64);
                        let i1 = self.b.ctx.int_type(1);
                        self.b.value(block, &arith::CMPI_OP, &[a, b], &[("predicate", pred), reg], i1)
                    }
                    None => {
                        let def = SCALAR_OPS.iter().find(|(_, s)| s == op).map(|&(d, _)| d);
                        let def =
                            def.ok_or_else(|| DisasmError(format!("scalar op {op:?} has no arith op")))?;
                        self.b.value(block, def, &[a, b], &[reg], index)
                    }
                };
                self.write(i, *dst, v, depth)?;
            }
            Inst::BlockIdx { dst } | Inst::BlockNum { dst } => {
                let def = if matches!(inst, Inst::BlockIdx { .. }) {
                    &npuvec::BLOCK_IDX_OP
                } else {
                    &npuvec::BLOCK_NUM_OP
                };
                let v = self.b.value(block, def, &[], &[self.reg_attr(*dst)], index);
                self.write(i, *dst, v, depth)?;
            }
            Inst::For { iv, lo, hi, step, body } => {
                let operands = [self.read(i, *lo)?, self.read(i, *hi)?, self.read(i, *step)?];
                let op = self.b.op(block, &scf::FOR_OP, &operands, &[self.reg_attr(*iv)], &[], 1);
                let code = self.span(i, i + 1, *body, to)?;
                let next = code.end;
                self.nested(op, 0, code, Some(*iv), depth)?;
                return Ok(next);
            }
            Inst::If { cond, then_len, else_len } => {
                let c = self.read(i, *cond)?;
                let op = self.b.op(block, &scf::IF_OP, &[c], &[], &[], 2);
                let then = self.span(i, i + 1, *then_len, to)?;
                let other = self.span(i, then.end, *else_len, to)?;
                let next = other.end;
                self.nested(op, 0, then, None, depth)?;
                if *else_len > 0 {
                    self.nested(op, 1, other, None, depth)?;
                }
                return Ok(next);
            }
            Inst::Load { dst, src, zero_pad } => {
                let (gm, off, mut attrs) = self.view(i, block, src)?;
                let mut operands = vec![gm, off, self.buf(dst)];
                self.extents(i, &mut operands, &mut attrs)?;
                if *zero_pad {
                    attrs.push(("zero_pad", unit));
                }
                self.plain(block, &npuvec::LOAD_OP, &operands, &attrs);
            }
            Inst::Store { dst, src, atomic } => {
                let (gm, off, mut attrs) = self.view(i, block, dst)?;
                let mut operands = vec![self.buf(src), gm, off];
                self.extents(i, &mut operands, &mut attrs)?;
                if *atomic != Atomic::None {
                    if let Some(k) = AtomicKind::of_isa(*atomic) {
                        attrs.push(("atomic", k.attr(self.b.ctx)));
                    }
                }
                self.plain(block, &npuvec::STORE_OP, &operands, &attrs);
            }
            Inst::Gather { dst, table, indices, .. } => {
                let (gm, off, mut attrs) = self.view(i, block, table)?;
                let (ids, ids_off, more) =
                    self.view_named(i, block, indices, crate::kernel::INDEX_VIEW_ATTRS)?;
                attrs.extend(more);
                let d = self.buf(dst);
                self.plain(block, &npuvec::GATHER_OP, &[gm, off, ids, ids_off, d], &attrs);
            }
            Inst::Copy { dst, src } => self.two(block, &npuvec::COPY_OP, src, dst, &[]),
            Inst::Unary { op, dst, src } => {
                self.two(block, family(InstKind::Unary(*op))?, src, dst, &[]);
            }
            Inst::Binary { op, dst, a, b } => {
                let (a, b) = (self.src(block, a, dst.dtype), self.src(block, b, dst.dtype));
                let d = self.buf(dst);
                self.plain(block, family(InstKind::Binary(*op))?, &[a, b, d], &[]);
            }
            Inst::Cmp { pred, dst, a, b } => {
                let dtype = [a, b]
                    .iter()
                    .find_map(|s| if let Src::Buf(b) = s { Some(b.dtype) } else { None })
                    .unwrap_or(DType::F32);
                let (a, b) = (self.src(block, a, dtype), self.src(block, b, dtype));
                let attr = CmpPredicate::from(*pred).attr(self.b.ctx);
                let d = self.buf(dst);
                self.plain(block, &npuvec::CMP_OP, &[a, b, d], &[("predicate", attr)]);
            }
            Inst::Select { dst, mask, a, b } => {
                let m = self.buf(mask);
                let (a, b) = (self.src(block, a, dst.dtype), self.src(block, b, dst.dtype));
                let d = self.buf(dst);
                self.plain(block, &npuvec::SELECT_OP, &[m, a, b, d], &[]);
            }
            Inst::Reduce { op, dst, src, accumulate } => {
                let mut attrs = vec![("kind", ReduceKind::from(*op).attr(self.b.ctx))];
                if *accumulate {
                    attrs.push(("accumulate", unit));
                }
                self.two(block, &npuvec::REDUCE_OP, src, dst, &attrs);
            }
            Inst::Broadcast { dst, src } => self.two(block, &npuvec::BROADCAST_OP, src, dst, &[]),
            Inst::Fill { dst, value } => {
                let v = self.imm(block, *value, dst.dtype);
                let d = self.buf(dst);
                self.plain(block, &npuvec::FILL_OP, &[v, d], &[]);
            }
            Inst::Cast { dst, src, round } => {
                let attrs = [("round", RoundMode::from(*round).attr(self.b.ctx))];
                self.two(block, &npuvec::CAST_OP, src, dst, &attrs);
            }
            Inst::Transpose { dst, src } => self.two(block, &npuvec::TRANSPOSE_OP, src, dst, &[]),
            Inst::MoveL1 { dst, src } => self.two(block, &npuvec::MOVE_OP, src, dst, &[]),
            Inst::Mmad { c, a, b, accumulate } => {
                let ops = [self.buf(a), self.buf(b), self.buf(c)];
                let attrs: Vec<_> = if *accumulate { vec![("accumulate", unit)] } else { vec![] };
                self.plain(block, &npuvec::MMAD_OP, &ops, &attrs);
            }
            Inst::Fixpipe { dst, src, relu } => {
                let attrs: Vec<_> = if *relu { vec![("relu", unit)] } else { vec![] };
                self.two(block, &npuvec::FIXPIPE_OP, src, dst, &attrs);
            }
            Inst::SetFlag { src, dst, event } | Inst::WaitFlag { src, dst, event } => {
                let def = if matches!(inst, Inst::SetFlag { .. }) {
                    &npuvec::SET_FLAG_OP
                } else {
                    &npuvec::WAIT_FLAG_OP
                };
                let attrs = [
                    ("src", NpuPipe::from(*src).attr(self.b.ctx)),
                    ("dst", NpuPipe::from(*dst).attr(self.b.ctx)),
                    ("event", self.b.i64(*event as i64)),
                ];
                self.plain(block, def, &[], &attrs);
            }
            Inst::Barrier { pipe } => {
                let attrs = [("pipe", NpuPipe::from(*pipe).attr(self.b.ctx))];
                self.plain(block, &npuvec::BARRIER_OP, &[], &attrs);
            }
        }
        Ok(i + 1)
    }

    fn two(
        &mut self,
        block: BlockId,
        def: &'static OpDef,
        src: &Buf,
        dst: &Buf,
        attrs: &[(&str, kiln_compiler::Attribute<'c>)],
    ) {
        let (s, d) = (self.buf(src), self.buf(dst));
        self.plain(block, def, &[s, d], attrs);
    }
}

/// The `npuvec` op of a unary or binary family member.
fn family(kind: InstKind) -> Result<&'static OpDef, DisasmError> {
    op_of(kind).ok_or_else(|| DisasmError(format!("{kind:?} has no npuvec op")))
}

/// The buffers instruction `inst` names.
fn inst_bufs(inst: &Inst) -> Vec<Buf> {
    let src = |s: &Src| if let Src::Buf(b) = s { Some(*b) } else { None };
    match inst {
        Inst::Load { dst, .. } => vec![*dst],
        Inst::Store { src, .. } => vec![*src],
        Inst::Copy { dst, src } | Inst::Unary { dst, src, .. } | Inst::Reduce { dst, src, .. } => {
            vec![*src, *dst]
        }
        Inst::Broadcast { dst, src } | Inst::Cast { dst, src, .. } | Inst::Transpose { dst, src } => {
            vec![*src, *dst]
        }
        Inst::MoveL1 { dst, src } | Inst::Fixpipe { dst, src, .. } => vec![*src, *dst],
        Inst::Binary { dst, a, b, .. } | Inst::Cmp { dst, a, b, .. } => {
            [src(a), src(b), Some(*dst)].into_iter().flatten().collect()
        }
        Inst::Select { dst, mask, a, b } => {
            [Some(*mask), src(a), src(b), Some(*dst)].into_iter().flatten().collect()
        }
        Inst::Fill { dst, .. } => vec![*dst],
        Inst::Mmad { c, a, b, .. } => vec![*a, *b, *c],
        _ => vec![],
    }
}
