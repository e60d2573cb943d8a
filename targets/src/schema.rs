//! The fields of a target file, one struct per TOML table. Every field is required and no other
//! field is accepted, so a typo is an error rather than a silently ignored default.

use serde::Deserialize;

/// A hardware description: one `targets/<name>.toml` file.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// The target's name.
    pub name: String,
    /// Core counts.
    pub cores: Cores,
    /// On-chip memories.
    pub memory: Memory,
    /// The vector unit.
    pub vector: Vector,
    /// The cube (matrix) unit.
    pub cube: Cube,
    /// Per-core throughput of each pipe.
    pub pipes: Pipes,
    /// Synchronization between pipes.
    pub sync: Synchronization,
    /// The clock.
    pub clock: Clock,
    /// Off-chip memory.
    pub hbm: Hbm,
    /// Fixed costs.
    pub costs: Costs,
}

/// Core counts: how many kernels of each kind run at once (`block_dim` distributes over them).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cores {
    /// Vector (AIV) cores.
    pub vector: u32,
    /// Cube (AIC) cores.
    pub cube: u32,
}

/// On-chip memory sizes, in bytes.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// Unified Buffer per vector core.
    pub ub_bytes: u64,
    /// The part of the UB a kernel may use (the UB plan's bound).
    pub ub_usable_bytes: u64,
    /// Alignment of UB buffers and DMA transfers (a power of two).
    pub alignment_bytes: u64,
    /// L1 buffer per cube core.
    pub l1_bytes: u64,
    /// L0A (left matrix operand) buffer.
    pub l0a_bytes: u64,
    /// L0B (right matrix operand) buffer.
    pub l0b_bytes: u64,
    /// L0C (accumulator) buffer.
    pub l0c_bytes: u64,
}

/// The vector unit.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    /// Bytes processed by one vector repeat (a multiple of `memory.alignment_bytes`).
    pub repeat_bytes: u64,
    /// The most repeats one vector instruction can issue (its repeat-count field); longer
    /// rows take several instructions.
    pub max_repeats: u32,
    /// Whether a transpose can be done in UB (and so sit inside a fused region).
    pub transpose_in_ub: bool,
    /// Whether the vector unit computes on 64-bit integers (`i64` buffers in UB); without it,
    /// a kernel over `i64` values is refused. Default false.
    #[serde(default)]
    pub int64: bool,
}

/// The cube unit.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cube {
    /// Side of the square blocks ("fractals") the cube multiplies; matrix operands are moved
    /// to L0A/L0B and results out of L0C in whole fractals.
    pub fractal: u32,
}

/// Per-core throughput of each pipe, the rates of the VM's cost model.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pipes {
    /// MTE2: bytes per cycle moved from GM into UB or L1 by one core.
    pub mte2_bytes_per_cycle: u32,
    /// MTE3: bytes per cycle moved from UB to GM by one core.
    pub mte3_bytes_per_cycle: u32,
    /// MTE1: bytes per cycle moved from L1 to L0A / L0B.
    pub mte1_bytes_per_cycle: u32,
    /// V: cycles one vector repeat takes.
    pub vector_cycles_per_repeat: u32,
    /// M: multiply-accumulates per cycle of the cube (f16 inputs).
    pub cube_macs_per_cycle: u32,
    /// FIX: bytes per cycle moved out of L0C by the fixpipe.
    pub fixpipe_bytes_per_cycle: u32,
}

/// Synchronization between pipes.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Synchronization {
    /// Event ids available to `set_flag` / `wait_flag` per pair of pipes (ids `0..event_ids`).
    pub event_ids: u32,
}

/// The clock.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Core clock in MHz.
    pub mhz: u32,
}

/// Off-chip memory (GM).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hbm {
    /// Bandwidth of the whole chip in GB/s, which caps the sum of the cores' MTE2 and MTE3
    /// traffic.
    pub bandwidth_gb_per_s: u32,
    /// Capacity in bytes: the most GM a host program may allocate.
    pub capacity_bytes: u64,
}

/// Fixed costs, in nanoseconds.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// Launching one kernel.
    pub kernel_launch_ns: u32,
    /// Setting up one DMA transfer.
    pub dma_setup_ns: u32,
}
