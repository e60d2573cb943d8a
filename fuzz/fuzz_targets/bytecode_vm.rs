//! The loader and the VM on arbitrary bytes: whatever the validating loader accepts, the VM
//! runs to a result or an error (never a panic, an out-of-bounds access or an endless loop:
//! the step budget and the GM limit are small here), with the sync checker and the cost model
//! consuming its events. Inputs are zero tensors of the module's input specs.
#![no_main]

use std::sync::LazyLock;

use kiln_targets::Target;
use kiln_vm::cost::CostModel;
use kiln_vm::sync_check::SyncChecker;
use kiln_vm::{HostTensor, Vm, VmConfig};
use libfuzzer_sys::fuzz_target;

static TINY: LazyLock<Target> = LazyLock::new(|| {
    Target::parse(include_str!("../../targets/tiny-npu.toml"), "tiny-npu.toml").expect("tiny-npu.toml is valid")
});

fuzz_target!(|bytes: &[u8]| {
    let Ok(module) = kiln_bytecode::load(bytes, &TINY) else { return };
    let mut inputs = Vec::new();
    for spec in &module.host.inputs {
        match spec.checked_bytes().filter(|&b| b <= 1 << 20) {
            Some(b) => inputs.push(HostTensor { spec: spec.clone(), bytes: vec![0; b as usize] }),
            None => return,
        }
    }
    let config = VmConfig { max_gm_bytes: 1 << 22, max_steps: 1 << 16, threads: 1, ..VmConfig::default() };
    let vm = Vm::with_config(&TINY, config);
    let mut checker = SyncChecker::new(&module, &TINY);
    let mut cost = CostModel::new(&module, &TINY);
    let _ = vm.run_with(&module, &inputs, &mut |e| {
        checker.event(e);
        cost.event(e);
    });
    let _ = checker.finish();
    let _ = cost.finish();
});
