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
//! Runs on: `builtin.module`. Assumes: `kiln-codegen-lower` ran. Guarantees: no
//! `npuvec.alloc` left; a kernel whose buffers do not fit is a located error stating the
//! required and the available bytes (the tile pass sizes tiles with the same placement, so this
//! only fires when a kernel's buffers were written by hand or the tile was forced).

use rustc_hash::FxHashMap;

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::PassFailed;
use kiln_compiler::{Context, Diagnostic, Ir, OpId, Type, TypeKind, ValueId};
use kiln_targets::Target;

use crate::codegen::access::touches;
use crate::codegen::build::{i64_array, i64_attr, op_def, set_attr};
use crate::codegen::options::{load_target, TARGET_SPECS};
use crate::codegen::placement::{place, Item};
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
        let mut failed = false;
        for kernel in kernels(cx.ir, root) {
            if let Err(message) = plan_kernel(cx.ctx, cx.ir, kernel, &self.target) {
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
        ir.walk(kernel, WalkOrder::PreOrder).filter(|&o| ir.op(o).name == "npuvec.alloc").collect();
    let mut by_space: FxHashMap<String, Vec<OpId>> = FxHashMap::default();
    for &a in &allocs {
        let ty = ir.value_type(ir.results(a)[0]);
        let space = space_of(ty).ok_or_else(|| format!("npuvec.alloc of {ty} has no npuvec memory space"))?;
        by_space.entry(space).or_default().push(a);
    }
    let mut spaces: Vec<String> = by_space.keys().cloned().collect();
    spaces.sort();
    let mut ub_bytes = 0;
    for space in spaces {
        let ops = &by_space[&space];
        let (cap, field) =
            capacity(target, &space).ok_or_else(|| format!("cannot place a buffer in '{space}'"))?;
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
        for (&a, &off) in ops.iter().zip(&offsets) {
            let attr = i64_array(ctx, &[off as i64]);
            let data = ir.op_mut(a);
            data.name = "npuvec.buffer";
            data.def = op_def("npuvec.buffer");
            let name = ctx.intern_str("offsets");
            if data.def.is_some() {
                data.properties = Some(ctx.dict_attr(&[kiln_compiler::NamedAttr { name, value: attr }]));
            } else {
                data.attrs.insert(name, attr);
                data.attrs.sort_keys();
            }
        }
    }
    set_attr(ctx, ir, kernel, "npuvec.ub_bytes", i64_attr(ctx, ub_bytes as i64));
    Ok(())
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
        if ir.op(op).name != "scf.for" {
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
