//! `kiln-codegen-lower`: lowers the `hl` body of every kernel to `npuvec` tiles.
//!
//! Rewrites, with the dialect conversion framework: a bufferized kernel (`npuvec.kind` =
//! `vector` / `layout` / `matmul` / `mix` / `gather` / `attention`, with the `npuvec.tile` of
//! `kiln-codegen-tile`) is illegal while its body holds an `hl` op or a `bufferization` bridge;
//! one conversion pattern per way of lowering a kernel, each rooted on `func.func` and matching
//! the kernels of its kind, gives it a body of `npuvec` ops on unplanned UB / L1 / L0 buffers
//! (`npuvec.alloc`), `scf.for` tile loops distributed over `npuvec.block_idx`, index arithmetic
//! in `arith`, and GM accesses through strided views. The patterns:
//! - `AssemblingKernel`: a layout kernel of `hl.concat` or `hl.pad`, one tile loop per part of
//!   the output (`codegen/lower_layout.rs`);
//! - `VectorKernel`: vector kernels and the other layout kernels (a vector kernel whose input
//!   is a view, `codegen/model.rs`): the tile loop of `codegen/lower_vector.rs`, one pattern
//!   per `hl` op in `codegen/vector_ops.rs`, `codegen/staged.rs` for rows longer than the UB;
//! - `ConvKernel`: a matmul kernel holding an `hl.conv2d` (`codegen/lower_conv.rs`);
//! - `CubeKernel`: matmul and mix kernels (`codegen/lower_matmul.rs`, the epilogue in
//!   `codegen/epilogue.rs`);
//! - `GatherKernel`: gather kernels (`codegen/lower_gather.rs`);
//! - `AttentionKernel`: attention kernels, one flash-attention loop
//!   (`codegen/lower_attention.rs`).
//!
//! The kinds are disjoint, so at most one pattern matches a kernel. A pattern that matches but
//! cannot lower says why (`notify_match_failure`): the reason is a note on the error, and a
//! line of `--debug-only=dialect-conversion`. A lowering refuses before it rewrites where it
//! can; one that fails part way leaves the kernel illegal, the conversion fails, and the
//! driver drops its copy of the IR, so the input is unchanged either way.
//!
//! Runs on: `builtin.module`. Assumes: `kiln-codegen-tile` and `kiln-codegen-bufferize` ran.
//! Guarantees: no `hl` op or `bufferization` bridge left in kernels; a kernel that cannot be
//! lowered is a located error (`failed to legalize operation 'func.func'`) whose notes say why.

use kiln_compiler::conversion::{
    apply_partial_conversion, ConversionPattern, ConversionPatternSet, ConversionRewriter, ConversionTarget,
    Root,
};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::PassFailed;
use kiln_compiler::{Context, Ir, OpId, ValueId};
use kiln_dialects::bufferization::BUFFERIZATION;
use kiln_dialects::func::FUNC_OP;
use kiln_dialects::hl;

use crate::codegen::lower_attention::lower_attention_kernel;
use crate::codegen::lower_conv::lower_conv_kernel;
use crate::codegen::lower_gather::lower_gather_kernel;
use crate::codegen::lower_layout::{assembling_op, lower_layout_kernel};
use crate::codegen::lower_matmul::lower_matmul_kernel;
use crate::codegen::lower_vector::lower_vector_kernel;
use crate::kiln_codegen_outline::KernelKind;
use crate::kiln_codegen_tile::kernel_kind;

kiln_compiler::declare_pass! {
    struct Lower;
    name: "kiln-codegen-lower",
    summary: "Lower kernel bodies to npuvec tile loops",
    description: "Each bufferized kernel's hl ops become npuvec ops on UB buffers in a tile loop over the \
                  kernel's block_dim cores.",
    anchor: "builtin.module",

    fn run(&mut self, cx, root) {
        let mut target = ConversionTarget::new();
        target.add_dynamically_legal_op(&FUNC_OP, |_, ir, op| kernel_kind(ir, op).is_none() || lowered(ir, op));
        let mut patterns = ConversionPatternSet::new();
        for pattern in KERNEL_PATTERNS {
            patterns.add(pattern);
        }
        apply_partial_conversion(cx.ctx, cx.ir, root, &target, &patterns, None).map_err(|d| {
            cx.diagnostics.push(d);
            PassFailed
        })
    }
}

/// Whether kernel `kernel` holds no `hl` op and no `bufferization` bridge.
fn lowered(ir: &Ir<'_>, kernel: OpId) -> bool {
    !ir.walk(kernel, WalkOrder::PreOrder).any(|o| {
        let def = ir.op(o).def;
        hl::HL.owns(def) || BUFFERIZATION.owns(def)
    })
}

/// A lowering of a whole kernel body.
type LowerKernel = for<'c> fn(&Context<'c>, &mut Ir<'c>, OpId) -> Result<(), String>;

/// One way of lowering a kernel: the kernels it matches and its lowering.
struct KernelPattern {
    name: &'static str,
    matches: fn(&Ir<'_>, OpId, KernelKind) -> bool,
    lower: LowerKernel,
}

/// The kernel patterns, one per lowering (their kinds are disjoint).
const KERNEL_PATTERNS: [KernelPattern; 6] = [
    KernelPattern {
        name: "AssemblingKernel",
        matches: |ir, op, kind| kind == KernelKind::Layout && assembles(ir, op),
        lower: lower_layout_kernel,
    },
    KernelPattern {
        name: "VectorKernel",
        matches: |ir, op, kind| {
            kind == KernelKind::Vector || kind == KernelKind::Layout && !assembles(ir, op)
        },
        lower: lower_vector_kernel,
    },
    KernelPattern {
        name: "ConvKernel",
        matches: |ir, op, kind| kind == KernelKind::Matmul && holds_conv(ir, op),
        lower: lower_conv_kernel,
    },
    KernelPattern {
        name: "CubeKernel",
        matches: |ir, op, kind| kind == KernelKind::Mix || kind == KernelKind::Matmul && !holds_conv(ir, op),
        lower: lower_matmul_kernel,
    },
    KernelPattern {
        name: "GatherKernel",
        matches: |_, _, kind| kind == KernelKind::Gather,
        lower: lower_gather_kernel,
    },
    KernelPattern {
        name: "AttentionKernel",
        matches: |_, _, kind| kind == KernelKind::Attention,
        lower: lower_attention_kernel,
    },
];

impl ConversionPattern for KernelPattern {
    fn name(&self) -> &'static str {
        self.name
    }

    fn root(&self) -> Root {
        Root::Op(&FUNC_OP)
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        _: &[ValueId],
    ) -> bool {
        let Some(kind) = kernel_kind(rw.ir(), op) else { return false };
        if !(self.matches)(rw.ir(), op, kind) {
            return false;
        }
        let ctx = rw.ctx;
        match rw.rewrite_in_place(op, |ir| (self.lower)(ctx, ir, op)) {
            Ok(()) => true,
            Err(reason) => rw.notify_match_failure(reason),
        }
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
