//! Spare output buffers: the bytes of large host values that nothing names any more, kept
//! for a later segment's GM temporaries of the same size.
//!
//! A loop that runs the same segment over large tensors would otherwise have each run's
//! outputs mapped fresh from the system and zeroed by the kernel page by page (for a 16M f32
//! softmax, about a quarter of the run). The VM takes a spare buffer for a temporary of its
//! exact size ([`Vm::run_borrowed`](kiln_vm::Vm::run_borrowed)) and gives it the contents a
//! fresh one would have, so reuse never changes a result.
//!
//! Bounded: only buffers of at least [`MIN_BYTES`] are kept (smaller ones come from the
//! allocator's free lists cheaply, and the record path stays a length check), at most
//! [`MAX_BUFFERS`] of them and [`MAX_BYTES`] in all; the oldest go first.

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
        let n = bytes.len();
        if !(MIN_BYTES..=MAX_BYTES).contains(&n) {
            return;
        }
        while self.buffers.len() >= MAX_BUFFERS || self.bytes + n > MAX_BYTES {
            let old = self.buffers.remove(0);
            self.bytes -= old.len();
        }
        self.bytes += n;
        self.buffers.push(bytes);
    }

    /// Spare buffers for temporaries of byte sizes `sizes` (one per size that has one, the
    /// newest first), taken out of the pool.
    pub(crate) fn take(&mut self, sizes: &[u64]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        if self.buffers.is_empty() {
            return out;
        }
        for &n in sizes {
            if let Some(i) = self.buffers.iter().rposition(|b| b.len() as u64 == n) {
                let b = self.buffers.remove(i);
                self.bytes -= b.len();
                out.push(b);
            }
        }
        out
    }

    /// Buffers kept, and their bytes.
    #[cfg(test)]
    fn held(&self) -> (usize, usize) {
        (self.buffers.len(), self.bytes)
    }
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
    fn takes_exact_sizes_and_stays_bounded() {
        let mut pool = Pool::default();
        for i in 0..MAX_BUFFERS + 3 {
            pool.give(host(MIN_BYTES + i));
        }
        assert_eq!(pool.held().0, MAX_BUFFERS);
        // The three oldest went first.
        assert!(pool.take(&[MIN_BYTES as u64 + 2]).is_empty());
        let got = pool.take(&[MIN_BYTES as u64 + 3, 7, MIN_BYTES as u64 + 3]);
        assert_eq!(got.iter().map(Vec::len).collect::<Vec<_>>(), [MIN_BYTES + 3]);
        assert_eq!(pool.held().0, MAX_BUFFERS - 1);
        let big = MAX_BYTES / 2 + 1;
        pool.give(host(big));
        pool.give(host(big));
        let (n, bytes) = pool.held();
        assert!(bytes <= MAX_BYTES && n == 1, "{n} buffers, {bytes} bytes");
        pool.give(host(MAX_BYTES + 1));
        assert_eq!(pool.held(), (1, big));
    }
}
