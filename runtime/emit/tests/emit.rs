//! Emitting hand-written planned kernels: the instructions, registers and host program.

mod common;

use common::{emit_text, input, tiny};
use kiln_bytecode::isa::{Atomic, BinaryOp, Inst, Pipe, Reg, Scalar, Src};
use kiln_bytecode::module::BufferRef;

#[test]
fn a_vector_kernel_with_a_loop_and_a_tail_is_emitted_and_loads() {
    let m = emit_text(&input("vector.mlir")).unwrap();
    assert_eq!(m.target, "tiny-npu");
    let k = &m.kernels[0];
    assert_eq!((k.name.as_str(), k.block_dim, k.ub_bytes, k.num_args), ("vec_kernel", 2, 3328, 3));
    // The constant offset 0 folds into the first load: no `Const` before it.
    let Inst::Load { src, dst, .. } = &k.code[0] else { panic!("{:?}", k.code[0]) };
    assert_eq!((src.arg, src.offset, src.base, dst.pitch, dst.addr), (1, None, 0, 64, 0));
    assert!(matches!(k.code[1], Inst::BlockIdx { dst: Reg(0) }));
    assert!(matches!(k.code[2], Inst::BlockNum { dst: Reg(1) }));
    assert!(matches!(k.code[3], Inst::Const { dst: Reg(2), value: 2 }));
    let Inst::For { iv, lo, hi, step, body } = k.code[4] else { panic!("{:?}", k.code[4]) };
    assert_eq!((iv, lo, hi, step, body), (Reg(3), Reg(0), Reg(2), Reg(1), 12));
    // Inside the loop the bounds stay live: the constant and the offset take fresh registers.
    assert!(matches!(k.code[5], Inst::Const { dst: Reg(4), value: 256 }));
    assert!(matches!(k.code[6], Inst::Scalar { dst: Reg(5), a: Reg(3), b: Reg(4), .. }));
    let Inst::Binary { op: BinaryOp::Mul, a: Src::Buf(_), b: Src::Imm(Scalar::Float(h)), .. } = k.code[11]
    else {
        panic!("{:?}", k.code[11])
    };
    assert_eq!(h, 0.5);
    assert!(matches!(k.code[9], Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::V, event: 0 }));
    // After the loop its registers are free again (`r0`, the block index, is still live).
    assert!(matches!(k.code[17], Inst::Const { dst: Reg(1), value: 0 }), "{:?}", k.code[17]);
    assert!(matches!(k.code[18], Inst::Scalar { dst: Reg(2), a: Reg(0), b: Reg(1), .. }));
    assert!(matches!(k.code[19], Inst::If { cond: Reg(2), then_len: 5, else_len: 0 }));
    let Inst::Store { dst, atomic: Atomic::Add, .. } = &k.code[24] else { panic!("{:?}", k.code[24]) };
    assert_eq!((dst.offset, dst.base), (None, 512));
    assert_eq!(k.code.len(), 25);
    assert_eq!(m.host.inputs.len(), 2);
    assert_eq!(m.host.temps, vec![10 * 64 * 4]);
    assert_eq!(m.host.launches[0].args, vec![BufferRef::Input(0), BufferRef::Input(1), BufferRef::Temp(0)]);
    assert_eq!(m.host.outputs[0].1, BufferRef::Temp(0));
    let bytes = kiln_bytecode::encode(&m);
    assert_eq!(kiln_bytecode::load(&bytes, &tiny()).unwrap(), m);
}
