//! Running programs compiled for a shape class: bind the class to the inputs' shapes before
//! anything runs ([`ClassModule::bind`]), then run the bound host program as a static one,
//! each launch's parameters in registers `r0..` of its cores and each extent checked as its
//! instruction runs (see `kiln_bytecode::shape`).

use kiln_bytecode::isa::{Inst, MAX_VIEW_DIMS, NUM_REGS};
use kiln_bytecode::module::{Kernel, TensorSpec};
use kiln_bytecode::shape::{ClassModule, KernelClass, ShapeClass};

use crate::event::Event;
use crate::gm::Sizes;
use crate::{HostTensor, Outputs, Vm, VmError};

impl Vm {
    /// Runs a program compiled for a shape class on `inputs` of any shape the class admits:
    /// binds the symbols from the inputs' shapes and computes the host program's sizes and
    /// each launch's parameters ([`ClassModule::bind`]) before anything runs, then runs as
    /// [`Vm::run`] does, each launch's parameters in registers `r0..` of its cores and each
    /// extent's size checked as its instruction runs.
    pub fn run_class(&self, program: &ClassModule, inputs: &[HostTensor]) -> Result<Outputs, VmError> {
        self.execute_class(program, &inputs.iter().collect::<Vec<_>>(), Vec::new(), None)
    }

    /// [`Vm::run_class`], reporting every executed instruction to `sink` (the sync checker's
    /// and the cost model's stream).
    pub fn run_class_with(
        &self,
        program: &ClassModule,
        inputs: &[HostTensor],
        sink: &mut dyn FnMut(&Event),
    ) -> Result<Outputs, VmError> {
        self.execute_class(program, &inputs.iter().collect::<Vec<_>>(), Vec::new(), Some(sink))
    }

    /// [`Vm::run_class`] with the spares and inputs of [`Vm::run_borrowed`].
    pub fn run_class_borrowed(
        &self,
        program: &ClassModule,
        inputs: &[&HostTensor],
        spare: Vec<Vec<u8>>,
    ) -> Result<Outputs, VmError> {
        self.execute_class(program, inputs, spare, None)
    }

    fn execute_class(
        &self,
        program: &ClassModule,
        inputs: &[&HostTensor],
        spare: Vec<Vec<u8>>,
        sink: Option<&mut dyn FnMut(&Event)>,
    ) -> Result<Outputs, VmError> {
        if program.class.is_static() {
            return self.execute(&program.module, inputs, spare, sink);
        }
        self.check_target(&program.module)?;
        let specs: Vec<TensorSpec> = inputs.iter().map(|t| t.spec.clone()).collect();
        let bound = program.bind(&specs).map_err(|e| VmError::host(e.0))?;
        let class = Some((&program.class, &bound.params[..]));
        self.execute_host(&program.module, &bound.host, class, inputs, spare, sink)
    }
}

/// What launch `li` of kernel `k` takes from a shape class: the kernel's class (when it has
/// extents) and the launch's parameters, which [`ClassModule::bind`] computed and checked
/// against the kernel's ranges. An extent must be on a load's or a store's view (the loader
/// checks it; an unvalidated program fails here, before the launch, on every path).
pub(crate) fn launch_class<'a>(
    class: Option<(&'a ShapeClass, &'a [Vec<i64>])>,
    kernel: &Kernel,
    k: u32,
    li: usize,
) -> Result<(Option<&'a KernelClass>, &'a [i64]), String> {
    let Some((class, params)) = class else { return Ok((None, &[])) };
    let (Some(kc), Some(values)) = (class.kernels.get(k as usize), params.get(li)) else {
        return Err(format!("launch #{li}: the shape class does not cover it"));
    };
    for e in &kc.extents {
        if !matches!(kernel.code.get(e.inst as usize), Some(Inst::Load { .. } | Inst::Store { .. })) {
            return Err(format!(
                "instruction #{} has an extent, but only a load or a store takes one",
                e.inst
            ));
        }
    }
    Ok((Some(kc).filter(|kc| !kc.extents.is_empty()), values))
}

/// The run-time sizes of the view of `inst` (at `pc`) when `class` gives it extents: each
/// from its register, which must hold `1..=` the dim's static size.
pub(crate) fn extent_sizes(
    class: &KernelClass,
    pc: usize,
    inst: &Inst,
    regs: &[i64; NUM_REGS],
) -> Result<Option<Sizes>, String> {
    let extents = class.extents_of(pc as u32);
    let view = match inst {
        _ if extents.is_empty() => return Ok(None),
        Inst::Load { src: v, .. } | Inst::Store { dst: v, .. } => v,
        _ => {
            return Err(format!(
                "only a load's or a store's view takes an extent, not a {}'s",
                inst.mnemonic()
            ))
        }
    };
    let mut sizes: Sizes = [1; MAX_VIEW_DIMS];
    for (s, d) in sizes.iter_mut().zip(&view.dims) {
        *s = d.size;
    }
    for e in extents {
        let d = e.dim as usize;
        let (Some(dim), Some(size)) = (view.dims.get(d), sizes.get_mut(d)) else {
            return Err(format!("an extent names view dim {d}, the view has {}", view.dims.len()));
        };
        let v = *regs.get(e.reg.0 as usize).ok_or_else(|| format!("register r{} does not exist", e.reg.0))?;
        if v < 1 || v > i64::from(dim.size) {
            return Err(format!(
                "{}: view dim {d} takes its size from r{} = {v}, outside 1..={} (the dim's static maximum)",
                inst.mnemonic(),
                e.reg.0,
                dim.size
            ));
        }
        *size = v as u32;
    }
    Ok(Some(sizes))
}
