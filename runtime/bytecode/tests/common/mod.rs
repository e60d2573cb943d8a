//! Hand-built modules for the tests: a valid program for the tiny target, and one that uses
//! every instruction variant and every enum value (valid in form, not on a target).
#![allow(dead_code)] // each test file uses some of the helpers

use kiln_bytecode::isa::*;
use kiln_bytecode::module::*;

/// A UB buffer of `f32` `[rows, cols]` at `addr`, rows padded to 32 bytes.
pub fn ub(addr: u32, rows: u32, cols: u32) -> Buf {
    buf(Space::Ub, DType::F32, addr, rows, cols)
}

/// A buffer of `space` and `dtype`, rows padded to 32 bytes.
pub fn buf(space: Space, dtype: DType, addr: u32, rows: u32, cols: u32) -> Buf {
    let per_row = 32 / dtype.bytes();
    Buf { space, dtype, addr, rows, cols, pitch: cols.div_ceil(per_row) * per_row }
}

/// A row-major view of `[rows, cols]` elements of argument `arg`.
pub fn view(arg: u16, offset: Option<Reg>, rows: u32, cols: u32) -> GmView {
    GmView {
        arg,
        offset,
        base: 0,
        dims: vec![Dim { size: rows, stride: cols as i64 }, Dim { size: cols, stride: 1 }],
    }
}

fn spec(dtype: DType, shape: &[u64]) -> TensorSpec {
    TensorSpec { dtype, shape: shape.to_vec() }
}

/// A vector kernel: a loop over 4 row tiles of `[8, 16]` f32 doing most vector ops.
fn vector_kernel() -> Kernel {
    let (a, b, t, mask, row, half) = (
        ub(0, 8, 16),
        ub(512, 8, 16),
        ub(1024, 8, 16),
        buf(Space::Ub, DType::I1, 1536, 8, 16),
        ub(1792, 8, 1),
        buf(Space::Ub, DType::F16, 2048, 8, 16),
    );
    let body = vec![
        Inst::Const { dst: Reg(5), value: 128 },
        Inst::Scalar { op: ScalarOp::Mul, dst: Reg(6), a: Reg(4), b: Reg(5) },
        Inst::Load { dst: a, src: view(0, Some(Reg(6)), 8, 16), zero_pad: false },
        Inst::Load { dst: b, src: view(1, Some(Reg(6)), 8, 16), zero_pad: false },
        Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::V, event: 0 },
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::V, event: 0 },
        Inst::Binary { op: BinaryOp::Add, dst: t, a: Src::Buf(a), b: Src::Buf(b) },
        Inst::Binary { op: BinaryOp::Mul, dst: t, a: Src::Buf(t), b: Src::Imm(Scalar::Float(0.5)) },
        Inst::Binary { op: BinaryOp::Sub, dst: t, a: Src::Buf(t), b: Src::Buf(row) },
        Inst::Unary { op: UnaryOp::Exp, dst: t, src: t },
        Inst::Cmp { pred: CmpPred::Gt, dst: mask, a: Src::Buf(t), b: Src::Imm(Scalar::Float(1.0)) },
        Inst::Select { dst: a, mask, a: Src::Buf(t), b: Src::Imm(Scalar::Float(0.0)) },
        Inst::Reduce { op: ReduceOp::Sum, dst: row, src: a, accumulate: false },
        Inst::Broadcast { dst: b, src: row },
        Inst::Copy { dst: t, src: b },
        Inst::Fill { dst: a, value: Scalar::Float(2.0) },
        Inst::Cast { dst: half, src: t, round: Round::Rint },
        Inst::SetFlag { src: Pipe::V, dst: Pipe::Mte3, event: 1 },
        Inst::WaitFlag { src: Pipe::V, dst: Pipe::Mte3, event: 1 },
        Inst::Store { dst: view(2, Some(Reg(6)), 8, 16), src: t, atomic: Atomic::None },
        Inst::Barrier { pipe: Pipe::All },
    ];
    let mut code = vec![
        Inst::Const { dst: Reg(0), value: 0 },
        Inst::Const { dst: Reg(2), value: 4 },
        Inst::Const { dst: Reg(3), value: 1 },
        Inst::BlockIdx { dst: Reg(1) },
        Inst::BlockNum { dst: Reg(7) },
        Inst::For { iv: Reg(4), lo: Reg(0), hi: Reg(2), step: Reg(3), body: body.len() as u32 },
    ];
    code.extend(body);
    code.extend([
        Inst::If { cond: Reg(1), then_len: 1, else_len: 1 },
        Inst::Scalar { op: ScalarOp::Add, dst: Reg(8), a: Reg(1), b: Reg(7) },
        Inst::Scalar { op: ScalarOp::Sub, dst: Reg(8), a: Reg(1), b: Reg(7) },
        // Rows 8 of argument 0 picked by 8 i32 indices at element 16 of argument 1.
        Inst::Gather {
            dst: a,
            table: view(0, None, 32, 16),
            indices: GmView {
                arg: 1,
                offset: Some(Reg(1)),
                base: 16,
                dims: vec![Dim { size: 8, stride: 1 }],
            },
            index: DType::I32,
        },
    ]);
    Kernel { name: "vector".into(), core: Core::Aiv, block_dim: 2, ub_bytes: 4096, num_args: 3, code }
}

/// A mix kernel: a 16x32 by 32x16 f16 matmul with a relu fixpipe and a transpose.
fn cube_kernel() -> Kernel {
    let (l1a, l1b) = (buf(Space::L1, DType::F16, 0, 16, 32), buf(Space::L1, DType::F16, 1024, 32, 16));
    let (l0a, l0b) = (buf(Space::L0a, DType::F16, 0, 16, 32), buf(Space::L0b, DType::F16, 0, 32, 16));
    let (l0c, out, tr) = (buf(Space::L0c, DType::F32, 0, 16, 16), ub(0, 16, 16), ub(1024, 16, 16));
    let code = vec![
        Inst::Load { dst: l1a, src: view(0, None, 16, 32), zero_pad: true },
        Inst::Load { dst: l1b, src: view(1, None, 32, 16), zero_pad: true },
        Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::Mte1, event: 0 },
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::Mte1, event: 0 },
        Inst::MoveL1 { dst: l0a, src: l1a },
        Inst::MoveL1 { dst: l0b, src: l1b },
        Inst::SetFlag { src: Pipe::Mte1, dst: Pipe::M, event: 0 },
        Inst::WaitFlag { src: Pipe::Mte1, dst: Pipe::M, event: 0 },
        Inst::Mmad { c: l0c, a: l0a, b: l0b, accumulate: false },
        Inst::SetFlag { src: Pipe::M, dst: Pipe::Fix, event: 0 },
        Inst::WaitFlag { src: Pipe::M, dst: Pipe::Fix, event: 0 },
        Inst::Fixpipe { dst: out, src: l0c, relu: true },
        Inst::SetFlag { src: Pipe::Fix, dst: Pipe::V, event: 0 },
        Inst::WaitFlag { src: Pipe::Fix, dst: Pipe::V, event: 0 },
        Inst::Transpose { dst: tr, src: out },
        Inst::SetFlag { src: Pipe::V, dst: Pipe::Mte3, event: 0 },
        Inst::WaitFlag { src: Pipe::V, dst: Pipe::Mte3, event: 0 },
        Inst::Store { dst: view(2, None, 16, 16), src: tr, atomic: Atomic::Add },
    ];
    Kernel { name: "matmul".into(), core: Core::Mix, block_dim: 1, ub_bytes: 2048, num_args: 3, code }
}

/// A valid program for `tiny-npu`: two kernels, a temporary between them, a constant.
pub fn sample() -> Module {
    Module {
        target: "tiny-npu".into(),
        kernels: vec![vector_kernel(), cube_kernel()],
        host: Host {
            name: "main".into(),
            inputs: vec![
                spec(DType::F32, &[32, 16]),
                spec(DType::F32, &[32, 16]),
                spec(DType::F16, &[16, 32]),
            ],
            temps: vec![32 * 16 * 4],
            launches: vec![
                Launch {
                    kernel: 0,
                    args: vec![BufferRef::Input(0), BufferRef::Input(1), BufferRef::Temp(0)],
                },
                Launch {
                    kernel: 1,
                    args: vec![BufferRef::Input(2), BufferRef::Const(0), BufferRef::Temp(0)],
                },
            ],
            outputs: vec![(spec(DType::F32, &[32, 16]), BufferRef::Temp(0))],
        },
        constants: vec![(spec(DType::F16, &[32, 16]), (0..1024).map(|i| i as u8).collect())],
    }
}

/// Every instruction variant with every value of its enums, every space, dtype, core kind,
/// buffer reference kind and operand form (in form only: not valid on a target).
pub fn every_variant() -> Module {
    let b = |space, dtype| Buf { space, dtype, addr: 0x40, rows: 3, cols: 5, pitch: 8 };
    let f = b(Space::Ub, DType::F32);
    let srcs = [
        Src::Buf(f),
        Src::Imm(Scalar::Float(-0.0)),
        Src::Imm(Scalar::Float(f64::INFINITY)),
        Src::Imm(Scalar::Int(i64::MIN)),
    ];
    let mut code = vec![
        Inst::Const { dst: Reg(63), value: -1 },
        Inst::BlockIdx { dst: Reg(1) },
        Inst::BlockNum { dst: Reg(255) },
        Inst::For { iv: Reg(1), lo: Reg(2), hi: Reg(3), step: Reg(4), body: u32::MAX },
        Inst::If { cond: Reg(9), then_len: 7, else_len: u32::MAX },
    ];
    code.extend(ScalarOp::ALL.map(|op| Inst::Scalar { op, dst: Reg(1), a: Reg(2), b: Reg(3) }));
    code.extend(UnaryOp::ALL.map(|op| Inst::Unary { op, dst: f, src: f }));
    for (i, op) in BinaryOp::ALL.into_iter().enumerate() {
        code.push(Inst::Binary { op, dst: f, a: srcs[i % 4], b: srcs[(i + 1) % 4] });
    }
    for (i, pred) in CmpPred::ALL.into_iter().enumerate() {
        code.push(Inst::Cmp { pred, dst: b(Space::Ub, DType::I1), a: srcs[(i + 2) % 4], b: srcs[i % 4] });
    }
    code.extend(srcs.map(|a| Inst::Select { dst: f, mask: b(Space::Ub, DType::I1), a, b: srcs[0] }));
    for op in ReduceOp::ALL {
        code.extend([false, true].map(|accumulate| Inst::Reduce { op, dst: f, src: f, accumulate }));
    }
    code.extend(Round::ALL.map(|round| Inst::Cast { dst: b(Space::Ub, DType::F16), src: f, round }));
    for space in Space::ALL {
        code.extend(DType::ALL.map(|dtype| Inst::Copy { dst: b(space, dtype), src: f }));
    }
    for (i, atomic) in Atomic::ALL.into_iter().enumerate() {
        let dims = (0..=i).map(|d| Dim { size: d as u32 + 1, stride: -(d as i64) }).collect();
        let offset = (i % 2 == 1).then_some(Reg(i as u8 + 60));
        let v = GmView { arg: u16::MAX - i as u16, offset, base: i64::MIN + i as i64, dims };
        code.push(Inst::Store { dst: v.clone(), src: f, atomic });
        code.push(Inst::Load { dst: f, src: v, zero_pad: i % 2 == 0 });
    }
    code.push(Inst::Load {
        dst: f,
        src: GmView { arg: 0, offset: None, base: 0, dims: vec![] },
        zero_pad: false,
    });
    for (i, index) in DType::ALL.into_iter().enumerate() {
        let table =
            GmView { arg: i as u16, offset: Some(Reg(7)), base: -3, dims: vec![Dim { size: 9, stride: -5 }] };
        let indices =
            GmView { arg: 7, offset: None, base: i as i64, dims: vec![Dim { size: 3, stride: 2 }; i % 3] };
        code.push(Inst::Gather { dst: b(Space::ALL[i % 6], index), table, indices, index });
    }
    code.extend([
        Inst::Broadcast { dst: f, src: f },
        Inst::Fill { dst: f, value: Scalar::Float(1.5) },
        Inst::Fill { dst: f, value: Scalar::Int(-7) },
        Inst::Transpose { dst: f, src: f },
        Inst::MoveL1 { dst: b(Space::L0a, DType::BF16), src: b(Space::L1, DType::BF16) },
        Inst::Mmad { c: f, a: f, b: f, accumulate: true },
        Inst::Mmad { c: f, a: f, b: f, accumulate: false },
        Inst::Fixpipe { dst: f, src: f, relu: false },
        Inst::Fixpipe { dst: f, src: f, relu: true },
    ]);
    for (i, pipe) in Pipe::ALL.into_iter().enumerate() {
        let other = Pipe::ALL[(i + 3) % Pipe::ALL.len()];
        code.push(Inst::SetFlag { src: pipe, dst: other, event: (i as u8).wrapping_mul(37) });
        code.push(Inst::WaitFlag { src: other, dst: pipe, event: 255 - i as u8 });
        code.push(Inst::Barrier { pipe });
    }
    let kernels = Core::ALL
        .into_iter()
        .enumerate()
        .map(|(i, core)| Kernel {
            name: format!("k{i}\u{e9}"),
            core,
            block_dim: u32::MAX - i as u32,
            ub_bytes: i as u32 * 1000,
            num_args: i as u16,
            code: if i == 0 { code.clone() } else { vec![] },
        })
        .collect();
    Module {
        target: "anything".into(),
        kernels,
        host: Host {
            name: String::new(),
            inputs: DType::ALL.map(|d| spec(d, &[1, 2, u64::MAX])).to_vec(),
            temps: vec![0, u64::MAX],
            launches: vec![
                Launch {
                    kernel: 7,
                    args: vec![BufferRef::Input(1), BufferRef::Const(u32::MAX), BufferRef::Temp(3)],
                },
                Launch { kernel: 0, args: vec![] },
            ],
            outputs: vec![
                (spec(DType::I1, &[]), BufferRef::Temp(1)),
                (spec(DType::I8, &[4]), BufferRef::Input(0)),
            ],
        },
        constants: vec![(spec(DType::BF16, &[2]), vec![1, 2, 3, 4]), (spec(DType::I32, &[0]), vec![])],
    }
}

/// [`sample`] as a shape class: inputs 0 and 1 of `(n, 16)`, the temporary and the output
/// sized from `n`, kernel 0 taking `n` and a tile count at launch, and its loads and stores
/// sized from register r12.
pub fn class_sample() -> kiln_bytecode::shape::ClassModule {
    use kiln_bytecode::shape::{ClassModule, Expr, Extent, KernelClass, ParamRange, ShapeClass};
    let mut module = sample();
    module.host.inputs[0].shape[0] = 0;
    module.host.inputs[1].shape[0] = 0;
    module.host.temps[0] = 0;
    module.host.outputs[0].0.shape[0] = 0;
    let extents = module.kernels[0]
        .code
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Inst::Load { .. } | Inst::Store { .. }))
        .map(|(i, _)| Extent { inst: i as u32, dim: 0, reg: Reg(12) })
        .collect();
    let n = || Expr::sym(0);
    let class = ShapeClass {
        symbols: vec!["n".into()],
        inputs: vec![vec![Some(0), None], vec![Some(0), None], vec![None, None]],
        temps: vec![Some(n() * Expr::constant(64))],
        outputs: vec![vec![Some(n()), None]],
        launches: vec![
            vec![n(), n().ceil_div(Expr::constant(8)).max(Expr::constant(1)) % Expr::constant(5)],
            vec![],
        ],
        kernels: vec![
            KernelClass {
                params: vec![
                    ParamRange { min: 1, max: 1 << 20 },
                    ParamRange { min: i64::MIN, max: i64::MAX },
                ],
                extents,
            },
            KernelClass::default(),
        ],
    };
    ClassModule { module, class }
}

/// SplitMix64 (Steele, Lea and Flood), a fixed-seed generator.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
