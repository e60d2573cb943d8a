//! Spare output buffers: the bytes of large host values that nothing names any more, kept
//! for a later segment's GM temporaries, and fresh buffers with room to grow.
//!
//! A loop that runs the same segment over large tensors would otherwise have each run's
//! outputs mapped fresh from the system and zeroed by the kernel page by page (for a 16M f32
//! softmax, about a quarter of the run). The VM takes a spare buffer for a temporary of its
//! exact length ([`Vm::run_borrowed`](kiln_vm::Vm::run_borrowed)) and gives it the contents a
//! fresh one would have, so reuse never changes a result.
//!
//! Buffers are matched by capacity, not length: a spare serves any temporary it has room for
//! (its length set to the temporary's), the smallest such first. A dynamic workload (the rows
//! of a sequence change every call) would otherwise map and fault in fresh pages for every new
//! size: measured on a softmax over (n, 768) f32, about 250 us of a new shape's call. So that
//! growing sizes reuse too, a large temporary the pool has no room for is allocated by the
//! pool with its capacity rounded up to a power of two ([`reserve`]), and so is a large
//! input's copy ([`Pool::copy`]): the pages past the length are only address space until a
//! later, larger value writes them.
//!
//! Bounded: only buffers of at least [`MIN_BYTES`] are kept (smaller ones come from the
//! allocator's free lists cheaply, and the record path stays a length check), at most
//! [`MAX_BUFFERS`] of them and [`MAX_BYTES`] of capacity in all; the oldest go first.

use std::rc::Rc;

use kiln_vm::HostTensor;

/// The smallest buffer worth keeping: below it the allocator reuses memory without the system.
pub(crate) const MIN_BYTES: usize = 256 << 10;
/// The most buffers kept.
pub(crate) const MAX_BUFFERS: usize = 8;
/// The most bytes kept, in all.
pub(crate) const MAX_BYTES: usize = 256 << 20;

/// The spare buffers of a session, oldest first.
#[derive(Default)]
pub(crate) struct Pool {
    buffers: Vec<Vec<u8>>,
    bytes: usize,
}

impl Pool {
    /// Keeps `host`'s bytes if it is large and this was its last reference.
    #[inline]
    pub(crate) fn give(&mut self, host: Rc<HostTensor>) {
        if host.bytes.len() >= MIN_BYTES {
            self.keep(host);
        }
    }

    #[inline(never)]
    fn keep(&mut self, host: Rc<HostTensor>) {
        if let Ok(host) = Rc::try_unwrap(host) {
            self.give_bytes(host.bytes);
        }
    }

    /// Keeps `bytes` if it is a large buffer.
    pub(crate) fn give_bytes(&mut self, bytes: Vec<u8>) {
        let n = bytes.capacity();
        if !(MIN_BYTES..=MAX_BYTES).contains(&n) {
            return;
        }
        while self.buffers.len() >= MAX_BUFFERS || self.bytes + n > MAX_BYTES {
            let old = self.buffers.remove(0);
            self.bytes -= old.capacity();
        }
        self.bytes += n;
        self.buffers.push(bytes);
    }

    /// A spare buffer of length `n` (its contents unspecified): the kept buffer of the least
    /// capacity that holds `n` bytes, taken out of the pool; none for a small size.
    pub(crate) fn take_one(&mut self, n: usize) -> Option<Vec<u8>> {
        if n < MIN_BYTES {
            return None;
        }
        let (i, _) = (self.buffers.iter().enumerate())
            .filter(|(_, b)| b.capacity() >= n)
            .min_by_key(|(i, b)| (b.capacity(), usize::MAX - i))?;
        let mut b = self.buffers.remove(i);
        self.bytes -= b.capacity();
        b.resize(n, 0);
        Some(b)
    }

    /// A copy of `bytes`: in a spare buffer when one has room ([`Pool::take_one`]), else in a
    /// fresh one, with room to grow when it is large (an input's buffer serves a later,
    /// larger output once released, as an output's does).
    pub(crate) fn copy(&mut self, bytes: &[u8]) -> Vec<u8> {
        if let Some(mut spare) = self.take_one(bytes.len()) {
            spare.copy_from_slice(bytes);
            return spare;
        }
        let n = bytes.len();
        let mut fresh = Vec::with_capacity(if grows(n) { n.next_power_of_two() } else { n });
        fresh.extend_from_slice(bytes);
        fresh
    }

    /// Buffers for GM temporaries of byte sizes `sizes`: a spare one for each size the pool has
    /// room for ([`Pool::take_one`]), a fresh one with room to grow ([`reserve`]) for
    /// each other large size. Returns them and how many were spares.
    pub(crate) fn take(&mut self, sizes: &[u64]) -> (Vec<Vec<u8>>, usize) {
        let mut out = Vec::new();
        let mut reused = 0;
        for &n in sizes {
            let Ok(n) = usize::try_from(n) else { continue };
            if let Some(b) = self.take_one(n) {
                reused += 1;
                out.push(b);
            } else if let Some(b) = reserve(n) {
                out.push(b);
            }
        }
        (out, reused)
    }

    /// Buffers kept, and their bytes.
    #[cfg(test)]
    fn held(&self) -> (usize, usize) {
        (self.buffers.len(), self.bytes)
    }
}

/// Whether a fresh buffer of `n` bytes is given room to grow: a large one the pool keeps.
fn grows(n: usize) -> bool {
    (MIN_BYTES..=MAX_BYTES / 2).contains(&n)
}

/// A fresh zeroed buffer of length `n` whose capacity is `n` rounded up to a power of two,
/// for a large temporary (`None` for a small or huge one, which the VM allocates itself).
pub(crate) fn reserve(n: usize) -> Option<Vec<u8>> {
    grows(n).then(|| kiln_vm::zeroed(n, n.next_power_of_two()))
}

#[cfg(test)]
mod tests {
    use kiln_bytecode::isa::DType;
    use kiln_bytecode::module::TensorSpec;

    use super::*;

    fn host(bytes: usize) -> Rc<HostTensor> {
        let spec = TensorSpec { dtype: DType::I8, shape: vec![bytes as u64] };
        Rc::new(HostTensor { spec, bytes: vec![0; bytes] })
    }

    #[test]
    fn keeps_only_large_unshared_buffers() {
        let mut pool = Pool::default();
        pool.give(host(MIN_BYTES - 1));
        let shared = host(MIN_BYTES);
        pool.give(Rc::clone(&shared));
        assert_eq!(pool.held(), (0, 0));
        pool.give(shared);
        assert_eq!(pool.held(), (1, MIN_BYTES));
    }

    #[test]
    fn takes_the_least_room_that_fits_and_stays_bounded() {
        let mut pool = Pool::default();
        for i in 0..MAX_BUFFERS + 3 {
            pool.give(host(MIN_BYTES + 2 * i));
        }
        assert_eq!(pool.held().0, MAX_BUFFERS);
        // The three oldest went first; the least capacity that holds the size comes out, with
        // the size as its length.
        let b = pool.take_one(MIN_BYTES + 1).expect("a larger buffer serves");
        assert_eq!((b.len(), b.capacity()), (MIN_BYTES + 1, MIN_BYTES + 6));
        assert_eq!(pool.held().0, MAX_BUFFERS - 1);
        let largest = MIN_BYTES + 2 * (MAX_BUFFERS + 2);
        assert!(pool.take_one(largest + 1).is_none());
        // A size the pool has no room for gets a fresh buffer with room to grow; a small one
        // nothing (the VM allocates it).
        let (got, reused) = pool.take(&[largest as u64, largest as u64 + 1, 7]);
        assert_eq!(reused, 1);
        assert_eq!(got.iter().map(Vec::len).collect::<Vec<_>>(), [largest, largest + 1]);
        assert_eq!(got[1].capacity(), (largest + 1).next_power_of_two());
        assert!(got[1].iter().all(|&b| b == 0), "a fresh buffer is zeroed");
        let big = MAX_BYTES / 2 + 1;
        pool.give(host(big));
        pool.give(host(big));
        let (n, bytes) = pool.held();
        assert!(bytes <= MAX_BYTES && n == 1, "{n} buffers, {bytes} bytes");
        pool.give(host(MAX_BYTES + 1));
        assert_eq!(pool.held(), (1, big));
    }

    #[test]
    fn a_large_copy_has_room_to_grow_and_takes_a_spare_first() {
        let mut pool = Pool::default();
        let data: Vec<u8> = (0..MIN_BYTES + 5).map(|i| i as u8).collect();
        let fresh = pool.copy(&data);
        assert_eq!((fresh.as_slice(), fresh.capacity()), (&data[..], (MIN_BYTES + 5).next_power_of_two()));
        assert_eq!(pool.copy(&data[..7]).capacity(), 7, "a small copy is exact");
        pool.give_bytes(fresh);
        let spare = pool.copy(&data[..MIN_BYTES + 1]);
        assert_eq!((spare.as_slice(), spare.capacity()), (&data[..MIN_BYTES + 1], 2 * MIN_BYTES));
        assert_eq!(pool.held(), (0, 0));
    }
}
