//! Bad modules and bad inputs are located errors, never panics.

mod common;

use common::*;
use kiln_bytecode::isa::{Atomic, DType, Inst, Pipe, Reg, ScalarOp};
use kiln_bytecode::module::BufferRef;
use kiln_vm::{Vm, VmConfig};

fn err(code: Vec<Inst>) -> String {
    let s = spec(DType::F32, &[8]);
    let m = module(code, 1, std::slice::from_ref(&s), std::slice::from_ref(&s));
    run(&m, &[tensor(s, vec![0; 32])]).unwrap_err().to_string()
}

#[test]
fn out_of_bounds_views_and_buffers() {
    let b = ub(DType::F32, 0, 1, 8);
    let e = err(vec![Inst::Load { dst: b, src: view(0, None, 4, &[(8, 1)]), zero_pad: false }]);
    assert_eq!(e, "kernel `k` core 0 instruction #0: gm view of argument #0 reaches elements [4, 11] outside the buffer's 8");
    let e = err(vec![Inst::Load { dst: b, src: view(0, None, 0, &[(4, 1)]), zero_pad: false }]);
    assert_eq!(e, "kernel `k` core 0 instruction #0: gm view of 4 elements for a buffer of 8");
    let e = err(vec![Inst::Load { dst: b, src: view(5, None, 0, &[(8, 1)]), zero_pad: false }]);
    assert_eq!(e, "kernel `k` core 0 instruction #0: gm argument #5 is past the 2 arguments");
    let far = ub(DType::F32, 16380, 1, 8);
    let e = err(vec![Inst::Load { dst: far, src: view(0, None, 0, &[(8, 1)]), zero_pad: false }]);
    assert_eq!(e, "kernel `k` core 0 instruction #0: ub range [16380, 16412) is outside the 16384-byte ub");
    let e = err(vec![Inst::Store { dst: view(1, None, -1, &[(8, 1)]), src: b, atomic: Atomic::None }]);
    assert!(e.contains("reaches elements [-1, 6]"), "{e}");
}

#[test]
fn an_observed_run_fails_with_the_unobserved_runs_message() {
    // A load into L1 on a vector core (which has none) from a view past its buffer: the load's
    // own error comes first in both runs, before the event's view is resolved for the sink.
    let s = spec(DType::F32, &[8]);
    let mut m = module(
        vec![Inst::Load {
            dst: in_space(kiln_bytecode::isa::Space::L1, DType::F32, 0, 1, 8),
            src: view(0, None, 100, &[(8, 1)]),
            zero_pad: false,
        }],
        1,
        std::slice::from_ref(&s),
        std::slice::from_ref(&s),
    );
    m.kernels[0].core = kiln_bytecode::module::Core::Aiv;
    let vm = Vm::new(&tiny());
    let inputs = [tensor(s, vec![0; 32])];
    let plain = vm.run(&m, &inputs).unwrap_err().to_string();
    let observed = vm.run_with(&m, &inputs, &mut |_| {}).unwrap_err().to_string();
    assert_eq!(observed, plain);
    assert!(plain.contains("l1 range [0, 32) is outside the 0-byte l1"), "{plain}");
}

#[test]
fn bad_registers_scalar_errors_and_flags() {
    let e = err(vec![Inst::Const { dst: Reg(64), value: 1 }]);
    assert_eq!(e, "kernel `k` core 0 instruction #0: register r64 does not exist (a core has 64)");
    let e = err(vec![
        Inst::Const { dst: Reg(0), value: 7 },
        Inst::Const { dst: Reg(1), value: 0 },
        Inst::Scalar { op: ScalarOp::DivU, dst: Reg(2), a: Reg(0), b: Reg(1) },
    ]);
    assert_eq!(e, "kernel `k` core 0 instruction #2: scalar divu by zero");
    let e = err(vec![
        Inst::Const { dst: Reg(0), value: i64::MAX },
        Inst::Scalar { op: ScalarOp::Add, dst: Reg(0), a: Reg(0), b: Reg(0) },
    ]);
    assert!(e.ends_with("overflows"), "{e}");
    let e = err(vec![Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::V, event: 0 }]);
    assert_eq!(e, "kernel `k` core 0 instruction #0: wait_flag mte2->v event 0 is never set");
    let e = err(vec![Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::V, event: 8 }]);
    assert!(e.contains("event id 8 is not below the target's 8 event ids"), "{e}");
}

#[test]
fn loops_are_bounded() {
    let looping = vec![
        Inst::Const { dst: Reg(0), value: 0 },
        Inst::Const { dst: Reg(1), value: i64::MAX },
        Inst::Const { dst: Reg(2), value: 1 },
        Inst::For { iv: Reg(3), lo: Reg(0), hi: Reg(1), step: Reg(2), body: 0 },
    ];
    let s = spec(DType::F32, &[8]);
    let m = module(looping.clone(), 1, std::slice::from_ref(&s), std::slice::from_ref(&s));
    let vm = Vm::with_config(&tiny(), VmConfig { max_steps: 10_000, ..VmConfig::default() });
    let e = vm.run(&m, &[tensor(s.clone(), vec![0; 32])]).unwrap_err().to_string();
    assert_eq!(e, "kernel `k` core 0 instruction #3: step budget of 10000 steps exhausted");
    // Cores cost steps too: a huge block_dim runs out of budget.
    let mut wide = module(vec![], u32::MAX, std::slice::from_ref(&s), std::slice::from_ref(&s));
    wide.kernels[0].core = kiln_bytecode::module::Core::Aiv;
    let e = vm.run(&wide, &[tensor(s.clone(), vec![0; 32])]).unwrap_err().to_string();
    assert!(e.contains("step budget of") && e.contains("exhausted"), "{e}");
    let mut bad = looping.clone();
    bad[2] = Inst::Const { dst: Reg(2), value: 0 };
    assert_eq!(err(bad), "kernel `k` core 0 instruction #3: loop step 0 is not positive");
    let mut past = looping;
    past[3] = Inst::For { iv: Reg(3), lo: Reg(0), hi: Reg(1), step: Reg(2), body: 2 };
    assert_eq!(
        err(past),
        "kernel `k` core 0 instruction #3: loop body of 2 instructions runs past its enclosing region"
    );
    let e =
        err(vec![Inst::Const { dst: Reg(0), value: 1 }, Inst::If { cond: Reg(0), then_len: 1, else_len: 1 }]);
    assert_eq!(e, "kernel `k` core 0 instruction #1: branches run past their enclosing region");
}

#[test]
fn host_errors() {
    let s = spec(DType::F32, &[4, 8]);
    let m = module(vec![], 1, std::slice::from_ref(&s), std::slice::from_ref(&s));
    let wrong = tensor(spec(DType::F16, &[4, 8]), vec![0; 64]);
    assert_eq!(
        run(&m, &[wrong]).unwrap_err().to_string(),
        "input #0: expected tensor<4x8xf32>, got tensor<4x8xf16>"
    );
    assert_eq!(run(&m, &[]).unwrap_err().to_string(), "expected 1 inputs, got 0");
    let short = tensor(s.clone(), vec![0; 3]);
    assert_eq!(run(&m, &[short]).unwrap_err().to_string(), "input #0: 3 bytes for tensor<4x8xf32>");
    let mut big = m.clone();
    big.host.temps[0] = 1 << 40;
    let e = run(&big, &[tensor(s.clone(), vec![0; 128])]).unwrap_err().to_string();
    assert_eq!(e, "temporary #0 (1099511627776 bytes) takes GM past the limit of 1073741824 bytes");
    let mut other = m.clone();
    other.target = "ascend910b".into();
    let e = run(&other, &[tensor(s.clone(), vec![0; 128])]).unwrap_err().to_string();
    assert_eq!(e, "the module was compiled for target `ascend910b`, the vm runs `tiny-npu`");
    let mut dangling = m.clone();
    dangling.host.launches[0].args[1] = BufferRef::Temp(9);
    let e = run(&dangling, &[tensor(s.clone(), vec![0; 128])]).unwrap_err().to_string();
    assert_eq!(e, "temporary #9 does not exist (the module has 1)");
    let mut constant = m.clone();
    constant.constants.push((spec(DType::F32, &[1]), vec![0; 4]));
    constant.host.launches[0].args[1] = BufferRef::Const(0);
    constant.kernels[0].code = vec![Inst::Store {
        dst: view(1, None, 0, &[(1, 1)]),
        src: ub(DType::F32, 0, 1, 1),
        atomic: Atomic::None,
    }];
    let e = run(&constant, &[tensor(s, vec![0; 128])]).unwrap_err().to_string();
    assert_eq!(e, "kernel `k` core 0 instruction #0: store to gm argument #1 bound to a constant");
}

#[test]
fn heavy_instructions_cost_steps() {
    // 20 iterations of one vector op over 16 KiB of UB: 40 instructions, but 64 repeats each.
    let whole = ub(DType::F32, 0, 64, 64);
    let code = vec![
        Inst::Const { dst: Reg(0), value: 0 },
        Inst::Const { dst: Reg(1), value: 20 },
        Inst::Const { dst: Reg(2), value: 1 },
        Inst::For { iv: Reg(3), lo: Reg(0), hi: Reg(1), step: Reg(2), body: 1 },
        Inst::Unary { op: kiln_bytecode::isa::UnaryOp::Abs, dst: whole, src: whole },
    ];
    let s = spec(DType::F32, &[8]);
    let m = module(code, 1, std::slice::from_ref(&s), std::slice::from_ref(&s));
    let vm = Vm::with_config(&tiny(), VmConfig { max_steps: 1000, ..VmConfig::default() });
    let e = vm.run(&m, &[tensor(s.clone(), vec![0; 32])]).unwrap_err().to_string();
    assert!(e.contains("step budget of 1000 steps exhausted"), "{e}");
    let roomy = Vm::with_config(&tiny(), VmConfig { max_steps: 100_000, ..VmConfig::default() });
    assert!(roomy.run(&m, &[tensor(s, vec![0; 32])]).is_ok());
}
