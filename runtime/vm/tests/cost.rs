//! The cost model: exact cycles of a hand-computed load / compute / store, the HBM cap,
//! double buffering beating single buffering on the same work, and cube and vector pipes
//! overlapping.

mod common;
mod pipelined;

use common::*;
use kiln_bytecode::isa::{Atomic, DType, Inst, Pipe, UnaryOp};
use kiln_vm::cost::simulate;
use pipelined::Shape;

/// Load 4 KiB, `abs` it, store it back, ordered by MTE2 -> V and V -> MTE3 flags.
fn load_abs_store(cores: u32) -> kiln_bytecode::module::Module {
    let b = ub(DType::F32, 0, 1, 1024);
    let code = vec![
        Inst::Load { dst: b, src: view(0, None, 0, &[(1024, 1)]), zero_pad: false },
        Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::V, event: 0 },
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::V, event: 0 },
        Inst::Unary { op: UnaryOp::Abs, dst: b, src: b },
        Inst::SetFlag { src: Pipe::V, dst: Pipe::Mte3, event: 0 },
        Inst::WaitFlag { src: Pipe::V, dst: Pipe::Mte3, event: 0 },
        Inst::Store { dst: view(1, None, 0, &[(1024, 1)]), src: b, atomic: Atomic::None },
    ];
    let s = spec(DType::F32, &[1024]);
    module(code, cores, std::slice::from_ref(&s), std::slice::from_ref(&s))
}

fn ones() -> Vec<kiln_vm::HostTensor> {
    vec![tensor(spec(DType::F32, &[1024]), f32_bytes(&[1.0; 1024]))]
}

#[test]
fn load_compute_store_cycles_follow_the_target_rates() {
    // tiny-npu: DMA setup 500 ns at 1800 MHz = 900 cycles; 4096 B at 64 B/cycle = 64 cycles;
    // abs over 4096 B = 16 repeats of 256 B, one cycle each.
    let (_, r) = simulate(&tiny(), &load_abs_store(2), &ones(), true).unwrap();
    let l = &r.launches[0];
    assert_eq!(l.cycles, 964 + 16 + 964);
    assert_eq!(l.gm_bytes, 2 * 8192);
    let busy: Vec<(Pipe, u64)> = l.busy.iter().filter(|&(_, c)| c > 0).collect();
    assert_eq!(busy, vec![(Pipe::V, 32), (Pipe::Mte2, 2 * 964), (Pipe::Mte3, 2 * 964)]);
    assert_eq!((l.stall.get(Pipe::V), l.stall.get(Pipe::Mte3)), (2 * 964, 2 * 980));
    assert_eq!(l.cores_ns, 1944.0 * 1000.0 / 1800.0);
    assert_eq!(l.hbm_ns, 16384.0 / 1600.0);
    assert_eq!(l.ns, 3000.0 + 1080.0);
    assert_eq!(r.total_ns, l.ns);
    assert_eq!(
        r.to_string(),
        "kernel `k`: 1 launch, 4080.0 ns, 16384 GM bytes; busy cycles: v 32, mte2 1928, mte3 1928; \
         stall cycles: v 1928, mte3 1960\n\
         total: 1 launch, 4080.0 ns; busy cycles: v 32, mte2 1928, mte3 1928; stall cycles: v 1928, mte3 1960"
    );
    // The slices of core 0: each pipe in program order, the wait of V ending at the load's end.
    let core0: Vec<(u32, Pipe, u64, u64)> =
        r.slices.iter().filter(|s| s.core == 0).map(|s| (s.inst, s.pipe, s.start, s.end)).collect();
    assert_eq!(
        core0,
        vec![
            (0, Pipe::Mte2, 0, 964),
            (1, Pipe::Mte2, 964, 964),
            (2, Pipe::V, 0, 964),
            (3, Pipe::V, 964, 980),
            (4, Pipe::V, 980, 980),
            (5, Pipe::Mte3, 0, 980),
            (6, Pipe::Mte3, 980, 1944),
        ]
    );
}

#[test]
fn hbm_bandwidth_caps_a_launch() {
    let mut slow = tiny();
    slow.hbm.bandwidth_gb_per_s = 1;
    let (_, r) = simulate(&slow, &load_abs_store(1), &ones(), false).unwrap();
    let l = &r.launches[0];
    assert_eq!((l.hbm_ns, l.ns), (8192.0, 3000.0 + 8192.0));
    assert!(r.slices.is_empty(), "not recording");
}

#[test]
fn double_buffering_overlaps_load_and_compute() {
    let single = Shape { slots: 1, cores: 1, tiles_per_core: 8, v_ops: 48 };
    let double = Shape { slots: 2, ..single };
    let time = |sh: Shape| {
        let m = pipelined::build(pipelined::code(sh), sh);
        let (out, r) = simulate(&tiny(), &m, &pipelined::input(sh), false).unwrap();
        (out.tensors, r)
    };
    let ((t1, r1), (t2, r2)) = (time(single), time(double));
    assert_eq!(t1, t2, "same results");
    for p in [Pipe::Mte2, Pipe::V, Pipe::Mte3] {
        assert_eq!(r1.busy.get(p), r2.busy.get(p), "same work on {}", p.name());
    }
    // Per tile: a load of 964 cycles and 49 vector ops of 16 cycles (784). Single buffered,
    // a load waits for the previous tile's compute and a compute for its load (~1748 per
    // tile); double buffered, MTE2 streams (~964 per tile).
    let (c1, c2) = (r1.launches[0].cycles, r2.launches[0].cycles);
    assert!(c1 >= 8 * (964 + 784), "single buffered: {c1} cycles");
    assert!(c2 < 9 * 964 + 784 + 964, "double buffered: {c2} cycles");
    assert!(r2.total_ns < r1.total_ns);
}

#[test]
fn cube_and_vector_pipes_overlap() {
    use kiln_bytecode::isa::{BinaryOp, Scalar, Space, Src};
    // Cube side: two 64x64 f16 loads into L1, moves into L0A / L0B, 8 mmads (64 cycles each);
    // vector side, unordered with it: 40 adds over 16 KiB of UB. Nothing orders the two sides.
    let (a1, b1) =
        (in_space(Space::L1, DType::F16, 0, 64, 64), in_space(Space::L1, DType::F16, 8192, 64, 64));
    let (a0, b0) = (in_space(Space::L0a, DType::F16, 0, 64, 64), in_space(Space::L0b, DType::F16, 0, 64, 64));
    let c = in_space(Space::L0c, DType::F32, 0, 64, 64);
    let u = ub(DType::F32, 0, 16, 256);
    let flag = |src, dst| [Inst::SetFlag { src, dst, event: 0 }, Inst::WaitFlag { src, dst, event: 0 }];
    let mut code = vec![
        Inst::Load { dst: a1, src: view(0, None, 0, &[(4096, 1)]), zero_pad: false },
        Inst::Load { dst: b1, src: view(0, None, 0, &[(4096, 1)]), zero_pad: false },
    ];
    code.extend(flag(Pipe::Mte2, Pipe::Mte1));
    code.extend([Inst::MoveL1 { dst: a0, src: a1 }, Inst::MoveL1 { dst: b0, src: b1 }]);
    code.extend(flag(Pipe::Mte1, Pipe::M));
    code.extend((0..8).map(|i| Inst::Mmad { c, a: a0, b: b0, accumulate: i > 0 }));
    code.push(Inst::Fill { dst: u, value: Scalar::Float(0.0) });
    let add = Inst::Binary { op: BinaryOp::Add, dst: u, a: Src::Buf(u), b: Src::Imm(Scalar::Float(1.0)) };
    code.extend(std::iter::repeat_n(add, 40));
    let s = spec(DType::F16, &[4096]);
    let m = module(code, 1, std::slice::from_ref(&s), &[]);
    let (_, r) = simulate(&tiny(), &m, &[tensor(s, vec![0; 8192])], false).unwrap();
    let (l, busy) = (&r.launches[0], |p| r.launches[0].busy.get(p));
    let cube = busy(Pipe::Mte2) + busy(Pipe::Mte1) + busy(Pipe::M);
    assert_eq!((busy(Pipe::M), busy(Pipe::V)), (8 * 64, 41 * 64));
    assert_eq!(l.cycles, cube.max(busy(Pipe::V)), "the longer side, not the sum");
    assert!(l.cycles < cube + busy(Pipe::V));
}
