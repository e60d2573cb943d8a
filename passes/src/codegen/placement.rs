//! Placing buffers with lifetimes in one memory: the offsets `kiln-codegen-plan-ub` writes and
//! the footprint `kiln-codegen-tile` sizes tiles with (so that a tile the tile pass accepts is a
//! tile the plan places), and the buffer addresses of the eager direct path's kernels.
//!
//! Buffers are taken largest first (then by start); each goes to the lowest aligned offset where
//! it overlaps, in addresses, no placed buffer whose lifetime overlaps its own. Buffers whose
//! lifetimes are disjoint share addresses (reuse); a buffer live throughout keeps its place.

use smallvec::SmallVec;

/// One buffer to place: live from `first` to `last` (inclusive positions), `bytes` long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    /// First position it is live at.
    pub first: usize,
    /// Last position it is live at.
    pub last: usize,
    /// Its size in bytes (before alignment).
    pub bytes: u64,
}

/// The offset of each item and the peak (the end of the highest placed byte), all aligned to
/// `align` (a power of two).
pub fn place(items: &[Item], align: u64) -> (Vec<u64>, u64) {
    let mut offsets = vec![0u64; items.len()];
    let peak = place_into(items, align, &mut offsets);
    (offsets, peak)
}

/// The peak of [`place`].
pub fn peak(items: &[Item], align: u64) -> u64 {
    let mut offsets: SmallVec<[u64; 16]> = smallvec::smallvec![0; items.len()];
    place_into(items, align, &mut offsets)
}

/// [`place`], the offsets into `offsets` (one per item).
fn place_into(items: &[Item], align: u64, offsets: &mut [u64]) -> u64 {
    let align = align.max(1);
    let size = |i: &Item| i.bytes.div_ceil(align) * align;
    let mut order: SmallVec<[(std::cmp::Reverse<u64>, usize, usize); 16]> =
        items.iter().enumerate().map(|(i, item)| (std::cmp::Reverse(size(item)), item.first, i)).collect();
    order.sort_unstable();
    // The placed buffers as (start, end, item), in address order.
    let mut placed: SmallVec<[(u64, u64, usize); 16]> = SmallVec::new();
    let mut peak = 0u64;
    for &(_, _, i) in &order {
        let me = &items[i];
        // First fit among the placed buffers whose lifetimes overlap its own.
        let mut at = 0u64;
        for &(start, end, j) in &placed {
            if items[j].first <= me.last && me.first <= items[j].last {
                if at + size(me) <= start {
                    break;
                }
                at = at.max(end);
            }
        }
        offsets[i] = at;
        peak = peak.max(at + size(me));
        let slot = (at, at + size(me), i);
        let pos = placed.partition_point(|&(s, e, _)| (s, e) <= (slot.0, slot.1));
        placed.insert(pos, slot);
    }
    peak
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disjoint_lifetimes_share_and_overlapping_ones_do_not() {
        let items = [
            Item { first: 0, last: 2, bytes: 100 },
            Item { first: 3, last: 5, bytes: 100 },
            Item { first: 1, last: 4, bytes: 32 },
        ];
        let (offsets, peak) = place(&items, 32);
        assert_eq!(offsets[0], offsets[1], "disjoint buffers reuse one slot");
        assert_eq!(offsets[2], 128);
        assert_eq!(peak, 160);
    }
}
