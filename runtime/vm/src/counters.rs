//! Counters of a run, per kernel and in total: launches, GM bytes read and written, DMA
//! transfers, vector repeats, cube MACs, bytes moved by MTE1 / FIX, instructions executed.

use crate::event::Work;

/// The counters of one kernel (over all its launches and cores) or of a whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Kernel launches.
    pub launches: u64,
    /// GM bytes read by loads.
    pub gm_read: u64,
    /// GM bytes written by stores.
    pub gm_written: u64,
    /// DMA transfers (loads and stores).
    pub dma: u64,
    /// Vector repeats: per vector instruction `rows * ceil(cols * bytes / repeat_bytes)`.
    pub repeats: u64,
    /// Cube multiply-accumulates (`m * k * n` per `Mmad`).
    pub macs: u64,
    /// Bytes moved by MTE1 and FIX.
    pub moved: u64,
    /// Instructions executed (loop bodies once per iteration).
    pub instructions: u64,
}

impl Counters {
    /// Adds one executed instruction's work.
    pub fn add_work(&mut self, w: &Work) {
        self.gm_read += w.gm_read;
        self.gm_written += w.gm_written;
        self.dma += w.dma;
        self.repeats += w.repeats;
        self.macs += w.macs;
        self.moved += w.moved;
        self.instructions += 1;
    }

    /// Adds another set of counters.
    pub fn merge(&mut self, o: &Counters) {
        self.launches += o.launches;
        self.gm_read += o.gm_read;
        self.gm_written += o.gm_written;
        self.dma += o.dma;
        self.repeats += o.repeats;
        self.macs += o.macs;
        self.moved += o.moved;
        self.instructions += o.instructions;
    }
}

/// The counters of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunCounters {
    /// Per kernel, in [`kiln_bytecode::module::Module::kernels`] order.
    pub kernels: Vec<Counters>,
    /// The whole run.
    pub total: Counters,
}
