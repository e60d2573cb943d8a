//! Verifiers of the `scf` ops, for what their declarations cannot say. Messages are MLIR's
//! (its `LoopLikeOpInterface` and `RegionBranchOpInterface` checks included).

use kiln_compiler::dialect::operand_group;
use kiln_compiler::{BlockId, Context, Diagnostic, Ir, OpId, RegionId, ValueId};

use super::YIELD_OP;

/// The entry block of region `index` of `op`, or MLIR's error when the region has none.
fn single_block<'c>(ir: &Ir<'c>, op: OpId, index: usize, name: &str) -> Result<BlockId, Diagnostic<'c>> {
    let region: Option<RegionId> = ir.regions(op).get(index).copied();
    region.and_then(|r| ir.entry_block(r)).ok_or_else(|| {
        Diagnostic::op_error(
            ir,
            op,
            format!("region #{index} ('{name}') failed to verify constraint: region with 1 blocks"),
        )
    })
}

/// The `scf.yield` ending `block` and its operands, when it ends in one (another terminator
/// is reported by its own verifier).
fn yielded<'a>(ir: &'a Ir<'_>, block: BlockId) -> Option<(OpId, &'a [ValueId])> {
    let last = ir.last_op(block)?;
    (ir.is(last, &YIELD_OP)).then(|| (last, ir.operands(last)))
}

/// MLIR's error for a control flow edge from `yield` to `to` that does not fit, with its note
/// at the yield.
fn edge_error<'c>(ir: &Ir<'c>, op: OpId, yield_op: OpId, to: &str, message: String) -> Diagnostic<'c> {
    Diagnostic::op_error(
        ir,
        op,
        format!("along control flow edge from Operation scf.yield to {to}: {message}"),
    )
    .with_note(ir.op(yield_op).loc, "region branch point")
}

/// The message for a yield whose operand count does not match what it flows into.
fn edge_count(yielded: usize, expected: usize) -> String {
    format!("region branch point has {yielded} operands, but region successor needs {expected} inputs")
}

/// `scf.for`: bounds and step of one type, that of the induction variable; the body's
/// arguments are the induction variable and one iter arg per init, of the inits' types; the
/// yield gives values of those types, which are also the result types.
pub(crate) fn verify_for<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let err = |message: String| Err(Diagnostic::op_error(ir, op, message));
    let body = single_block(ir, op, 0, "region")?;
    let operands = ir.operands(op);
    let ty = |v: ValueId| ir.value_type(v);
    let bound = ty(operands[0]);
    if ty(operands[1]) != bound || ty(operands[2]) != bound {
        return err("failed to verify that all of {lowerBound, upperBound, step} have same type".into());
    }
    let inits = operand_group(ir, op, "initArgs").unwrap_or_default();
    let results = ir.results(op);
    if inits.len() != results.len() {
        return err("mismatch in number of loop-carried values and defined values".into());
    }
    let Some((&iv, iter_args)) = ir.block_args(body).split_first() else {
        return err("expected the body to have the induction variable as its first argument".into());
    };
    if ty(iv) != bound {
        return err("expected induction variable to be same type as bounds and step".into());
    }
    if inits.len() != iter_args.len() {
        return err(format!(
            "different number of inits and region iter_args: {} != {}",
            inits.len(),
            iter_args.len()
        ));
    }
    for (i, (&init, &arg)) in inits.iter().zip(iter_args).enumerate() {
        if ty(init) != ty(arg) {
            return err(format!(
                "{i}-th init and {i}-th region iter_arg have different type: '{}' != '{}'",
                ty(init),
                ty(arg)
            ));
        }
    }
    if let Some((yield_op, values)) = yielded(ir, body) {
        if values.len() != iter_args.len() {
            return Err(edge_error(ir, op, yield_op, "Region #0", edge_count(values.len(), iter_args.len())));
        }
        for (i, (&arg, &value)) in iter_args.iter().zip(values).enumerate() {
            if ty(arg) != ty(value) {
                return err(format!(
                    "{i}-th region iter_arg and {i}-th yielded value have different type: '{}' != '{}'",
                    ty(arg),
                    ty(value)
                ));
            }
        }
    }
    for (i, (&arg, &result)) in iter_args.iter().zip(results).enumerate() {
        if ty(arg) != ty(result) {
            return err(format!(
                "{i}-th region iter_arg and {i}-th loop result have different type: '{}' != '{}'",
                ty(arg),
                ty(result)
            ));
        }
    }
    Ok(())
}

/// `scf.if`: a then block (and at most one else block) without arguments; results need an
/// else block; each branch yields values of the result types.
pub(crate) fn verify_if<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let err = |message: String| Err(Diagnostic::op_error(ir, op, message));
    let then = single_block(ir, op, 0, "thenRegion")?;
    let otherwise = ir.regions(op).get(1).and_then(|&r| ir.entry_block(r));
    for (i, block) in [Some(then), otherwise].into_iter().enumerate() {
        if block.is_some_and(|b| !ir.block_args(b).is_empty()) {
            return err(format!("region #{i} should have no arguments"));
        }
    }
    let results = ir.results(op);
    if !results.is_empty() && otherwise.is_none() {
        return err("must have an else block if defining values".into());
    }
    for block in [Some(then), otherwise].into_iter().flatten() {
        let Some((yield_op, values)) = yielded(ir, block) else { continue };
        if values.len() != results.len() {
            return Err(edge_error(ir, op, yield_op, "parent", edge_count(values.len(), results.len())));
        }
        for (i, (&v, &r)) in values.iter().zip(results).enumerate() {
            let (from, to) = (ir.value_type(v), ir.value_type(r));
            if from != to {
                let message = format!(
                    "successor operand type #{i} '{from}' should match successor input type #{i} '{to}'"
                );
                return Err(edge_error(ir, op, yield_op, "parent", message));
            }
        }
    }
    Ok(())
}

/// `scf.yield`: directly inside an `scf` op that takes it (MLIR's list; the ones Kiln does not
/// register are kept as unregistered ops when unregistered dialects are allowed).
pub(crate) fn verify_yield<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let parent = ir.parent_op(op).map(|p| ir.op(p).name);
    if matches!(parent, Some("scf.execute_region" | "scf.for" | "scf.if" | "scf.index_switch" | "scf.while"))
    {
        return Ok(());
    }
    Err(Diagnostic::op_error(
        ir,
        op,
        "expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'",
    ))
}
