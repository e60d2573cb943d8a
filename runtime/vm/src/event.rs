//! What the VM reports about each instruction it executes, for the analyses that replay a run:
//! the sync checker, the cost model (per-pipe timelines) and the trace writer.

use kiln_bytecode::isa::{Pipe, Space};

/// A byte range of one memory space that an instruction reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The space (`Gm` ranges are of argument buffer `gm_arg`).
    pub space: Space,
    /// For `Gm`: the kernel argument; otherwise 0.
    pub gm_arg: u16,
    /// First byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// Whether the instruction writes the range (else it reads it).
    pub write: bool,
}

/// The work one executed instruction did, in the units the cost model charges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// GM bytes read (loads).
    pub gm_read: u64,
    /// GM bytes written (stores).
    pub gm_written: u64,
    /// DMA transfers (loads and stores, 1 each).
    pub dma: u64,
    /// Vector repeats (`ceil(row bytes / repeat_bytes)` per row, per instruction).
    pub repeats: u64,
    /// Cube multiply-accumulates.
    pub macs: u64,
    /// Bytes moved by MTE1 or FIX.
    pub moved: u64,
}

/// One executed instruction of one core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Index of the launch in the host program.
    pub launch: u32,
    /// The kernel index.
    pub kernel: u32,
    /// The core (block index).
    pub core: u32,
    /// Index of the instruction in the kernel's code.
    pub inst: u32,
    /// The pipe it runs on.
    pub pipe: Pipe,
    /// For `SetFlag` / `WaitFlag`: (source pipe, destination pipe, event id).
    pub flag: Option<(Pipe, Pipe, u8)>,
    /// For `Barrier`: the pipe it orders.
    pub barrier: Option<Pipe>,
    /// On-chip and GM byte ranges read and written.
    pub accesses: Vec<Access>,
    /// The work done.
    pub work: Work,
}
