//! `fused-inline`: the inverse of `fused-outline`; calls to kernel functions become
//! `fused.region`s again.
//!
//! Rewrites: each `func.call` whose callee is a `func.func` with a body and the unit attribute
//! `fused.kernel` is replaced by a `fused.region` taking the call's operands, whose body is a
//! copy of the callee's body with `func.return` turned into `fused.yield`:
//!
//! ```mlir
//! func.func private @f_kernel0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {fused.kernel, fused.kind = #fused.kind<vector>} {
//!   ... return %1 : tensor<4xf32>
//! }
//! %0 = call @f_kernel0(%a) : (tensor<4xf32>) -> tensor<4xf32>
//! // becomes
//! %0 = fused.region vector (%arg1 = %a) : (tensor<4xf32>) -> tensor<4xf32> { ... fused.yield %1 : tensor<4xf32> }
//! ```
//!
//! The region's kind is the callee's `fused.kind` when that is `"vector"`, `"cube"` or
//! `"mix"` (or `"attention"`) and agrees with the body, else the kind the body needs; the
//! callee's `fused.id` becomes the region's `id`, and an attention kernel's `fused.parts` (its
//! fallback kernels, when they number its ops) the region's `parts`. The region takes the call's location. A private
//! kernel that nothing references any more is erased; public kernels stay.
//! Runs on: `builtin.module` (it erases functions of the module).
//! Assumes: verified IR.
//! Guarantees: verified IR; the program computes the same values. A kernel whose body cannot
//! form a region (a single block of fusable `hl` ops ending in `func.return` of at least one
//! value) keeps its calls,
//! with a warning. `fused-outline | fused-inline` gives the original module back.

use std::collections::HashMap;

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::symbol_table::{resolve, symbol_name};
use kiln_compiler::{
    AttrKind, Attribute, Context, Diagnostic, Ir, NamedAttr, OpId, OperationState, Severity, ValueId,
};
use kiln_dialects::func::{CALL_OP, FUNC_OP, RETURN_OP};
use kiln_dialects::fused::kernel_attrs::{ID, KERNEL, KIND, PARTS};
use kiln_dialects::fused::verify::{check_body, summarize_body};
use kiln_dialects::fused::{set_region_id, set_region_parts, RegionKind, REGION_OP, YIELD_OP};

kiln_compiler::declare_pass! {
    struct Inline;
    name: "fused-inline",
    summary: "Inline kernel functions back into fused regions",
    description: "Each func.call to a function marked `fused.kernel` becomes a fused.region holding a \
                  copy of the kernel's body; kernels left unreferenced are erased.",
    anchor: "builtin.module",

    fn run(&mut self, cx, root) {
        let ir = &*cx.ir;
        let calls: Vec<(OpId, OpId)> = ir
            .walk(root, WalkOrder::PreOrder)
            .filter(|&op| ir.is(op, &CALL_OP))
            .filter_map(|call| {
                let callee = resolve(ir, call, ir.attr(call, "callee")?)?;
                let is_kernel =
                    ir.is(callee, &FUNC_OP) && ir.attr(callee, KERNEL).is_some();
                is_kernel.then_some((call, callee))
            })
            .collect();
        // The kind of each kernel, or why it cannot be inlined.
        let mut kinds: HashMap<OpId, Option<RegionKind>> = HashMap::new();
        let mut inlined = 0;
        for (call, callee) in calls {
            let kind = *kinds.entry(callee).or_insert_with(|| {
                let kind = kernel_kind(cx.ir, callee);
                if let Err(why) = &kind {
                    let name = String::from_utf8_lossy(symbol_name(cx.ir, callee).unwrap_or_default());
                    let msg = format!("kernel @{name} is not inlined: {why}");
                    cx.diagnostics.push(Diagnostic::new(Severity::Warning, cx.ir.op(callee).loc, msg));
                }
                kind.ok()
            });
            if let Some(kind) = kind {
                inline_call(cx.ctx, cx.ir, call, callee, kind);
                inlined += 1;
            }
        }
        // Erase private kernels nothing refers to any more.
        let mut erased = 0;
        for (&callee, kind) in &kinds {
            let private = cx.ir.attr(callee, "sym_visibility").and_then(|v| v.as_str()) == Some(b"private");
            if kind.is_some() && private && !is_referenced(cx.ir, root, callee) {
                cx.ir.erase_op(callee);
                erased += 1;
            }
        }
        cx.add_statistic("num-inlined", "Number of kernel calls turned into fused regions", inlined);
        cx.add_statistic("num-kernels-erased", "Number of kernel functions erased", erased);
        Ok(())
    }
}

/// The region kind of kernel `func`, or why its body cannot form a region.
fn kernel_kind(ir: &Ir<'_>, func: OpId) -> Result<RegionKind, String> {
    let region = ir.regions(func)[0];
    let body = ir.entry_block(region).ok_or("it has no body")?;
    if ir.next_block(body).is_some() {
        return Err("it has several blocks".into());
    }
    let mut ops: Vec<OpId> = ir.block_ops(body).collect();
    if ops.pop().is_none_or(|last| !ir.is(last, &RETURN_OP)) {
        return Err("its body does not end in 'func.return'".into());
    }
    if ir.operands(ir.last_op(body).expect("ends in the return")).is_empty() {
        return Err("it returns no value".into());
    }
    let summary = summarize_body(ir, ops.iter().copied())?;
    let declared = ir.attr(func, KIND).and_then(|k| RegionKind::of(k));
    Ok(declared.filter(|&k| check_body(ir, k, ops.iter().copied()).is_ok()).unwrap_or(summary.kind()))
}

/// The `fused.parts` of attention kernel `callee` (the fallback kernel of each body op, as
/// `fused-outline` keeps them), when they number its ops as the region verifier requires.
fn kernel_parts(ir: &Ir<'_>, callee: OpId, kind: RegionKind) -> Option<Vec<i64>> {
    if kind != RegionKind::Attention {
        return None;
    }
    let items = ir.attr(callee, PARTS)?.as_array()?;
    let parts: Vec<i64> =
        items.iter().map(|a| a.as_int().and_then(|v| i64::try_from(v).ok())).collect::<Option<_>>()?;
    let body = ir.entry_block(ir.regions(callee)[0])?;
    let ops = ir.block_ops(body).count().saturating_sub(1);
    (parts.len() == ops && parts.iter().all(|&p| p >= -1)).then_some(parts)
}

/// Replaces `call` by a `fused.region` of `kind` holding a copy of `callee`'s body.
fn inline_call<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, call: OpId, callee: OpId, kind: RegionKind) {
    let loc = ir.op(call).loc;
    let mut state = OperationState::new(REGION_OP.name, Some(&REGION_OP), loc);
    state.operands = ir.operands(call).to_vec();
    state.result_types = ir.results(call).iter().map(|&v| ir.value_type(v)).collect();
    let kind_attr = NamedAttr { name: ctx.intern_str("kind"), value: kind.attr(ctx) };
    state.properties = Some(ctx.dict_attr(&[kind_attr]));
    state.num_regions = 1;
    let region = ir.create_op(state);
    if let Some(id) = ir.attr(callee, ID).and_then(|a| a.as_int()).and_then(|v| u64::try_from(v).ok()) {
        set_region_id(ctx, ir, region, id);
    }
    if let Some(parts) = kernel_parts(ir, callee, kind) {
        set_region_parts(ctx, ir, region, &parts);
    }
    let block = ir.create_block();
    ir.append_block(ir.regions(region)[0], block);

    let src = ir.entry_block(ir.regions(callee)[0]).expect("checked by kernel_kind");
    let mut map: HashMap<ValueId, ValueId> = HashMap::new();
    for a in ir.block_args(src).to_vec() {
        let (ty, arg_loc) = (ir.value_type(a), ir.value(a).loc);
        map.insert(a, ir.add_block_arg(block, ty, arg_loc));
    }
    // The body is flat (hl ops and the return: checked by kernel_kind).
    for op in ir.block_ops(src).collect::<Vec<_>>() {
        let data = ir.op(op).clone();
        let is_return = data.is(&RETURN_OP);
        let (name, def) =
            if is_return { (YIELD_OP.name, &YIELD_OP) } else { (data.name, data.def.unwrap_or(&YIELD_OP)) };
        let mut copy = OperationState::new(name, Some(def), data.loc);
        copy.operands = ir.operands(op).iter().map(|v| *map.get(v).unwrap_or(v)).collect();
        copy.result_types = ir.results(op).iter().map(|&v| ir.value_type(v)).collect();
        copy.attrs = data.attrs.iter().map(|(&k, &v)| (k, v)).collect();
        copy.properties = data.properties;
        let new = ir.create_op(copy);
        for (&old, &fresh) in ir.results(op).to_vec().iter().zip(ir.results(new).to_vec().iter()) {
            map.insert(old, fresh);
        }
        ir.append_op(block, new);
    }

    ir.insert_op_before(call, region);
    let values = ir.results(region).to_vec();
    ir.replace_op_uses(call, &values);
    ir.erase_op(call);
}

/// Whether any op under `root` refers to `func`'s symbol (in attributes or properties, nested
/// in arrays and dictionaries too).
fn is_referenced(ir: &Ir<'_>, root: OpId, func: OpId) -> bool {
    let Some(name) = symbol_name(ir, func) else { return false };
    ir.walk(root, WalkOrder::PreOrder).any(|op| {
        let data = ir.op(op);
        let mut stack: Vec<Attribute<'_>> = data.attrs.values().copied().collect();
        stack.extend(data.properties);
        while let Some(a) = stack.pop() {
            match *a.kind() {
                AttrKind::SymbolRef { root, .. } if root == name => return true,
                AttrKind::Array(items) => stack.extend(items),
                AttrKind::Dictionary(entries) => stack.extend(entries.iter().map(|e| e.value)),
                _ => {}
            }
        }
        false
    })
}
