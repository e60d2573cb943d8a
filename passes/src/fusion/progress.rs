//! `progress=true` (`--kiln-fusion-progress` in kiln-opt): what `kiln-fuse` is doing on a large
//! module, written to stderr while it runs (mlir-opt has no such report; its
//! `--mlir-timing` and `--mlir-pass-statistics` only print after the run). Lines, each prefixed
//! `kiln-fuse: `, so that a log shows them even when stderr is not a terminal:
//!
//! ```text
//! kiln-fuse: fusing 100000 ops in 1 block
//! kiln-fuse: planning block 1 of 1 (@g, 100000 ops)
//! kiln-fuse: planning block 1 of 1: 10% of its ops after 0.21 s
//! ...
//! kiln-fuse: planned block 1 of 1: 23456 regions in 1.20 s
//! kiln-fuse: 10% (10000 of 100000 ops, 2345 regions) after 1.31 s
//! ...
//! kiln-fuse: done: 100000 ops, 23456 regions in 2.10 s
//! ```
//!
//! An op is done once its block is planned and it is either left alone or moved into its
//! formed region; a line comes when a new tenth of the ops is done (one line for the highest
//! tenth reached). Blocks holding at least a tenth of the ops (those that take the time)
//! announce their planning, and then every tenth of their ops the clustering has looked at
//! (up to 90%: the line after that is the `planned` one). The times are wall-clock
//! seconds since the pass started; the rest of the text is deterministic.

use std::io::Write;
use std::time::Instant;

/// The progress report of one pass run (silent when not enabled).
pub struct Progress {
    start: Option<Instant>,
    total: usize,
    blocks: usize,
    done: usize,
    regions: usize,
    /// The next tenth (1..=10) to report; one line reports the highest tenth reached.
    next_tenth: usize,
    /// The block being planned (from 0), when it is large enough to report on.
    planning: Option<usize>,
    /// The next tenth of its planning to report.
    planning_tenth: usize,
}

impl Progress {
    /// Starts a report over `total` ops in `blocks` blocks; `enabled` false keeps it silent.
    pub fn new(enabled: bool, total: usize, blocks: usize) -> Progress {
        let p = Progress {
            start: enabled.then(Instant::now),
            total,
            blocks,
            done: 0,
            regions: 0,
            next_tenth: 1,
            planning: None,
            planning_tenth: 1,
        };
        let s = if blocks == 1 { "" } else { "s" };
        p.line(format_args!("fusing {total} ops in {blocks} block{s}"));
        p
    }

    fn line(&self, text: std::fmt::Arguments<'_>) {
        if self.start.is_some() {
            // Progress is best effort: a closed stderr (a reader that quit) must not stop the pass.
            let _ = writeln!(std::io::stderr(), "kiln-fuse: {text}");
        }
    }

    fn seconds(&self) -> f64 {
        self.start.map_or(0.0, |s| s.elapsed().as_secs_f64())
    }

    /// Whether a block of `ops` ops is large enough to announce.
    fn large(&self, ops: usize) -> bool {
        ops * 10 >= self.total
    }

    /// Block `index` (from 0), in `function`, of `ops` ops is about to be planned.
    pub fn planning(&mut self, index: usize, function: &str, ops: usize) {
        self.planning = (self.start.is_some() && self.large(ops)).then_some(index);
        self.planning_tenth = 1;
        if self.planning.is_some() {
            let at = if function.is_empty() { String::new() } else { format!("@{function}, ") };
            self.line(format_args!("planning block {} of {} ({at}{ops} ops)", index + 1, self.blocks));
        }
    }

    /// Planning has looked at `visited` of the block's `ops` ops (called once per op by the
    /// clustering's main loop, so it must stay cheap).
    pub fn planning_step(&mut self, visited: usize, ops: usize) {
        let Some(index) = self.planning else { return };
        if visited * 10 < self.planning_tenth * ops || self.planning_tenth >= 10 {
            return;
        }
        let tenth = visited * 10 / ops;
        let secs = self.seconds();
        self.line(format_args!(
            "planning block {} of {}: {}% of its ops after {secs:.2} s",
            index + 1,
            self.blocks,
            tenth * 10
        ));
        self.planning_tenth = tenth + 1;
    }

    /// Block `index` (from 0) of `ops` ops is planned into `regions` regions holding `fused` ops.
    pub fn planned(&mut self, index: usize, ops: usize, regions: usize, fused: usize) {
        if self.large(ops) {
            let s = if regions == 1 { "" } else { "s" };
            let secs = self.seconds();
            self.line(format_args!(
                "planned block {} of {}: {regions} region{s} in {secs:.2} s",
                index + 1,
                self.blocks
            ));
        }
        self.advance(ops - fused, 0);
    }

    /// A block of `ops` ops was left as it is.
    pub fn skipped(&mut self, ops: usize) {
        self.advance(ops, 0);
    }

    /// A region of `ops` ops was formed.
    pub fn formed(&mut self, ops: usize) {
        self.advance(ops, 1);
    }

    fn advance(&mut self, ops: usize, regions: usize) {
        self.done += ops;
        self.regions += regions;
        let tenth = (self.done * 10).checked_div(self.total).unwrap_or(10);
        if tenth >= self.next_tenth {
            let (done, total, regions, secs) = (self.done, self.total, self.regions, self.seconds());
            let s = if regions == 1 { "" } else { "s" };
            self.line(format_args!(
                "{}% ({done} of {total} ops, {regions} region{s}) after {secs:.2} s",
                tenth * 10
            ));
            self.next_tenth = tenth + 1;
        }
    }

    /// The run is over.
    pub fn finish(&self) {
        let secs = self.seconds();
        let s = if self.regions == 1 { "" } else { "s" };
        self.line(format_args!("done: {} ops, {} region{s} in {secs:.2} s", self.total, self.regions));
    }
}
