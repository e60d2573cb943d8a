//! What a session counts: compile cache hits and misses, compile time, flushes by reason.

use std::time::Duration;

/// Why a segment was flushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlushReason {
    /// Before an op that cannot join a segment (a layout copy such as `hl.slice`, a cube op
    /// that is not enabled), and after it: it runs as its own kernel.
    UnfusableOp,
    /// After a reduction (or a composite, which may contain one), unless `--opt_level=2`
    /// stitches reduce -> broadcast.
    ReductionBoundary,
    /// Before an enabled matmul / batch_matmul, which starts a segment of its own that takes
    /// an elementwise epilogue, and before the first op that is not part of that epilogue.
    CubeBoundary,
    /// A host read of a pending value.
    HostRead,
    /// An explicit `sync()`.
    Sync,
    /// The segment reached `--flush_threshold` ops.
    Capacity,
    /// An in-place write (`assign`, `write`) to a value the segment reads.
    Overwrite,
    /// The session was dropped.
    SessionDrop,
}

impl FlushReason {
    /// Every reason, in the order of [`Stats::flushes`].
    pub const ALL: [FlushReason; 8] = [
        FlushReason::UnfusableOp,
        FlushReason::ReductionBoundary,
        FlushReason::CubeBoundary,
        FlushReason::HostRead,
        FlushReason::Sync,
        FlushReason::Capacity,
        FlushReason::Overwrite,
        FlushReason::SessionDrop,
    ];

    /// The snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            FlushReason::UnfusableOp => "unfusable_op",
            FlushReason::ReductionBoundary => "reduction_boundary",
            FlushReason::CubeBoundary => "cube_boundary",
            FlushReason::HostRead => "host_read",
            FlushReason::Sync => "sync",
            FlushReason::Capacity => "capacity",
            FlushReason::Overwrite => "overwrite",
            FlushReason::SessionDrop => "session_drop",
        }
    }

    fn index(self) -> usize {
        FlushReason::ALL.iter().position(|&r| r == self).unwrap_or(0)
    }
}

/// A session's counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Ops recorded (scalar constants included).
    pub ops_recorded: u64,
    /// Segments found in the compile cache.
    pub cache_hits: u64,
    /// Of those, segments that repeated their script (the segment that followed the previous
    /// one the last time): recorded without type checks or hashing, run without a lookup.
    pub segments_predicted: u64,
    /// Segments compiled (every compile the session ran that gave a program: per shape, or
    /// once for a shape class).
    pub cache_misses: u64,
    /// Of those, segments emitted by the direct path (no IR, no passes).
    pub direct_compiles: u64,
    /// Of those, shape classes compiled (`--dynamic_shape`): one program for every shape of
    /// the class.
    pub class_compiles: u64,
    /// Segments whose exact shapes missed the cache but whose shape class was compiled: bound
    /// to their shapes, not compiled.
    pub class_hits: u64,
    /// Shape classes the pipeline refused (not a row class): remembered, their shapes compile
    /// exactly. The refused attempt's time is in `compile_time`.
    pub class_refusals: u64,
    /// Compiled segments dropped from the full cache.
    pub cache_evictions: u64,
    /// Time spent compiling (misses only).
    pub compile_time: Duration,
    /// Time from a flush's start to its launch being ready (its outputs found, inputs
    /// gathered, key built, cache lookup, and compile on a miss), excluding the VM run.
    pub prepare_time: Duration,
    /// Values written out of segments (the values a live tensor named at the flush).
    pub segment_outputs: u64,
    /// Segments run on the VM.
    pub segments_run: u64,
    /// Segments flushed with no value read outside them (nothing to compute).
    pub segments_skipped: u64,
    /// Kernel launches on the VM (a segment of several fused regions launches several).
    pub kernels_launched: u64,
    /// Simulated device time of the runs on the session's target, in ns (the cost model's,
    /// counted only with `--device_time`).
    pub device_time_ns: u64,
    /// GM temporaries that reused the bytes of a released large value rather than fresh
    /// memory.
    pub buffers_reused: u64,
    /// Flushes by reason, in the order of [`FlushReason::ALL`].
    pub flushes: [u64; 8],
}

impl Stats {
    /// Flushes for `reason`.
    pub fn flushes_for(&self, reason: FlushReason) -> u64 {
        self.flushes[reason.index()]
    }

    pub(crate) fn count_flush(&mut self, reason: FlushReason) {
        self.flushes[reason.index()] += 1;
    }
}
