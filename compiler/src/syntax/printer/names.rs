//! SSA value and block numbering, after MLIR's `SSANameState`.
//!
//! Regions are numbered from a stack (the last region pushed is numbered first). Within a
//! region, blocks get `^bb0`, `^bb1`, ... in order, entry block arguments `%argN`, other block
//! arguments and op results `%N` (one number per op, `%N#i` for its results). In the generic
//! form numbers are unique across the whole printed op; in the custom form each region
//! restarts from the numbers its parent region reached, as MLIR does.
//!
//! In the custom form, an op with an [`AsmResultName`] names its result instead (no number is
//! used up): the name is sanitized as MLIR's `sanitizeIdentifier` does and made unique among
//! the names visible in its region (its own and its ancestors'; sibling regions do not see each
//! other's) by `_N` with a conflict counter that, like the numbers, each region restarts from
//! its parent's.

use rustc_hash::FxHashMap as HashMap;

use crate::asm::AsmResultName;
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
    /// Results named by their op's [`AsmResultName`] (custom form only).
    named: HashMap<ValueId, String>,
    /// Name scopes: the parent scope and the names used in this one.
    scopes: Vec<(Option<usize>, rustc_hash::FxHashSet<String>)>,
    hints: bool,
}

impl Names {
    /// Numbers everything nested in `root` (`unique`: generic-form numbering).
    pub fn new(ir: &Ir<'_>, root: OpId, unique: bool) -> Names {
        let mut names = Names {
            values: SecondaryMap::with_default(UNKNOWN),
            blocks: SecondaryMap::with_default(UNKNOWN),
            preds: HashMap::default(),
            named: HashMap::default(),
            scopes: vec![(None, Default::default())],
            hints: !unique,
        };
        let (mut next_value, mut next_arg, mut next_conflict) = (0u32, 0u32, 0u32);
        let mut cx = Counters { value: &mut next_value, conflict: &mut next_conflict, scope: 0 };
        names.number_op(ir, root, &mut cx);
        let mut stack: Vec<(RegionId, u32, u32, u32, usize)> =
            ir.regions(root).iter().map(|&r| (r, next_value, next_arg, next_conflict, 0)).collect();
        while let Some((region, value, arg, conflict, parent)) = stack.pop() {
            if !unique {
                (next_value, next_arg, next_conflict) = (value, arg, conflict);
            }
            names.scopes.push((Some(parent), Default::default()));
            let scope = names.scopes.len() - 1;
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
                    let mut cx = Counters { value: &mut next_value, conflict: &mut next_conflict, scope };
                    names.number_op(ir, op, &mut cx);
                    for &s in ir.successors(op) {
                        names.preds.entry(s).or_default().push(block);
                    }
                }
            }
            for block in ir.region_blocks(region) {
                for op in ir.block_ops(block) {
                    stack.extend(
                        ir.regions(op).iter().map(|&r| (r, next_value, next_arg, next_conflict, scope)),
                    );
                }
            }
        }
        names
    }

    fn number_op(&mut self, ir: &Ir<'_>, op: OpId, cx: &mut Counters<'_>) {
        let results = ir.results(op);
        let Some(&first) = results.first() else { return };
        let hint = ir.op(op).def.and_then(|d| d.interface::<AsmResultName>());
        if let (true, [_], Some(hint)) = (self.hints, results, hint) {
            if let Some(name) = (hint.0)(ir, op).filter(|n| !n.is_empty()) {
                let name = self.unique(sanitize(&name), cx);
                self.named.insert(first, name);
                return;
            }
        }
        self.values.set(first, *cx.value);
        *cx.value += 1;
    }

    /// Whether `name` is used in `scope` or an enclosing one.
    fn used(&self, mut scope: usize, name: &str) -> bool {
        loop {
            let (parent, names) = &self.scopes[scope];
            if names.contains(name) {
                return true;
            }
            match parent {
                Some(p) => scope = *p,
                None => return false,
            }
        }
    }

    /// `name`, or `name_N` with the next free conflict number, recorded in the scope.
    fn unique(&mut self, name: String, cx: &mut Counters<'_>) -> String {
        let mut chosen = name.clone();
        while self.used(cx.scope, &chosen) {
            chosen = format!("{name}_{}", *cx.conflict);
            *cx.conflict += 1;
        }
        self.scopes[cx.scope].1.insert(chosen.clone());
        chosen
    }

    /// Appends the name of `v` (`%3`, `%arg0`, `%2#1`, `%c0`).
    pub fn push_value(&self, out: &mut String, ir: &Ir<'_>, v: ValueId) {
        if let Some(name) = self.named.get(&v) {
            out.push('%');
            out.push_str(name);
            return;
        }
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
        if let Some(name) = self.named.get(&results[0]) {
            out.push('%');
            out.push_str(name);
            return;
        }
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

/// The counters an op's numbering uses, and the name scope it is in.
struct Counters<'n> {
    value: &'n mut u32,
    conflict: &'n mut u32,
    scope: usize,
}

/// A valid SSA identifier from a name hint, as MLIR's `sanitizeIdentifier`: letters, digits and
/// `$._-` kept, a space becomes `_`, any other byte its hex code; a leading digit gets a `_`
/// first (names must not look like numbers).
fn sanitize(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 1);
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        out.push('_');
    }
    for b in name.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'$' | b'.' | b'_' | b'-' => out.push(b as char),
            b' ' => out.push('_'),
            _ => out.push_str(&format!("{b:X}")),
        }
    }
    out
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
