//! A core's on-chip memories (UB, L1, L0A, L0B, L0C: zeroed byte arrays sized by the target)
//! and the bounds-checked row access every instruction goes through.

use kiln_bytecode::isa::{Buf, Inst, Space};
use kiln_bytecode::module::Core;
use kiln_targets::Target;

/// A buffer operand checked against its space: every row lies inside the space's bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region {
    /// Index of the space in [`Mem::spaces`].
    pub space: usize,
    /// Byte address of row 0.
    pub addr: usize,
    /// Bytes from one row to the next.
    pub stride: usize,
    /// Bytes of one row (`cols * element bytes`).
    pub row_bytes: usize,
    /// Rows.
    pub rows: usize,
}

impl Region {
    /// The byte range of row `r`.
    #[inline]
    pub fn row(&self, r: usize) -> std::ops::Range<usize> {
        let start = self.addr + r * self.stride;
        start..start + self.row_bytes
    }
}

/// The on-chip memories of one core.
pub(crate) struct Mem {
    /// UB, L1, L0A, L0B, L0C (in [`Space::ALL`] order after `Gm`).
    pub spaces: [Vec<u8>; 5],
    /// Whether it has the cube's memories (L1, L0A, L0B, L0C) besides the UB.
    pub core: bool,
}

fn index(space: Space) -> Option<usize> {
    match space {
        Space::Gm => None,
        Space::Ub => Some(0),
        Space::L1 => Some(1),
        Space::L0a => Some(2),
        Space::L0b => Some(3),
        Space::L0c => Some(4),
    }
}

impl Mem {
    /// Memories for a kernel of kind `core`: a vector core has a UB only; a cube (or mixed)
    /// kernel has every space.
    pub fn new(target: &Target, core: Core) -> Mem {
        let m = &target.memory;
        let cube = Mem::kind(core);
        let size = |bytes: u64, present: bool| if present { vec![0u8; bytes as usize] } else { Vec::new() };
        Mem {
            core: cube,
            spaces: [
                size(m.ub_bytes, true),
                size(m.l1_bytes, cube),
                size(m.l0a_bytes, cube),
                size(m.l0b_bytes, cube),
                size(m.l0c_bytes, cube),
            ],
        }
    }

    /// Whether a core of kind `core` has the cube's memories (the value of [`Mem::core`]).
    pub fn kind(core: Core) -> bool {
        !matches!(core, Core::Aiv)
    }

    /// The bytes of each memory that `code` can touch: up to the end of its furthest buffer
    /// (whole rows of pitch, which covers a zero-padded load's block), at most the memory.
    pub fn extent(&self, code: &[Inst]) -> [usize; 5] {
        let mut used = [0usize; 5];
        for b in code.iter().flat_map(Inst::bufs) {
            if let Some(i) = index(b.space) {
                let end = u64::from(b.addr)
                    + u64::from(b.rows) * u64::from(b.pitch.max(b.cols)) * u64::from(b.dtype.bytes());
                used[i] = used[i].max(usize::try_from(end).unwrap_or(usize::MAX).min(self.spaces[i].len()));
            }
        }
        used
    }

    /// Zeroes the first `extent[i]` bytes of each memory: a fresh core, as far as a kernel that
    /// touches no byte past them can tell.
    pub fn clear(&mut self, extent: &[usize; 5]) {
        for (s, &n) in self.spaces.iter_mut().zip(extent) {
            let n = n.min(s.len());
            s[..n].fill(0);
        }
    }

    /// `buf` checked: not GM, `pitch >= cols`, every row inside the space.
    pub fn region(&self, buf: &Buf) -> Result<Region, String> {
        let space = index(buf.space).ok_or("a buffer operand in gm")?;
        if buf.rows > 1 && buf.pitch < buf.cols {
            return Err(format!("buffer pitch {} is below its {} cols", buf.pitch, buf.cols));
        }
        let size = self.spaces[space].len() as u64;
        let end = u64::from(buf.addr).saturating_add(buf.span_bytes());
        if end > size {
            return Err(format!(
                "{} range [{}, {}) is outside the {size}-byte {}",
                buf.space.name(),
                buf.addr,
                end,
                buf.space.name()
            ));
        }
        let eb = buf.dtype.bytes() as usize;
        Ok(Region {
            space,
            addr: buf.addr as usize,
            stride: buf.pitch as usize * eb,
            row_bytes: buf.cols as usize * eb,
            rows: if buf.cols == 0 { 0 } else { buf.rows as usize },
        })
    }

    /// Row `r` of `region`.
    #[inline]
    pub fn row(&self, region: &Region, r: usize) -> &[u8] {
        &self.spaces[region.space][region.row(r)]
    }

    /// Row `r` of `region`, writable.
    #[inline]
    pub fn row_mut(&mut self, region: &Region, r: usize) -> &mut [u8] {
        &mut self.spaces[region.space][region.row(r)]
    }
}

/// Read access to the memories around one writable row (see [`Mem::split_row`]).
pub(crate) struct Around<'a> {
    /// The row's space.
    space: usize,
    /// The row's byte range.
    row: std::ops::Range<usize>,
    /// Its space before the row.
    before: &'a [u8],
    /// Its space after the row.
    after: &'a [u8],
    /// The other spaces (empty at `space`).
    others: [&'a [u8]; 5],
}

impl Around<'_> {
    /// Bytes `range` of space `space`, which must not overlap the row.
    pub fn get(&self, space: usize, range: std::ops::Range<usize>) -> &[u8] {
        if space != self.space {
            &self.others[space][range]
        } else if range.end <= self.row.start {
            &self.before[range]
        } else {
            &self.after[range.start - self.row.end..range.end - self.row.end]
        }
    }
}

impl Mem {
    /// Row `r` of `region`, writable, and every other on-chip byte, readable.
    pub fn split_row(&mut self, region: &Region, r: usize) -> (&mut [u8], Around<'_>) {
        let range = region.row(r);
        let mut others: [&[u8]; 5] = [&[]; 5];
        let mut split = None;
        for (i, s) in self.spaces.iter_mut().enumerate() {
            if i == region.space {
                let (before, rest) = s.split_at_mut(range.start);
                let (row, after) = rest.split_at_mut(range.len());
                split = Some((row, before as &[u8], after as &[u8]));
            } else {
                others[i] = s;
            }
        }
        let (row, before, after) = split.unwrap_or_default();
        (row, Around { space: region.space, row: range, before, after, others })
    }
}

/// Requires `buf` to be in one of `spaces`; `what` names the operand.
pub(crate) fn expect_space(buf: &Buf, spaces: &[Space], what: &str) -> Result<(), String> {
    if spaces.contains(&buf.space) {
        return Ok(());
    }
    let names: Vec<&str> = spaces.iter().map(|s| s.name()).collect();
    Err(format!("{what} must be in {}, got {}", names.join(" or "), buf.space.name()))
}

/// Requires two buffers to have the same shape; `what` names the pair.
pub(crate) fn expect_same_shape(a: &Buf, b: &Buf, what: &str) -> Result<(), String> {
    if (a.rows, a.cols) != (b.rows, b.cols) {
        return Err(format!("{what}: shapes [{}, {}] and [{}, {}] differ", a.rows, a.cols, b.rows, b.cols));
    }
    Ok(())
}

/// Requires two buffers to have the same element type; `what` names the pair.
pub(crate) fn expect_same_dtype(a: &Buf, b: &Buf, what: &str) -> Result<(), String> {
    if a.dtype != b.dtype {
        return Err(format!("{what}: element types {} and {} differ", a.dtype.name(), b.dtype.name()));
    }
    Ok(())
}
