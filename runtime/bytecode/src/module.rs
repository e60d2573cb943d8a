//! A compiled program: kernels plus the host program that allocates GM buffers and launches
//! them, with the program's inputs, outputs and constants.
//!
//! GM buffers are flat byte arrays; a kernel sees the buffers of its launch as its arguments
//! `0 .. num_args` (the launch's argument list is the relocation table: the same kernel code
//! runs on whatever buffers a launch binds). Reshapes between kernels cost nothing: two host
//! tensors of one buffer.

use crate::isa::{DType, Inst};

/// The core kind a kernel runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Core {
    /// Vector core only.
    Aiv,
    /// Cube core only.
    Aic,
    /// Cube and vector core together (a matmul with a vector epilogue).
    Mix,
}

impl Core {
    /// Every core kind, in encoding order.
    pub const ALL: [Core; 3] = [Core::Aiv, Core::Aic, Core::Mix];

    /// The name as `npuvec` spells it (`#npuvec.core<aiv>`).
    pub fn name(self) -> &'static str {
        match self {
            Core::Aiv => "aiv",
            Core::Aic => "aic",
            Core::Mix => "mix",
        }
    }
}

/// One kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// Its symbol name (for messages and traces).
    pub name: String,
    /// The core kind.
    pub core: Core,
    /// How many cores run it (block indices `0 .. block_dim`).
    pub block_dim: u32,
    /// The planned UB bytes (the plan's proof: every UB access lies below this).
    pub ub_bytes: u32,
    /// The number of GM arguments.
    pub num_args: u16,
    /// The code.
    pub code: Vec<Inst>,
}

/// An element type and static shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TensorSpec {
    /// The element type.
    pub dtype: DType,
    /// The dims (empty for a scalar).
    pub shape: Vec<u64>,
}

impl TensorSpec {
    /// The element count, or `None` when it overflows `u64`.
    pub fn checked_numel(&self) -> Option<u64> {
        self.shape.iter().try_fold(1u64, |n, &d| n.checked_mul(d))
    }

    /// The byte size, or `None` when it overflows `u64`.
    pub fn checked_bytes(&self) -> Option<u64> {
        self.checked_numel()?.checked_mul(self.dtype.bytes() as u64)
    }
}

/// Where a GM buffer comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferRef {
    /// The program's input `n`.
    Input(u32),
    /// Constant `n` (read only).
    Const(u32),
    /// Temporary `n`, allocated by the host program.
    Temp(u32),
}

/// One step of the host program: a kernel launch binding GM buffers to its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Index into [`Module::kernels`].
    pub kernel: u32,
    /// The buffer bound to each argument.
    pub args: Vec<BufferRef>,
}

/// The host program.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Host {
    /// The entry function's name.
    pub name: String,
    /// The program's inputs, in argument order.
    pub inputs: Vec<TensorSpec>,
    /// The byte size of each temporary GM buffer.
    pub temps: Vec<u64>,
    /// The launches, in order.
    pub launches: Vec<Launch>,
    /// The program's results, in order: a shape and the buffer holding it.
    pub outputs: Vec<(TensorSpec, BufferRef)>,
}

/// A compiled program.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    /// The target the program was compiled for (its `name`).
    pub target: String,
    /// The kernels.
    pub kernels: Vec<Kernel>,
    /// The host program.
    pub host: Host,
    /// Constant GM data: a shape and its little-endian bytes.
    pub constants: Vec<(TensorSpec, Vec<u8>)>,
}
