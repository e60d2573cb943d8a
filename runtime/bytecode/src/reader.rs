//! A bounds-checked little-endian cursor over one section of a bytecode file. Every read
//! checks the remaining length first; offsets are file offsets, for messages.

use crate::error::LoadError;
use crate::format::Code;

/// Reads `bytes[pos..end]`; `context` names the region in truncation messages.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    end: usize,
    context: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes[start..end]` (the caller checked `start <= end <= bytes.len()`).
    pub fn new(bytes: &'a [u8], start: usize, end: usize, context: &'static str) -> Reader<'a> {
        Reader { bytes, pos: start, end, context }
    }

    /// The file offset of the next byte.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The bytes left.
    pub fn remaining(&self) -> usize {
        self.end - self.pos
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], LoadError> {
        if n > self.remaining() {
            return Err(LoadError::at(
                self.pos,
                format!("truncated {}: {what} needs {n} bytes, {} are left", self.context, self.remaining()),
            ));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// A reader of the next `n` bytes, named `context`.
    pub fn sub(&mut self, n: usize, what: &str, context: &'static str) -> Result<Reader<'a>, LoadError> {
        let start = self.pos;
        self.take(n, what)?;
        Ok(Reader { bytes: self.bytes, pos: start, end: self.pos, context })
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self, what: &str) -> Result<u32, LoadError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self, what: &str) -> Result<u64, LoadError> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
    }

    /// Checks that `n` records of at least `min_bytes` each fit in what is left, so that the
    /// caller may allocate `n` of them.
    pub fn count(&self, n: u64, min_bytes: usize, what: &str) -> Result<usize, LoadError> {
        let fits = n.checked_mul(min_bytes as u64).is_some_and(|b| b <= self.remaining() as u64);
        if !fits {
            return Err(LoadError::at(
                self.pos,
                format!(
                    "{what} count {n} exceeds what the {} bytes left in the {} can hold",
                    self.remaining(),
                    self.context
                ),
            ));
        }
        Ok(n as usize)
    }

    /// A string: `len: u32` and `len` UTF-8 bytes.
    pub fn string(&mut self, what: &str) -> Result<String, LoadError> {
        let len = self.u32(what)? as usize;
        let at = self.pos;
        let bytes = self.take(len, what)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|e| LoadError::at(at + e.utf8_error().valid_up_to(), format!("{what} is not UTF-8")))
    }

    /// An enum value stored as a `u32`.
    pub fn enum_u32<T: Code>(&mut self) -> Result<T, LoadError> {
        let at = self.pos;
        let code = self.u32(T::WHAT)?;
        decode_enum(code as u64, at)
    }

    /// Errors unless the region has been read to its end.
    pub fn finish(&self) -> Result<(), LoadError> {
        if self.remaining() != 0 {
            return Err(LoadError::at(
                self.pos,
                format!("{} trailing bytes at the end of the {}", self.remaining(), self.context),
            ));
        }
        Ok(())
    }
}

/// The enum value of `code`, or an error at `at` naming the unknown value.
pub(crate) fn decode_enum<T: Code>(code: u64, at: usize) -> Result<T, LoadError> {
    T::from_code(code).ok_or_else(|| LoadError::at(at, format!("unknown {} {code}", T::WHAT)))
}
