//! `fused-outline`: moves every `fused.region` into its own kernel function.
//!
//! Rewrites: each `fused.region` nested in a `func.func` @f that sits directly in a symbol
//! table (a `builtin.module`) becomes a private `func.func @f_kernel<N>` (N counts from 0 per
//! function, skipping names already taken in the table) inserted just before @f, and a
//! `func.call` to it in the region's place:
//!
//! ```mlir
//! %0 = fused.region vector (%arg1 = %a) : (tensor<4xf32>) -> tensor<4xf32> { ... fused.yield %1 : tensor<4xf32> }
//! // becomes
//! func.func private @f_kernel0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {fused.kernel, fused.kind = #fused.kind<vector>} {
//!   ... return %1 : tensor<4xf32>
//! }
//! %0 = call @f_kernel0(%a) : (tensor<4xf32>) -> tensor<4xf32>
//! ```
//!
//! The kernel takes the region's inputs and returns its results; its body is the region's
//! body (moved, not copied) with `fused.yield` turned into `func.return`. It is marked with the
//! unit attribute `fused.kernel` and carries the region kind as `fused.kind` (and its `id`, if
//! any, as `fused.id`; an attention region's `parts` as `fused.parts`), which `fused-inline`
//! uses to rebuild the region. The call and the kernel take the region's
//! location.
//! Runs on: `builtin.module` (it adds functions to the module).
//! Assumes: verified IR. Regions outside such functions are left alone.
//! Guarantees: verified IR with no `fused.region` left in those functions; the program
//! computes the same values (the interpreter runs both forms); `fused-inline` restores the
//! original regions. Discardable attributes of a region are dropped.

use std::collections::HashSet;

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::symbol_table::{is_symbol_table, symbol_name, symbols};
use kiln_compiler::{Context, Ir, NamedAttr, OpId, OperationState, Type};
use kiln_dialects::func::{CALL_OP, FUNC_OP, RETURN_OP};
use kiln_dialects::fused::kernel_attrs::{ID, KERNEL, KIND, PARTS};
use kiln_dialects::fused::{RegionKind, REGION_OP};

kiln_compiler::declare_pass! {
    struct Outline;
    name: "fused-outline",
    summary: "Outline fused regions into kernel functions",
    description: "Each fused.region in a function @f becomes a private function @f_kernel<N> marked \
                  `fused.kernel` (with its kind as `fused.kind`) and a func.call to it.",
    anchor: "builtin.module",

    fn run(&mut self, cx, root) {
        let ir = &*cx.ir;
        let funcs: Vec<OpId> = ir
            .walk(root, WalkOrder::PreOrder)
            .filter(|&op| {
                ir.is(op, &FUNC_OP) && ir.parent_op(op).is_some_and(|p| is_symbol_table(ir, p))
            })
            .collect();
        let mut outlined = 0;
        for func in funcs {
            let ir = &*cx.ir;
            let regions: Vec<OpId> =
                ir.walk(func, WalkOrder::PreOrder).filter(|&op| ir.is(op, &REGION_OP)).collect();
            if regions.is_empty() {
                continue;
            }
            let table = ir.parent_op(func).expect("filtered on a symbol-table parent");
            let mut taken: HashSet<Vec<u8>> = symbols(ir, table).keys().map(|k| k.to_vec()).collect();
            let base = symbol_name(ir, func).unwrap_or_default().to_vec();
            let mut n = 0usize;
            for region in regions {
                let name = loop {
                    let mut candidate = base.clone();
                    candidate.extend_from_slice(format!("_kernel{n}").as_bytes());
                    n += 1;
                    if taken.insert(candidate.clone()) {
                        break candidate;
                    }
                };
                outline(cx.ctx, cx.ir, func, region, &name);
                outlined += 1;
            }
        }
        cx.add_statistic("num-outlined", "Number of fused regions outlined into kernels", outlined);
        Ok(())
    }
}

/// Moves `region` (inside `func`) into a new kernel function `name` inserted before `func`,
/// and replaces it by a call.
fn outline<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, func: OpId, region: OpId, name: &[u8]) {
    let loc = ir.op(region).loc;
    let inputs: Vec<Type<'c>> = ir.operands(region).iter().map(|&v| ir.value_type(v)).collect();
    let results: Vec<Type<'c>> = ir.results(region).iter().map(|&v| ir.value_type(v)).collect();
    let kind = ir.attr(region, "kind").unwrap_or_else(|| RegionKind::Vector.attr(ctx));
    let named = |n: &str, value| NamedAttr { name: ctx.intern_str(n), value };

    let mut state = OperationState::new(FUNC_OP.name, Some(&FUNC_OP), loc);
    state.properties = Some(ctx.dict_attr(&[
        named("sym_name", ctx.str_attr(name)),
        named("function_type", ctx.type_attr(ctx.function_type(&inputs, &results))),
        named("sym_visibility", ctx.str_attr(b"private")),
    ]));
    state.attrs = vec![(ctx.intern_str(KERNEL), ctx.unit_attr()), (ctx.intern_str(KIND), kind)];
    if let Some(id) = ir.attr(region, "id") {
        state.attrs.push((ctx.intern_str(ID), id));
    }
    if let Some(parts) = ir.attr(region, "parts") {
        state.attrs.push((ctx.intern_str(PARTS), parts));
    }
    state.num_regions = 1;
    let kernel = ir.create_op(state);
    ir.take_region_body(ir.regions(kernel)[0], ir.regions(region)[0]);
    ir.insert_op_before(func, kernel);
    // fused.yield -> func.return.
    let body = ir.entry_block(ir.regions(kernel)[0]).expect("verified regions have a body");
    if let Some(term) = ir.last_op(body) {
        let mut ret = OperationState::new(RETURN_OP.name, Some(&RETURN_OP), ir.op(term).loc);
        ret.operands = ir.operands(term).to_vec();
        let ret = ir.create_op(ret);
        ir.insert_op_before(term, ret);
        ir.erase_op(term);
    }

    let mut call = OperationState::new(CALL_OP.name, Some(&CALL_OP), loc);
    call.operands = ir.operands(region).to_vec();
    call.result_types = results;
    call.properties = Some(ctx.dict_attr(&[named("callee", ctx.symbol_ref_attr(name))]));
    let call = ir.create_op(call);
    ir.insert_op_before(region, call);
    let values = ir.results(call).to_vec();
    ir.replace_op_uses(region, &values);
    ir.erase_op(region);
}
