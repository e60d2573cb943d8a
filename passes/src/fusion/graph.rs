//! The dependence graph of one block, in dense side tables: ops by local index (= program
//! order), the in-block producers of each op and the in-block users of each op sorted by
//! position. A use nested in a region of an op of the block counts as a use by that op.

use kiln_compiler::{Ir, OpId};
use smallvec::SmallVec;

/// Sentinel of [`LocalMap`]: the op is not in the current block.
const NONE: u32 = u32::MAX;

/// A reusable OpId -> local index table (sized by the IR's op capacity, cleared per block).
#[derive(Default)]
pub struct LocalMap {
    local: Vec<u32>,
}

impl LocalMap {
    /// The local index of `op`, if it is in the current block.
    pub fn get(&self, op: OpId) -> Option<u32> {
        self.local.get(op.index()).copied().filter(|&i| i != NONE)
    }
}

/// The graph of one block.
pub struct BlockGraph {
    /// The ops, in program order.
    pub ops: Vec<OpId>,
    /// For each op, the local indices of the in-block ops defining its operands, in operand
    /// order (duplicates kept, so operand `i` is `producers[i]` when defined in the block).
    pub producers: Vec<SmallVec<[Option<u32>; 3]>>,
    /// For each op, the local indices of the in-block ops using its results, sorted, unique.
    pub users: Vec<SmallVec<[u32; 3]>>,
    /// For each block argument, the local indices of its in-block users, sorted, unique.
    pub arg_users: Vec<SmallVec<[u32; 3]>>,
}

impl BlockGraph {
    /// Builds the graph of `block`; `map` is filled for its ops (call [`BlockGraph::clear`]
    /// with the same map afterwards).
    pub fn build(ir: &Ir<'_>, block: kiln_compiler::ir::BlockId, map: &mut LocalMap) -> BlockGraph {
        let ops: Vec<OpId> = ir.block_ops(block).collect();
        if map.local.len() < ir.op_capacity() {
            map.local.resize(ir.op_capacity(), NONE);
        }
        for (i, &op) in ops.iter().enumerate() {
            map.local[op.index()] = i as u32;
        }
        let producers = ops
            .iter()
            .map(|&op| ir.operands(op).iter().map(|&v| ir.defining_op(v).and_then(|d| map.get(d))).collect())
            .collect();
        let users_of = |values: &[kiln_compiler::ValueId]| {
            let mut u: SmallVec<[u32; 3]> = values
                .iter()
                .flat_map(|&r| ir.uses(r))
                .filter_map(|u| ancestor_in_block(ir, u.op, block).and_then(|a| map.get(a)))
                .collect();
            u.sort_unstable();
            u.dedup();
            u
        };
        let users = ops.iter().map(|&op| users_of(ir.results(op))).collect();
        let arg_users = ir.block_args(block).iter().map(|&a| users_of(&[a])).collect();
        BlockGraph { ops, producers, users, arg_users }
    }

    /// Resets `map` for the ops of this graph.
    pub fn clear(&self, map: &mut LocalMap) {
        for &op in &self.ops {
            map.local[op.index()] = NONE;
        }
    }

    /// Whether every op of the block comes after the in-block ops it uses (always so in an SSA
    /// region; a graph region may use a value before its definition, or an op its own result).
    pub fn in_program_order(&self) -> bool {
        self.users.iter().enumerate().all(|(i, u)| u.first().is_none_or(|&first| first as usize > i))
    }

    /// Number of ops.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the block has no ops.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// The op of `block` that is `op` or contains it.
fn ancestor_in_block(ir: &Ir<'_>, mut op: OpId, block: kiln_compiler::ir::BlockId) -> Option<OpId> {
    loop {
        if ir.parent_block(op) == Some(block) {
            return Some(op);
        }
        op = ir.parent_op(op)?;
    }
}
