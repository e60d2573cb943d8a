//! The sync checker on a double-buffered elementwise kernel: clean as written; deleting any
//! one of its `set_flag` / `wait_flag` instructions is reported (a deleted set as a deadlock,
//! a deleted wait as a hazard); hand-made hazards, deadlocks and leaks read as one line each.

mod common;
mod pipelined;

use common::*;
use kiln_bytecode::isa::{DType, Inst, Pipe, Reg, Space, UnaryOp};
use kiln_vm::sync_check::{check, HazardKind, Issue, Site, SyncReport};
use pipelined::{Shape, TILE};

const DOUBLE: Shape = Shape { slots: 2, cores: 2, tiles_per_core: 4, v_ops: 1 };

fn reports(code: Vec<Inst>, sh: Shape) -> Vec<SyncReport> {
    let m = pipelined::build(code, sh);
    check(&tiny(), &m, &pipelined::input(sh)).expect("the run completes or deadlocks")
}

#[test]
fn double_buffered_kernel_is_clean_and_correct() {
    let code = pipelined::code(DOUBLE);
    assert_eq!(reports(code.clone(), DOUBLE), vec![]);
    let m = pipelined::build(code, DOUBLE);
    let out = run(&m, &pipelined::input(DOUBLE)).unwrap();
    let x = f32s(&pipelined::input(DOUBLE)[0].bytes);
    let expect: Vec<f32> = x.iter().map(|v| v * 2.0 + 1.0).collect();
    assert_eq!(f32s(&out.tensors[0].bytes), expect);
}

#[test]
fn every_deleted_set_or_wait_is_reported() {
    let code = pipelined::code(DOUBLE);
    let mut deleted = 0;
    for (at, inst) in code.iter().enumerate() {
        let set = match inst {
            Inst::SetFlag { .. } => true,
            Inst::WaitFlag { .. } => false,
            _ => continue,
        };
        deleted += 1;
        let found = reports(pipelined::delete(&code, at), DOUBLE);
        let text: Vec<String> = found.iter().map(ToString::to_string).collect();
        let deadlock = found.iter().any(|r| matches!(r.issue, Issue::Deadlock { .. }));
        let hazard = found.iter().any(|r| matches!(r.issue, Issue::Hazard { .. }));
        let leak = found.iter().any(|r| matches!(r.issue, Issue::Leak { .. }));
        // The drain waits after the loop (the last instructions) order nothing: deleting one
        // leaves a flag set.
        let drain = at >= code.len() - 2 * DOUBLE.slots as usize;
        match (set, drain) {
            (true, _) => assert!(deadlock, "deleting #{at} ({inst:?}) gives {text:#?}"),
            (false, true) => assert!(leak && !hazard, "deleting drain #{at} ({inst:?}) gives {text:#?}"),
            (false, false) => assert!(hazard, "deleting #{at} ({inst:?}) gives {text:#?}"),
        }
    }
    assert_eq!(deleted, 4 + 2 * 8 + 4, "the kernel's sets and waits");
}

#[test]
fn a_missing_wait_reads_as_one_line() {
    let code = pipelined::code(DOUBLE);
    // The first wait for MTE2 -> V in the loop: the vector op then reads the load's output.
    let at = code
        .iter()
        .position(|i| matches!(i, Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::V, event: 0 }))
        .unwrap();
    let found = reports(pipelined::delete(&code, at), DOUBLE);
    let raw: Vec<&SyncReport> =
        found.iter().filter(|r| matches!(r.issue, Issue::Hazard { kind: HazardKind::Raw, .. })).collect();
    assert_eq!(raw.len(), 2, "one per core: {found:#?}");
    let load = code.iter().position(|i| matches!(i, Inst::Load { .. })).unwrap() as u32;
    assert_eq!(
        raw[0].issue,
        Issue::Hazard {
            kind: HazardKind::Raw,
            first: Site { inst: load, pipe: Pipe::Mte2 },
            second: Site { inst: load + 3, pipe: Pipe::V },
            space: Space::Ub,
            gm_arg: 0,
            start: 0,
            end: 4 * u64::from(TILE),
        }
    );
    assert_eq!(
        raw[1].to_string(),
        format!(
            "kernel `k` core 1: RAW hazard on ub[0x0, 0x1000): instruction #{} (binary on v) reads what \
             instruction #{load} (load on mte2) writes, with no flag or barrier ordering them",
            load + 3
        )
    );
    // The set whose wait is gone stays pending: one leak per core.
    let leaks: Vec<String> =
        found.iter().filter(|r| matches!(r.issue, Issue::Leak { .. })).map(ToString::to_string).collect();
    assert_eq!(
        leaks,
        (0..2)
            .map(|c| format!(
                "kernel `k` core {c}: flag mte2->v event 0 is still set at kernel end (2 sets never waited for)"
            ))
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_deleted_set_is_a_located_deadlock() {
    let code = pipelined::code(DOUBLE);
    let at = code
        .iter()
        .position(|i| matches!(i, Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::V, event: 1 }))
        .unwrap();
    let found = reports(pipelined::delete(&code, at), DOUBLE);
    assert_eq!(
        found.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec![format!(
            "kernel `k` core 0: instruction #{at} (wait_flag mte2->v event 1) waits for an event that is \
             never set (deadlock)"
        )],
        "the wait that follows takes the deleted set's index; the vm stops there"
    );
}

/// A kernel of one UB buffer: MTE2 writes it, V rewrites it, a full barrier, MTE3 reads it;
/// MTE2 and V are ordered by nothing but `sync`.
fn three_pipes(sync: &[Inst]) -> Vec<SyncReport> {
    let b = ub(DType::F32, 0, 1, 64);
    let mut code = vec![
        Inst::Const { dst: Reg(0), value: 0 },
        Inst::Load { dst: b, src: view(0, None, 0, &[(64, 1)]), zero_pad: false },
    ];
    code.extend_from_slice(sync);
    code.push(Inst::Unary { op: UnaryOp::Abs, dst: b, src: b });
    code.push(Inst::Barrier { pipe: Pipe::All });
    code.push(Inst::Store {
        dst: view(1, None, 0, &[(64, 1)]),
        src: b,
        atomic: kiln_bytecode::isa::Atomic::None,
    });
    let s = spec(DType::F32, &[64]);
    let m = module(code, 1, std::slice::from_ref(&s), std::slice::from_ref(&s));
    check(&tiny(), &m, &[tensor(s, f32_bytes(&[1.0; 64]))]).unwrap()
}

#[test]
fn barriers_and_flags_order_pipes() {
    // Without sync: V reads and writes what MTE2 writes (RAW and WAW); the full barrier orders
    // the store after both.
    let kinds: Vec<HazardKind> = three_pipes(&[])
        .iter()
        .map(|r| match r.issue {
            Issue::Hazard { kind, .. } => kind,
            _ => panic!("{r}"),
        })
        .collect();
    assert_eq!(kinds, vec![HazardKind::Raw, HazardKind::Waw]);
    assert_eq!(three_pipes(&[Inst::Barrier { pipe: Pipe::All }]), vec![]);
    // A one-pipe barrier orders nothing another pipe sees.
    assert_eq!(three_pipes(&[Inst::Barrier { pipe: Pipe::Mte2 }]).len(), 2);
    let pair = [
        Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::V, event: 3 },
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::V, event: 3 },
    ];
    assert_eq!(three_pipes(&pair), vec![]);
    // A flag of another pair of pipes does not order V after MTE2.
    let wrong = [
        Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::Mte3, event: 3 },
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::Mte3, event: 3 },
    ];
    assert_eq!(three_pipes(&wrong).len(), 2);
}

#[test]
fn other_vm_errors_pass_through() {
    let code = vec![
        Inst::Const { dst: Reg(0), value: 1 },
        Inst::Const { dst: Reg(1), value: 0 },
        Inst::Scalar { op: kiln_bytecode::isa::ScalarOp::DivU, dst: Reg(2), a: Reg(0), b: Reg(1) },
    ];
    let m = module(code, 1, &[], &[]);
    let e = check(&tiny(), &m, &[]).unwrap_err();
    assert_eq!((e.inst, e.message.as_str()), (Some(2), "scalar divu by zero"));
}

#[test]
fn a_replayed_stream_reports_a_wait_without_a_set_and_a_set_without_a_wait() {
    use kiln_vm::event::{Event, Work};
    use kiln_vm::sync_check::SyncChecker;
    // A stream the checker replays without the VM (which would stop at the wait).
    let code = vec![
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::V, event: 2 },
        Inst::SetFlag { src: Pipe::V, dst: Pipe::Mte3, event: 5 },
    ];
    let m = module(code.clone(), 1, &[], &[]);
    let mut c = SyncChecker::new(&m, &tiny());
    for (i, inst) in code.iter().enumerate() {
        let (Inst::WaitFlag { src, dst, event } | Inst::SetFlag { src, dst, event }) = *inst else {
            unreachable!()
        };
        c.event(&Event {
            launch: 0,
            kernel: 0,
            core: 0,
            inst: i as u32,
            pipe: inst.pipe(),
            flag: Some((src, dst, event)),
            barrier: None,
            accesses: vec![],
            work: Work::default(),
        });
    }
    assert_eq!(
        c.finish().iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec![
            "kernel `k` core 0: instruction #0 (wait_flag mte2->v event 2) waits for an event that is never set \
             (deadlock)",
            "kernel `k` core 0: flag v->mte3 event 5 is still set at kernel end (1 set never waited for)",
        ]
    );
}
