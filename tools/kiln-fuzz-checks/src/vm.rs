//! The loader and the VM on arbitrary bytes.

use std::sync::LazyLock;

use kiln_targets::Target;
use kiln_vm::cost::CostModel;
use kiln_vm::sync_check::SyncChecker;
use kiln_vm::{HostTensor, Vm, VmConfig};

static TINY: LazyLock<Target> = LazyLock::new(|| Target::load("tiny-npu").expect("tiny-npu loads"));

/// Whatever the validating loader accepts (for the `tiny-npu` target), the VM runs to a
/// result or an error (never a panic, an out-of-bounds access or an endless loop: the step
/// budget and the GM limit are small here), with the sync checker and the cost model
/// consuming its events. Inputs are tensors of the module's input specs holding a fixed
/// byte pattern (not zeros, which a stale on-chip buffer would also hold). The run is
/// repeated without the VM's fast paths (one instruction at a time, every load copied) and
/// without an event sink: the outputs and counters, or the error, are the same each time, and
/// the two observed runs report the same events.
pub fn bytecode_vm(bytes: &[u8]) {
    let Ok(module) = kiln_bytecode::load(bytes, &TINY) else { return };
    let mut inputs = Vec::new();
    for spec in &module.host.inputs {
        match spec.checked_bytes().filter(|&b| b <= 1 << 20) {
            Some(b) => {
                let bytes = (0..b).map(|i| (i.wrapping_mul(31) + 7) as u8).collect();
                inputs.push(HostTensor { spec: spec.clone(), bytes });
            }
            None => return,
        }
    }
    let config = VmConfig { max_gm_bytes: 1 << 22, max_steps: 1 << 16, threads: 1, ..VmConfig::default() };
    let vm = Vm::with_config(&TINY, config);
    let mut checker = SyncChecker::new(&module, &TINY);
    let mut cost = CostModel::new(&module, &TINY);
    let mut events = Vec::new();
    let observed = vm.run_with(&module, &inputs, &mut |e| {
        checker.event(e);
        cost.event(e);
        events.push(e.clone());
    });
    let _ = checker.finish();
    let _ = cost.finish();
    let reference = Vm::with_config(&TINY, VmConfig { fast_paths: false, ..config });
    let mut reference_events = Vec::new();
    let one_at_a_time = reference.run_with(&module, &inputs, &mut |e| reference_events.push(e.clone()));
    let unobserved = vm.run(&module, &inputs);
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
