//! What the checks share: rendering diagnostics, finding functions and drawing their inputs.

use kiln_compiler::{Diagnostic, Ir, Module, OpId, SourceMgr, DYNAMIC};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::interp::program::dtype_of;
use kiln_dialects::hl::interp::{random_tensor, Tensor};

/// The file name diagnostics are located in.
pub const FILE: &str = "fuzz.mlir";

/// `diags` rendered against `text` (as the tools print them).
pub fn render(text: &str, diags: &[Diagnostic<'_>]) -> String {
    let mut sm = SourceMgr::new();
    sm.add(FILE, text);
    diags.iter().map(|d| sm.render(d)).collect()
}

/// The `func.func`s directly in the module's body, in order.
pub fn functions(m: &Module<'_>) -> Vec<OpId> {
    let ir = &m.ir;
    ir.regions(m.top)
        .iter()
        .filter_map(|&r| ir.entry_block(r))
        .flat_map(|b| ir.block_ops(b))
        .filter(|&op| ir.op(op).name == "func.func")
        .collect()
}

/// Seeded random arguments for `func` when every argument is a static tensor of an
/// interpreter element type and they hold at most `max_elements` elements in all.
pub fn arguments(ir: &Ir<'_>, func: OpId, seed: u64, max_elements: usize) -> Option<Vec<Tensor>> {
    let entry = ir.entry_block(*ir.regions(func).first()?)?;
    let mut total = 0usize;
    let mut args = Vec::new();
    for (i, &a) in ir.block_args(entry).iter().enumerate() {
        let (shape, elem) = tensor_parts(ir.value_type(a))?;
        if shape.iter().any(|&d| d == DYNAMIC || d < 0) {
            return None;
        }
        let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
        let count = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d))?;
        total = total.checked_add(count)?;
        if total > max_elements {
            return None;
        }
        args.push(random_tensor(dtype_of(elem)?, dims, seed.wrapping_mul(1000).wrapping_add(i as u64)));
    }
    Some(args)
}
