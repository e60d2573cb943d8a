//! The conversion driver (MLIR's `OperationConverter`): legalizes the ops nested in a root, in
//! pre-order, on a clone of the IR store that it commits only on success.

use rustc_hash::FxHashMap;

use super::pattern::{fold_materializations, ConversionPatternSet, ConversionRewriter, ConversionState};
use super::target::ConversionTarget;
use super::type_converter::TypeConverter;
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::ir::{Ir, OpId, WalkOrder};
use crate::pattern::{Listener, Rewriter};

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
    let trace = Trace { on: ctx.debug_enabled(DEBUG_TYPE) };
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
        let mut attempts = Vec::new();
        let mut applied = None;
        let mut touched = Touched::default();
        trace.begin(&work, op);
        for &(index, pattern) in &order {
            if tried.contains(&index) || !pattern.root().matches(&work, op) {
                continue;
            }
            let mut rw = ConversionRewriter {
                rw: Rewriter::with_listener(ctx, &mut work, &mut touched),
                state: &mut state,
                types,
                failure: None,
            };
            let converted = match rw.remap_operands(op) {
                Some(operands) => pattern.match_and_rewrite(&mut rw, op, &operands),
                None => rw.notify_match_failure("an operand has no converted value"),
            };
            let attempt = Attempt { pattern: pattern.name(), failure: rw.failure.take() };
            trace.attempt(&attempt, converted);
            attempts.push(attempt);
            if converted {
                applied = Some(index);
                break;
            }
        }
        trace.end(applied.is_some());
        let Some(index) = applied else {
            if legal == Some(false) || mode == Mode::Full {
                return Err(failure(&work, op, legal == Some(false), &attempts));
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

/// The debug type of the driver's trace (`kiln-opt --debug-only=dialect-conversion`).
pub const DEBUG_TYPE: &str = "dialect-conversion";

/// One pattern tried on an op.
struct Attempt {
    pattern: &'static str,
    /// Why it declined, when it said ([`ConversionRewriter::notify_match_failure`]).
    failure: Option<String>,
}

/// The `dialect-conversion` debug output on stderr, in the shape of MLIR's: each op legalized,
/// each pattern tried on it and why it failed.
struct Trace {
    on: bool,
}

impl Trace {
    fn begin(&self, ir: &Ir<'_>, op: OpId) {
        if self.on {
            eprintln!("Legalizing operation : '{}' at {} {{", ir.op(op).name, ir.op(op).loc);
        }
    }

    fn attempt(&self, a: &Attempt, converted: bool) {
        if !self.on {
            return;
        }
        eprintln!("  * Pattern : '{}' {{", a.pattern);
        if let Some(reason) = &a.failure {
            eprintln!("    ** Failure : {reason}");
        }
        let outcome = if converted { "SUCCESS" } else { "FAILURE : pattern failed to match" };
        eprintln!("  }} -> {outcome}");
    }

    fn end(&self, converted: bool) {
        if self.on {
            eprintln!(
                "}} -> {}",
                if converted { "SUCCESS" } else { "FAILURE : no matched legalization pattern" }
            );
        }
    }
}

/// The error for an op no pattern legalized: a note names the patterns tried, and one note
/// per pattern that said why it declined.
fn failure<'c>(ir: &Ir<'c>, op: OpId, explicit: bool, attempts: &[Attempt]) -> Diagnostic<'c> {
    let data = ir.op(op);
    let message = if explicit {
        format!("failed to legalize operation '{}' that was explicitly marked illegal", data.name)
    } else {
        format!("failed to legalize operation '{}'", data.name)
    };
    let note = if attempts.is_empty() {
        "no conversion pattern matches this operation".to_string()
    } else {
        let names: Vec<&str> = attempts.iter().map(|a| a.pattern).collect();
        format!("patterns tried: {}", names.join(", "))
    };
    let mut diag = Diagnostic::error(data.loc, message).with_note(data.loc, note);
    for a in attempts {
        if let Some(reason) = &a.failure {
            diag = diag.with_note(data.loc, format!("'{}' declined: {reason}", a.pattern));
        }
    }
    diag
}
