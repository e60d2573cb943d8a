//! Block dominance within a region (Cooper, Harvey and Kennedy's iterative algorithm over
//! reverse post-order), computed lazily per region and cached.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{BlockId, Ir, RegionId};

/// Immediate dominators per region, computed on first query.
#[derive(Default)]
pub(super) struct DominanceInfo {
    regions: HashMap<RegionId, RegionDom>,
}

struct RegionDom {
    /// Reverse post-order number of each reachable block.
    rpo: HashMap<BlockId, usize>,
    /// Immediate dominator of each block, by RPO number (the entry points to itself).
    idom: Vec<usize>,
}

impl DominanceInfo {
    /// Whether block `a` dominates block `b` (both in `region`). Unreachable blocks are
    /// dominated by everything, as in MLIR.
    pub(super) fn dominates(&mut self, ir: &Ir<'_>, region: RegionId, a: BlockId, b: BlockId) -> bool {
        if a == b {
            return true;
        }
        let dom = self.regions.entry(region).or_insert_with(|| RegionDom::compute(ir, region));
        let Some(&nb) = dom.rpo.get(&b) else { return true };
        let Some(&na) = dom.rpo.get(&a) else { return false };
        let mut cur = nb;
        while cur != 0 {
            cur = dom.idom[cur];
            if cur == na {
                return true;
            }
        }
        na == 0
    }
}

fn successors(ir: &Ir<'_>, b: BlockId) -> Vec<BlockId> {
    ir.last_op(b).map(|t| ir.successors(t).to_vec()).unwrap_or_default()
}

impl RegionDom {
    fn compute(ir: &Ir<'_>, region: RegionId) -> RegionDom {
        let Some(entry) = ir.entry_block(region) else {
            return RegionDom { rpo: HashMap::default(), idom: Vec::new() };
        };
        // Iterative post-order DFS.
        let mut post = Vec::new();
        let mut seen = HashMap::default();
        let mut stack = vec![(entry, successors(ir, entry), 0usize)];
        seen.insert(entry, ());
        while let Some((b, succs, i)) = stack.last_mut() {
            if let Some(&s) = succs.get(*i) {
                *i += 1;
                if seen.insert(s, ()).is_none() {
                    let ss = successors(ir, s);
                    stack.push((s, ss, 0));
                }
            } else {
                post.push(*b);
                stack.pop();
            }
        }
        post.reverse();
        let rpo: HashMap<BlockId, usize> = post.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); post.len()];
        for (i, &b) in post.iter().enumerate() {
            for s in successors(ir, b) {
                if let Some(&j) = rpo.get(&s) {
                    preds[j].push(i);
                }
            }
        }
        const UNDEF: usize = usize::MAX;
        let mut idom = vec![UNDEF; post.len()];
        idom[0] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for n in 1..post.len() {
                let mut new = UNDEF;
                for &p in &preds[n] {
                    if idom[p] == UNDEF {
                        continue;
                    }
                    new = if new == UNDEF { p } else { intersect(&idom, p, new) };
                }
                if new != idom[n] {
                    idom[n] = new;
                    changed = true;
                }
            }
        }
        RegionDom { rpo, idom }
    }
}

fn intersect(idom: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while a > b {
            a = idom[a];
        }
        while b > a {
            b = idom[b];
        }
    }
    a
}
