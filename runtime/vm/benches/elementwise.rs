//! Criterion benchmark of the VM's inner loops: the 8-op elementwise chain add, mul, exp, add,
//! max, mul, sub, tanh over 1M `f32` (two inputs) in UB tiles of 8 x 512, on two cores.
//! Run: `cargo bench -p kiln-vm --bench elementwise` (the time per run / 2^20 is ns/element).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kiln_bytecode::isa::{
    Atomic, BinaryOp, Buf, DType, Dim, GmView, Inst, Reg, ScalarOp, Space, Src, UnaryOp,
};
use kiln_bytecode::module::{BufferRef, Core, Host, Kernel, Launch, Module, TensorSpec};
use kiln_targets::Target;
use kiln_vm::{HostTensor, Vm};

const N: u64 = 1 << 20;
const ROWS: u32 = 8;
const COLS: u32 = 512;
const TILE: i64 = (ROWS * COLS) as i64;

fn buf(addr: u32) -> Buf {
    Buf { space: Space::Ub, dtype: DType::F32, addr, rows: ROWS, cols: COLS, pitch: COLS }
}

fn view(arg: u16) -> GmView {
    GmView { arg, offset: Some(Reg(3)), base: 0, dims: vec![Dim { size: TILE as u32, stride: 1 }] }
}

fn chain_module() -> Module {
    let (x, y, t) = (buf(0), buf(16384), buf(32768));
    let bin = |op, a: Buf, b: Buf| Inst::Binary { op, dst: t, a: Src::Buf(a), b: Src::Buf(b) };
    let code = vec![
        Inst::BlockIdx { dst: Reg(0) },
        Inst::Const { dst: Reg(2), value: TILE },
        Inst::Scalar { op: ScalarOp::Mul, dst: Reg(0), a: Reg(0), b: Reg(2) },
        Inst::Const { dst: Reg(1), value: N as i64 },
        Inst::Const { dst: Reg(2), value: 2 * TILE },
        Inst::For { iv: Reg(3), lo: Reg(0), hi: Reg(1), step: Reg(2), body: 11 },
        Inst::Load { dst: x, src: view(0), zero_pad: false },
        Inst::Load { dst: y, src: view(1), zero_pad: false },
        bin(BinaryOp::Add, x, y),
        bin(BinaryOp::Mul, t, x),
        Inst::Unary { op: UnaryOp::Exp, dst: t, src: t },
        bin(BinaryOp::Add, t, y),
        bin(BinaryOp::Max, t, x),
        bin(BinaryOp::Mul, t, y),
        bin(BinaryOp::Sub, t, x),
        Inst::Unary { op: UnaryOp::Tanh, dst: t, src: t },
        Inst::Store { dst: view(2), src: t, atomic: Atomic::None },
    ];
    let spec = TensorSpec { dtype: DType::F32, shape: vec![N] };
    Module {
        target: "ascend910b".into(),
        kernels: vec![Kernel {
            name: "chain".into(),
            core: Core::Aiv,
            block_dim: 2,
            ub_bytes: 49152,
            num_args: 3,
            code,
        }],
        host: Host {
            name: "main".into(),
            inputs: vec![spec.clone(), spec.clone()],
            temps: vec![N * 4],
            launches: vec![Launch {
                kernel: 0,
                args: vec![BufferRef::Input(0), BufferRef::Input(1), BufferRef::Temp(0)],
            }],
            outputs: vec![(spec, BufferRef::Temp(0))],
        },
        constants: vec![],
    }
}

fn input(seed: u32) -> HostTensor {
    let bytes = (0..N as u32)
        .map(|i| ((i.wrapping_mul(2654435761) ^ seed) % 2000) as f32 / 1000.0 - 1.0)
        .flat_map(f32::to_le_bytes);
    HostTensor { spec: TensorSpec { dtype: DType::F32, shape: vec![N] }, bytes: bytes.collect() }
}

fn bench(c: &mut Criterion) {
    let vm = Vm::new(&Target::load("ascend910b").expect("ascend910b loads"));
    let module = chain_module();
    let inputs = [input(1), input(7)];
    let mut group = c.benchmark_group("vm");
    group.throughput(Throughput::Elements(N));
    group.sample_size(20);
    group.bench_function("chain8_1M_f32", |b| b.iter(|| vm.run(&module, &inputs).expect("the chain runs")));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
