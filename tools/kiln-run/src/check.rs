//! `--check`: the VM's results against the interpreter's.
//!
//! Exact where the VM is exact (README "Correctness"): integers and booleans bit for bit;
//! floats within a tolerance per type, `|vm - interp| <= atol + rtol * |interp|`, NaN where
//! the interpreter has NaN, infinities of the same sign. The tolerance covers the VM's
//! approximated transcendentals and is far above the rounding of exact ops, which agree bit
//! for bit.

use kiln_dialects::hl::interp::{DType, Tensor};

/// `(rtol, atol)` of a float type.
pub fn tolerance(d: DType) -> (f64, f64) {
    match d {
        DType::F16 => (2e-3, 1e-3),
        DType::BF16 => (1.6e-2, 1e-2),
        _ => (1e-5, 1e-6),
    }
}

/// The first difference of `vm` from `interp`, as a message, or `None` when they agree.
pub fn first_difference(index: usize, vm: &Tensor, interp: &Tensor) -> Option<String> {
    if vm.shape() != interp.shape() || vm.dtype() != interp.dtype() {
        return Some(format!(
            "result #{index}: the VM gives {:?} {}, the interpreter {:?} {}",
            vm.shape(),
            vm.dtype().name(),
            interp.shape(),
            interp.dtype().name()
        ));
    }
    let (a, b) = (vm.to_f64s(), interp.to_f64s());
    let float = interp.dtype().is_float();
    let (rtol, atol) = tolerance(interp.dtype());
    for (i, (&x, &y)) in a.iter().zip(&b).enumerate() {
        let same = if !float {
            x == y
        } else if y.is_nan() {
            x.is_nan()
        } else if y.is_infinite() {
            x == y
        } else {
            (x - y).abs() <= atol + rtol * y.abs()
        };
        if !same {
            return Some(format!("result #{index}: element {i} differs: vm {x}, interpreter {y}"));
        }
    }
    None
}
