//! The loader's second half: checks that a decoded [`Module`] means something on a target.
//!
//! Checked here, statically (the first violation is the error):
//! - the module was compiled for this target (by name);
//! - per kernel: `block_dim` in `1..=` the cores of its kind (vector cores for `aiv`, cube
//!   cores for `aic`, the smaller of both for `mix`); `ub_bytes` at most the target's
//!   `ub_usable_bytes`;
//! - loop and branch structure: a `For` body and each branch of an `If` lie inside the
//!   enclosing body (or the kernel);
//! - per instruction ([`inst`]): registers below [`NUM_REGS`](crate::isa::NUM_REGS), event
//!   ids below `sync.event_ids`, buffers inside their space (and UB buffers inside the
//!   kernel's `ub_bytes`), aligned, `pitch >= cols`, in the space the instruction requires,
//!   with consistent shapes and element types; GM views of an existing argument with
//!   `1..=MAX_VIEW_DIMS` dims of size >= 1 and as many elements as their buffer;
//! - the host program: launches of existing kernels with as many arguments as the kernel
//!   takes, every buffer reference (relocation) naming an existing input, constant or
//!   temporary, tensor byte sizes that fit `u64`, constant data of its shape's size.
//!
//! Left to the VM, because they depend on run-time values: GM offsets computed in registers
//! (a view's elements must lie inside its GM buffer), loop trip counts and steps, division by
//! zero and scalar overflow.

mod inst;
mod shape;

use kiln_targets::Target;

use crate::encode::encode_with_offsets;
use crate::error::LoadError;
use crate::format::{first_section, SECTIONS, STATIC_SECTIONS};
use crate::isa::{Inst, Operand, MAX_VIEW_DIMS};
use crate::module::{BufferRef, Core, Kernel, Module, TensorSpec};
use crate::shape::{ClassModule, ShapeClass};

/// Checks a decoded module against a target.
pub fn validate(module: &Module, target: &Target) -> Result<(), LoadError> {
    validate_module(module, None, target)
}

/// Checks a decoded program for a shape class against a target: its module as [`validate()`]
/// does (every on-chip access in range with the static sizes, which bound every extent), then
/// the class: distinct symbol names, each named by an input dim; entries parallel to the
/// skeleton's inputs (of their ranks), temporaries, outputs, launches and kernels, with 0 in
/// the skeleton wherever the class computes; well-formed expressions; as many parameters per
/// launch as its kernel declares (at most one register each, ranges not empty); extents in
/// order, one per dim, on the view of a `Load` or `Store`, from registers that exist.
pub fn validate_class(program: &ClassModule, target: &Target) -> Result<(), LoadError> {
    let class = Some(&program.class).filter(|c| !c.is_static());
    validate_module(&program.module, class, target)?;
    match class {
        Some(c) => shape::check(&program.module, c).map_err(|e| e.locate(&program.module, c)),
        None => Ok(()),
    }
}

/// [`validate()`] of a module encoded with `class`'s section (its offsets shift).
fn validate_module(module: &Module, class: Option<&ShapeClass>, target: &Target) -> Result<(), LoadError> {
    let sections = if class.is_some() { SECTIONS.len() } else { STATIC_SECTIONS };
    if module.target != target.name {
        return Err(LoadError::at(
            first_section(sections),
            format!("bytecode was compiled for '{}', the target is '{}'", module.target, target.name),
        ));
    }
    for (k, kernel) in module.kernels.iter().enumerate() {
        kernel_header(kernel, target).map_err(|reason| LoadError::place(reason, k, kernel, None))?;
        structure(&kernel.code).and_then(|()| inst::check_all(kernel, target)).map_err(|(i, reason)| {
            let mut e = LoadError::place(reason, k, kernel, Some(i));
            e.offset = inst_offset(module, class, k, i);
            e
        })?;
    }
    host(module).map_err(LoadError::unplaced)
}

/// The byte offset of instruction `i` of kernel `k` in the module's encoding, when every view
/// of the module can be encoded.
pub(crate) fn inst_offset(module: &Module, class: Option<&ShapeClass>, k: usize, i: usize) -> Option<u64> {
    let encodable = module.kernels.iter().flat_map(|k| &k.code).flat_map(Inst::operands).all(|o| match o {
        Operand::View(v) => v.dims.len() <= MAX_VIEW_DIMS,
        _ => true,
    });
    encodable.then(|| encode_with_offsets(module, class).1[k][i] as u64)
}

fn kernel_header(kernel: &Kernel, target: &Target) -> Result<(), String> {
    let (cores, what) = match kernel.core {
        Core::Aiv => (target.cores.vector, "vector cores"),
        Core::Aic => (target.cores.cube, "cube cores"),
        Core::Mix => (target.cores.vector.min(target.cores.cube), "cores of each kind (mix)"),
    };
    if kernel.block_dim == 0 || kernel.block_dim > cores {
        return Err(format!(
            "block_dim {} is not in 1..={cores}: the target has {cores} {what}",
            kernel.block_dim
        ));
    }
    if kernel.ub_bytes as u64 > target.memory.ub_usable_bytes {
        return Err(format!(
            "ub_bytes {} exceeds the target's usable UB ({} bytes)",
            kernel.ub_bytes, target.memory.ub_usable_bytes
        ));
    }
    Ok(())
}

/// Checks that every `For` body and `If` branch ends inside its enclosing body.
fn structure(code: &[Inst]) -> Result<(), (usize, String)> {
    // The ends (exclusive instruction indices) of the open bodies, innermost last.
    let mut open: Vec<u64> = Vec::new();
    for (i, inst) in code.iter().enumerate() {
        while open.last() == Some(&(i as u64)) {
            open.pop();
        }
        let bodies = match *inst {
            Inst::For { body, .. } => [body as u64, 0],
            Inst::If { then_len, else_len, .. } => [then_len as u64, else_len as u64],
            _ => continue,
        };
        let (limit, what) = match open.last() {
            Some(&end) => (end, "its enclosing body"),
            None => (code.len() as u64, "the kernel"),
        };
        let end = i as u64 + 1 + bodies[0] + bodies[1];
        if end > limit {
            return Err((
                i,
                format!(
                    "body of {} instructions runs past the end of {what} ({} instructions follow)",
                    bodies[0] + bodies[1],
                    limit - i as u64 - 1
                ),
            ));
        }
        open.push(end);
        if matches!(inst, Inst::If { .. }) {
            open.push(i as u64 + 1 + bodies[0]);
        }
    }
    Ok(())
}

fn tensor_bytes(spec: &TensorSpec, what: &str) -> Result<u64, String> {
    spec.checked_bytes()
        .ok_or_else(|| format!("the byte size of {what} ({} {:?}) overflows", spec.dtype.name(), spec.shape))
}

fn host(module: &Module) -> Result<(), String> {
    let host = &module.host;
    for (i, spec) in host.inputs.iter().enumerate() {
        tensor_bytes(spec, &format!("input #{i}"))?;
    }
    for (i, (spec, data)) in module.constants.iter().enumerate() {
        let bytes = tensor_bytes(spec, &format!("constant #{i}"))?;
        if data.len() as u64 != bytes {
            return Err(format!("constant #{i} has {} data bytes, its shape needs {bytes}", data.len()));
        }
    }
    let check_ref = |r: BufferRef, what: &dyn Fn() -> String| {
        let (name, index, count) = match r {
            BufferRef::Input(i) => ("input", i, host.inputs.len()),
            BufferRef::Const(i) => ("constant", i, module.constants.len()),
            BufferRef::Temp(i) => ("temporary", i, host.temps.len()),
        };
        if index as usize >= count {
            return Err(format!("{}: {name} {index} does not exist (the program has {count})", what()));
        }
        Ok(())
    };
    for (l, launch) in host.launches.iter().enumerate() {
        let kernel = module.kernels.get(launch.kernel as usize).ok_or_else(|| {
            format!(
                "launch #{l}: kernel index {} is out of range ({} kernels)",
                launch.kernel,
                module.kernels.len()
            )
        })?;
        if launch.args.len() != kernel.num_args as usize {
            return Err(format!(
                "launch #{l} of kernel '{}' binds {} arguments, the kernel takes {}",
                kernel.name,
                launch.args.len(),
                kernel.num_args
            ));
        }
        for (a, &r) in launch.args.iter().enumerate() {
            check_ref(r, &|| format!("launch #{l} argument #{a}"))?;
        }
    }
    for (i, (spec, r)) in host.outputs.iter().enumerate() {
        tensor_bytes(spec, &format!("output #{i}"))?;
        check_ref(*r, &|| format!("output #{i}"))?;
    }
    Ok(())
}
