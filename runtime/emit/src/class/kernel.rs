//! A kernel's part of a shape class: its launch parameters (trailing `index` arguments with
//! `npuvec.param_ranges`) and its extents (the `extents` operands of loads and stores).
//!
//! Parameter `k` is register `rk` when the kernel starts; it is live from the start of the
//! kernel to its last use. An extent is an SSA value like any scalar operand: the register
//! allocator keeps it live up to its load or store, and the instruction's extent reads the
//! register it was given there.

use std::collections::HashMap;

use kiln_bytecode::isa::Reg;
use kiln_bytecode::shape::{Extent, ParamRange};
use kiln_compiler::{Diagnostic, Ir, OpId, ValueId};
use kiln_dialects::npuvec::{kernel_params, view_extents};

use crate::read::Res;

/// The arguments of a kernel: the GM ones, then the launch parameters and their ranges.
pub struct Args {
    /// The GM arguments (the launch's buffers), in order.
    pub gm: Vec<ValueId>,
    /// The launch parameters (registers `r0..`), in order.
    pub params: Vec<ValueId>,
    /// Their ranges.
    pub ranges: Vec<ParamRange>,
}

/// Splits the arguments of kernel `func` into GM arguments and launch parameters, and reads
/// the parameters' ranges (`npuvec.param_ranges`, as the `npuvec` verifier checks it).
pub fn args<'c>(ir: &Ir<'c>, func: OpId) -> Res<'c, Args> {
    let k = kernel_params(ir, func)?;
    let ranges = k.ranges.iter().map(|&(min, max)| ParamRange { min, max }).collect();
    Ok(Args { gm: k.gm.to_vec(), params: k.params.to_vec(), ranges })
}

/// The extents of the instruction at index `inst` emitted from load or store `op`: each
/// `extents` operand's register (`regs`, the allocation) for the view dim `extent_dims`
/// names.
pub fn extents<'c>(ir: &Ir<'c>, op: OpId, inst: usize, regs: &HashMap<ValueId, Reg>) -> Res<'c, Vec<Extent>> {
    let pairs = view_extents(ir, op)?;
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    let inst = u32::try_from(inst).map_err(|_| Diagnostic::op_error(ir, op, "is past instruction 2^32"))?;
    let extent = |(k, (dim, v)): (usize, (usize, ValueId))| {
        let dim =
            u8::try_from(dim).map_err(|_| Diagnostic::op_error(ir, op, format!("has extent dim {dim}")))?;
        let reg = regs.get(&v).copied().ok_or_else(|| {
            Diagnostic::op_error(ir, op, format!("extent #{k} is not a scalar register value"))
        })?;
        Ok(Extent { inst, dim, reg })
    };
    pairs.into_iter().enumerate().map(extent).collect()
}
