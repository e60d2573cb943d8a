//! `kiln-codegen{target=...}`: the named pipeline from fused `hl` to planned, synchronized
//! `npuvec` kernels.
//!
//! Runs, in order: `kiln-codegen-outline`, `kiln-codegen-tile`, `kiln-codegen-bufferize`,
//! `kiln-codegen-lower`, `kiln-codegen-plan-ub`, `kiln-codegen-insert-sync`, then `cse` and
//! `canonicalize` to share the index arithmetic the tile loops repeat. The steps that depend on
//! the hardware (outline, tile, plan-ub, insert-sync) take the pipeline's `target`;
//! `double-buffer` (default true) and `ub-budget` go to the tile step, `flash-attention`
//! (default true) to the outline step. The module gets
//! `npuvec.target = "<name>"`.
//!
//! Overflow: plan-ub first drops a kernel's second copy of its buffers (double buffering) when
//! the two do not fit. A kernel whose plan still overflows the UB is retiled from its outlined
//! form for half the budget, then a quarter, then an eighth (tile, bufferize and lower run again
//! on the outlined module, the other kernels keeping their tiles); only then is it an error,
//! stating the required and the available bytes and the budgets tried.
//!
//! Runs on: `builtin.module`. Assumes: verified IR (typically after `kiln-fuse`).
//! Guarantees: what its last step guarantees: no `hl` or `fused` op left, planned buffers
//! within the target's memories, flags between conflicting pipes; a located error otherwise.

use rustc_hash::FxHashMap;

use kiln_compiler::pass::{parse_pipeline, Instrumentation, PassContext, PassFailed, PassManager};
use kiln_compiler::{Diagnostic, Ir, OpId};
use kiln_targets::Target;

use crate::codegen::build::set_attr;
use crate::codegen::options::{load_target, tile_target, CODEGEN_SPECS};
use crate::kiln_codegen_plan_ub::plan_module;
use crate::kiln_codegen_tile::tile_module;

/// How many times a kernel whose plan overflows is retiled, each time for half the budget.
const RETILES: u32 = 3;

kiln_compiler::declare_pass! {
    struct KilnCodegen {
        target: Target,
        tile_target: Target,
        double_buffer: bool,
        outline: PassManager,
        bufferize_lower: PassManager,
        finish: PassManager,
    }
    name: "kiln-codegen",
    summary: "Lower fused hl to planned, synchronized npuvec kernels for a target",
    description: "outline, tile, bufferize, lower, plan-ub, insert-sync (each kiln-codegen-<step>), then cse \
                  and canonicalize; a kernel whose UB plan overflows is retiled smaller.",
    anchor: "builtin.module",
    options: CODEGEN_SPECS,
    create(o) {
        let target = load_target("kiln-codegen", o)?;
        // The steps' pipelines are built once (building insert-sync loads the target again).
        let registry = crate::registry();
        let steps = |text: &str| parse_pipeline(text, &registry);
        let spec = o.get_str("target");
        Ok(KilnCodegen {
            tile_target: tile_target(&target, o),
            target,
            double_buffer: o.get_bool("double-buffer"),
            outline: steps(&format!(
                "kiln-codegen-outline{{target={spec} flash-attention={}}}",
                o.get_bool("flash-attention")
            ))?,
            bufferize_lower: steps("kiln-codegen-bufferize, kiln-codegen-lower")?,
            finish: steps(&format!("kiln-codegen-insert-sync{{target={spec}}}, cse, canonicalize"))?,
        })
    }

    fn run(&mut self, cx, root) {
        steps(cx, root, &mut self.outline)?;
        let outlined = cx.ir.clone();
        // The retiles of each kernel so far, by symbol name (op ids change in bufferize).
        let mut retiles: FxHashMap<String, u32> = FxHashMap::default();
        loop {
            let shrink = |ir: &Ir<'_>, k: OpId| 1u64 << retiles.get(&symbol(ir, k)).copied().unwrap_or(0);
            tile_module(cx.ctx, cx.ir, root, &self.tile_target, self.double_buffer, &shrink, cx.diagnostics)?;
            steps(cx, root, &mut self.bufferize_lower)?;
            let failures = plan_module(cx.ctx, cx.ir, root, &self.target);
            if failures.is_empty() {
                break;
            }
            let exhausted = failures.iter().any(|(k, _)| retiles.get(&symbol(cx.ir, *k)).copied() == Some(RETILES));
            if exhausted {
                for (kernel, message) in failures {
                    let n = retiles.get(&symbol(cx.ir, kernel)).copied().unwrap_or(0);
                    let tried = (1..=n).map(|i| format!("1/{}", 1u64 << i)).collect::<Vec<_>>().join(", ");
                    let budget = self.tile_target.memory.ub_usable_bytes;
                    let after = if n == 0 {
                        String::new()
                    } else {
                        format!(", after retiling for {tried} of the tile budget of {budget} bytes")
                    };
                    cx.diagnostics.push(Diagnostic::op_error(cx.ir, kernel, format!("{message}{after}")));
                }
                return Err(PassFailed);
            }
            for (kernel, _) in &failures {
                *retiles.entry(symbol(cx.ir, *kernel)).or_insert(0) += 1;
            }
            *cx.ir = outlined.clone();
        }
        steps(cx, root, &mut self.finish)?;
        let name = cx.ctx.str_attr(self.target.name.as_bytes());
        set_attr(cx.ctx, cx.ir, root, "npuvec.target", name);
        Ok(())
    }
}

/// A kernel's symbol name.
fn symbol(ir: &Ir<'_>, kernel: OpId) -> String {
    String::from_utf8_lossy(ir.attr(kernel, "sym_name").and_then(|a| a.as_str()).unwrap_or_default())
        .into_owned()
}

/// Runs the step pipeline `pm` on `root`.
fn steps(cx: &mut PassContext<'_, '_>, root: OpId, pm: &mut PassManager) -> Result<(), PassFailed> {
    pm.run(cx.ctx, cx.ir, root, &mut Instrumentation::default(), cx.diagnostics)
}
