//! Building `fused.region`s from Rust: the API `kiln-fuse` uses to wrap a group of `hl` ops
//! into one kernel.
//!
//! ```text
//! // %1 = hl.add %a, %b ; %2 = hl.exp %1 ; %3 = hl.mul %2, %c   (all used below)
//! let region = build_region(ctx, ir, RegionKind::Vector, &[add, exp, mul])?;
//! // %0:1 = fused.region vector (%arg3 = %a, %arg4 = %b, %arg5 = %c) : ... {
//! //   %1 = hl.add %arg3, %arg4 ... fused.yield %3 : ...
//! // }
//! ```

use std::collections::{HashMap, HashSet};

use kiln_compiler::ir::{OpId, OperationState, ValueId};
use kiln_compiler::{Context, Ir, NamedAttr, Type};

use super::kind::RegionKind;
use super::verify::check_body;
use super::{REGION_OP, YIELD_OP};

/// The inputs and outputs a region made of `ops` would have.
///
/// Inputs: the values the ops use that no op of the set defines (block arguments included),
/// deduplicated, in first-use order (ops in the given order, operands in order). Outputs: the
/// results of the ops that some op outside the set uses (nested uses count), in op order then
/// result order. Ops nested inside ops of the set are not looked at (`hl` ops have no regions).
pub fn region_inputs_outputs(ir: &Ir<'_>, ops: &[OpId]) -> (Vec<ValueId>, Vec<ValueId>) {
    let set: HashSet<OpId> = ops.iter().copied().collect();
    let mut inputs = Vec::new();
    let mut seen = HashSet::new();
    let mut outputs = Vec::new();
    for &op in ops {
        for &v in ir.operands(op) {
            let inside = ir.defining_op(v).is_some_and(|d| set.contains(&d));
            if !inside && seen.insert(v) {
                inputs.push(v);
            }
        }
        for &r in ir.results(op) {
            if ir.uses(r).iter().any(|u| !set.contains(&u.op)) {
                outputs.push(r);
            }
        }
    }
    (inputs, outputs)
}

/// Wraps `ops` into a new `fused.region` of `kind` and returns the region op.
///
/// `ops` are `hl` ops of one block, in program order, forming a convex set: no path of
/// def-use edges leaves the set and comes back into it. The function
///
/// 1. checks that: the set is non-empty, its ops are distinct, live, attached to one block, in
///    program order and without regions, it is convex, `kind` agrees with the ops (see
///    [`check_body`]: no composites, no non-`hl` ops), and some result is used outside (a
///    region needs a result); on failure it returns `Err` with the IR untouched;
/// 2. computes the inputs and outputs as [`region_inputs_outputs`] does;
/// 3. creates `fused.region` with `kind`, operands = inputs, results = the outputs' types, the
///    location of the last op, and inserts it just before the last op of the set;
/// 4. moves the ops into its body in order, pointing their uses of inputs at the matching
///    block arguments, and appends `fused.yield` of the outputs;
/// 5. replaces every use of output `i` outside the set by region result `i`.
///
/// **Why the last op's position is right.** Every input is defined before the set op using
/// it, hence before the last op, so the inputs dominate the region. Outside users of outputs
/// come after the op defining the output; those after the last op stay where they are. An
/// outside op *between* the first and the last op of the set may depend (transitively) on the
/// set; convexity guarantees that no op of the set depends on it in turn, so such ops (and only
/// those) are moved, in their relative order, to just after the region. Independent ops in
/// between stay before it. The result is verified IR whenever the input was and the checks
/// pass; the region is pure `hl` work, so moving it does not reorder side effects.
pub fn build_region<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    kind: RegionKind,
    ops: &[OpId],
) -> Result<OpId, String> {
    let (first, last) = match (ops.first(), ops.last()) {
        (Some(&f), Some(&l)) => (f, l),
        _ => return Err("cannot build a region of no ops".into()),
    };
    let set: HashSet<OpId> = ops.iter().copied().collect();
    if set.len() != ops.len() {
        return Err("the ops of a region must be distinct".into());
    }
    if let Some(&bad) = ops.iter().find(|&&o| !ir.contains_op(o)) {
        return Err(format!("op {bad:?} is not live"));
    }
    let block = ir.parent_block(first).ok_or("the ops of a region must be in a block")?;
    if let Some(&bad) = ops.iter().find(|&&o| ir.parent_block(o) != Some(block)) {
        return Err(format!("'{}' is not in the block of the first op", ir.op(bad).name));
    }
    if let Some(&bad) = ops.iter().find(|&&o| !ir.regions(o).is_empty()) {
        return Err(format!("'{}' has regions and cannot be fused", ir.op(bad).name));
    }
    check_body(ir, kind, ops.iter().copied()).map_err(|m| format!("a region {m}"))?;
    let movers = span_check(ir, ops, &set, first, last)?;
    let (inputs, outputs) = region_inputs_outputs(ir, ops);
    if outputs.is_empty() {
        return Err("no result of the ops is used outside them; a region needs at least one".into());
    }

    // The region op, with a body block taking the inputs.
    let loc = ir.op(last).loc;
    let kind_attr = NamedAttr { name: ctx.intern_str("kind"), value: kind.attr(ctx) };
    let mut state = OperationState::new(REGION_OP.name, Some(&REGION_OP), loc);
    state.operands = inputs.clone();
    state.result_types = outputs.iter().map(|&v| ir.value_type(v)).collect();
    state.properties = Some(ctx.dict_attr(&[kind_attr]));
    state.num_regions = 1;
    let region_op = ir.create_op(state);
    let body = ir.create_block();
    ir.append_block(ir.regions(region_op)[0], body);
    let args: Vec<ValueId> = inputs
        .iter()
        .map(|&v| {
            let ty: Type<'c> = ir.value_type(v);
            ir.add_block_arg(body, ty, Some(loc))
        })
        .collect();
    ir.insert_op_before(last, region_op);
    // Outside ops in the span that depend on the set go after the region, in order.
    let mut anchor = region_op;
    for op in movers {
        ir.detach_op(op);
        ir.insert_op_after(anchor, op);
        anchor = op;
    }

    // Move the ops in; inputs become block arguments.
    for &op in ops {
        ir.detach_op(op);
        ir.append_op(body, op);
    }
    // Rewire through the ops' own operands (O(region size)), not the inputs' use lists, which
    // can be long for values read all over the function.
    let arg_of: HashMap<ValueId, ValueId> = inputs.iter().copied().zip(args.iter().copied()).collect();
    for &op in ops {
        for i in 0..ir.operands(op).len() {
            if let Some(&arg) = arg_of.get(&ir.operands(op)[i]) {
                ir.set_operand(op, i, arg);
            }
        }
    }
    let mut yield_state = OperationState::new(YIELD_OP.name, Some(&YIELD_OP), loc);
    yield_state.operands = outputs.clone();
    let yield_op = ir.create_op(yield_state);
    ir.append_op(body, yield_op);

    // Outside uses of the outputs read the region's results.
    let results = ir.results(region_op).to_vec();
    for (&v, &r) in outputs.iter().zip(&results) {
        let outer: Vec<_> =
            ir.uses(v).iter().filter(|u| u.op != yield_op && !set.contains(&u.op)).copied().collect();
        for u in outer {
            ir.set_operand(u.op, u.index as usize, r);
        }
    }
    Ok(region_op)
}

/// Sets the `id` of the `fused.region` `region` (its number in `kiln-fuse`'s report), keeping
/// its other properties.
pub fn set_region_id<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, region: OpId, id: u64) {
    let value = ctx.int_attr(i128::from(id), ctx.int_type(64));
    set_property(ctx, ir, region, "id", value);
}

/// Sets the `parts` of the attention region `region` (the fallback kernel of each body op,
/// see `fused.region`), keeping its other properties.
pub fn set_region_parts<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, region: OpId, parts: &[i64]) {
    let items: Vec<_> = parts.iter().map(|&p| ctx.int_attr(i128::from(p), ctx.int_type(64))).collect();
    set_property(ctx, ir, region, "parts", ctx.array_attr(&items));
}

/// Sets the property `name` of `op` to `value`, keeping its other properties.
fn set_property<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    op: OpId,
    name: &str,
    value: kiln_compiler::Attribute<'c>,
) {
    let mut props: Vec<NamedAttr<'c>> = ir
        .op(op)
        .properties
        .and_then(|p| p.as_dict())
        .map(|d| d.iter().filter(|a| a.name != name).copied().collect())
        .unwrap_or_default();
    props.push(NamedAttr { name: ctx.intern_str(name), value });
    ir.op_mut(op).properties = Some(ctx.dict_attr(&props));
}

/// The `id` of a `fused.region`, if it has a valid one.
pub fn region_id(ir: &Ir<'_>, region: OpId) -> Option<u64> {
    ir.attr(region, "id")?.as_int().and_then(|v| u64::try_from(v).ok())
}

/// Walks the block from `first` to `last`: checks that the ops come in program order and that
/// the set is convex, and returns the outside ops in between that depend on the set (in
/// order), which must move after the region.
fn span_check(
    ir: &Ir<'_>,
    ops: &[OpId],
    set: &HashSet<OpId>,
    first: OpId,
    last: OpId,
) -> Result<Vec<OpId>, String> {
    let mut tainted: HashSet<OpId> = HashSet::new();
    let mut movers = Vec::new();
    let mut next_expected = 0;
    let mut cur = Some(first);
    while let Some(op) = cur {
        if set.contains(&op) {
            if ops[next_expected] != op {
                return Err("the ops of a region must be given in program order".into());
            }
            next_expected += 1;
            let from_tainted =
                ir.operands(op).iter().find_map(|&v| ir.defining_op(v).filter(|d| tainted.contains(d)));
            if let Some(d) = from_tainted {
                return Err(format!(
                    "the ops are not convex: '{}' depends on them and '{}' of them depends on it",
                    ir.op(d).name,
                    ir.op(op).name
                ));
            }
        } else {
            // Uses inside nested regions count: the op as a whole must follow its operands.
            let depends = ir.walk(op, kiln_compiler::ir::WalkOrder::PreOrder).any(|inner| {
                ir.operands(inner)
                    .iter()
                    .any(|&v| ir.defining_op(v).is_some_and(|d| set.contains(&d) || tainted.contains(&d)))
            });
            if depends {
                tainted.insert(op);
                movers.push(op);
            }
        }
        if op == last {
            break;
        }
        cur = ir.next_op(op);
    }
    if next_expected != ops.len() {
        return Err("the ops of a region must be given in program order".into());
    }
    Ok(movers)
}
