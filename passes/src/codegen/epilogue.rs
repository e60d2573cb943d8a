//! The elementwise epilogue of a `mix` kernel: the `hl` ops after its matmul, run on each
//! result tile in UB, between the fixpipe (L0C -> UB) and the stores, on the vector unit.
//!
//! Values of the chain (the matmul result and every epilogue result) have the matmul result's
//! type; a tile of each lives in a UB *slot* of `m x n`. Slot 0 holds the fixpipe's output; an
//! op writes over the slot of an operand that dies with it (in place), else takes a new slot.
//! Other operands are splat constants (immediates) or kernel inputs broadcast to the result as
//! numpy does, batch dims whole or absent, the last two dims whole or 1: their tile is loaded
//! into a buffer of `m or 1` rows by `n or 1` cols, which the vector op broadcasts.

use kiln_dialects::hl;
use rustc_hash::FxHashMap;

use kiln_compiler::{BlockId, Ir, OpId, ValueId};
use kiln_dialects::hl::canonicalize::splat_value;

use super::vector_ops::is_elementwise;

/// How one epilogue operand is read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// A chain value in UB slot `n`.
    Slot(usize),
    /// A splat constant.
    Splat(f64),
    /// Kernel input tile `n` (see [`Input`]).
    Input(usize),
}

/// A kernel input the epilogue reads, broadcast to the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The tensor value.
    pub value: ValueId,
    /// It spans the batch dims (else it has none or they are 1).
    pub batch: bool,
    /// It spans the rows (`M`), else 1.
    pub rows: bool,
    /// It spans the cols (`N`), else 1.
    pub cols: bool,
}

/// The analyzed epilogue.
#[derive(Clone, Debug, Default)]
pub struct Epilogue {
    /// The ops in order, each with its operands and its result slot.
    pub ops: Vec<(OpId, Vec<Operand>, usize)>,
    /// UB slots of `m x n` (slot 0 is the matmul's).
    pub slots: usize,
    /// The inputs read, each loaded once per tile.
    pub inputs: Vec<Input>,
    /// The slot of every chain value.
    pub slot_of: FxHashMap<ValueId, usize>,
}

impl Epilogue {
    /// The matmul of a kernel body (its first `hl` op other than a constant) and the
    /// epilogue of the other `hl` ops.
    pub fn of_kernel(ir: &Ir<'_>, body: BlockId) -> Result<(OpId, Epilogue), String> {
        let hl: Vec<OpId> = ir.block_ops(body).filter(|&o| hl::HL.owns(ir.op(o).def)).collect();
        let mm = *hl.iter().find(|&&o| !ir.is(o, &hl::CONSTANT)).ok_or("an empty kernel")?;
        let rest: Vec<OpId> = hl.into_iter().filter(|&o| o != mm).collect();
        Ok((mm, Epilogue::analyze(ir, mm, &rest)?))
    }

    /// The UB buffers of one result tile: the slots and an input tile each.
    pub fn ub_buffers(&self) -> u64 {
        (self.slots + self.inputs.len()) as u64
    }

    /// Analyzes `ops` (in program order, constants included) after `matmul`; `Err` says why they
    /// cannot run on the matmul's result tiles.
    pub fn analyze(ir: &Ir<'_>, matmul: OpId, ops: &[OpId]) -> Result<Epilogue, String> {
        let result = ir.results(matmul)[0];
        let ty = ir.value_type(result);
        let shape = ty.shape().ok_or("a matmul without a shaped result")?.to_vec();
        let elem = ty.element_type().ok_or("a matmul without an element type")?;
        let body: Vec<OpId> = ops.iter().copied().filter(|&o| !ir.is(o, &hl::CONSTANT)).collect();
        let mut e = Epilogue { slots: 1, ..Epilogue::default() };
        e.slot_of.insert(result, 0);
        let mut free: Vec<usize> = Vec::new();
        for (i, &op) in body.iter().enumerate() {
            let name = ir.op(op).name;
            if !is_elementwise(ir, op) {
                return Err(format!("'{name}' cannot run in a matmul epilogue"));
            }
            let out = ir.results(op)[0];
            if ir.value_type(out) != ty {
                return Err(format!(
                    "'{name}' in a matmul epilogue changes the type to {}",
                    ir.value_type(out)
                ));
            }
            let mut operands = Vec::new();
            for &v in ir.operands(op) {
                operands.push(if let Some(&s) = e.slot_of.get(&v) {
                    Operand::Slot(s)
                } else if let Some(s) = splat_value(ir, v) {
                    Operand::Splat(s)
                } else {
                    Operand::Input(e.input(ir, v, &shape, elem)?)
                });
            }
            // Slots whose value dies here are free for the result (and later ops).
            for &v in ir.operands(op) {
                if let Some(&s) = e.slot_of.get(&v) {
                    let dead = ir.uses(v).iter().all(|u| body[..=i].contains(&u.op));
                    if dead && !free.contains(&s) {
                        free.push(s);
                    }
                }
            }
            let slot = free.pop().unwrap_or_else(|| {
                e.slots += 1;
                e.slots - 1
            });
            e.slot_of.insert(out, slot);
            e.ops.push((op, operands, slot));
        }
        Ok(e)
    }

    /// The index of input `v`, added when new.
    fn input(
        &mut self,
        ir: &Ir<'_>,
        v: ValueId,
        shape: &[i64],
        elem: kiln_compiler::Type<'_>,
    ) -> Result<usize, String> {
        if let Some(i) = self.inputs.iter().position(|x| x.value == v) {
            return Ok(i);
        }
        let t = ir.value_type(v);
        let s = t.shape().ok_or_else(|| format!("a matmul epilogue operand of type {t}"))?;
        if t.element_type().map(|e| e.to_string()) != Some(elem.to_string()) || s.len() > shape.len() {
            return Err(format!("a matmul epilogue operand of type {t}"));
        }
        let r = shape.len();
        let lead = r - s.len();
        let dim = |i: usize| if i < lead { 1 } else { s[i - lead] };
        let spans = |i: usize| -> Result<bool, String> {
            match dim(i) {
                1 => Ok(shape[i] == 1),
                d if d == shape[i] => Ok(true),
                _ => Err(format!("a matmul epilogue operand of type {t} does not broadcast to the result")),
            }
        };
        let whole = (0..r - 2).all(|i| dim(i) == shape[i]);
        if !whole && !(0..r - 2).all(|i| dim(i) == 1) {
            return Err(format!(
                "a matmul epilogue operand of type {t} broadcasts over some batch dims only"
            ));
        }
        let (rows, cols) = (spans(r - 2)?, spans(r - 1)?);
        self.inputs.push(Input { value: v, batch: whole && r > 2, rows, cols });
        Ok(self.inputs.len() - 1)
    }
}
