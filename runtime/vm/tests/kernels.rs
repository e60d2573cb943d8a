//! Hand-built kernels: broadcasting, views, atomics, the cube path, data movement, events.

mod common;

use common::*;
use half::f16;
use kiln_bytecode::isa::{Atomic, BinaryOp, Buf, DType, Inst, Pipe, Reg, Scalar, Space, Src};
use kiln_vm::event::Event;
use kiln_vm::Vm;

fn load(dst: Buf, arg: u16, dims: &[(u32, i64)]) -> Inst {
    Inst::Load { dst, src: view(arg, None, 0, dims), zero_pad: false }
}

fn store(src: Buf, arg: u16, dims: &[(u32, i64)], atomic: Atomic) -> Inst {
    Inst::Store { dst: view(arg, None, 0, dims), src, atomic }
}

#[test]
fn binary_ops_broadcast_as_numpy() {
    let (r, c) = (5u32, 7u32);
    let a = randoms((r * c) as usize, 11, -3.0, 3.0);
    let row = randoms(c as usize, 12, -3.0, 3.0);
    let col = randoms(r as usize, 13, -3.0, 3.0);
    let one = [0.75f32];
    let full = ub(DType::F32, 0, r, c);
    let (brow, bcol, bone, dst) = (
        ub(DType::F32, 1024, 1, c),
        ub(DType::F32, 2048, r, 1),
        ub(DType::F32, 3072, 1, 1),
        ub(DType::F32, 4096, r, c),
    );
    type Pick<'a> = Box<dyn Fn(usize, usize) -> (f32, f32) + 'a>;
    let cases: Vec<(Src, Src, Pick)> = vec![
        (Src::Buf(full), Src::Buf(brow), Box::new(|i, j| (a[i * 7 + j], row[j]))),
        (Src::Buf(bcol), Src::Buf(full), Box::new(|i, j| (col[i], a[i * 7 + j]))),
        (Src::Buf(full), Src::Buf(bone), Box::new(|i, j| (a[i * 7 + j], one[0]))),
        (Src::Imm(Scalar::Float(2.0)), Src::Buf(full), Box::new(|i, j| (2.0, a[i * 7 + j]))),
        (Src::Buf(brow), Src::Buf(bcol), Box::new(|i, j| (row[j], col[i]))),
    ];
    let s_full = spec(DType::F32, &[5, 7]);
    let specs = [s_full.clone(), spec(DType::F32, &[7]), spec(DType::F32, &[5]), spec(DType::F32, &[1])];
    let inputs = [
        tensor(specs[0].clone(), f32_bytes(&a)),
        tensor(specs[1].clone(), f32_bytes(&row)),
        tensor(specs[2].clone(), f32_bytes(&col)),
        tensor(specs[3].clone(), f32_bytes(&one)),
    ];
    for (op, f) in [(BinaryOp::Sub, (|x, y| x - y) as fn(f32, f32) -> f32), (BinaryOp::Div, |x, y| x / y)] {
        for (k, (sa, sb, at)) in cases.iter().enumerate() {
            let code = vec![
                load(full, 0, &[(r, 7), (c, 1)]),
                load(brow, 1, &[(c, 1)]),
                load(bcol, 2, &[(r, 1)]),
                load(bone, 3, &[(1, 1)]),
                Inst::Binary { op, dst, a: *sa, b: *sb },
                store(dst, 4, &[(r * c, 1)], Atomic::None),
            ];
            let m = module(code, 1, &specs, std::slice::from_ref(&s_full));
            let got = f32s(&run(&m, &inputs).unwrap().tensors[0].bytes);
            let want: Vec<f32> = (0..(r * c) as usize)
                .map(|e| {
                    let (x, y) = at(e / 7, e % 7);
                    f(x, y)
                })
                .collect();
            assert_eq!(got, want, "{op:?} case {k}");
        }
    }
}

#[test]
fn a_shape_that_does_not_broadcast_is_an_error() {
    let (a, b, d) = (ub(DType::F32, 0, 4, 8), ub(DType::F32, 1024, 2, 8), ub(DType::F32, 2048, 4, 8));
    let code = vec![Inst::Binary { op: BinaryOp::Add, dst: d, a: Src::Buf(a), b: Src::Buf(b) }];
    let err = run(&module(code, 1, &[], &[]), &[]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "kernel `k` core 0 instruction #0: operand #1 of shape [2, 8] does not broadcast to [4, 8]"
    );
}

#[test]
fn strided_views_transpose_and_broadcast_at_the_edge() {
    // Load a [3, 4] tensor transposed ([4, 3] with strides 1, 4) and a broadcast row.
    let x: Vec<f32> = (0..12).map(|v| v as f32).collect();
    let t = ub(DType::F32, 0, 4, 3);
    let code = vec![load(t, 0, &[(4, 1), (3, 4)]), store(t, 1, &[(12, 1)], Atomic::None)];
    let m = module(code, 1, &[spec(DType::F32, &[3, 4])], &[spec(DType::F32, &[4, 3])]);
    let got = f32s(&run(&m, &[tensor(spec(DType::F32, &[3, 4]), f32_bytes(&x))]).unwrap().tensors[0].bytes);
    assert_eq!(got, vec![0., 4., 8., 1., 5., 9., 2., 6., 10., 3., 7., 11.]);
    let b = ub(DType::F32, 0, 2, 4);
    let code = vec![load(b, 0, &[(2, 0), (4, 1)]), store(b, 1, &[(8, 1)], Atomic::None)];
    let m = module(code, 1, &[spec(DType::F32, &[3, 4])], &[spec(DType::F32, &[2, 4])]);
    let got = f32s(&run(&m, &[tensor(spec(DType::F32, &[3, 4]), f32_bytes(&x))]).unwrap().tensors[0].bytes);
    assert_eq!(got, vec![0., 1., 2., 3., 0., 1., 2., 3.]);
}

#[test]
fn atomic_stores_from_several_cores() {
    // Each of 4 cores adds (block + 1) * x into the same output, and maxes into another.
    let x = randoms(64, 21, -1.0, 1.0);
    let b = ub(DType::F32, 0, 1, 64);
    let s = ub(DType::F32, 512, 1, 64);
    let code = vec![
        load(b, 0, &[(64, 1)]),
        Inst::BlockIdx { dst: Reg(0) },
        Inst::Const { dst: Reg(1), value: 1 },
        Inst::Scalar { op: kiln_bytecode::isa::ScalarOp::Add, dst: Reg(0), a: Reg(0), b: Reg(1) },
        // s = block + 1, counted by a loop of `+ 1.0`.
        Inst::Fill { dst: s, value: Scalar::Float(0.0) },
        Inst::Const { dst: Reg(2), value: 0 },
        Inst::For { iv: Reg(3), lo: Reg(2), hi: Reg(0), step: Reg(1), body: 1 },
        Inst::Binary { op: BinaryOp::Add, dst: s, a: Src::Buf(s), b: Src::Imm(Scalar::Float(1.0)) },
        Inst::Binary { op: BinaryOp::Mul, dst: s, a: Src::Buf(s), b: Src::Buf(b) },
        store(s, 1, &[(64, 1)], Atomic::Add),
        store(s, 2, &[(64, 1)], Atomic::Max),
        store(s, 3, &[(64, 1)], Atomic::Min),
    ];
    let sp = spec(DType::F32, &[64]);
    let m = module(code, 4, std::slice::from_ref(&sp), &[sp.clone(), sp.clone(), sp.clone()]);
    let out = run(&m, &[tensor(sp.clone(), f32_bytes(&x))]).unwrap();
    let (sum, max, min) =
        (f32s(&out.tensors[0].bytes), f32s(&out.tensors[1].bytes), f32s(&out.tensors[2].bytes));
    for i in 0..64 {
        let v: Vec<f32> = (1..=4).map(|k| k as f32 * x[i]).collect();
        assert!((sum[i] - 10.0 * x[i]).abs() <= 1e-5, "sum {i}");
        // The temporaries start at 0, so max / min include 0.
        assert_eq!(max[i], v.iter().fold(0.0f32, |a, &b| a.max(b)), "max {i}");
        assert_eq!(min[i], v.iter().fold(0.0f32, |a, &b| a.min(b)), "min {i}");
    }
}

/// `c = relu?(a x b)` through L1, L0A/L0B, the cube and the fixpipe, for `f16` operands.
#[test]
fn mmad_matches_a_naive_matmul() {
    let (m, k, n) = (32u32, 48u32, 16u32);
    let a: Vec<f16> = randoms((m * k) as usize, 31, -1.0, 1.0).into_iter().map(f16::from_f32).collect();
    let b: Vec<f16> = randoms((k * n) as usize, 32, -1.0, 1.0).into_iter().map(f16::from_f32).collect();
    let l1a = in_space(Space::L1, DType::F16, 0, m, k);
    let l1b = in_space(Space::L1, DType::F16, 65536, k, n);
    let l0a = in_space(Space::L0a, DType::F16, 0, m, k);
    let l0b = in_space(Space::L0b, DType::F16, 0, k, n);
    let l0c = in_space(Space::L0c, DType::F32, 0, m, n);
    let out = ub(DType::F32, 0, m, n);
    let code = vec![
        load(l1a, 0, &[(m * k, 1)]),
        load(l1b, 1, &[(k * n, 1)]),
        Inst::MoveL1 { dst: l0a, src: l1a },
        Inst::MoveL1 { dst: l0b, src: l1b },
        Inst::Mmad { c: l0c, a: l0a, b: l0b, accumulate: false },
        Inst::Mmad { c: l0c, a: l0a, b: l0b, accumulate: true },
        Inst::Fixpipe { dst: out, src: l0c, relu: true },
        store(out, 2, &[(m * n, 1)], Atomic::None),
    ];
    let (sa, sb, sc) = (
        spec(DType::F16, &[m as u64, k as u64]),
        spec(DType::F16, &[k as u64, n as u64]),
        spec(DType::F32, &[m as u64, n as u64]),
    );
    let md = module(code, 1, &[sa.clone(), sb.clone()], &[sc]);
    let bytes = |v: &[f16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let res = run(&md, &[tensor(sa, bytes(&a)), tensor(sb, bytes(&b))]).unwrap();
    let got = f32s(&res.tensors[0].bytes);
    for i in 0..m as usize {
        for j in 0..n as usize {
            let mut c = 0.0f32;
            for kk in 0..k as usize {
                c += a[i * k as usize + kk].to_f32() * b[kk * n as usize + j].to_f32();
            }
            let mut twice = c;
            for kk in 0..k as usize {
                twice += a[i * k as usize + kk].to_f32() * b[kk * n as usize + j].to_f32();
            }
            assert_eq!(got[i * n as usize + j], twice.max(0.0), "c[{i}][{j}]");
        }
    }
    assert_eq!(res.counters.total.macs, 2 * u64::from(m * k * n));
}

#[test]
fn movement_ops_copy_bits() {
    let x: Vec<f32> = (0..16 * 32).map(|v| v as f32).collect();
    let src = ub(DType::F32, 0, 16, 32);
    let t = ub(DType::F32, 4096, 32, 16);
    let col = ub(DType::F32, 8192, 32, 1);
    let wide = ub(DType::F32, 10240, 32, 16);
    let code = vec![
        load(src, 0, &[(16 * 32, 1)]),
        Inst::Transpose { dst: t, src },
        Inst::Copy { dst: col, src: Buf { cols: 1, ..t } },
        Inst::Broadcast { dst: wide, src: col },
        store(t, 1, &[(16 * 32, 1)], Atomic::None),
        store(wide, 2, &[(16 * 32, 1)], Atomic::None),
    ];
    let s = spec(DType::F32, &[16 * 32]);
    let m = module(code, 1, std::slice::from_ref(&s), &[s.clone(), s.clone()]);
    let out = run(&m, &[tensor(s.clone(), f32_bytes(&x))]).unwrap();
    let (tr, bc) = (f32s(&out.tensors[0].bytes), f32s(&out.tensors[1].bytes));
    for j in 0..32 {
        for i in 0..16 {
            assert_eq!(tr[j * 16 + i], x[i * 32 + j]);
            assert_eq!(bc[j * 16 + i], x[j]);
        }
    }
}

#[test]
fn zero_pad_clears_the_padding() {
    let b = ub(DType::F32, 0, 2, 3); // pitch 8
    let whole = Buf { cols: 8, pitch: 8, ..b };
    let code = vec![
        Inst::Fill { dst: whole, value: Scalar::Float(9.0) },
        // A 2x2 block of a 2x3 row-major source at the buffer's top left, the rest zeroed.
        Inst::Load { dst: b, src: view(0, None, 0, &[(2, 3), (2, 1)]), zero_pad: true },
        store(whole, 1, &[(16, 1)], Atomic::None),
    ];
    let m = module(code, 1, &[spec(DType::F32, &[6])], &[spec(DType::F32, &[16])]);
    let out = run(&m, &[tensor(spec(DType::F32, &[6]), f32_bytes(&[1., 2., 3., 4., 5., 6.]))]).unwrap();
    assert_eq!(
        f32s(&out.tensors[0].bytes),
        vec![1., 2., 0., 0., 0., 0., 0., 0., 4., 5., 0., 0., 0., 0., 0., 0.]
    );
}

#[test]
fn events_report_every_instruction_with_its_accesses() {
    let b = ub(DType::F32, 64, 2, 8);
    let code = vec![
        Inst::Const { dst: Reg(0), value: 16 },
        Inst::Load { dst: b, src: view(0, Some(Reg(0)), 0, &[(16, 1)]), zero_pad: false },
        Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::V, event: 1 },
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::V, event: 1 },
        Inst::Unary { op: kiln_bytecode::isa::UnaryOp::Abs, dst: b, src: b },
        Inst::Barrier { pipe: Pipe::All },
        store(b, 1, &[(16, 1)], Atomic::None),
    ];
    let m = module(code, 2, &[spec(DType::F32, &[32])], &[spec(DType::F32, &[16])]);
    let mut events: Vec<Event> = Vec::new();
    let inputs = [tensor(spec(DType::F32, &[32]), f32_bytes(&[1.0; 32]))];
    let out = Vm::new(&tiny()).run_with(&m, &inputs, &mut |e| events.push(e.clone())).unwrap();
    assert_eq!(events.len(), 14);
    assert_eq!(
        events.iter().map(|e| (e.core, e.inst)).take(8).collect::<Vec<_>>(),
        (0..7).map(|i| (0, i)).chain([(1, 0)]).collect::<Vec<_>>()
    );
    let l = &events[1];
    assert_eq!(l.pipe, Pipe::Mte2);
    assert_eq!(
        (l.accesses[0].space, l.accesses[0].start, l.accesses[0].end, l.accesses[0].write),
        (Space::Gm, 64, 128, false)
    );
    assert_eq!(
        (l.accesses[1].space, l.accesses[1].start, l.accesses[1].end, l.accesses[1].write),
        (Space::Ub, 64, 64 + 64, true)
    );
    assert_eq!((l.work.gm_read, l.work.dma), (64, 1));
    assert_eq!(events[2].flag, Some((Pipe::Mte2, Pipe::V, 1)));
    assert_eq!(events[3].pipe, Pipe::V);
    assert_eq!(events[5].barrier, Some(Pipe::All));
    assert_eq!(events[4].work.repeats, 2);
    let total: u64 = events.iter().map(|e| e.work.gm_written).sum();
    assert_eq!(total, out.counters.total.gm_written);
    assert_eq!(out.counters.total.instructions, 14);
    // The same run without a sink gives the same outputs and counters.
    assert_eq!(Vm::new(&tiny()).run(&m, &inputs).unwrap(), out);
}

#[test]
fn two_outputs_of_one_buffer_both_get_its_bytes() {
    let b = ub(DType::F32, 0, 1, 4);
    let code = vec![load(b, 0, &[(4, 1)]), store(b, 1, &[(4, 1)], Atomic::None)];
    let s = spec(DType::F32, &[4]);
    let mut m = module(code, 1, std::slice::from_ref(&s), std::slice::from_ref(&s));
    m.host.outputs.insert(0, (spec(DType::F32, &[2, 2]), kiln_bytecode::module::BufferRef::Temp(0)));
    m.host.outputs.push((spec(DType::F32, &[2]), kiln_bytecode::module::BufferRef::Temp(0)));
    let out = run(&m, &[tensor(s, f32_bytes(&[1., 2., 3., 4.]))]).unwrap();
    let got: Vec<Vec<f32>> = out.tensors.iter().map(|t| f32s(&t.bytes)).collect();
    assert_eq!(got, vec![vec![1., 2., 3., 4.], vec![1., 2., 3., 4.], vec![1., 2.]]);
    assert_eq!(out.tensors[0].spec.shape, vec![2, 2]);
}

#[test]
fn recycled_temporaries_start_at_zero_and_inputs_are_copied_on_write() {
    // out += x (atomic), then x's own buffer is overwritten with 2x and returned too.
    let b = ub(DType::F32, 0, 1, 4);
    let code = vec![
        load(b, 0, &[(4, 1)]),
        store(b, 1, &[(4, 1)], Atomic::Add),
        Inst::Binary { op: BinaryOp::Add, dst: b, a: Src::Buf(b), b: Src::Buf(b) },
        store(b, 0, &[(4, 1)], Atomic::None),
    ];
    let s = spec(DType::F32, &[4]);
    let mut m = module(code, 1, std::slice::from_ref(&s), std::slice::from_ref(&s));
    m.host.outputs.push((s.clone(), kiln_bytecode::module::BufferRef::Input(0)));
    let inputs = [tensor(s, f32_bytes(&[1., 2., 3., 4.]))];
    let vm = Vm::new(&tiny());
    let first = vm.run(&m, &inputs).unwrap();
    // The spare buffers hold the first run's results (and one of a size no temporary has).
    let spare: Vec<Vec<u8>> = first.tensors.iter().map(|t| t.bytes.clone()).chain([vec![7u8; 3]]).collect();
    let again = vm.run_recycling(&m, &inputs, spare).unwrap();
    assert_eq!(again, first);
    let got: Vec<Vec<f32>> = again.tensors.iter().map(|t| f32s(&t.bytes)).collect();
    assert_eq!(got, vec![vec![1., 2., 3., 4.], vec![2., 4., 6., 8.]]);
    assert_eq!(f32s(&inputs[0].bytes), vec![1., 2., 3., 4.], "the caller's input is untouched");
}

#[test]
fn a_source_overlapping_the_destination_in_part_is_read_before_the_row_is_written() {
    // dst starts one element after `a` in the same row span, over more than one block of
    // lanes: every lane must see `a`'s old value, and a source that is the destination itself
    // (the `mul`) reads each lane before writing it.
    let n = 600u32;
    let x = randoms(n as usize + 1, 5, -2.0, 2.0);
    let y = randoms(n as usize, 6, -2.0, 2.0);
    let a = ub(DType::F32, 0, 1, n);
    let d = ub(DType::F32, 4, 1, n);
    let b = ub(DType::F32, 8192, 1, n);
    let code = vec![
        load(ub(DType::F32, 0, 1, n + 1), 0, &[(n + 1, 1)]),
        load(b, 1, &[(n, 1)]),
        Inst::Binary { op: BinaryOp::Add, dst: d, a: Src::Buf(a), b: Src::Buf(b) },
        Inst::Binary { op: BinaryOp::Mul, dst: d, a: Src::Buf(d), b: Src::Buf(d) },
        store(d, 2, &[(n, 1)], Atomic::None),
    ];
    let (sx, sy) = (spec(DType::F32, &[n as u64 + 1]), spec(DType::F32, &[n as u64]));
    let m = module(code, 1, &[sx.clone(), sy.clone()], std::slice::from_ref(&sy));
    let out = run(&m, &[tensor(sx, f32_bytes(&x)), tensor(sy, f32_bytes(&y))]).unwrap();
    let want: Vec<f32> = (0..n as usize).map(|i| (x[i] + y[i]) * (x[i] + y[i])).collect();
    assert_eq!(f32s(&out.tensors[0].bytes), want);
}

/// Three cores store parts of a 32000-byte output: a contiguous run not on a page boundary
/// and a run with stride 3, leaving gaps and a tail no store reaches.
fn partial_stores_module() -> kiln_bytecode::module::Module {
    use kiln_bytecode::isa::ScalarOp;
    let (x, y) = (ub(DType::F32, 0, 1, 1000), ub(DType::F32, 4000, 1, 200));
    let code = vec![
        Inst::BlockIdx { dst: Reg(0) },
        Inst::Const { dst: Reg(1), value: 2500 },
        Inst::Scalar { op: ScalarOp::Mul, dst: Reg(2), a: Reg(0), b: Reg(1) },
        load(x, 0, &[(1000, 1)]),
        Inst::Store { dst: view(1, Some(Reg(2)), 3, &[(1000, 1)]), src: x, atomic: Atomic::None },
        Inst::Store { dst: view(1, Some(Reg(2)), 1100, &[(200, 3)]), src: y, atomic: Atomic::None },
    ];
    module(code, 3, &[spec(DType::F32, &[1000])], &[spec(DType::F32, &[8000])])
}

#[test]
fn a_recycled_output_no_launch_reads_holds_zeros_wherever_no_store_wrote() {
    let m = partial_stores_module();
    let xs = randoms(1000, 21, 1.0, 2.0);
    let inputs = [tensor(spec(DType::F32, &[1000]), f32_bytes(&xs))];
    let vm = Vm::new(&tiny());
    let fresh = vm.run(&m, &inputs).unwrap();
    // A spare of the output's size full of a previous run's bytes (not zeros, not floats).
    let again = vm.run_recycling(&m, &inputs, vec![vec![0xAB; 32000]]).unwrap();
    assert_eq!(again, fresh);
    let out = f32s(&again.tensors[0].bytes);
    for core in 0..3 {
        let base = core * 2500;
        assert_eq!(out[base..base + 3], [0.0; 3], "before core {core}'s run");
        assert_eq!(out[base + 3..base + 1003], xs[..], "core {core}'s run");
        assert_eq!(out[base + 1003..base + 1100], [0.0; 97], "between core {core}'s stores");
        // The UB buffer `y` holds zeros (the core cleared its UB); its elements land every
        // third element, with zeros between them as well.
        assert!(out[base + 1100..base + 1700].iter().all(|&v| v == 0.0));
    }
    assert!(out[7500..].iter().all(|&v| v == 0.0), "the tail no store reached");
}

#[test]
fn a_recycled_temporary_a_kernel_loads_is_zeroed_first() {
    // out = out + x, with `out` loaded: it must start at zero, whatever the spare held.
    let (b, o) = (ub(DType::F32, 0, 1, 4), ub(DType::F32, 64, 1, 4));
    let code = vec![
        load(b, 0, &[(4, 1)]),
        load(o, 1, &[(4, 1)]),
        Inst::Binary { op: BinaryOp::Add, dst: o, a: Src::Buf(o), b: Src::Buf(b) },
        store(o, 1, &[(4, 1)], Atomic::None),
    ];
    let s = spec(DType::F32, &[4]);
    let m = module(code, 1, std::slice::from_ref(&s), std::slice::from_ref(&s));
    let inputs = [tensor(s, f32_bytes(&[1., 2., 3., 4.]))];
    let again = Vm::new(&tiny()).run_recycling(&m, &inputs, vec![f32_bytes(&[5.; 4])]).unwrap();
    assert_eq!(f32s(&again.tensors[0].bytes), vec![1., 2., 3., 4.]);
}
