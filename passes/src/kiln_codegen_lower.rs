//! `kiln-codegen-lower`: lowers the `hl` body of every kernel to `npuvec` tiles.
//!
//! Rewrites: each bufferized kernel (`npuvec.kind` = `vector` / `matmul` / `layout`, with the
//! `npuvec.tile` of `kiln-codegen-tile`) gets a body of `npuvec` ops on unplanned UB / L1 /
//! L0 buffers (`npuvec.alloc`), `scf.for` tile loops distributed over `npuvec.block_idx`,
//! index arithmetic in `arith`, and GM accesses through strided views; its `hl` ops and
//! `bufferization` bridges are gone. Vector kernels: `codegen/lower_vector.rs` (tile loop) and
//! `codegen/vector_ops.rs` (one pattern per `hl` op) and `codegen/staged.rs` (rows longer than
//! the UB); layout kernels are vector kernels whose input is a view (`codegen/model.rs`), or,
//! for `hl.concat` and `hl.pad`, one tile loop per part of the output (`codegen/lower_layout.rs`);
//! matmul kernels: `codegen/lower_matmul.rs`; conv2d kernels (matmul kind holding an
//! `hl.conv2d`): `codegen/lower_conv.rs`; gather kernels: `codegen/lower_gather.rs`.
//!
//! Runs on: `builtin.module`. Assumes: `kiln-codegen-tile` and `kiln-codegen-bufferize` ran.
//! Guarantees: no `hl` op left in kernels; an op without a lowering, an unsupported element
//! type or a kernel without a tile is a located error naming it.

use kiln_compiler::pass::PassFailed;
use kiln_compiler::Diagnostic;
use kiln_dialects::hl;

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{Ir, OpId};

use crate::codegen::lower_conv::lower_conv_kernel;
use crate::codegen::lower_gather::lower_gather_kernel;
use crate::codegen::lower_layout::{assembling_op, lower_layout_kernel};
use crate::codegen::lower_matmul::lower_matmul_kernel;
use crate::codegen::lower_vector::lower_vector_kernel;
use crate::kiln_codegen_outline::KernelKind;
use crate::kiln_codegen_tile::{kernel_kind, kernels};

kiln_compiler::declare_pass! {
    struct Lower;
    name: "kiln-codegen-lower",
    summary: "Lower kernel bodies to npuvec tile loops",
    description: "Each bufferized kernel's hl ops become npuvec ops on UB buffers in a tile loop over the \
                  kernel's block_dim cores.",
    anchor: "builtin.module",

    fn run(&mut self, cx, root) {
        let mut failed = false;
        for kernel in kernels(cx.ir, root) {
            let result = match kernel_kind(cx.ir, kernel) {
                Some(KernelKind::Layout) if assembles(cx.ir, kernel) => lower_layout_kernel(cx.ctx, cx.ir, kernel),
                Some(KernelKind::Vector | KernelKind::Layout) => lower_vector_kernel(cx.ctx, cx.ir, kernel),
                Some(KernelKind::Matmul) if holds_conv(cx.ir, kernel) => lower_conv_kernel(cx.ctx, cx.ir, kernel),
                Some(KernelKind::Matmul | KernelKind::Mix) => lower_matmul_kernel(cx.ctx, cx.ir, kernel),
                Some(KernelKind::Gather) => lower_gather_kernel(cx.ctx, cx.ir, kernel),
                None => Ok(()),
            };
            if let Err(message) = result {
                cx.diagnostics.push(Diagnostic::op_error(cx.ir, kernel, message));
                failed = true;
            }
        }
        if failed {
            return Err(PassFailed);
        }
        Ok(())
    }
}

/// Whether layout kernel `kernel` assembles its output from parts (`hl.concat`, `hl.pad`).
fn assembles(ir: &Ir<'_>, kernel: OpId) -> bool {
    ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)).and_then(|b| assembling_op(ir, b)).is_some()
}

/// Whether cube kernel `kernel` holds an `hl.conv2d`.
fn holds_conv(ir: &Ir<'_>, kernel: OpId) -> bool {
    ir.walk(kernel, WalkOrder::PreOrder).any(|op| ir.is(op, &hl::CONV2D))
}
