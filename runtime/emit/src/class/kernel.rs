//! A kernel's part of a shape class: its launch parameters (trailing `index` arguments with
//! `npuvec.param_ranges`) and its extents (`npuvec.extents` on loads and stores).
//!
//! Parameter `k` is register `rk` when the kernel starts; it is live from the start of the
//! kernel to its last use. An extent names a register, not a value: it reads the last value
//! pinned to that register (`npuvec.reg`) or the parameter in it that is in scope at the load
//! or store, and that value is kept live up to there (so nothing else takes its register).

use kiln_bytecode::isa::{Reg, MAX_VIEW_DIMS, NUM_REGS};
use kiln_bytecode::opcode::{InstKind, Opcode};
use kiln_bytecode::shape::{Extent, ParamRange};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{BlockId, Diagnostic, Ir, OpId, TypeKind, ValueId};
use kiln_dialects::npuvec::interfaces::instruction;
use kiln_dialects::scf;

use crate::kernel::body;
use crate::read::{array_attr, Res};
use crate::regalloc::{Def, Positions};

/// A kernel's launch parameter ranges in a shape class: `array<i64: min0, max0, ...>` (its
/// parameters are its `index` arguments after the GM ones).
pub const PARAMS_ATTR: &str = "npuvec.param_ranges";

/// The attribute of a load or store whose view dims take their sizes from registers (a shape
/// class's extents): `array<i64: dim, reg, ...>`.
pub const EXTENTS_ATTR: &str = "npuvec.extents";

/// The arguments of a kernel: the GM ones, then the launch parameters and their ranges.
pub struct Args {
    /// The GM arguments (the launch's buffers), in order.
    pub gm: Vec<ValueId>,
    /// The launch parameters (registers `r0..`), in order.
    pub params: Vec<ValueId>,
    /// Their ranges.
    pub ranges: Vec<ParamRange>,
}

/// Splits the arguments of kernel `func` (entry block `entry`) into GM arguments and launch
/// parameters, and reads the parameters' ranges.
pub fn args<'c>(ir: &Ir<'c>, func: OpId, entry: BlockId) -> Res<'c, Args> {
    let all = ir.block_args(entry);
    let is_index = |v: ValueId| matches!(ir.value_type(v).kind(), TypeKind::Index);
    let gm_len = all.iter().position(|&v| is_index(v)).unwrap_or(all.len());
    let (gm, params) = all.split_at(gm_len);
    if let Some(i) = params.iter().position(|&v| !is_index(v)) {
        let msg = format!(
            "argument #{} ('{}') follows a launch parameter: the `index` arguments come after the GM ones",
            gm_len + i,
            ir.value_type(params[i])
        );
        return Err(Diagnostic::op_error(ir, func, msg));
    }
    if params.len() > NUM_REGS {
        let msg = format!("has {} launch parameters, more than the {NUM_REGS} registers", params.len());
        return Err(Diagnostic::op_error(ir, func, msg));
    }
    let ranges = match ir.attr(func, PARAMS_ATTR) {
        None if params.is_empty() => Vec::new(),
        None => {
            let msg = format!(
                "has {} launch parameters (`index` arguments) but no `{PARAMS_ATTR}` for their ranges",
                params.len()
            );
            return Err(Diagnostic::op_error(ir, func, msg));
        }
        Some(_) => ranges(ir, func, params.len())?,
    };
    Ok(Args { gm: gm.to_vec(), params: params.to_vec(), ranges })
}

/// The `count` ranges of `npuvec.param_ranges` on `func`.
fn ranges<'c>(ir: &Ir<'c>, func: OpId, count: usize) -> Res<'c, Vec<ParamRange>> {
    let values = array_attr(ir, func, PARAMS_ATTR)?;
    if values.len() != 2 * count {
        let msg = format!(
            "has {count} launch parameters (`index` arguments) but `{PARAMS_ATTR}` gives {} values, expected a min and a max for each",
            values.len()
        );
        return Err(Diagnostic::op_error(ir, func, msg));
    }
    let mut out = Vec::with_capacity(count);
    for (k, pair) in values.chunks_exact(2).enumerate() {
        let (min, max) = (pair[0], pair[1]);
        if min > max {
            let msg = format!(
                "`{PARAMS_ATTR}`: parameter {k} has the range {min}..={max}, whose min exceeds its max"
            );
            return Err(Diagnostic::op_error(ir, func, msg));
        }
        out.push(ParamRange { min, max });
    }
    Ok(out)
}

/// The `(dim, register)` pairs of `op`'s `npuvec.extents`, sorted by dim (empty without
/// one); an op that is not a load or store, an odd list, a dim past the view's or given twice,
/// a register out of range are errors.
pub fn extent_pairs<'c>(ir: &Ir<'c>, op: OpId) -> Res<'c, Vec<(u8, Reg)>> {
    if ir.attr(op, EXTENTS_ATTR).is_none() {
        return Ok(Vec::new());
    }
    let kind = ir.op(op).def.and_then(instruction);
    if !matches!(kind, Some(InstKind::Op(Opcode::Load | Opcode::Store))) {
        let msg = format!("has `{EXTENTS_ATTR}`, which only a load or a store (a GM view) takes");
        return Err(Diagnostic::op_error(ir, op, msg));
    }
    let values = array_attr(ir, op, EXTENTS_ATTR)?;
    let dims = ir.attr(op, "sizes").and_then(crate::read::i64_array).map_or(MAX_VIEW_DIMS, |s| s.len());
    if values.is_empty() || values.len() % 2 != 0 {
        let msg =
            format!("`{EXTENTS_ATTR}` has {} values, expected pairs of a dim and a register", values.len());
        return Err(Diagnostic::op_error(ir, op, msg));
    }
    let mut pairs: Vec<(u8, Reg)> = Vec::with_capacity(values.len() / 2);
    for pair in values.chunks_exact(2) {
        let (dim, reg) = (pair[0], pair[1]);
        let Some(dim) = u8::try_from(dim).ok().filter(|&d| (d as usize) < dims) else {
            let msg = format!("`{EXTENTS_ATTR}` names dim {dim} of a view of {dims} dims");
            return Err(Diagnostic::op_error(ir, op, msg));
        };
        let Some(reg) = u8::try_from(reg).ok().filter(|&r| (r as usize) < NUM_REGS) else {
            let msg = format!("`{EXTENTS_ATTR}` names register {reg}, expected r0 to r{}", NUM_REGS - 1);
            return Err(Diagnostic::op_error(ir, op, msg));
        };
        if pairs.iter().any(|&(d, _)| d == dim) {
            let msg = format!("`{EXTENTS_ATTR}` gives dim {dim} twice");
            return Err(Diagnostic::op_error(ir, op, msg));
        }
        pairs.push((dim, Reg(reg)));
    }
    pairs.sort_by_key(|&(d, _)| d);
    Ok(pairs)
}

/// The extents of the instruction at index `inst` emitted from `op`.
pub fn extents<'c>(ir: &Ir<'c>, op: OpId, inst: usize) -> Res<'c, Vec<Extent>> {
    let inst = u32::try_from(inst).map_err(|_| Diagnostic::op_error(ir, op, "is past instruction 2^32"))?;
    Ok(extent_pairs(ir, op)?.into_iter().map(|(dim, reg)| Extent { inst, dim, reg }).collect())
}

/// The block a def's value is visible in: the kernel's entry for a parameter, the body of its
/// loop for an induction variable, the block of its op otherwise.
fn def_block(ir: &Ir<'_>, func: OpId, entry: BlockId, def: &Def) -> Option<BlockId> {
    if def.op == func {
        Some(entry)
    } else if ir.is(def.op, &scf::FOR_OP) && !ir.results(def.op).contains(&def.value) {
        body(ir, def.op)
    } else {
        ir.parent_block(def.op)
    }
}

/// Whether `op` is (nested) in `block`.
fn inside(ir: &Ir<'_>, op: OpId, block: BlockId) -> bool {
    let mut at = Some(op);
    while let Some(o) = at {
        if ir.parent_block(o) == Some(block) {
            return true;
        }
        at = ir.parent_op(o);
    }
    false
}

/// Records each extent of kernel `func` as a read of the value it names (the last def in
/// scope pinned to its register), so that the value stays live up to the load or store;
/// `defs` are in program order. An extent whose register holds no such value is an error.
pub fn bind_extent_reads<'c>(
    ir: &Ir<'c>,
    func: OpId,
    entry: BlockId,
    at: &Positions,
    defs: &mut [Def],
) -> Res<'c, ()> {
    for op in ir.walk(func, WalkOrder::PreOrder) {
        for (dim, reg) in extent_pairs(ir, op)? {
            let here = at.of(op);
            let found = defs.iter().rposition(|d| {
                d.fixed == Some(reg.0)
                    && (d.op == func || at.of(d.op) < here)
                    && def_block(ir, func, entry, d).is_some_and(|b| inside(ir, op, b))
            });
            let Some(i) = found else {
                let msg = format!(
                    "`{EXTENTS_ATTR}`: dim {dim} reads r{}, which holds no value here (a launch parameter or a value pinned to it by `npuvec.reg` in scope)",
                    reg.0
                );
                return Err(Diagnostic::op_error(ir, op, msg));
            };
            defs[i].reads.push(op);
        }
    }
    Ok(())
}
