//! The conversion driver (MLIR's `OperationConverter`): legalizes the ops nested in a root, in
//! pre-order, on a clone of the IR store that it commits only on success.

use rustc_hash::FxHashMap;

use super::pattern::{fold_materializations, ConversionPatternSet, ConversionRewriter, ConversionState};
use super::target::ConversionTarget;
use super::type_converter::TypeConverter;
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::ir::{Ir, OpId, WalkOrder};
use crate::pattern::{root_matches, Listener, Rewriter};

/// Partial or full.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Partial,
    Full,
}

/// Converts the ops nested in `root` (not `root` itself) so that none is illegal for `target`;
/// ops of unknown legality are converted when a pattern applies and kept otherwise. Patterns
/// see operands converted by `types` (or only remapped, without a converter). On error the IR
/// is unchanged.
pub fn apply_partial_conversion<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    root: OpId,
    target: &ConversionTarget<'_, 'c>,
    patterns: &ConversionPatternSet,
    types: Option<&TypeConverter<'_, 'c>>,
) -> Result<(), Diagnostic<'c>> {
    convert(ctx, ir, root, target, patterns, types, Mode::Partial)
}

/// Converts the ops nested in `root` so that every one is legal for `target` (ops of unknown
/// legality count as illegal). On error the IR is unchanged.
pub fn apply_full_conversion<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    root: OpId,
    target: &ConversionTarget<'_, 'c>,
    patterns: &ConversionPatternSet,
    types: Option<&TypeConverter<'_, 'c>>,
) -> Result<(), Diagnostic<'c>> {
    convert(ctx, ir, root, target, patterns, types, Mode::Full)
}

/// The ops a pattern inserted or changed in place, to legalize next.
#[derive(Default)]
struct Touched {
    inserted: Vec<OpId>,
    modified: Vec<OpId>,
}

impl<'c> Listener<'c> for Touched {
    fn notify_inserted(&mut self, _: &Ir<'c>, op: OpId) {
        self.inserted.push(op);
    }

    fn notify_modified(&mut self, _: &Ir<'c>, op: OpId) {
        self.modified.push(op);
    }
}

fn convert<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    root: OpId,
    target: &ConversionTarget<'_, 'c>,
    patterns: &ConversionPatternSet,
    types: Option<&TypeConverter<'_, 'c>>,
    mode: Mode,
) -> Result<(), Diagnostic<'c>> {
    let mut work = ir.clone();
    let order = patterns.by_benefit();
    let mut state = ConversionState::default();
    // For each op a pattern produced (or changed), the patterns that led to it: they are not
    // applied to it again, so that a pattern cannot recurse on its own output.
    let mut lineage: FxHashMap<OpId, Vec<usize>> = FxHashMap::default();
    let mut stack: Vec<OpId> = work.walk(root, WalkOrder::PreOrder).filter(|&o| o != root).collect();
    stack.reverse();
    while let Some(op) = stack.pop() {
        if !work.contains_op(op) || state.cast_set.contains(&op) {
            continue;
        }
        let legal = target.is_legal(ctx, &work, op);
        if legal == Some(true) {
            continue;
        }
        let tried = lineage.remove(&op).unwrap_or_default();
        let mut names = Vec::new();
        let mut applied = None;
        let mut touched = Touched::default();
        for &(index, pattern) in &order {
            if tried.contains(&index) || !root_matches(pattern.root(), &work, op) {
                continue;
            }
            names.push(pattern.name());
            let mut rw = ConversionRewriter {
                rw: Rewriter::with_listener(ctx, &mut work, &mut touched),
                state: &mut state,
                types,
            };
            let Some(operands) = rw.remap_operands(op) else { continue };
            if pattern.match_and_rewrite(&mut rw, op, &operands) {
                applied = Some(index);
                break;
            }
        }
        let Some(index) = applied else {
            if legal == Some(false) || mode == Mode::Full {
                return Err(failure(&work, op, legal == Some(false), &names));
            }
            continue;
        };
        let mut chain = tried;
        chain.push(index);
        // Legalize what the pattern made next (in order), then ops it changed in place.
        let mut next: Vec<OpId> = touched.inserted;
        next.extend(touched.modified.into_iter().filter(|&o| o == op));
        for &o in next.iter().rev() {
            if !state.cast_set.contains(&o) {
                lineage.insert(o, chain.clone());
                stack.push(o);
            }
        }
    }
    fold_materializations(&mut work, &state);
    *ir = work;
    Ok(())
}

/// The error for an op no pattern legalized.
fn failure<'c>(ir: &Ir<'c>, op: OpId, explicit: bool, tried: &[&str]) -> Diagnostic<'c> {
    let data = ir.op(op);
    let message = if explicit {
        format!("failed to legalize operation '{}' that was explicitly marked illegal", data.name)
    } else {
        format!("failed to legalize operation '{}'", data.name)
    };
    let note = if tried.is_empty() {
        "no conversion pattern matches this operation".to_string()
    } else {
        format!("patterns tried: {}", tried.join(", "))
    };
    Diagnostic::error(data.loc, message).with_note(data.loc, note)
}
