//! Builders for hand-written modules and byte helpers shared by the VM tests.
#![allow(dead_code)]

use kiln_bytecode::isa::{Buf, DType, Dim, GmView, Inst, Reg, Space};
use kiln_bytecode::module::{BufferRef, Core, Host, Kernel, Launch, Module, TensorSpec};
use kiln_targets::Target;
use kiln_vm::{HostTensor, Outputs, Vm, VmError};

pub fn tiny() -> Target {
    Target::load("tiny-npu").expect("tiny-npu loads")
}

pub fn ub(dtype: DType, addr: u32, rows: u32, cols: u32) -> Buf {
    let eb = dtype.bytes();
    let pitch = (cols * eb).div_ceil(32) * 32 / eb;
    Buf { space: Space::Ub, dtype, addr, rows, cols, pitch: pitch.max(1) }
}

pub fn in_space(space: Space, dtype: DType, addr: u32, rows: u32, cols: u32) -> Buf {
    Buf { space, ..ub(dtype, addr, rows, cols) }
}

/// A contiguous view of `n` elements of argument `arg` at `base + reg`.
pub fn view(arg: u16, offset: Option<Reg>, base: i64, dims: &[(u32, i64)]) -> GmView {
    GmView { arg, offset, base, dims: dims.iter().map(|&(size, stride)| Dim { size, stride }).collect() }
}

pub fn spec(dtype: DType, shape: &[u64]) -> TensorSpec {
    TensorSpec { dtype, shape: shape.to_vec() }
}

/// A module with one kernel over `inputs.len() + outputs.len()` arguments: inputs first,
/// each output a temporary of its spec's size.
pub fn module(code: Vec<Inst>, block_dim: u32, inputs: &[TensorSpec], outputs: &[TensorSpec]) -> Module {
    let n_in = inputs.len() as u32;
    let mut args: Vec<BufferRef> = (0..n_in).map(BufferRef::Input).collect();
    args.extend((0..outputs.len() as u32).map(BufferRef::Temp));
    Module {
        target: "tiny-npu".into(),
        kernels: vec![Kernel {
            name: "k".into(),
            core: Core::Mix,
            block_dim,
            ub_bytes: 16384,
            num_args: args.len() as u16,
            code,
        }],
        host: Host {
            name: "main".into(),
            inputs: inputs.to_vec(),
            temps: outputs.iter().map(|s| s.checked_bytes().unwrap()).collect(),
            launches: vec![Launch { kernel: 0, args }],
            outputs: outputs
                .iter()
                .enumerate()
                .map(|(i, s)| (s.clone(), BufferRef::Temp(i as u32)))
                .collect(),
        },
        constants: vec![],
    }
}

pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

pub fn tensor(spec: TensorSpec, bytes: Vec<u8>) -> HostTensor {
    HostTensor { spec, bytes }
}

pub fn run(m: &Module, inputs: &[HostTensor]) -> Result<Outputs, VmError> {
    Vm::new(&tiny()).run(m, inputs)
}

/// Deterministic pseudo-random f32 values in `[lo, hi)`.
pub fn randoms(n: usize, seed: u64, lo: f32, hi: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((s >> 40) as f32 / (1u64 << 24) as f32)
        })
        .collect()
}

/// A small xorshift generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One observed run: its outputs and every event its sink saw, or its error.
pub type Observed = Result<(Outputs, Vec<kiln_vm::event::Event>), String>;

/// Runs `m` on `inputs` under `config` twice, each with an event sink: with the fast paths
/// (elementwise groups, deferred loads) and without them (one instruction at a time, every
/// load copied: the reference).
pub fn fast_and_reference(
    config: kiln_vm::VmConfig,
    m: &Module,
    inputs: &[HostTensor],
) -> (Observed, Observed) {
    let run = |fast_paths: bool| -> Observed {
        let vm = Vm::with_config(&tiny(), kiln_vm::VmConfig { fast_paths, ..config });
        let mut events = Vec::new();
        let out = vm.run_with(m, inputs, &mut |e| events.push(e.clone())).map_err(|e| e.to_string())?;
        Ok((out, events))
    };
    (run(true), run(false))
}

/// Asserts that the fast run and the reference agree: results, counters and events, or errors.
pub fn assert_same_runs(case: &str, fast: &Observed, reference: &Observed) {
    match (fast, reference) {
        (Ok((f, fe)), Ok((r, re))) => {
            assert_eq!(f.tensors.len(), r.tensors.len(), "{case}: outputs differ");
            for (a, b) in f.tensors.iter().zip(&r.tensors) {
                assert_eq!(a.bytes, b.bytes, "{case}: results differ");
            }
            assert_eq!(f.counters.total, r.counters.total, "{case}: counters differ");
            assert_eq!(fe.len(), re.len(), "{case}: event counts differ");
            if let Some(i) = (0..fe.len()).find(|&i| fe[i] != re[i]) {
                panic!("{case}: event {i} differs:\n fast:      {:?}\n reference: {:?}", fe[i], re[i]);
            }
        }
        (Err(f), Err(r)) => assert_eq!(f, r, "{case}: errors differ"),
        (f, r) => panic!("{case}: fast {:?}, reference {:?}", f.as_ref().err(), r.as_ref().err()),
    }
}
