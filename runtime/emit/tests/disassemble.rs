//! What the disassembler refuses: register reads that SSA values cannot name.

mod common;

use common::tiny;
use kiln_bytecode::isa::{Inst, Reg, ScalarOp};
use kiln_bytecode::module::{Core, Host, Kernel, Module};

fn module(code: Vec<Inst>) -> Module {
    let kernel = Kernel { name: "k".into(), core: Core::Aiv, block_dim: 1, ub_bytes: 0, num_args: 0, code };
    Module {
        target: "tiny-npu".into(),
        kernels: vec![kernel],
        host: Host { name: "f".into(), ..Host::default() },
        constants: vec![],
    }
}

#[test]
fn a_register_read_before_any_write_is_refused() {
    let m = module(vec![Inst::Scalar { op: ScalarOp::Add, dst: Reg(0), a: Reg(1), b: Reg(1) }]);
    let e = kiln_emit::disassemble(&m, &tiny()).unwrap_err();
    assert_eq!(e.to_string(), "kernel 'k' instruction 0 (scalar): reads r1 before any instruction writes it");
}

#[test]
fn a_register_written_in_a_loop_and_read_after_it_is_refused() {
    let m = module(vec![
        Inst::Const { dst: Reg(0), value: 0 },
        Inst::Const { dst: Reg(1), value: 1 },
        Inst::For { iv: Reg(2), lo: Reg(0), hi: Reg(1), step: Reg(1), body: 1 },
        Inst::Const { dst: Reg(3), value: 7 },
        Inst::Scalar { op: ScalarOp::Add, dst: Reg(4), a: Reg(3), b: Reg(3) },
    ]);
    let e = kiln_emit::disassemble(&m, &tiny()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "kernel 'k' instruction 4 (scalar): reads r3 as written inside a loop or branch that has ended"
    );
}

#[test]
fn a_loop_body_past_the_end_is_refused() {
    let m = module(vec![
        Inst::Const { dst: Reg(0), value: 0 },
        Inst::For { iv: Reg(2), lo: Reg(0), hi: Reg(0), step: Reg(0), body: 5 },
    ]);
    let e = kiln_emit::disassemble(&m, &tiny()).unwrap_err();
    assert_eq!(e.to_string(), "kernel 'k' instruction 1 (for): body runs past its enclosing code");
}

#[test]
fn a_loop_carried_register_is_refused() {
    let m = module(vec![
        Inst::Const { dst: Reg(0), value: 0 },
        Inst::Const { dst: Reg(1), value: 4 },
        Inst::For { iv: Reg(2), lo: Reg(0), hi: Reg(1), step: Reg(1), body: 2 },
        Inst::Scalar { op: ScalarOp::Add, dst: Reg(3), a: Reg(0), b: Reg(2) },
        Inst::Scalar { op: ScalarOp::Add, dst: Reg(0), a: Reg(3), b: Reg(2) },
    ]);
    let e = kiln_emit::disassemble(&m, &tiny()).unwrap_err();
    assert_eq!(e.to_string(), "kernel 'k' instruction 4 (scalar): writes r0 inside a loop that reads its value from before the loop");
}

#[test]
fn a_view_with_both_offset_parts_and_an_unaligned_pitch_round_trip() {
    use kiln_bytecode::isa::{Buf, DType, Dim, GmView, Space};
    use kiln_bytecode::module::{BufferRef, Launch, TensorSpec};
    let buf = Buf { space: Space::Ub, dtype: DType::F32, addr: 0, rows: 2, cols: 4, pitch: 16 };
    let view = |offset| GmView { arg: 0, offset, base: 7, dims: vec![Dim { size: 8, stride: 1 }] };
    let mut m = module(vec![
        Inst::Const { dst: Reg(5), value: 3 },
        Inst::Load { dst: buf, src: view(Some(Reg(5))), zero_pad: false },
        Inst::Store { dst: view(None), src: buf, atomic: kiln_bytecode::isa::Atomic::None },
    ]);
    m.kernels[0].num_args = 1;
    m.kernels[0].ub_bytes = 128;
    let spec = TensorSpec { dtype: DType::F32, shape: vec![32] };
    m.host.inputs = vec![spec.clone()];
    m.host.launches = vec![Launch { kernel: 0, args: vec![BufferRef::Input(0)] }];
    m.host.outputs = vec![(TensorSpec { dtype: DType::F32, shape: vec![4, 8] }, BufferRef::Input(0))];
    let bytes = kiln_bytecode::encode(&m);
    kiln_bytecode::validate(&m, &tiny()).unwrap();
    let text = kiln_emit::disassemble(&m, &tiny()).unwrap();
    assert!(text.contains("npuvec.pitch = 16 : i64") && text.contains("npuvec.base = 7 : i64"), "{text}");
    assert!(text.contains("\"npuvec.reshape\""), "{text}");
    let again = common::emit_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again, m);
    assert_eq!(kiln_bytecode::encode(&again), bytes, "{text}");
}

#[test]
fn immediates_keep_their_exact_values() {
    use kiln_bytecode::isa::{BinaryOp, Buf, CmpPred, DType, Scalar, Space, Src};
    let f = Buf { space: Space::Ub, dtype: DType::F32, addr: 0, rows: 1, cols: 8, pitch: 8 };
    let i = Buf { space: Space::Ub, dtype: DType::I32, addr: 32, rows: 1, cols: 8, pitch: 8 };
    let mask = Buf { space: Space::Ub, dtype: DType::I1, addr: 64, rows: 1, cols: 8, pitch: 32 };
    let mut m = module(vec![
        // 0.1 is not an f32: written as an f64 constant, it comes back as the same f64.
        Inst::Binary { op: BinaryOp::Add, dst: f, a: Src::Buf(f), b: Src::Imm(Scalar::Float(0.1)) },
        Inst::Binary { op: BinaryOp::Mul, dst: f, a: Src::Imm(Scalar::Float(-2.5)), b: Src::Buf(f) },
        Inst::Fill { dst: mask, value: Scalar::Int(1) },
        Inst::Fill { dst: i, value: Scalar::Int(-7) },
        Inst::Cmp { pred: CmpPred::Ge, dst: mask, a: Src::Buf(i), b: Src::Imm(Scalar::Int(1 << 40)) },
    ]);
    m.kernels[0].ub_bytes = 96;
    let text = kiln_emit::disassemble(&m, &tiny()).unwrap();
    assert!(text.contains(": f64") && text.contains("-2.5") && text.contains(": i64"), "{text}");
    let again = common::emit_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again, m, "{text}");
}
