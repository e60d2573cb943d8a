//! Hand-built programs of shape classes: kernels compiled once for `(n, C)` with `n` a symbol,
//! tiled by a fixed row tile over the cores with a tail tile, their tiling data given at
//! launch (see `kiln_bytecode::shape`).
#![allow(dead_code)]

use kiln_bytecode::isa::{
    BinaryOp, Buf, DType, Dim, GmView, Inst, Pipe, ReduceOp, Reg, Scalar, Space, Src, UnaryOp,
};
use kiln_bytecode::module::{BufferRef, Core, Host, Kernel, Launch, Module, TensorSpec};
use kiln_bytecode::shape::{ClassModule, Expr, Extent, KernelClass, ParamRange, ShapeClass};
use kiln_targets::Target;

/// The largest `n` the kernels admit (their first parameter's range).
pub const MAX_N: i64 = 1 << 40;
/// The most tiles (their second parameter's range).
pub const MAX_TILES: i64 = 1 << 32;

/// Registers: the parameters first (`n`, the tile count), then the scalars of the tile loop.
pub const N: Reg = Reg(0);
pub const TILES: Reg = Reg(1);
const IDX: Reg = Reg(2);
const NUM: Reg = Reg(3);
const T: Reg = Reg(4);
const TILE: Reg = Reg(5);
const ROW0: Reg = Reg(6);
const LEFT: Reg = Reg(7);
/// The tile's rows (`min(TILE, n - row0)`): the extent of every load and store.
pub const ROWS: Reg = Reg(8);
const COLS: Reg = Reg(9);
const OFFSET: Reg = Reg(10);

/// An f32 UB buffer of `rows x cols` at `addr`, rows padded to 32 bytes.
pub fn ub(addr: u32, rows: u32, cols: u32) -> Buf {
    Buf { space: Space::Ub, dtype: DType::F32, addr, rows, cols, pitch: cols.div_ceil(8) * 8 }
}

fn view(arg: u16, tile: u32, cols: u32) -> GmView {
    GmView {
        arg,
        offset: Some(OFFSET),
        base: 0,
        dims: vec![Dim { size: tile, stride: cols as i64 }, Dim { size: cols, stride: 1 }],
    }
}

fn flag(src: Pipe, dst: Pipe) -> [Inst; 2] {
    [Inst::SetFlag { src, dst, event: 0 }, Inst::WaitFlag { src, dst, event: 0 }]
}

/// A kernel body builder: the code and the extents of its loads and stores.
pub struct Code {
    pub code: Vec<Inst>,
    pub extents: Vec<Extent>,
    /// The register each load and store takes its rows from (`ROWS`; tests break it).
    pub rows: Reg,
}

impl Code {
    fn push(&mut self, inst: Inst) {
        if matches!(inst, Inst::Load { .. } | Inst::Store { .. }) {
            self.extents.push(Extent { inst: self.code.len() as u32, dim: 0, reg: self.rows });
        }
        self.code.push(inst);
    }
}

/// The tile loop over `tile`-row tiles of an `(n, cols)` problem: tile `t` from this core's
/// block index in steps of the block count, `ROWS = min(tile, n - t * tile)` rows at element
/// `OFFSET = t * tile * cols`. `body` writes one tile's work: loads, vector ops, stores (with
/// the flags between the pipes it adds itself).
pub fn tiled(tile: u32, cols: u32, rows: Reg, body: impl FnOnce(&mut Code)) -> Code {
    let mut c = Code { code: Vec::new(), extents: Vec::new(), rows };
    for inst in [
        Inst::BlockIdx { dst: IDX },
        Inst::BlockNum { dst: NUM },
        Inst::Const { dst: TILE, value: tile as i64 },
        Inst::Const { dst: COLS, value: cols as i64 },
    ] {
        c.push(inst);
    }
    let head = c.code.len();
    c.push(Inst::For { iv: T, lo: IDX, hi: TILES, step: NUM, body: 0 });
    for inst in [
        Inst::Scalar { op: kiln_bytecode::isa::ScalarOp::Mul, dst: ROW0, a: T, b: TILE },
        Inst::Scalar { op: kiln_bytecode::isa::ScalarOp::Sub, dst: LEFT, a: N, b: ROW0 },
        Inst::Scalar { op: kiln_bytecode::isa::ScalarOp::MinS, dst: ROWS, a: LEFT, b: TILE },
        Inst::Scalar { op: kiln_bytecode::isa::ScalarOp::Mul, dst: OFFSET, a: ROW0, b: COLS },
    ] {
        c.push(inst);
    }
    body(&mut c);
    let len = (c.code.len() - head - 1) as u32;
    if let Inst::For { body, .. } = &mut c.code[head] {
        *body = len;
    }
    c
}

/// One tile of the elementwise chain `out = max(x * y + x, 0.5) * 2` (every op exact).
pub fn chain_body(tile: u32, cols: u32) -> impl FnOnce(&mut Code) {
    move |c| {
        let (x, y) = (ub(0, tile, cols), ub(tile * cols.div_ceil(8) * 32, tile, cols));
        c.push(Inst::Load { dst: x, src: view(0, tile, cols), zero_pad: false });
        c.push(Inst::Load { dst: y, src: view(1, tile, cols), zero_pad: false });
        flag(Pipe::Mte2, Pipe::V).into_iter().for_each(|i| c.push(i));
        let bin = |op, a: Src, b: Src| Inst::Binary { op, dst: y, a, b };
        c.push(bin(BinaryOp::Mul, Src::Buf(x), Src::Buf(y)));
        c.push(bin(BinaryOp::Add, Src::Buf(y), Src::Buf(x)));
        c.push(bin(BinaryOp::Max, Src::Buf(y), Src::Imm(Scalar::Float(0.5))));
        c.push(bin(BinaryOp::Mul, Src::Buf(y), Src::Imm(Scalar::Float(2.0))));
        flag(Pipe::V, Pipe::Mte3).into_iter().for_each(|i| c.push(i));
        c.push(Inst::Store { dst: view(2, tile, cols), src: y, atomic: kiln_bytecode::isa::Atomic::None });
        flag(Pipe::Mte3, Pipe::Mte2).into_iter().for_each(|i| c.push(i));
    }
}

/// One tile of a row softmax along the static `cols`: max, subtract, exp, sum, divide.
pub fn softmax_body(tile: u32, cols: u32) -> impl FnOnce(&mut Code) {
    move |c| {
        let x = ub(0, tile, cols);
        let col_bytes = tile * 32;
        let at = tile * cols.div_ceil(8) * 32;
        let (m, s) = (ub(at, tile, 1), ub(at + col_bytes, tile, 1));
        c.push(Inst::Load { dst: x, src: view(0, tile, cols), zero_pad: false });
        flag(Pipe::Mte2, Pipe::V).into_iter().for_each(|i| c.push(i));
        c.push(Inst::Reduce { op: ReduceOp::Max, dst: m, src: x, accumulate: false });
        c.push(Inst::Barrier { pipe: Pipe::V });
        c.push(Inst::Binary { op: BinaryOp::Sub, dst: x, a: Src::Buf(x), b: Src::Buf(m) });
        c.push(Inst::Unary { op: UnaryOp::Exp, dst: x, src: x });
        c.push(Inst::Barrier { pipe: Pipe::V });
        c.push(Inst::Reduce { op: ReduceOp::Sum, dst: s, src: x, accumulate: false });
        c.push(Inst::Barrier { pipe: Pipe::V });
        c.push(Inst::Binary { op: BinaryOp::Div, dst: x, a: Src::Buf(x), b: Src::Buf(s) });
        flag(Pipe::V, Pipe::Mte3).into_iter().for_each(|i| c.push(i));
        c.push(Inst::Store { dst: view(1, tile, cols), src: x, atomic: kiln_bytecode::isa::Atomic::None });
        flag(Pipe::Mte3, Pipe::Mte2).into_iter().for_each(|i| c.push(i));
    }
}

/// The UB bytes the tile's buffers take (rows padded to 32 bytes; two more columns).
pub fn ub_bytes(tile: u32, cols: u32, buffers: u32) -> u32 {
    buffers * tile * cols.div_ceil(8) * 32 + 2 * tile * 32
}

/// The program: `inputs` inputs of `(n, cols)` f32 and one output of that shape, one launch
/// of `code` over `block_dim` cores with parameters `n` and `ceil_div(n, tile)`.
pub fn program(target: &Target, name: &str, code: Code, inputs: usize, tile: u32, cols: u32) -> ClassModule {
    let block_dim = target.cores.vector.min(8);
    let skeleton = TensorSpec { dtype: DType::F32, shape: vec![0, cols as u64] };
    let mut args: Vec<BufferRef> = (0..inputs as u32).map(BufferRef::Input).collect();
    args.push(BufferRef::Temp(0));
    let module = Module {
        target: target.name.clone(),
        kernels: vec![Kernel {
            name: name.into(),
            core: Core::Aiv,
            block_dim,
            ub_bytes: ub_bytes(tile, cols, inputs as u32),
            num_args: args.len() as u16,
            code: code.code,
        }],
        host: Host {
            name: "main".into(),
            inputs: vec![skeleton.clone(); inputs],
            temps: vec![0],
            launches: vec![Launch { kernel: 0, args }],
            outputs: vec![(skeleton, BufferRef::Temp(0))],
        },
        constants: vec![],
    };
    let n = || Expr::sym(0);
    let class = ShapeClass {
        symbols: vec!["n".into()],
        inputs: vec![vec![Some(0), None]; inputs],
        temps: vec![Some(n() * Expr::constant(cols as i64 * 4))],
        outputs: vec![vec![Some(n()), None]],
        launches: vec![vec![n(), n().ceil_div(Expr::constant(tile as i64))]],
        kernels: vec![KernelClass {
            params: vec![ParamRange { min: 1, max: MAX_N }, ParamRange { min: 1, max: MAX_TILES }],
            extents: code.extents,
        }],
    };
    ClassModule { module, class }
}

/// The elementwise chain's program for `target` with `tile`-row tiles of `cols` columns.
pub fn chain(target: &Target, tile: u32, cols: u32) -> ClassModule {
    program(target, "chain", tiled(tile, cols, ROWS, chain_body(tile, cols)), 2, tile, cols)
}

/// The row softmax's program.
pub fn softmax(target: &Target, tile: u32, cols: u32) -> ClassModule {
    program(target, "softmax", tiled(tile, cols, ROWS, softmax_body(tile, cols)), 1, tile, cols)
}

/// The chain in plain Rust.
pub fn chain_ref(x: &[f32], y: &[f32]) -> Vec<f32> {
    x.iter().zip(y).map(|(&x, &y)| (x * y + x).max(0.5) * 2.0).collect()
}

/// The row softmax in plain Rust (`f64` exp rounded to `f32`, the interpreter's).
pub fn softmax_ref(x: &[f32], cols: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(cols) {
        let m = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let e: Vec<f32> = row.iter().map(|&v| ((v - m) as f64).exp() as f32).collect();
        let s = e.iter().fold(0f32, |a, &b| a + b);
        out.extend(e.iter().map(|&v| v / s));
    }
    out
}
