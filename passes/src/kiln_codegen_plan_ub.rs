//! `kiln-codegen-plan-ub`: gives every on-chip buffer of a kernel a fixed, aligned offset.
//!
//! Rewrites: in each kernel, every `npuvec.alloc` becomes `npuvec.buffer {offsets = array<i64:
//! N>}` of the same type, and the kernel gets `npuvec.ub_bytes = P : i64`, the **proof**: the
//! peak of the aligned UB placement, at most the target's `ub_usable_bytes`. Each memory (UB,
//! L1, L0A, L0B, L0C) is planned on its own against its capacity.
//!
//! Lifetimes: the ops of the kernel are numbered in program order (nested regions included);
//! a buffer lives from its first to its last use; a buffer used inside a loop whose first
//! access there reads it (a value carried across iterations) or that is also used outside the
//! loop lives for the whole loop. Placement (`codegen/placement.rs`): largest first at the
//! lowest aligned offset free for its lifetime, so buffers with disjoint lifetimes (the body and
//! tail tiles of a loop, the stages of a kernel) share addresses. Sizes are whole padded rows:
//! `rows * round_up(cols * bytes, alignment)`.
//!
//! Double buffering: a kernel whose tile was chosen double-buffered (`npuvec.tile` with
//! `buffers = 2`), whose buffers all live in its tile loop and carry nothing from one tile to
//! the next, gets two copies of its plan when twice the peak fits the UB: every buffer becomes
//! a two-result `npuvec.buffer [off, off + peak]` and the tile loop is unrolled by two, the
//! second tile on the second copies (`codegen/double_buffer.rs`); `npuvec.ub_bytes` is then
//! twice the peak. When the copies do not fit it falls back to one (and `buffers = 1`).
//!
//! Runs on: `builtin.module`. Assumes: `kiln-codegen-lower` ran. Guarantees: no
//! `npuvec.alloc` left; a kernel whose buffers do not fit is a located error stating the
//! required and the available bytes. The tile pass sizes tiles with the same placement, so this
//! fires only when a kernel's buffers were written by hand, its tiles were sized for a larger
//! `ub-budget`, or a tile estimate is off; the named pipeline `kiln-codegen` then retiles such a
//! kernel smaller before it reports the error.

use kiln_compiler::InsertPoint;
use kiln_dialects::{npuvec, scf};
use rustc_hash::{FxHashMap, FxHashSet};

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::PassFailed;
use kiln_compiler::{Context, Diagnostic, Ir, OpId, Type, TypeKind, ValueId};
use kiln_targets::Target;

use crate::codegen::access::touches;
use crate::codegen::build::{i64_array, i64_attr, set_attr, Builder};
use crate::codegen::double_buffer::{tile_loop, unroll};
use crate::codegen::options::{load_target, TARGET_SPECS};
use crate::codegen::placement::{place, Item};
use crate::codegen::tiling::Tiling;
use crate::kiln_codegen_tile::kernels;

kiln_compiler::declare_pass! {
    struct PlanUb { target: Target }
    name: "kiln-codegen-plan-ub",
    summary: "Place every on-chip buffer at a fixed offset and prove the UB plan fits",
    description: "Liveness-based placement of npuvec.alloc buffers (reuse across disjoint lifetimes), \
                  npuvec.buffer with offsets, and npuvec.ub_bytes as the proof.",
    anchor: "builtin.module",
    options: TARGET_SPECS,
    create(o) {
        Ok(PlanUb { target: load_target("kiln-codegen-plan-ub", o)? })
    }

    fn run(&mut self, cx, root) {
        let failures = plan_module(cx.ctx, cx.ir, root, &self.target);
        for (kernel, message) in &failures {
            cx.diagnostics.push(Diagnostic::op_error(cx.ir, *kernel, message.clone()));
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(PassFailed)
        }
    }
}

/// Plans every kernel under `root`; the kernels that do not fit, with the reason.
pub fn plan_module<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    root: OpId,
    target: &Target,
) -> Vec<(OpId, String)> {
    let mut failures = Vec::new();
    for kernel in kernels(ir, root) {
        if let Err(message) = plan_kernel(ctx, ir, kernel, target) {
            failures.push((kernel, message));
        }
    }
    failures
}

/// The memory space keyword of a memref type (`ub`, `l1`, ...).
pub fn space_of(t: Type<'_>) -> Option<String> {
    match *t.kind() {
        TypeKind::MemRef { memory_space: Some(s), .. } => {
            let text = s.to_string();
            let kw = text.strip_prefix("#npuvec.space<")?.strip_suffix('>')?;
            Some(kw.to_string())
        }
        _ => None,
    }
}

/// Bytes of an on-chip buffer type: whole padded rows.
pub fn buffer_bytes(target: &Target, t: Type<'_>) -> u64 {
    let shape = t.shape().unwrap_or(&[]);
    let bytes = u64::from(t.element_type().and_then(|e| e.bit_width()).unwrap_or(8).div_ceil(8));
    let (rows, cols) = match shape {
        [r, c] => (*r as u64, *c as u64),
        [c] => (1, *c as u64),
        _ => (1, shape.iter().product::<i64>().max(1) as u64),
    };
    rows * target.align(cols * bytes)
}

fn capacity(target: &Target, space: &str) -> Option<(u64, &'static str)> {
    let m = &target.memory;
    Some(match space {
        "ub" => (m.ub_usable_bytes, "memory.ub_usable_bytes"),
        "l1" => (m.l1_bytes, "memory.l1_bytes"),
        "l0a" => (m.l0a_bytes, "memory.l0a_bytes"),
        "l0b" => (m.l0b_bytes, "memory.l0b_bytes"),
        "l0c" => (m.l0c_bytes, "memory.l0c_bytes"),
        _ => return None,
    })
}

/// Plans the buffers of one kernel.
pub fn plan_kernel<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    kernel: OpId,
    target: &Target,
) -> Result<(), String> {
    let lifetimes = lifetimes(ir, kernel);
    let allocs: Vec<OpId> =
        ir.walk(kernel, WalkOrder::PreOrder).filter(|&o| ir.is(o, &npuvec::ALLOC_OP)).collect();
    let mut by_space: FxHashMap<String, Vec<OpId>> = FxHashMap::default();
    for &a in &allocs {
        let ty = ir.value_type(ir.results(a)[0]);
        let space = space_of(ty).ok_or_else(|| format!("npuvec.alloc of {ty} has no npuvec memory space"))?;
        by_space.entry(space).or_default().push(a);
    }
    let (offsets, ub_bytes) = plan_spaces(ir, target, &by_space, &lifetimes)?;
    // Double buffering: when every buffer lives in the tile loop and twice the plan fits, the
    // second copy of the plan sits right above the first.
    let tiling = ir.attr(kernel, "npuvec.tile").and_then(Tiling::from_attr);
    let tile = tiling.as_ref().filter(|t| t.buffers == 2).and_then(|_| tile_loop(ir, kernel));
    let all_in_loop = tile.is_some_and(|l| {
        let inside: FxHashSet<ValueId> =
            ir.walk(l, WalkOrder::PreOrder).flat_map(|o| touches(ir, o)).map(|t| t.value).collect();
        by_space.keys().all(|s| s == "ub") && allocs.iter().all(|&a| inside.contains(&ir.results(a)[0]))
    });
    let double = all_in_loop && ub_bytes.saturating_mul(2) <= target.memory.ub_usable_bytes;
    let mut pong: FxHashMap<ValueId, ValueId> = FxHashMap::default();
    for (a, off) in offsets {
        let ty = ir.value_type(ir.results(a)[0]);
        let mut offs = vec![off as i64];
        if double {
            offs.push((off + ub_bytes) as i64);
        }
        let loc = ir.op(a).loc;
        let mut b = Builder::new(ctx, ir, InsertPoint::Before(a), loc);
        let buf =
            b.op(&npuvec::BUFFER_OP, &[], &[("offsets", i64_array(ctx, &offs))], &vec![ty; offs.len()], 0);
        let results = ir.results(buf).to_vec();
        ir.replace_all_uses(ir.results(a)[0], results[0]);
        ir.erase_op(a);
        if let [ping, p] = results[..] {
            pong.insert(ping, p);
        }
    }
    if let (true, Some(l)) = (double, tile) {
        unroll(ctx, ir, l, &pong);
    }
    if let Some(t) = tiling.filter(|t| t.buffers == 2 && !double) {
        set_attr(ctx, ir, kernel, "npuvec.tile", Tiling { buffers: 1, ..t }.attr(ctx));
    }
    let copies = if double { 2 } else { 1 };
    set_attr(ctx, ir, kernel, "npuvec.ub_bytes", i64_attr(ctx, (ub_bytes * copies) as i64));
    Ok(())
}

/// The offset of every alloc, memory by memory, and the UB peak.
fn plan_spaces(
    ir: &Ir<'_>,
    target: &Target,
    by_space: &FxHashMap<String, Vec<OpId>>,
    lifetimes: &FxHashMap<ValueId, (usize, usize)>,
) -> Result<(Vec<(OpId, u64)>, u64), String> {
    let mut spaces: Vec<&String> = by_space.keys().collect();
    spaces.sort();
    let mut ub_bytes = 0;
    let mut out = Vec::new();
    for space in spaces {
        let ops = &by_space[space];
        let (cap, field) =
            capacity(target, space).ok_or_else(|| format!("cannot place a buffer in '{space}'"))?;
        let items: Vec<Item> = ops
            .iter()
            .map(|&a| {
                let v = ir.results(a)[0];
                let (first, last) = lifetimes.get(&v).copied().unwrap_or((0, 0));
                Item { first, last, bytes: buffer_bytes(target, ir.value_type(v)) }
            })
            .collect();
        let (offsets, peak) = place(&items, target.memory.alignment_bytes);
        if peak > cap {
            return Err(format!(
                "the {space} plan needs {peak} bytes, but the target '{}' has {cap} ({field})",
                target.name
            ));
        }
        if space == "ub" {
            ub_bytes = peak;
        }
        out.extend(ops.iter().copied().zip(offsets));
    }
    Ok((out, ub_bytes))
}

/// The lifetime (first, last position) of every buffer used in `kernel`.
fn lifetimes(ir: &Ir<'_>, kernel: OpId) -> FxHashMap<ValueId, (usize, usize)> {
    let order: Vec<OpId> = ir.walk(kernel, WalkOrder::PreOrder).collect();
    let pos: FxHashMap<OpId, usize> = order.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    let mut span: FxHashMap<ValueId, (usize, usize)> = FxHashMap::default();
    // Per buffer, its accesses (position, read) in order.
    let mut accesses: FxHashMap<ValueId, Vec<(usize, bool)>> = FxHashMap::default();
    for (i, &op) in order.iter().enumerate() {
        for t in touches(ir, op) {
            let e = span.entry(t.value).or_insert((i, i));
            e.0 = e.0.min(i);
            e.1 = e.1.max(i);
            accesses.entry(t.value).or_default().push((i, t.read));
        }
    }
    // Loops: the whole loop for buffers carried across iterations or used outside too.
    for &op in &order {
        if !ir.is(op, &scf::FOR_OP) {
            continue;
        }
        let start = pos[&op];
        let end = ir.walk(op, WalkOrder::PreOrder).map(|o| pos[&o]).max().unwrap_or(start);
        for (v, list) in &accesses {
            let inside: Vec<&(usize, bool)> =
                list.iter().filter(|(p, _)| (start..=end).contains(p)).collect();
            let outside = list.len() != inside.len();
            if let Some(&&(_, first_reads)) = inside.first() {
                if first_reads || outside {
                    let e = span.get_mut(v).expect("accessed buffers have a span");
                    e.0 = e.0.min(start);
                    e.1 = e.1.max(end);
                }
            }
        }
    }
    span
}
