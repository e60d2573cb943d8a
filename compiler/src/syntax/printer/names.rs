//! SSA value and block numbering, after MLIR's `SSANameState`.
//!
//! Regions are numbered from a stack (the last region pushed is numbered first). Within a
//! region, blocks get `^bb0`, `^bb1`, ... in order, entry block arguments `%argN`, other block
//! arguments and op results `%N` (one number per op, `%N#i` for its results). In the generic
//! form numbers are unique across the whole printed op; in the custom form each region
//! restarts from the numbers its parent region reached, as MLIR does.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{BlockId, Ir, OpId, RegionId, SecondaryMap, ValueDef, ValueId};

/// Marks an entry-block argument number (`%argN`).
const ARG: u32 = 1 << 31;
/// A value the numbering never saw.
const UNKNOWN: u32 = u32::MAX;

/// The names chosen for values and blocks, and the predecessors of every block.
pub(crate) struct Names {
    values: SecondaryMap<ValueId, u32>,
    blocks: SecondaryMap<BlockId, u32>,
    preds: HashMap<BlockId, Vec<BlockId>>,
}

impl Names {
    /// Numbers everything nested in `root` (`unique`: generic-form numbering).
    pub fn new(ir: &Ir<'_>, root: OpId, unique: bool) -> Names {
        let mut names = Names {
            values: SecondaryMap::with_default(UNKNOWN),
            blocks: SecondaryMap::with_default(UNKNOWN),
            preds: HashMap::default(),
        };
        let (mut next_value, mut next_arg) = (0u32, 0u32);
        names.number_op(ir, root, &mut next_value);
        let mut stack: Vec<(RegionId, u32, u32)> =
            ir.regions(root).iter().map(|&r| (r, next_value, next_arg)).collect();
        while let Some((region, value, arg)) = stack.pop() {
            if !unique {
                (next_value, next_arg) = (value, arg);
            }
            for (ordering, block) in ir.region_blocks(region).enumerate() {
                names.blocks.set(block, ordering as u32);
                let entry = ordering == 0;
                for &a in ir.block_args(block) {
                    if entry {
                        names.values.set(a, ARG | next_arg);
                        next_arg += 1;
                    } else {
                        names.values.set(a, next_value);
                        next_value += 1;
                    }
                }
                for op in ir.block_ops(block) {
                    names.number_op(ir, op, &mut next_value);
                    for &s in ir.successors(op) {
                        names.preds.entry(s).or_default().push(block);
                    }
                }
            }
            for block in ir.region_blocks(region) {
                for op in ir.block_ops(block) {
                    stack.extend(ir.regions(op).iter().map(|&r| (r, next_value, next_arg)));
                }
            }
        }
        names
    }

    fn number_op(&mut self, ir: &Ir<'_>, op: OpId, next_value: &mut u32) {
        if let Some(&first) = ir.results(op).first() {
            self.values.set(first, *next_value);
            *next_value += 1;
        }
    }

    /// Appends the name of `v` (`%3`, `%arg0`, `%2#1`).
    pub fn push_value(&self, out: &mut String, ir: &Ir<'_>, v: ValueId) {
        let (id, group) = match ir.value(v).def {
            ValueDef::Result { op, index } => {
                let results = ir.results(op);
                (*self.values.get(results[0]), (results.len() > 1).then_some(index))
            }
            ValueDef::BlockArg { .. } => (*self.values.get(v), None),
        };
        if id == UNKNOWN {
            out.push_str("<<UNKNOWN SSA VALUE>>");
            return;
        }
        out.push('%');
        if id & ARG != 0 {
            out.push_str("arg");
        }
        push_u32(out, id & !ARG);
        if let Some(i) = group {
            out.push('#');
            push_u32(out, i);
        }
    }

    /// Appends the definition name of an op's results: `%3` or `%3:2`.
    pub fn push_results(&self, out: &mut String, ir: &Ir<'_>, op: OpId) {
        let results = ir.results(op);
        let id = *self.values.get(results[0]);
        out.push('%');
        push_u32(out, id & !ARG);
        if results.len() > 1 {
            out.push(':');
            push_u32(out, results.len() as u32);
        }
    }

    /// Appends `^bbN`.
    pub fn push_block(&self, out: &mut String, b: BlockId) {
        match *self.blocks.get(b) {
            UNKNOWN => out.push_str("<<UNKNOWN BLOCK>>"),
            n => {
                out.push_str("^bb");
                push_u32(out, n);
            }
        }
    }

    /// The predecessor edges of `b`, sorted by block number (one entry per edge).
    pub fn preds(&self, b: BlockId) -> Vec<BlockId> {
        let mut p = self.preds.get(&b).cloned().unwrap_or_default();
        p.sort_by_key(|&x| *self.blocks.get(x));
        p
    }
}

/// Appends a decimal number without going through `fmt`.
pub(crate) fn push_u32(out: &mut String, mut n: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}
