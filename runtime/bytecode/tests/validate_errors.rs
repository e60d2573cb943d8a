//! `validate`: the sample is valid on `tiny-npu`; each edit of it below breaks one rule, and
//! the error names the kernel, the instruction and the byte offset, with the reason.

mod common;

use kiln_bytecode::isa::*;
use kiln_bytecode::module::*;
use kiln_bytecode::{decode, encode, validate};
use kiln_targets::Target;

fn tiny() -> Target {
    Target::load("tiny-npu").unwrap()
}

/// The error of validating the sample after `edit`.
fn error_after(edit: impl FnOnce(&mut Module)) -> String {
    let mut m = common::sample();
    edit(&mut m);
    validate(&m, &tiny()).expect_err("the edit breaks a rule").to_string()
}

/// Edits instruction `i` of kernel `k` of the sample; returns the error.
fn inst_error(k: usize, i: usize, edit: impl FnOnce(&mut Inst)) -> String {
    error_after(|m| edit(&mut m.kernels[k].code[i]))
}

fn assert_has(e: &str, want: &str) {
    assert!(e.contains(want), "expected {want:?} in:\n{e}");
}

/// The `dst` buffer of an instruction of the sample.
fn dst(inst: &mut Inst) -> &mut Buf {
    match inst {
        Inst::Load { dst, .. } | Inst::Binary { dst, .. } | Inst::Unary { dst, .. } => dst,
        Inst::Reduce { dst, .. } | Inst::Cmp { dst, .. } | Inst::MoveL1 { dst, .. } => dst,
        Inst::Fixpipe { dst, .. } | Inst::Transpose { dst, .. } => dst,
        Inst::Mmad { c, .. } => c,
        other => panic!("no dst in {other:?}"),
    }
}

// Indices into the sample's kernels (see tests/common/mod.rs).
const FOR: usize = 5;
const LOAD_A: usize = 8;
const SET_FLAG: usize = 10;
const ADD: usize = 12;
const CMP: usize = 16;
const SELECT: usize = 17;
const REDUCE: usize = 18;
const BROADCAST: usize = 19;
const STORE: usize = 25;
const IF: usize = 27;
const GATHER: usize = 30;
const CUBE_LOAD: usize = 0;
const MOVE_L1: usize = 4;
const MMAD: usize = 8;
const FIXPIPE: usize = 11;
const TRANSPOSE: usize = 14;

#[test]
fn the_sample_is_valid_and_its_indices_are_right() {
    let m = common::sample();
    validate(&m, &tiny()).unwrap();
    validate(&decode(&encode(&m)).unwrap(), &tiny()).unwrap();
    let v = &m.kernels[0].code;
    assert!(matches!(v[FOR], Inst::For { .. }) && matches!(v[LOAD_A], Inst::Load { .. }));
    assert!(matches!(v[SET_FLAG], Inst::SetFlag { .. }) && matches!(v[ADD], Inst::Binary { .. }));
    assert!(matches!(v[CMP], Inst::Cmp { .. }) && matches!(v[SELECT], Inst::Select { .. }));
    assert!(matches!(v[REDUCE], Inst::Reduce { .. }) && matches!(v[BROADCAST], Inst::Broadcast { .. }));
    assert!(matches!(v[STORE], Inst::Store { .. }) && matches!(v[IF], Inst::If { .. }));
    let c = &m.kernels[1].code;
    assert!(matches!(c[CUBE_LOAD], Inst::Load { .. }) && matches!(c[MOVE_L1], Inst::MoveL1 { .. }));
    assert!(matches!(c[MMAD], Inst::Mmad { .. }) && matches!(c[FIXPIPE], Inst::Fixpipe { .. }));
    assert!(matches!(c[TRANSPOSE], Inst::Transpose { .. }));
}

#[test]
fn an_instruction_error_names_kernel_instruction_and_offset() {
    let e = inst_error(0, SET_FLAG, |i| *i = Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::V, event: 8 });
    assert!(e.starts_with("bytecode:0x"), "{e}");
    assert_has(&e, ": kernel 'vector' instruction 10 (set_flag): event id 8 is out of range (the target has 8 event ids)");
    // The offset is the instruction's head word in the encoding.
    let mut m = common::sample();
    m.kernels[0].code[SET_FLAG] = Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::V, event: 8 };
    let offset = validate(&m, &tiny()).unwrap_err().offset.unwrap() as usize;
    let bytes = encode(&m);
    assert_eq!(bytes[offset], 0x40, "the set_flag opcode");
    assert_eq!(bytes[offset + 4], 8, "its event id");
}

#[test]
fn target_mismatch() {
    let e = error_after(|m| m.target = "ascend910b".into());
    assert_eq!(e, "bytecode:0x88: bytecode was compiled for 'ascend910b', the target is 'tiny-npu'");
}

#[test]
fn block_dim_and_ub_bytes() {
    let e = error_after(|m| m.kernels[0].block_dim = 0);
    assert_eq!(e, "bytecode: kernel 'vector': block_dim 0 is not in 1..=2: the target has 2 vector cores");
    assert_has(&error_after(|m| m.kernels[0].block_dim = 3), "block_dim 3 is not in 1..=2");
    assert_has(&error_after(|m| m.kernels[1].block_dim = 2), "the target has 1 cores of each kind (mix)");
    let e = error_after(|m| {
        m.kernels[1].core = Core::Aic;
        m.kernels[1].block_dim = 2;
    });
    assert_has(&e, "the target has 1 cube cores");
    assert_has(
        &error_after(|m| m.kernels[0].ub_bytes = 16385),
        "ub_bytes 16385 exceeds the target's usable UB (16384 bytes)",
    );
}

#[test]
fn loop_and_branch_structure() {
    let e = inst_error(0, FOR, |i| {
        if let Inst::For { body, .. } = i {
            *body = 30;
        }
    });
    assert_has(&e, "instruction 5 (for): body of 30 instructions runs past the end of the kernel (25 instructions follow)");
    let e = inst_error(0, IF, |i| *i = Inst::If { cond: Reg(1), then_len: 1, else_len: 3 });
    assert_has(&e, "(if): body of 4 instructions runs past the end of the kernel");
    // A loop inside the first loop's body that runs past that body.
    let e = inst_error(0, FOR + 1, |i| {
        *i = Inst::For { iv: Reg(9), lo: Reg(0), hi: Reg(2), step: Reg(3), body: 21 }
    });
    assert_has(&e, "instruction 6 (for): body of 21 instructions runs past the end of its enclosing body (20 instructions follow)");
    // A loop in the then-branch may not run into the else-branch.
    let e = inst_error(0, IF + 1, |i| {
        *i = Inst::For { iv: Reg(9), lo: Reg(0), hi: Reg(2), step: Reg(3), body: 1 }
    });
    assert_has(&e, "instruction 28 (for): body of 1 instructions runs past the end of its enclosing body (0 instructions follow)");
}

#[test]
fn registers_and_events() {
    let e = inst_error(0, 0, |i| *i = Inst::Const { dst: Reg(64), value: 0 });
    assert_has(&e, "instruction 0 (const): register r64 does not exist (registers are r0..r63)");
    let e = inst_error(0, LOAD_A, |i| {
        if let Inst::Load { src, .. } = i {
            src.offset = Some(Reg(200));
        }
    });
    assert_has(&e, "register r200 does not exist");
    let e = inst_error(0, SET_FLAG, |i| *i = Inst::WaitFlag { src: Pipe::All, dst: Pipe::V, event: 0 });
    assert_has(&e, "(wait_flag): a flag joins two pipes; `all` is only a barrier's pipe");
}

#[test]
fn buffer_ranges_alignment_and_pitch() {
    let e = inst_error(0, ADD, |i| dst(i).addr = 4064);
    assert_has(&e, "(binary): `dst` occupies [0xfe0, 0x11e0) of ub, past the kernel's ub_bytes (4096)");
    let e = error_after(|m| {
        m.kernels[0].ub_bytes = 16384;
        dst(&mut m.kernels[0].code[ADD]).addr = 16352;
    });
    assert_has(&e, "`dst` occupies [0x3fe0, 0x41e0) of ub, past its 16384 bytes on the target");
    let e = inst_error(1, MMAD, |i| dst(i).addr = 131072 - 512);
    assert_has(&e, "(mmad): `c` occupies [0x1fe00, 0x20200) of l0c, past its 131072 bytes on the target");
    let e = inst_error(1, MOVE_L1, |i| dst(i).addr = 65536 - 32);
    assert_has(&e, "of l0a, past its 65536 bytes on the target");
    let e = inst_error(1, CUBE_LOAD, |i| dst(i).addr = 524288 - 32);
    assert_has(&e, "of l1, past its 524288 bytes on the target");
    // A span whose byte count does not fit in 64 bits (found by the fuzzer: it overflowed).
    let e = inst_error(0, ADD, |i| {
        let d = dst(i);
        (d.rows, d.pitch, d.cols) = (u32::MAX, u32::MAX, 16);
    });
    assert_has(&e, "`dst` occupies [0x400, 0xffffffffffffffff) of ub, past its 16384 bytes");
    let e = inst_error(0, ADD, |i| dst(i).addr = 1040);
    assert_has(&e, "`dst` address 0x410 is not aligned to 32 bytes");
    let e = inst_error(0, ADD, |i| dst(i).pitch = 15);
    assert_has(&e, "`dst` has pitch 15 < cols 16");
    let e = inst_error(0, ADD, |i| dst(i).rows = 0);
    assert_has(&e, "`dst` (f32 [0, 16]) is empty");
}

#[test]
fn wrong_spaces() {
    let e = inst_error(0, LOAD_A, |i| dst(i).space = Space::L0a);
    assert_has(&e, "(load): `dst` is in l0a, expected ub or l1");
    let e = inst_error(0, ADD, |i| dst(i).space = Space::Gm);
    assert_has(&e, "`dst` is in gm, expected ub");
    let e = inst_error(1, MMAD, |i| {
        if let Inst::Mmad { a, .. } = i {
            a.space = Space::L0b;
        }
    });
    assert_has(&e, "(mmad): `a` is in l0b, expected l0a");
    let e = inst_error(1, MOVE_L1, |i| dst(i).space = Space::Ub);
    assert_has(&e, "(move_l1): `dst` is in ub, expected l0a or l0b");
    let e = inst_error(1, FIXPIPE, |i| {
        if let Inst::Fixpipe { src, .. } = i {
            src.space = Space::Ub;
        }
    });
    assert_has(&e, "(fixpipe): `src` is in ub, expected l0c");
}

#[test]
fn shape_and_type_mismatches() {
    let e = inst_error(0, ADD, |i| {
        if let Inst::Binary { b: Src::Buf(b), .. } = i {
            b.rows = 2;
        }
    });
    assert_has(&e, "(binary): `b` (f32 [2, 16]) does not broadcast to `dst` (f32 [8, 16])");
    let e = inst_error(0, ADD, |i| {
        if let Inst::Binary { a: Src::Buf(a), .. } = i {
            a.dtype = DType::I32;
        }
    });
    assert_has(&e, "`a` is i32 [8, 16], expected element type f32");
    let e = inst_error(0, CMP, |i| dst(i).dtype = DType::F32);
    assert_has(&e, "(cmp): `dst` is f32 [8, 16], expected element type i1");
    let e = inst_error(0, SELECT, |i| {
        if let Inst::Select { mask, .. } = i {
            mask.dtype = DType::I8;
        }
    });
    assert_has(&e, "(select): `mask` is i8 [8, 16], expected element type i1");
    let e = inst_error(0, REDUCE, |i| dst(i).cols = 2);
    assert_has(&e, "(reduce): `dst` is f32 [8, 2], expected [8, 1] for `src` f32 [8, 16]");
    let e = inst_error(0, BROADCAST, |i| {
        if let Inst::Broadcast { src, .. } = i {
            src.rows = 3;
        }
    });
    assert_has(&e, "(broadcast): `src` (f32 [3, 1]) does not broadcast");
    let e = inst_error(1, MMAD, |i| {
        if let Inst::Mmad { b, .. } = i {
            b.rows = 16;
        }
    });
    assert_has(&e, "(mmad): shapes do not multiply: `c` f32 [16, 16] = `a` f16 [16, 32] x `b` f16 [16, 16]");
    let e = inst_error(1, TRANSPOSE, |i| {
        if let Inst::Transpose { src, .. } = i {
            src.cols = 8;
        }
    });
    assert_has(&e, "(transpose): `src` is f32 [16, 8], its dims must be multiples of 16");
    let e = inst_error(0, LOAD_A, |i| {
        if let Inst::Load { src, .. } = i {
            src.dims[0].size = 4;
        }
    });
    assert_has(&e, "(load): `src` has sizes [4, 16], 64 elements in all, but `dst` (f32 [8, 16]) has 128");
}

#[test]
fn view_dims_and_arguments() {
    let view_error = |edit: fn(&mut GmView)| {
        inst_error(0, STORE, |i| {
            if let Inst::Store { dst, .. } = i {
                edit(dst);
            }
        })
    };
    assert_has(&view_error(|v| v.dims.clear()), "(store): `dst` has 0 dims, expected 1 to 4");
    assert_has(
        &view_error(|v| v.dims = vec![Dim { size: 1, stride: 0 }; 5]),
        "`dst` has 5 dims, expected 1 to 4",
    );
    assert_has(&view_error(|v| v.dims[1].size = 0), "`dst` dim #1 has size 0");
    assert_has(&view_error(|v| v.arg = 3), "`dst` is argument 3, the kernel takes 3");
    let e = view_error(|v| v.dims = vec![Dim { size: u32::MAX, stride: 1 }; 4]);
    assert_has(&e, "more than 2^64 elements in all");
}

#[test]
fn host_program_relocations_and_sizes() {
    let e = error_after(|m| m.host.launches[1].kernel = 2);
    assert_eq!(e, "bytecode: launch #1: kernel index 2 is out of range (2 kernels)");
    let e = error_after(|m| {
        m.host.launches[0].args.pop();
    });
    assert_has(&e, "launch #0 of kernel 'vector' binds 2 arguments, the kernel takes 3");
    let e = error_after(|m| m.host.launches[0].args[1] = BufferRef::Input(3));
    assert_has(&e, "launch #0 argument #1: input 3 does not exist (the program has 3)");
    let e = error_after(|m| m.host.launches[1].args[1] = BufferRef::Const(1));
    assert_has(&e, "launch #1 argument #1: constant 1 does not exist (the program has 1)");
    let e = error_after(|m| m.host.outputs[0].1 = BufferRef::Temp(1));
    assert_has(&e, "output #0: temporary 1 does not exist (the program has 1)");
    let e = error_after(|m| m.host.outputs[0].0.shape = vec![1 << 32, 1 << 31]);
    assert_has(&e, "the byte size of output #0 (f32 [4294967296, 2147483648]) overflows");
    let e = error_after(|m| m.host.inputs[0].shape = vec![u64::MAX, 2]);
    assert_has(&e, "the byte size of input #0");
    let e = error_after(|m| {
        m.constants[0].1.pop();
    });
    assert_has(&e, "constant #0 has 1023 data bytes, its shape needs 1024");
}

#[test]
fn gather_rules() {
    let gather = |edit: fn(&mut Buf, &mut GmView, &mut GmView, &mut DType)| {
        inst_error(0, GATHER, move |i| {
            let Inst::Gather { dst, table, indices, index } = i else { panic!("not a gather: {i:?}") };
            edit(dst, table, indices, index)
        })
    };
    let e = gather(|_, _, _, index| *index = DType::F32);
    assert_has(&e, "instruction 30 (gather): indices of type f32, expected i32 or i64");
    let e = gather(|_, t, _, _| t.dims[1].size = 8);
    assert_has(
        &e,
        "(gather): `table` has sizes [32, 8], slices of its first dim are not `dst`'s rows (f32 [8, 16])",
    );
    let e = gather(|_, _, i, _| i.dims[0].size = 9);
    assert_has(&e, "(gather): `indices` has sizes [9], not one index per row of `dst` (f32 [8, 16])");
    let e = gather(|_, _, i, _| i.arg = 3);
    assert_has(&e, "(gather): `indices` is argument 3, the kernel takes 3");
    let e = gather(|_, t, _, _| t.dims[0].size = 0);
    assert_has(&e, "(gather): `table` dim #0 has size 0");
    let e = gather(|d, _, _, _| d.space = Space::L1);
    assert_has(&e, "(gather): `dst` is in l1, expected ub");
    // An i64 buffer needs a vector unit with i64 (tiny-npu has one).
    let mut m = common::sample();
    let Inst::Gather { dst, .. } = &mut m.kernels[0].code[GATHER] else { panic!("not a gather") };
    dst.dtype = DType::I64;
    let mut no_i64 = tiny();
    no_i64.vector.int64 = false;
    let e = validate(&m, &no_i64).expect_err("i64 without vector.int64").to_string();
    assert_has(&e, "(gather): `dst` is i64 [8, 16]: the target's vector unit has no i64 (`vector.int64`)");
    let e = gather(|d, _, _, _| d.addr = 4096);
    assert_has(&e, "(gather): `dst` occupies [0x1000, 0x1200) of ub");
}
