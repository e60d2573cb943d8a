//! SSA value and block name scopes, after MLIR's `OperationParser`.
//!
//! Value names live in one table per isolated-from-above scope; names defined in a region are
//! removed when the region ends. A use of a name not yet defined creates a placeholder value
//! (the result of a detached placeholder op) that the definition replaces. Block names are
//! scoped per region; a block used before its label gets created at the use.

use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

use crate::asm::UnresolvedOperand;
use crate::ir::{BlockId, Ir, OperationState, ValueId};
use crate::syntax::parser::{PResult, ParseError};
use crate::types::Type;
use crate::Attribute;

/// The name of the op that holds forward-referenced values until their definition.
const PLACEHOLDER_OP: &str = "builtin.unrealized_forward_ref";

#[derive(Clone, Copy)]
struct Entry {
    value: ValueId,
    /// Definition offset, or first use for a forward reference.
    offset: usize,
    forward: bool,
}

#[derive(Default)]
struct Isolated<'a> {
    /// Most names define one value: keep it inline.
    values: HashMap<&'a str, SmallVec<[Option<Entry>; 1]>>,
    /// Names defined in each open region, to forget at its end.
    defined: Vec<Vec<&'a str>>,
}

#[derive(Default)]
struct BlockScope<'a> {
    blocks: HashMap<&'a str, (BlockId, usize, bool)>,
}

/// The scopes of value and block names while parsing.
#[derive(Default)]
pub(crate) struct ValueScopes<'a> {
    isolated: Vec<Isolated<'a>>,
    blocks: Vec<BlockScope<'a>>,
    /// Placeholder value -> offset of its first use.
    forward: HashMap<ValueId, usize>,
}

impl<'a> ValueScopes<'a> {
    /// Opens a region's scopes; `isolated` starts a fresh value table.
    pub fn push_region(&mut self, isolated: bool) {
        if isolated || self.isolated.is_empty() {
            self.isolated.push(Isolated::default());
        }
        if let Some(s) = self.isolated.last_mut() {
            s.defined.push(Vec::new());
        }
        self.blocks.push(BlockScope::default());
    }

    /// Closes a region: forgets its names and reports blocks referenced but never defined.
    pub fn pop_region(&mut self) -> PResult<()> {
        let scope = self.blocks.pop().unwrap_or_default();
        let mut undefined: Vec<usize> = scope.blocks.values().filter(|b| !b.2).map(|b| b.1).collect();
        undefined.sort_unstable();
        if let Some(&off) = undefined.first() {
            return Err(ParseError::new(off, "reference to an undefined block"));
        }
        if let Some(iso) = self.isolated.last_mut() {
            for name in iso.defined.pop().unwrap_or_default() {
                iso.values.remove(name);
            }
            if iso.defined.is_empty() {
                self.isolated.pop();
            }
        }
        Ok(())
    }

    /// Where `name` was defined or first used in the current value table, if it was.
    pub fn reference_offset(&self, name: &str) -> Option<usize> {
        self.isolated.last()?.values.get(name)?.iter().flatten().map(|e| e.offset).next()
    }

    /// Defines the values of `name` (a result group or a block argument).
    pub fn define(
        &mut self,
        ir: &mut Ir<'_>,
        name: &'a str,
        first: u32,
        values: &[ValueId],
        offset: usize,
    ) -> PResult<()> {
        let Some(iso) = self.isolated.last_mut() else { return Ok(()) };
        let entries = iso.values.entry(name).or_default();
        let needed = first as usize + values.len();
        if entries.len() < needed {
            entries.resize(needed, None);
        }
        let mut newly_defined = entries.iter().all(Option::is_none);
        for (i, &v) in values.iter().enumerate() {
            let slot = &mut entries[first as usize + i];
            if let Some(e) = *slot {
                if !e.forward {
                    return Err(ParseError::new(offset, format!("redefinition of SSA value '{name}'"))
                        .with_note(e.offset, "previously defined here"));
                }
                let (old_ty, new_ty) = (ir.value_type(e.value), ir.value_type(v));
                if old_ty != new_ty {
                    let msg = format!(
                        "definition of SSA value '{name}#{}' has type {}",
                        first as usize + i,
                        super::Parser::quoted_type(new_ty)
                    );
                    let note =
                        format!("previously used here with type {}", super::Parser::quoted_type(old_ty));
                    return Err(ParseError::new(offset, msg).with_note(e.offset, note));
                }
                ir.replace_all_uses(e.value, v);
                self.forward.remove(&e.value);
                if let Some(op) = ir.defining_op(e.value) {
                    ir.erase_op(op);
                }
                newly_defined = true;
            }
            *slot = Some(Entry { value: v, offset, forward: false });
        }
        if newly_defined {
            if let Some(d) = iso.defined.last_mut() {
                d.push(name);
            }
        }
        Ok(())
    }

    /// Resolves a use of type `ty`, creating a forward reference when it is not defined yet.
    pub fn resolve<'c>(
        &mut self,
        ir: &mut Ir<'c>,
        u: UnresolvedOperand<'a>,
        ty: Type<'c>,
        loc: Attribute<'c>,
    ) -> PResult<ValueId> {
        let Some(iso) = self.isolated.last_mut() else {
            return Err(ParseError::new(u.offset, "use of undeclared SSA value name"));
        };
        let entries = iso.values.entry(u.name).or_default();
        if let Some(Some(e)) = entries.get(u.index as usize) {
            if ir.value_type(e.value) != ty {
                let msg = format!(
                    "use of value '{}' expects different type than prior uses: {} vs {}",
                    u.name,
                    super::Parser::quoted_type(ty),
                    super::Parser::quoted_type(ir.value_type(e.value))
                );
                return Err(ParseError::new(u.offset, msg).with_note(e.offset, "prior use here"));
            }
            return Ok(e.value);
        }
        if !entries.is_empty() && entries.iter().all(|e| e.is_some_and(|e| !e.forward)) {
            return Err(ParseError::new(u.offset, "reference to invalid result number"));
        }
        let mut state = OperationState::new(PLACEHOLDER_OP, None, loc);
        state.result_types.push(ty);
        let op = ir.create_op(state);
        let value = ir.results(op)[0];
        if entries.len() <= u.index as usize {
            entries.resize(u.index as usize + 1, None);
        }
        entries[u.index as usize] = Some(Entry { value, offset: u.offset, forward: true });
        self.forward.insert(value, u.offset);
        Ok(value)
    }

    /// The offsets of uses never defined, in source order.
    pub fn unresolved_forward_refs(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.forward.values().copied().collect();
        v.sort_unstable();
        v
    }

    /// The block labelled `name` in the current region, created (as a forward reference at
    /// `offset`) when not seen yet.
    pub fn block_ref(&mut self, ir: &mut Ir<'_>, name: &'a str, offset: usize) -> BlockId {
        let Some(scope) = self.blocks.last_mut() else { return ir.create_block() };
        scope.blocks.entry(name).or_insert_with(|| (ir.create_block(), offset, false)).0
    }

    /// Defines the block labelled `name`; returns it (it may have been forward referenced).
    pub fn define_block(&mut self, ir: &mut Ir<'_>, name: &'a str, offset: usize) -> PResult<BlockId> {
        let Some(scope) = self.blocks.last_mut() else { return Ok(ir.create_block()) };
        let entry = scope.blocks.entry(name).or_insert_with(|| (ir.create_block(), offset, false));
        if entry.2 {
            return Err(ParseError::new(offset, format!("redefinition of block '{name}'")));
        }
        entry.2 = true;
        Ok(entry.0)
    }
}
