//! The interpreter's memory budget: a bound on the bytes of all live tensors.
//!
//! Every tensor the interpreter holds (function arguments, and every op result) is charged
//! against the budget *before* it is computed, from the byte size of its declared type (a
//! dynamic dim is charged once its size is known, after evaluation). A value whose type has
//! more elements than fit in 64 bits, or whose bytes would take the live total past the
//! limit, is an error naming the size instead of an allocation that aborts the process. When
//! a function or region body returns, the bytes of its internal values are released and only
//! its results stay charged. Kernels may use transient buffers of a few times the size of
//! the value they compute on top of the budget.

/// The live-tensor-bytes budget of one interpreter run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    limit: u64,
    used: u64,
}

impl Budget {
    /// The default limit: 1 GiB of live tensors.
    pub const DEFAULT_LIMIT: u64 = 1 << 30;

    /// A budget of `limit` bytes, nothing charged.
    pub fn new(limit: u64) -> Budget {
        Budget { limit, used: 0 }
    }

    /// The limit in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The bytes charged so far.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// Whether `bytes` more (`None`: a size past `u64`) fit, without charging them; the error
    /// says why not.
    pub fn check(&self, bytes: Option<u64>) -> Result<u64, String> {
        let Some(bytes) = bytes else {
            return Err("has more elements than fit in 64 bits".into());
        };
        match self.used.checked_add(bytes) {
            Some(total) if total <= self.limit => Ok(total),
            _ => Err(format!(
                "needs {bytes} bytes, which exceeds the interpreter's memory budget of {} bytes \
                 ({} bytes already live)",
                self.limit, self.used
            )),
        }
    }

    /// Charges `bytes` (see [`Budget::check`]).
    pub fn charge(&mut self, bytes: Option<u64>) -> Result<(), String> {
        self.used = self.check(bytes)?;
        Ok(())
    }

    /// Releases everything charged after `mark` (an earlier [`Budget::used`]).
    pub(crate) fn release_to(&mut self, mark: u64) {
        self.used = self.used.min(mark);
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new(Budget::DEFAULT_LIMIT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_checks_and_releases() {
        let mut b = Budget::new(100);
        b.charge(Some(60)).unwrap();
        assert_eq!(b.check(Some(40)), Ok(100));
        let err = b.charge(Some(41)).unwrap_err();
        assert_eq!(err, "needs 41 bytes, which exceeds the interpreter's memory budget of 100 bytes (60 bytes already live)");
        assert_eq!(b.check(None).unwrap_err(), "has more elements than fit in 64 bits");
        assert!(b.charge(Some(u64::MAX)).is_err());
        b.release_to(10);
        assert_eq!(b.used(), 10);
    }
}
