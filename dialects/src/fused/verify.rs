//! The `fused.region` verifier, for what its declaration cannot say (the declaration already
//! checks one region, at least one result, a `#fused.kind<...>` `kind`, `IsolatedFromAbove`, a
//! single block, and `fused.yield`'s parent). Checked here, in this order:
//!
//! 1. the body has one argument per input, of the input's type;
//! 2. the `fused.yield` ending the body yields one value per result, of the result's type;
//! 3. the body holds only fusable `hl` ops (composites, category `Opaque` other than
//!    `hl.constant`, are rejected) besides the yield;
//! 4. the kind agrees with the body ([`check_body`]); an `attention` body is one attention as
//!    [`match_attention`](super::attention::match_attention) recognizes it, yielding its output;
//! 5. `parts`, when present, belongs to an `attention` region and numbers each body op (the
//!    yield excepted) with its fallback kernel, or -1 for an op of no kernel ([`check_parts`]).

use kiln_compiler::{Context, Diagnostic, Ir, OpId, Trait};

use std::collections::HashSet;

use super::attention::find_attention;
use super::kind::RegionKind;
use crate::hl::accessors::int_list;
use crate::hl::interfaces::{hl_op, FusionCategory};

/// What the ops of a body contain, for kind checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BodySummary {
    /// Ops of category `Cube` (matmul, batch_matmul, conv2d).
    pub cube: usize,
    /// Elementwise, broadcast and reduce ops.
    pub compute: usize,
    /// Layout ops and constants.
    pub other: usize,
}

impl BodySummary {
    /// The kind a region of these ops needs: `mix` with cube and compute ops, `cube` with cube
    /// ops only, `vector` otherwise (never `attention`, which is chosen, not needed).
    pub fn kind(self) -> RegionKind {
        match (self.cube > 0, self.compute > 0) {
            (true, true) => RegionKind::Mix,
            (true, false) => RegionKind::Cube,
            (false, _) => RegionKind::Vector,
        }
    }
}

/// Checks that `ops` may form the body of a region (fusable `hl` ops only; `fused.yield` is
/// skipped) and summarizes them. The error names the first offending op.
pub fn summarize_body(ir: &Ir<'_>, ops: impl IntoIterator<Item = OpId>) -> Result<BodySummary, String> {
    let mut s = BodySummary::default();
    for op in ops {
        let name = ir.op(op).name;
        if name == super::YIELD_OP.name {
            continue;
        }
        let Some(hl) = hl_op(ir, op) else {
            return Err(format!("body may only hold 'hl' ops and 'fused.yield', but holds '{name}'"));
        };
        match hl.category {
            FusionCategory::Cube => s.cube += 1,
            FusionCategory::Elementwise | FusionCategory::Broadcast | FusionCategory::Reduce => {
                s.compute += 1
            }
            FusionCategory::Layout(_) => s.other += 1,
            FusionCategory::Opaque if ir.op(op).def.is_some_and(|d| d.has_trait(Trait::ConstantLike)) => {
                s.other += 1
            }
            FusionCategory::Opaque => {
                return Err(format!("body cannot hold composite op '{name}' (it is not fusable)"));
            }
        }
    }
    Ok(s)
}

/// Checks that `kind` agrees with a body of `ops`: `vector` holds no cube op; `cube` holds
/// cube ops and otherwise only layout ops and constants; `mix` holds at least one cube op and
/// at least one elementwise, broadcast or reduce op; `attention` holds one attention and
/// nothing else but constants ([`check_attention`]).
pub fn check_body(ir: &Ir<'_>, kind: RegionKind, ops: impl IntoIterator<Item = OpId>) -> Result<(), String> {
    let ops: Vec<OpId> = ops.into_iter().collect();
    let s = summarize_body(ir, ops.iter().copied())?;
    let find = |pred: fn(FusionCategory) -> bool| {
        ops.iter().find(|&&o| hl_op(ir, o).is_some_and(|h| pred(h.category))).map_or("", |&o| ir.op(o).name)
    };
    let is_cube = |c| c == FusionCategory::Cube;
    let is_compute =
        |c| matches!(c, FusionCategory::Elementwise | FusionCategory::Broadcast | FusionCategory::Reduce);
    match kind {
        RegionKind::Vector if s.cube > 0 => {
            Err(format!("of kind `vector` cannot hold cube op '{}'", find(is_cube)))
        }
        RegionKind::Cube if s.compute > 0 => Err(format!(
            "of kind `cube` may only hold cube, layout and constant ops, but holds '{}'",
            find(is_compute)
        )),
        RegionKind::Cube if s.cube == 0 => Err("of kind `cube` must hold at least one cube op".into()),
        RegionKind::Mix if s.cube == 0 => Err("of kind `mix` must hold at least one cube op".into()),
        RegionKind::Mix if s.compute == 0 => Err(
            "of kind `mix` must hold at least one elementwise, broadcast or reduce op besides its cube ops"
                .into(),
        ),
        RegionKind::Attention => check_attention(ir, &ops),
        _ => Ok(()),
    }
}

/// Checks that `ops` (a body, its `fused.yield` included or not) are one attention: the
/// matcher, with `ops` as its scope, accepts their first matmul that starts one, and every op
/// but constants and the yield is one of its members. A use by the yield is a use outside, so
/// a body yielding anything but the attention's output is refused.
pub fn check_attention(ir: &Ir<'_>, ops: &[OpId]) -> Result<(), String> {
    let m =
        find_attention(ir, ops).map_err(|why| format!("of kind `attention` is not an attention: {why}"))?;
    let members: HashSet<OpId> = m.members.iter().copied().collect();
    let extra = ops.iter().find(|&&o| {
        !members.contains(&o)
            && !ir.is(o, &super::YIELD_OP)
            && !ir.op(o).def.is_some_and(|d| d.has_trait(Trait::ConstantLike))
    });
    if let Some(&o) = extra {
        return Err(format!(
            "of kind `attention` holds '{}', which is not part of its attention",
            ir.op(o).name
        ));
    }
    Ok(())
}

/// Checks the `parts` of a region of `kind` whose body holds `ops` besides its yield: only an
/// `attention` region has them, one integer per op, each -1 or more.
pub fn check_parts(ir: &Ir<'_>, region: OpId, kind: RegionKind, ops: usize) -> Result<(), String> {
    let Some(attr) = ir.attr(region, "parts") else { return Ok(()) };
    if kind != RegionKind::Attention {
        return Err(format!(
            "of kind `{}` cannot have 'parts' (only `attention` regions do)",
            kind.keyword()
        ));
    }
    let parts = int_list(Some(attr)).map_err(|e| format!("'parts': {e}"))?;
    if parts.len() != ops {
        return Err(format!("has {} 'parts' but {ops} ops in its body", parts.len()));
    }
    if let Some(p) = parts.iter().find(|&&p| p < -1) {
        return Err(format!("'parts' holds {p}; a part is -1 (no kernel) or a kernel number from 0"));
    }
    Ok(())
}

pub(crate) fn verify_region<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    check_region(ir, op).map_err(|message| Diagnostic::op_error(ir, op, message))
}

/// The first thing wrong with region op `op`, as a message without the op prefix.
fn check_region(ir: &Ir<'_>, op: OpId) -> Result<(), String> {
    // The declaration checked that `kind` is a `#fused.kind<...>`.
    let Some(kind) = RegionKind::of_region(ir, op) else {
        return Err("requires attribute 'kind'".into());
    };
    let Some(body) = ir.regions(op).first().and_then(|&r| ir.entry_block(r)) else {
        return Err("expects a non-empty body".into());
    };
    let (inputs, args) = (ir.operands(op), ir.block_args(body));
    if inputs.len() != args.len() {
        return Err(format!("has {} inputs, but its body takes {} arguments", inputs.len(), args.len()));
    }
    for (i, (&v, &a)) in inputs.iter().zip(args).enumerate() {
        let (vt, at) = (ir.value_type(v), ir.value_type(a));
        if vt != at {
            return Err(format!("type of body argument #{i} ('{at}') doesn't match input #{i} ('{vt}')"));
        }
    }
    // A body not ending in a terminator is reported by the structural verifier.
    if let Some(term) = ir.last_op(body).filter(|&t| ir.op(t).name == super::YIELD_OP.name) {
        let (yielded, results) = (ir.operands(term), ir.results(op));
        if yielded.len() != results.len() {
            return Err(format!("yields {} values, but has {} results", yielded.len(), results.len()));
        }
        for (i, (&v, &r)) in yielded.iter().zip(results).enumerate() {
            let (vt, rt) = (ir.value_type(v), ir.value_type(r));
            if vt != rt {
                return Err(format!(
                    "type of yielded value #{i} ('{vt}') doesn't match result #{i} ('{rt}')"
                ));
            }
        }
    }
    check_body(ir, kind, ir.block_ops(body))?;
    let ops = ir.block_ops(body).filter(|&o| !ir.is(o, &super::YIELD_OP)).count();
    check_parts(ir, op, kind, ops)
}
