//! A kernel's part of a shape class: its launch parameters (trailing `index` arguments with
//! `npuvec.param_ranges`) and its extents (the `extents` operands of loads and stores).
//!
//! Parameter `k` is register `rk` when the kernel starts; it is live from the start of the
//! kernel to its last use. An extent is an SSA value like any scalar operand: the register
//! allocator keeps it live up to its load or store, and the instruction's extent reads the
//! register it was given there.

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

/// The extents of the instruction at index `inst` emitted from load or store `op`: for each
/// `extents` operand (the trailing ones), the view dim `extent_dims` names and the register
/// `reg` gives for its operand index (the allocation's).
pub fn extents<'c>(
    ir: &Ir<'c>,
    op: OpId,
    inst: usize,
    reg: impl Fn(usize) -> Res<'c, Reg>,
) -> Res<'c, Vec<Extent>> {
    let pairs = view_extents(ir, op)?;
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    let inst = u32::try_from(inst).map_err(|_| Diagnostic::op_error(ir, op, "is past instruction 2^32"))?;
    let first = ir.operands(op).len() - pairs.len();
    // A dim is below `MAX_VIEW_DIMS` (`view_extents` checks it against the view).
    let extent =
        |(k, &(dim, _)): (usize, &(usize, _))| Ok(Extent { inst, dim: dim as u8, reg: reg(first + k)? });
    pairs.iter().enumerate().map(extent).collect()
}
