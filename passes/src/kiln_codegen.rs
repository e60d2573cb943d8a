//! `kiln-codegen{target=...}`: the named pipeline from fused `hl` to planned, synchronized
//! `npuvec` kernels.
//!
//! Runs, in order: `kiln-codegen-outline`, `kiln-codegen-tile`, `kiln-codegen-bufferize`,
//! `kiln-codegen-lower`, `kiln-codegen-plan-ub`, `kiln-codegen-insert-sync`, then `cse` and
//! `canonicalize` to share the index arithmetic the tile loops repeat. The steps that depend on
//! the hardware (tile, plan-ub, insert-sync) take the pipeline's `target`; `double-buffer`
//! (default true) goes to the tile step. The module gets
//! `npuvec.target = "<name>"`.
//!
//! Runs on: `builtin.module`. Assumes: verified IR (typically after `kiln-fuse`).
//! Guarantees: what its last step guarantees: no `hl` or `fused` op left, planned buffers
//! within the target's memories, flags between conflicting pipes; a located error otherwise.

use kiln_compiler::pass::{parse_pipeline, Instrumentation, PassFailed};
use kiln_targets::Target;

use crate::codegen::build::set_attr;
use crate::codegen::options::{load_target, TILE_SPECS};

kiln_compiler::declare_pass! {
    struct KilnCodegen { target: Target, spec: String, double_buffer: bool }
    name: "kiln-codegen",
    summary: "Lower fused hl to planned, synchronized npuvec kernels for a target",
    description: "outline, tile, bufferize, lower, plan-ub, insert-sync (each kiln-codegen-<step>), then cse \
                  and canonicalize.",
    anchor: "builtin.module",
    options: TILE_SPECS,
    create(o) {
        Ok(KilnCodegen {
            target: load_target("kiln-codegen", o)?,
            spec: o.get_str("target").to_string(),
            double_buffer: o.get_bool("double-buffer"),
        })
    }

    fn run(&mut self, cx, root) {
        let (t, db) = (&self.spec, self.double_buffer);
        let text = format!(
            "kiln-codegen-outline, kiln-codegen-tile{{target={t} double-buffer={db}}}, kiln-codegen-bufferize, kiln-codegen-lower, \
             kiln-codegen-plan-ub{{target={t}}}, kiln-codegen-insert-sync{{target={t}}}, cse, canonicalize"
        );
        let mut pm = parse_pipeline(&text, &crate::registry()).map_err(|e| {
            cx.diagnostics.push(kiln_compiler::Diagnostic::error(cx.ir.op(root).loc, e));
            PassFailed
        })?;
        let mut instr = Instrumentation::default();
        pm.run(cx.ctx, cx.ir, root, &mut instr, cx.diagnostics)?;
        let name = cx.ctx.str_attr(self.target.name.as_bytes());
        set_attr(cx.ctx, cx.ir, root, "npuvec.target", name);
        Ok(())
    }
}
