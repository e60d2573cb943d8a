//! Deferred loads: a `Load` of one contiguous GM run into a dense UB buffer is recorded instead
//! of copied, and copied only when something needs the UB bytes; an elementwise group or a
//! reduction reads such a buffer straight from GM.
//!
//! Contract. The UB holds what it would hold had every load been copied at once: a pending
//! load is copied ("flushed") before any instruction that might read or write its UB bytes,
//! except (a) a later load that overwrites them all, which drops it, and (b) an elementwise
//! group ([`crate::group`]) whose buffer is exactly the pending one: the group reads that
//! buffer's blocks from the GM bytes (the same bytes the copy would have put there) and, if it
//! writes the buffer (which it then does whole), the pending load is dropped after it; and
//! (c) a reduction whose source is exactly the pending one, which reads those GM bytes. The
//! copy reads GM when it happens, so before a store of this core into the GM buffer a pending
//! load reads from, that load is flushed; other cores do not write what a core of the same
//! launch loads in a correct program (their ranges are disjoint), and pending loads do not
//! outlive the block (the UB is cleared before the next). The load reports its event (its
//! GM and UB accesses, its work) at its own instruction whether or not its copy is deferred,
//! so the sync checker, the cost model and the trace see every transfer where the program
//! puts it; `VmConfig::fast_paths` off copies at each load. Bounds, steps and counters are charged at the load as before, so
//! errors keep their instruction. Instructions that cannot touch the UB (scalar, flags,
//! barriers, control flow) leave pending loads alone; a store flushes those whose UB bytes it
//! reads or whose GM buffer it writes; a reduction those its destination overlaps and those
//! its source overlaps without being exactly; every other instruction flushes all of them.

use std::ops::Range;

use kiln_bytecode::isa::Buf;

use crate::gm::Args;
use crate::mem::Mem;

/// The most pending loads of a core; one more flushes the oldest.
const MAX_PENDING: usize = 8;

/// Bytes of an on-chip space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    /// The space's index in [`Mem::spaces`].
    pub space: usize,
    /// The byte range.
    pub bytes: Range<usize>,
}

impl Span {
    /// The `len` bytes from `addr` of space `space`.
    pub fn new(space: usize, addr: usize, len: usize) -> Span {
        Span { space, bytes: addr..addr.saturating_add(len) }
    }

    /// The first `len` bytes of `b`'s space from its address; `None` for a malformed buffer
    /// (which fails in its instruction).
    pub fn of(mem: &Mem, b: &Buf, len: u64) -> Option<Span> {
        mem.region(b).ok().map(|r| Span::new(r.space, r.addr, usize::try_from(len).unwrap_or(usize::MAX)))
    }

    fn overlaps(&self, o: &Span) -> bool {
        self.space == o.space && self.bytes.start < o.bytes.end && o.bytes.start < self.bytes.end
    }

    fn covers(&self, o: &Span) -> bool {
        self.space == o.space && self.bytes.start <= o.bytes.start && o.bytes.end <= self.bytes.end
    }
}

/// A load not yet copied: the bytes `at` are GM buffer `buffer`'s bytes from `gm` on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Deferred {
    /// The UB bytes it fills.
    pub at: Span,
    /// The GM buffer's index in the run.
    pub buffer: usize,
    /// The GM byte that goes to the first of `at`.
    pub gm: usize,
}

impl Deferred {
    /// Its bytes in `gm` (its GM buffer's bytes): what the copy puts in its UB bytes.
    pub fn bytes<'g>(&self, gm: &'g [u8]) -> &'g [u8] {
        &gm[self.gm..self.gm + self.at.bytes.len()]
    }
}

/// A core's pending loads (see the module documentation).
#[derive(Default)]
pub(crate) struct Lazy {
    pending: Vec<Deferred>,
}

impl Lazy {
    /// Forgets every pending load (a new block: the UB is cleared).
    pub fn clear(&mut self) {
        self.pending.clear();
    }

    /// Whether any load is pending.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// The pending load filling exactly `at`.
    pub fn exact(&self, at: &Span) -> Option<&Deferred> {
        self.pending.iter().find(|d| d.at == *at)
    }

    /// Copies the pending loads `flush` selects, oldest first, and forgets them.
    fn flush_where(
        &mut self,
        mem: &mut Mem,
        args: &Args,
        mut flush: impl FnMut(&Deferred) -> bool,
    ) -> Result<(), String> {
        let mut i = 0;
        while i < self.pending.len() {
            if flush(&self.pending[i]) {
                let d = self.pending.remove(i);
                copy(mem, args, &d)?;
            } else {
                i += 1;
            }
        }
        Ok(())
    }

    /// Copies every pending load.
    pub fn flush_all(&mut self, mem: &mut Mem, args: &Args) -> Result<(), String> {
        self.flush_where(mem, args, |_| true)
    }

    /// Before an instruction reads or writes the bytes `at` (other than overwriting them
    /// whole): copies the pending loads overlapping them.
    pub fn flush_overlapping(&mut self, mem: &mut Mem, args: &Args, at: &Span) -> Result<(), String> {
        self.flush_where(mem, args, |d| d.at.overlaps(at))
    }

    /// Before a store into GM buffer `buffer`: copies the pending loads from it.
    pub fn flush_from(&mut self, mem: &mut Mem, args: &Args, buffer: usize) -> Result<(), String> {
        self.flush_where(mem, args, |d| d.buffer == buffer)
    }

    /// Before the bytes `at` are overwritten whole: drops the pending loads they cover and
    /// copies those they overlap in part.
    pub fn overwrite(&mut self, mem: &mut Mem, args: &Args, at: &Span) -> Result<(), String> {
        self.pending.retain(|d| !at.covers(&d.at));
        self.flush_overlapping(mem, args, at)
    }

    /// Drops the pending load filling exactly `at` (overwritten whole).
    pub fn drop_exact(&mut self, at: &Span) {
        self.pending.retain(|d| d.at != *at);
    }

    /// Records `d` (its UB bytes already cleared of pending loads by [`Lazy::overwrite`]).
    pub fn push(&mut self, mem: &mut Mem, args: &Args, d: Deferred) -> Result<(), String> {
        if self.pending.len() == MAX_PENDING {
            let oldest = self.pending.remove(0);
            copy(mem, args, &oldest)?;
        }
        self.pending.push(d);
        Ok(())
    }
}

/// Copies pending load `d` into the UB (the bounds were checked at the load).
fn copy(mem: &mut Mem, args: &Args, d: &Deferred) -> Result<(), String> {
    let gm = args.buffers[d.buffer].bytes.read().map_err(|_| "gm buffer lock poisoned")?;
    mem.spaces[d.at.space][d.at.bytes.clone()].copy_from_slice(d.bytes(&gm));
    Ok(())
}
