//! `hl-infer-shapes`: makes dynamic (`?`) result dims of `hl` ops static where the operands
//! determine them.
//!
//! Rewrites: in program order (so refinements propagate forward along use-def chains), each
//! `hl` op's result type is replaced by the type its inference gives from the current operand
//! types, when that type is strictly more static and compatible with the declared one.
//! A refinement that would make a user fail its verifier (a `?` whose run-time size the user
//! contradicts) is not made. Assumes: verified IR. Guarantees: verified IR; values used by
//! non-`hl` ops (e.g.
//! `func.return`, whose types the function signature fixes) keep their types, so signatures and
//! call sites never change.
//!
//! [`specialize`] is the same inference at a function's boundary, for a launch on concrete
//! inputs (`kiln-run`): the entry function's argument types become the inputs' static ones,
//! every result is refined (returned values too, and the signature follows), and a `?` that
//! the inputs do not determine is an error, as is an inference that the inputs' shapes
//! contradict.

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{Context, Diagnostic, Ir, OpId, Type, DYNAMIC};
use kiln_dialects::func::conversion::set_signature;
use kiln_dialects::func::RETURN_OP;
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::infer::{compatible, InferInput};
use kiln_dialects::hl::interfaces::hl_op;

kiln_compiler::declare_pass! {
    struct InferShapes;
    name: "hl-infer-shapes",
    summary: "Refine dynamic dims of hl results from their operands",
    description: "Replaces `?` dims of hl op results by the static sizes inference derives.",

    fn run(&mut self, cx, root) {
        let refined = refine(cx.ctx, cx.ir, root, Scope::HlUsers).unwrap_or_default();
        cx.add_statistic("num-refined", "Number of results given more static types", refined);
        Ok(())
    }
}

/// Which results [`refine`] retypes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Results whose users are all `hl` ops and still verify with the new type (the pass);
    /// an inference that fails leaves the op as it is.
    HlUsers,
    /// Every result ([`specialize`]: the signature follows); an inference that fails is the
    /// error.
    All,
}

/// The number of `?` dims of `t`.
fn dynamic_dims(t: Type<'_>) -> usize {
    tensor_parts(t).map_or(0, |(s, _)| s.iter().filter(|&&d| d == DYNAMIC).count())
}

/// Refines the result types of the `hl` ops under `root` in program order; returns how many
/// results became more static.
fn refine<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, root: OpId, scope: Scope) -> Result<u64, Diagnostic<'c>> {
    let ops: Vec<OpId> = ir.walk(root, WalkOrder::PreOrder).collect();
    let mut refined = 0;
    for op in ops {
        let Some(h) = hl_op(ir, op) else { continue };
        let results = ir.results(op).to_vec();
        let declared: Vec<_> = results.iter().map(|&r| ir.value_type(r)).collect();
        if declared.iter().all(|&t| dynamic_dims(t) == 0) {
            continue;
        }
        let operands: Vec<_> = ir.operands(op).iter().map(|&v| ir.value_type(v)).collect();
        let view = &*ir;
        let attr = |n: &str| view.attr(op, n);
        let input = InferInput { operands: &operands, result: declared.first().copied(), attr: &attr };
        let inferred = match (h.infer.results(ctx, &input), scope) {
            (Ok(types), _) => types,
            (Err(_), Scope::HlUsers) => continue,
            (Err(message), Scope::All) => return Err(Diagnostic::op_error(ir, op, message)),
        };
        for ((&result, &declared), inferred) in results.iter().zip(&declared).zip(inferred) {
            if !compatible(inferred, declared) || dynamic_dims(inferred) >= dynamic_dims(declared) {
                continue;
            }
            if scope == Scope::All {
                ir.set_value_type(result, inferred);
                refined += 1;
                continue;
            }
            if !ir.uses(result).iter().all(|u| hl_op(ir, u.op).is_some()) {
                continue;
            }
            ir.set_value_type(result, inferred);
            // A user may hold a `?` that the now-known size contradicts (e.g. a reshape to a
            // different element count): keep the refinement only if every user still verifies.
            let users_ok = ir.uses(result).iter().all(|u| {
                let hook = ir.op(u.op).def.and_then(|d| d.verify);
                hook.is_none_or(|verify| verify(ctx, ir, u.op).is_ok())
            });
            if users_ok {
                refined += 1;
            } else {
                ir.set_value_type(result, declared);
            }
        }
    }
    Ok(refined)
}

/// Specializes function `func` to arguments of types `args` (its own argument types with every
/// `?` made static, as the caller checked): the entry block's arguments take them, every `hl`
/// result is refined in program order, and the signature takes `args` and the types
/// `func.return` now returns. Fails, at the op, when an inference contradicts the arguments'
/// shapes (two dims the program needs equal are not) or when a `?` remains that the arguments
/// do not determine (the back end compiles static shapes only). The caller verifies.
pub fn specialize<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    func: OpId,
    args: &[Type<'c>],
) -> Result<(), Diagnostic<'c>> {
    let Some(entry) = ir.regions(func).first().and_then(|&r| ir.entry_block(r)) else {
        return Err(Diagnostic::op_error(ir, func, "has no body to specialize"));
    };
    let params = ir.block_args(entry).to_vec();
    if params.len() != args.len() {
        let message = format!("takes {} arguments, but {} were given", params.len(), args.len());
        return Err(Diagnostic::op_error(ir, func, message));
    }
    for (&p, &t) in params.iter().zip(args) {
        ir.set_value_type(p, t);
    }
    refine(ctx, ir, func, Scope::All)?;
    let ops: Vec<OpId> = ir.walk(func, WalkOrder::PreOrder).collect();
    let mut results = Vec::new();
    for op in ops {
        if let Some((i, ty)) =
            ir.results(op).iter().map(|&r| ir.value_type(r)).enumerate().find(|&(_, t)| dynamic_dims(t) > 0)
        {
            let message = format!(
                "result #{i} keeps a dynamic dim ('{ty}') that the inputs' shapes do not determine; \
                 the back end compiles static shapes only"
            );
            return Err(Diagnostic::op_error(ir, op, message));
        }
        if ir.is(op, &RETURN_OP) && ir.parent_op(op) == Some(func) {
            results = ir.operands(op).iter().map(|&v| ir.value_type(v)).collect();
        }
    }
    set_signature(ctx, ir.op_mut(func), args, &results);
    Ok(())
}
