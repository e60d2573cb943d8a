//! A small program of a shape class: the head copy of `disassemble_class.rs`.

use kiln_bytecode::isa::{Atomic, Buf, DType, Dim, GmView, Inst, Pipe, Reg, ScalarOp, Space};
use kiln_bytecode::module::{BufferRef, Core, Host, Kernel, Launch, Module, TensorSpec};
use kiln_bytecode::shape::{ClassModule, Expr, Extent, KernelClass, ParamRange, ShapeClass};

/// Copies the first `min(n, 8)` rows of an `(n, 16)` input to the output.
pub fn program() -> ClassModule {
    let buf = Buf { space: Space::Ub, dtype: DType::F32, addr: 0, rows: 8, cols: 16, pitch: 16 };
    let view = |arg| GmView {
        arg,
        offset: None,
        base: 0,
        dims: vec![Dim { size: 8, stride: 16 }, Dim { size: 16, stride: 1 }],
    };
    let code = vec![
        Inst::Const { dst: Reg(1), value: 8 },
        Inst::Scalar { op: ScalarOp::MinS, dst: Reg(2), a: Reg(0), b: Reg(1) },
        Inst::Load { dst: buf, src: view(0), zero_pad: false },
        Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::Mte3, event: 0 },
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::Mte3, event: 0 },
        Inst::Store { dst: view(1), src: buf, atomic: Atomic::None },
    ];
    let spec = TensorSpec { dtype: DType::F32, shape: vec![0, 16] };
    let module = Module {
        target: "tiny-npu".into(),
        kernels: vec![Kernel {
            name: "head".into(),
            core: Core::Aiv,
            block_dim: 1,
            ub_bytes: 512,
            num_args: 2,
            code,
        }],
        host: Host {
            name: "main".into(),
            inputs: vec![spec.clone()],
            temps: vec![0],
            launches: vec![Launch { kernel: 0, args: vec![BufferRef::Input(0), BufferRef::Temp(0)] }],
            outputs: vec![(spec, BufferRef::Temp(0))],
        },
        constants: vec![],
    };
    let n = || Expr::sym(0);
    let extent = |inst| Extent { inst, dim: 0, reg: Reg(2) };
    let class = ShapeClass {
        symbols: vec!["n".into()],
        inputs: vec![vec![Some(0), None]],
        temps: vec![Some(n().min(Expr::constant(8)) * Expr::constant(64))],
        outputs: vec![vec![Some(n().min(Expr::constant(8))), None]],
        launches: vec![vec![n()]],
        kernels: vec![KernelClass {
            params: vec![ParamRange { min: 1, max: 1 << 30 }],
            extents: vec![extent(2), extent(5)],
        }],
    };
    ClassModule { module, class }
}
