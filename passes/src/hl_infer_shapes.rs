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

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{OpId, DYNAMIC};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::infer::{compatible, InferInput};
use kiln_dialects::hl::interfaces::hl_op;

kiln_compiler::declare_pass! {
    struct InferShapes;
    name: "hl-infer-shapes",
    summary: "Refine dynamic dims of hl results from their operands",
    description: "Replaces `?` dims of hl op results by the static sizes inference derives.",

    fn run(&mut self, cx, root) {
        let ops: Vec<OpId> = cx.ir.walk(root, WalkOrder::PreOrder).collect();
        let mut refined = 0;
        for op in ops {
            let Some(h) = hl_op(cx.ir, op) else { continue };
            let dynamic = |t| tensor_parts(t).map_or(0, |(s, _)| s.iter().filter(|&&d| d == DYNAMIC).count());
            let results = cx.ir.results(op).to_vec();
            let declared: Vec<_> = results.iter().map(|&r| cx.ir.value_type(r)).collect();
            if declared.iter().all(|&t| dynamic(t) == 0) {
                continue;
            }
            let operands: Vec<_> = cx.ir.operands(op).iter().map(|&v| cx.ir.value_type(v)).collect();
            let ir = &*cx.ir;
            let attr = |n: &str| ir.attr(op, n);
            let input = InferInput { operands: &operands, result: declared.first().copied(), attr: &attr };
            let Ok(inferred) = h.infer.results(cx.ctx, &input) else { continue };
            for ((&result, &declared), inferred) in results.iter().zip(&declared).zip(inferred) {
                let only_hl_users = cx.ir.uses(result).iter().all(|u| hl_op(cx.ir, u.op).is_some());
                if !only_hl_users || !compatible(inferred, declared) || dynamic(inferred) >= dynamic(declared) {
                    continue;
                }
                cx.ir.set_value_type(result, inferred);
                // A user may hold a `?` that the now-known size contradicts (e.g. a reshape to a
                // different element count): keep the refinement only if every user still
                // verifies.
                let users_ok = cx.ir.uses(result).iter().all(|u| {
                    let hook = cx.ir.op(u.op).def.and_then(|d| d.verify);
                    hook.is_none_or(|verify| verify(cx.ctx, cx.ir, u.op).is_ok())
                });
                if users_ok {
                    refined += 1;
                } else {
                    cx.ir.set_value_type(result, declared);
                }
            }
        }
        cx.add_statistic("num-refined", "Number of results given more static types", refined);
        Ok(())
    }
}
