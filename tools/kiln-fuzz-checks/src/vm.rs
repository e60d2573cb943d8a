//! The loader and the VM on arbitrary bytes.

use std::sync::LazyLock;

use kiln_bytecode::module::{Module, TensorSpec};
use kiln_targets::Target;
use kiln_vm::cost::CostModel;
use kiln_vm::event::Event;
use kiln_vm::sync_check::SyncChecker;
use kiln_vm::{HostTensor, Outputs, Vm, VmConfig, VmError};

static TINY: LazyLock<Target> = LazyLock::new(|| Target::load("tiny-npu").expect("tiny-npu loads"));

/// Whatever the validating loader accepts (for the `tiny-npu` target; a shape class's program
/// at one shape it admits), the VM runs to a
/// result or an error (never a panic, an out-of-bounds access or an endless loop: the step
/// budget and the GM limit are small here), with the sync checker and the cost model
/// consuming its events. Inputs are tensors of the module's input specs holding a fixed
/// byte pattern (not zeros, which a stale on-chip buffer would also hold). The run is
/// repeated without the VM's fast paths (one instruction at a time, every load copied) and
/// without an event sink: the outputs and counters, or the error, are the same each time, and
/// the two observed runs report the same events.
pub fn bytecode_vm(bytes: &[u8]) {
    if let Ok(module) = kiln_bytecode::load(bytes, &TINY) {
        let Some(inputs) = inputs(&module.host.inputs, |_, _| None) else { return };
        check_runs(&module, |vm, sink| match sink {
            Some(sink) => vm.run_with(&module, &inputs, sink),
            None => vm.run(&module, &inputs),
        });
    } else if let Ok(program) = kiln_bytecode::load_class(bytes, &TINY) {
        // A shape class runs at one shape it admits: symbol `k` is `2 + k % 3`.
        let class = &program.class;
        let dim =
            |i: usize, d: usize| class.inputs.get(i)?.get(d).copied().flatten().map(|k| 2 + u64::from(k % 3));
        let Some(inputs) = inputs(&program.module.host.inputs, dim) else { return };
        check_runs(&program.module, |vm, sink| match sink {
            Some(sink) => vm.run_class_with(&program, &inputs, sink),
            None => vm.run_class(&program, &inputs),
        });
    }
}

/// Tensors of the input specs `specs` (dim `d` of input `i` is `dim(i, d)` when that gives
/// one) holding a fixed byte pattern; `None` when one would take more than 1 MiB.
fn inputs(specs: &[TensorSpec], dim: impl Fn(usize, usize) -> Option<u64>) -> Option<Vec<HostTensor>> {
    let mut inputs = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let shape = spec.shape.iter().enumerate().map(|(d, &n)| dim(i, d).unwrap_or(n)).collect();
        let spec = TensorSpec { dtype: spec.dtype, shape };
        let b = spec.checked_bytes().filter(|&b| b <= 1 << 20)?;
        let bytes = (0..b).map(|i| (i.wrapping_mul(31) + 7) as u8).collect();
        inputs.push(HostTensor { spec, bytes });
    }
    Some(inputs)
}

/// Runs a program (`run(vm, sink)`) observed by the sync checker and the cost model of its
/// kernels `module`, one instruction at a time, and without a sink, and checks that the three
/// runs agree.
fn check_runs(
    module: &Module,
    run: impl Fn(&Vm, Option<&mut dyn FnMut(&Event)>) -> Result<Outputs, VmError>,
) {
    let config = VmConfig { max_gm_bytes: 1 << 22, max_steps: 1 << 16, threads: 1, ..VmConfig::default() };
    let vm = Vm::with_config(&TINY, config);
    let mut checker = SyncChecker::new(module, &TINY);
    let mut cost = CostModel::new(module, &TINY);
    let mut events = Vec::new();
    let observed = run(
        &vm,
        Some(&mut |e: &Event| {
            checker.event(e);
            cost.event(e);
            events.push(e.clone());
        }),
    );
    let _ = checker.finish();
    let _ = cost.finish();
    let reference = Vm::with_config(&TINY, VmConfig { fast_paths: false, ..config });
    let mut reference_events = Vec::new();
    let one_at_a_time = run(&reference, Some(&mut |e: &Event| reference_events.push(e.clone())));
    let unobserved = run(&vm, None);
    for (name, other) in [("one instruction at a time", &one_at_a_time), ("without a sink", &unobserved)] {
        match (&observed, other) {
            (Ok(o), Ok(f)) => assert!(o == f, "the run {name} differs from the observed run"),
            (Err(o), Err(f)) => assert_eq!(o.to_string(), f.to_string(), "the run {name} fails differently"),
            (o, f) => panic!("observed run {:?}, run {name} {:?}", o.as_ref().err(), f.as_ref().err()),
        }
    }
    if observed.is_ok() {
        assert!(
            events == reference_events,
            "the fast paths report other events than one instruction at a time"
        );
    }
}
