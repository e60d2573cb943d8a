//! `--check`: the VM's results against the interpreter's.
//!
//! The reference is the interpreter on the program the back end compiles: the module after the
//! clean-up (`hl-decompose, hl-canonicalize, cse, dce`; decomposing composites such as `gelu`
//! or `rms_norm` changes roundings, so the module as written can differ in the last bits).
//! Integers and booleans must agree bit for bit; floats within a tolerance per type, `|vm -
//! interp| <= atol + rtol * |interp|`, NaN where the interpreter has NaN, infinities of the
//! same sign: f32 `rtol 1e-4, atol 1e-5`, f16 `1e-2, 1e-3`, bf16 `5e-2, 1e-2`. The tolerance
//! covers the VM's approximated transcendentals; with exact transcendentals the VM agrees bit
//! for bit (the differential test checks that), but for the flash-attention kernel, which
//! reorders the softmax's sums (its bound: `tests/flash_attention.rs`).

use kiln_dialects::hl::interp::{DType, Tensor};

/// `(rtol, atol)` of a float type.
pub fn tolerance(d: DType) -> (f64, f64) {
    match d {
        DType::F16 => (1e-2, 1e-3),
        DType::BF16 => (5e-2, 1e-2),
        _ => (1e-4, 1e-5),
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
