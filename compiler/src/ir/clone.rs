//! Deep copies of ops, as MLIR's `Operation::clone` with an `IRMapping`.

use rustc_hash::FxHashMap;

use super::{BlockId, Ir, OpId, OperationState, ValueId};

/// What a clone maps: values (operands, results, block arguments) and blocks (successors).
#[derive(Clone, Debug, Default)]
pub struct Mapping {
    values: FxHashMap<ValueId, ValueId>,
    blocks: FxHashMap<BlockId, BlockId>,
}

impl Mapping {
    /// Maps `from` to `to` in clones made with this mapping.
    pub fn map_value(&mut self, from: ValueId, to: ValueId) {
        self.values.insert(from, to);
    }

    /// What `v` maps to (itself when unmapped: a value defined outside what is cloned).
    pub fn lookup(&self, v: ValueId) -> ValueId {
        self.values.get(&v).copied().unwrap_or(v)
    }
}

impl<'c> Ir<'c> {
    /// A detached deep copy of `op`: operands through `map` (unmapped values are used as
    /// they are), regions with their blocks, block arguments and nested ops copied, successors
    /// inside the copy remapped. The copy's results and block arguments are added to `map`.
    pub fn clone_op(&mut self, op: OpId, map: &mut Mapping) -> OpId {
        let data = self.op(op);
        let mut state = OperationState::new(data.name, data.def, data.loc);
        state.properties = data.properties;
        state.attrs = data.attrs.iter().map(|(&n, &v)| (n, v)).collect();
        state.result_types = self.results(op).iter().map(|&v| self.value_type(v)).collect();
        state.operands = self.operands(op).iter().map(|&v| map.lookup(v)).collect();
        state.num_regions = self.regions(op).len();
        let successors: Vec<BlockId> = self.successors(op).to_vec();
        let copy = self.create_op(state);
        for (&old, &new) in self.results(op).to_vec().iter().zip(self.results(copy).to_vec().iter()) {
            map.map_value(old, new);
        }
        let regions: Vec<_> =
            self.regions(op).iter().copied().zip(self.regions(copy).iter().copied()).collect();
        for (from, to) in regions {
            let blocks: Vec<BlockId> = self.region_blocks(from).collect();
            // Blocks and their arguments first: ops may branch forward.
            for &b in &blocks {
                let nb = self.create_block();
                for &arg in self.block_args(b).to_vec().iter() {
                    let (ty, loc) = (self.value_type(arg), self.values[arg].loc);
                    let na = self.add_block_arg(nb, ty, loc);
                    map.map_value(arg, na);
                }
                self.append_block(to, nb);
                map.blocks.insert(b, nb);
            }
            for &b in &blocks {
                let nb = map.blocks[&b];
                for inner in self.block_ops(b).collect::<Vec<_>>() {
                    let c = self.clone_op(inner, map);
                    self.append_op(nb, c);
                }
            }
        }
        let succ: Vec<BlockId> =
            successors.iter().map(|b| map.blocks.get(b).copied().unwrap_or(*b)).collect();
        self.set_successors(copy, &succ);
        copy
    }
}
