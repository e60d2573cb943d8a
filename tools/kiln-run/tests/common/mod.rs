//! What the VM-against-interpreter tests share: the entry function, random arguments, the
//! comparison of results.

use kiln_compiler::{Ir, OpId};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::interp::program::dtype_of;
use kiln_dialects::hl::interp::{random_tensor, Tensor};
use kiln_run::convert::from_host;
use kiln_vm::HostTensor;

/// The first function with a body.
pub fn entry(ir: &Ir<'_>, top: OpId) -> OpId {
    ir.regions(top)
        .iter()
        .flat_map(|&r| ir.region_blocks(r).flat_map(|b| ir.block_ops(b)).collect::<Vec<_>>())
        .find(|&op| ir.op(op).name == "func.func")
        .expect("a function")
}

/// Seeded random arguments of function `func` (argument `i` from seed `seed + i`), each `?`
/// dim `rows` long.
pub fn random_args(ir: &Ir<'_>, func: OpId, rows: usize, seed: u64) -> Vec<Tensor> {
    let body = ir.entry_block(ir.regions(func)[0]).expect("a body");
    ir.block_args(body)
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            let (shape, elem) = tensor_parts(ir.value_type(a)).expect("tensor arguments");
            let dims = shape.iter().map(|&d| if d < 0 { rows } else { d as usize }).collect();
            random_tensor(dtype_of(elem).expect("an hl dtype"), dims, seed.wrapping_add(i as u64))
        })
        .collect()
}

/// `Err` describes the first difference of the VM's `outputs` from the interpreter's
/// `reference`: their count, a result's shape or element type, or an element (floats compare
/// by value: `-0 == 0`, NaN matches NaN).
pub fn agree(outputs: &[HostTensor], reference: &[Tensor]) -> Result<(), String> {
    if outputs.len() != reference.len() {
        return Err(format!("{} results, the interpreter gives {}", outputs.len(), reference.len()));
    }
    for (i, (h, r)) in outputs.iter().zip(reference).enumerate() {
        let v = from_host(h)?;
        if v.shape() != r.shape() || v.dtype() != r.dtype() {
            return Err(format!(
                "result #{i}: {:?} {} vs {:?} {}",
                v.shape(),
                v.dtype().name(),
                r.shape(),
                r.dtype().name()
            ));
        }
        let (a, b) = (v.to_f64s(), r.to_f64s());
        if let Some(j) = (0..a.len()).find(|&j| !(a[j] == b[j] || (a[j].is_nan() && b[j].is_nan()))) {
            return Err(format!("result #{i} element {j}: vm {}, interpreter {}", a[j], b[j]));
        }
    }
    Ok(())
}
