//! Placing buffers with lifetimes in one memory: the offsets `kiln-codegen-plan-ub` writes and
//! the footprint `kiln-codegen-tile` sizes tiles with (so that a tile the tile pass accepts is a
//! tile the plan places).
//!
//! Buffers are taken largest first (then by start); each goes to the lowest aligned offset where
//! it overlaps, in addresses, no placed buffer whose lifetime overlaps its own. Buffers whose
//! lifetimes are disjoint share addresses (reuse); a buffer live throughout keeps its place.

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
    let align = align.max(1);
    let size = |i: &Item| i.bytes.div_ceil(align) * align;
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(size(&items[i])), items[i].first, i));
    let mut offsets = vec![0u64; items.len()];
    let mut placed: Vec<usize> = Vec::new();
    let mut peak = 0u64;
    for i in order {
        let me = &items[i];
        let mut busy: Vec<(u64, u64)> = placed
            .iter()
            .filter(|&&j| items[j].first <= me.last && me.first <= items[j].last)
            .map(|&j| (offsets[j], offsets[j] + size(&items[j])))
            .collect();
        busy.sort_unstable();
        let mut at = 0u64;
        for (start, end) in busy {
            if at + size(me) <= start {
                break;
            }
            at = at.max(end);
        }
        offsets[i] = at;
        peak = peak.max(at + size(me));
        placed.push(i);
    }
    (offsets, peak)
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
