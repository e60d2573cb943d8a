//! Stream prefetch: the host-side stand-in for the NPU's MTE2 pipe running ahead of the vector
//! unit.
//!
//! Contract. On the device a tile's load overlaps the previous tile's vector work; the VM runs
//! a core's instructions in order, so each `Load` would stall on host memory and the vector
//! work would wait for it. Each core therefore keeps a stride predictor indexed by the load's
//! instruction (the classic reference prediction table): when a `Load` at `pc` transfers GM
//! bytes `lo..hi` of a buffer and its previous transfer from the same buffer started at
//! `prev`, the bytes `lo + (lo - prev) .. hi + (lo - prev)` (clipped to the buffer) are
//! predicted to be its next transfer. Their cache lines are queued, and a few are prefetched
//! after each instruction and each block of an elementwise group (one line per vector repeat
//! of work), so the fetch runs while the vector work does instead of in a burst. A prefetch is
//! a hint: it never faults and changes no memory, so a wrong prediction (a branch taking
//! another tile, the end of a block's loop) costs only bandwidth, and results, counters and
//! steps are the same with or without it. The state is per block ([`Prefetch::reset`]).

use std::collections::VecDeque;

/// The host's cache line bytes (64 on every x86-64 and most AArch64 cores).
const LINE: usize = 64;

/// The most predicted ranges queued; an older one is dropped for a newer.
const MAX_QUEUED: usize = 8;

/// One GM transfer of a `Load`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Transfer {
    /// The GM buffer's index in the run.
    pub buffer: usize,
    /// The first byte it reads and one past the last, in the buffer.
    pub lo: u64,
    pub hi: u64,
    /// The host address of the buffer's first byte, and its length.
    pub base: usize,
    pub len: u64,
}

/// A core's stride predictor and its queue of lines to prefetch (see the module
/// documentation).
pub(crate) struct Prefetch {
    /// Per instruction: the buffer and first byte of its last transfer.
    last: Vec<Option<(usize, u64)>>,
    /// Host address ranges still to prefetch, oldest first; the front one is being issued.
    queue: VecDeque<(usize, usize)>,
}

impl Prefetch {
    /// A predictor for a kernel of `code_len` instructions.
    pub fn new(code_len: usize) -> Prefetch {
        Prefetch { last: vec![None; code_len], queue: VecDeque::with_capacity(MAX_QUEUED) }
    }

    /// Forgets the strides and the queue (a new block).
    pub fn reset(&mut self) {
        self.last.fill(None);
        self.queue.clear();
    }

    /// Records that the `Load` at `pc` made transfer `t`, queueing its predicted next one.
    pub fn observe(&mut self, pc: usize, t: Transfer) {
        let Some(last) = self.last.get_mut(pc) else { return };
        if let Some((buffer, prev)) = last.replace((t.buffer, t.lo)) {
            if buffer == t.buffer && prev != t.lo {
                let stride = i128::from(t.lo) - i128::from(prev);
                let lo = (i128::from(t.lo) + stride).max(0);
                let hi = (i128::from(t.hi) + stride).min(i128::from(t.len));
                if lo < hi {
                    if self.queue.len() == MAX_QUEUED {
                        self.queue.pop_front();
                    }
                    // In the buffer: `0 <= lo < hi <= len`, so the addresses do not overflow.
                    self.queue.push_back((t.base + lo as usize, t.base + hi as usize));
                }
            }
        }
    }

    /// Prefetches up to `lines` queued cache lines.
    #[inline]
    pub fn issue(&mut self, mut lines: usize) {
        while lines > 0 {
            let Some((next, end)) = self.queue.front_mut() else { return };
            // In a local: stores through `next` would otherwise be kept in every iteration.
            let (mut at, end) = (*next, *end);
            while lines > 0 && at < end {
                prefetch_line(at);
                at += LINE;
                lines -= 1;
            }
            *next = at;
            if at >= end {
                self.queue.pop_front();
            }
        }
    }

    /// The queued ranges (for tests).
    #[cfg(test)]
    fn queued(&self) -> Vec<(usize, usize)> {
        self.queue.iter().copied().collect()
    }
}

/// Asks the host to bring the lines of `bytes` into its level-1 cache: the next block of a
/// group ([`crate::group`]), while the group computes this one.
#[inline]
pub(crate) fn near(bytes: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    for at in (0..bytes.len()).step_by(LINE) {
        // SAFETY: `prefetcht0` is a hint: it reads nothing the program sees and never faults;
        // the address is in `bytes` besides (`at < bytes.len()`).
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(bytes.as_ptr().add(at).cast());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}

/// Asks the host to bring the line at `addr` into its level-2 cache.
#[inline(always)]
fn prefetch_line(addr: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht1` is a hint: it reads nothing the program sees and never faults, on
    // any address (here always one inside a live or recently live GM buffer).
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
        _mm_prefetch::<_MM_HINT_T1>(std::ptr::without_provenance(addr));
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = addr;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transfer(buffer: usize, lo: u64, hi: u64) -> Transfer {
        Transfer { buffer, lo, hi, base: 0x10_000, len: 1 << 20 }
    }

    #[test]
    fn predicts_the_next_transfer_by_its_stride() {
        let mut p = Prefetch::new(4);
        // The first transfer of an instruction predicts nothing.
        p.observe(1, transfer(0, 4096, 8192));
        assert!(p.queued().is_empty());
        // The second predicts the third at the same stride, backwards too.
        p.observe(1, transfer(0, 12288, 16384));
        assert_eq!(p.queued(), [(0x10_000 + 20480, 0x10_000 + 24576)]);
        p.observe(2, transfer(0, 65536, 65600));
        p.observe(2, transfer(0, 32768, 32832));
        assert_eq!(p.queued()[1], (0x10_000, 0x10_000 + 64));
        // Another buffer at the same instruction, or the same start, predicts nothing.
        let mut p = Prefetch::new(4);
        p.observe(0, transfer(0, 0, 64));
        p.observe(0, transfer(1, 4096, 4160));
        p.observe(0, transfer(1, 4096, 4160));
        assert!(p.queued().is_empty());
    }

    #[test]
    fn clips_to_the_buffer_and_bounds_the_queue() {
        let mut p = Prefetch::new(1);
        let len = 1 << 20;
        p.observe(0, transfer(0, len - 8192, len - 4096));
        p.observe(0, transfer(0, len - 4096, len));
        // Past the end: nothing; partly past: the part inside.
        assert!(p.queued().is_empty());
        p.observe(0, transfer(0, len - 6144, len - 2048));
        assert_eq!(p.queued(), [(0x10_000 + len as usize - 8192, 0x10_000 + len as usize - 4096)]);
        // An instruction past the code is ignored.
        p.observe(7, transfer(0, 0, 64));
        for i in 0..2 * MAX_QUEUED as u64 {
            p.observe(0, transfer(0, i * 64, i * 64 + 64));
        }
        assert_eq!(p.queued().len(), MAX_QUEUED);
    }

    #[test]
    fn issues_lines_in_order_and_forgets_on_reset() {
        let mut p = Prefetch::new(1);
        p.observe(0, transfer(0, 0, 256));
        p.observe(0, transfer(0, 256, 512));
        // Four lines queued: three issued, then the last, then nothing.
        p.issue(3);
        assert_eq!(p.queued(), [(0x10_000 + 512 + 192, 0x10_000 + 768)]);
        p.issue(5);
        assert!(p.queued().is_empty());
        p.observe(0, transfer(0, 512, 768));
        p.reset();
        assert!(p.queued().is_empty());
        // After a reset the next transfer is a first one again.
        p.observe(0, transfer(0, 768, 1024));
        assert!(p.queued().is_empty());
    }
}
