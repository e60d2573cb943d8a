//! The IR store through its API: use lists stay exact under rewriting, erasing a used op fails
//! at once, erased slots are reused but stale handles to them are caught (debug builds),
//! walks are iterative (deep nesting), the verifier reports dominance errors, and deep clones
//! remap values, block arguments and successors.

use bumpalo::Bump;
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, DialectRegistry, Ir, OpId, OperationState, ValueId};

fn op<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, name: &str, operands: &[ValueId], results: usize) -> OpId {
    let mut s = OperationState::new(ctx.intern_str(name), None, ctx.unknown_loc());
    s.operands = operands.to_vec();
    s.result_types = vec![ctx.int_type(32); results];
    ir.create_op(s)
}

#[test]
fn use_lists_follow_rewrites() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    let block = ir.create_block();
    let a = op(&ctx, &mut ir, "t.a", &[], 1);
    ir.append_op(block, a);
    let va = ir.results(a)[0];
    let b = op(&ctx, &mut ir, "t.b", &[va, va], 1);
    ir.append_op(block, b);
    assert_eq!(ir.uses(va).len(), 2);
    let c = op(&ctx, &mut ir, "t.c", &[], 1);
    ir.insert_op_before(b, c);
    let vc = ir.results(c)[0];
    ir.replace_all_uses(va, vc);
    assert!(ir.uses(va).is_empty());
    assert_eq!(ir.uses(vc).len(), 2);
    assert_eq!(ir.operands(b), &[vc, vc]);
    ir.set_operand(b, 1, va);
    assert_eq!((ir.uses(va).len(), ir.uses(vc).len()), (1, 1));
    assert_eq!(ir.block_ops(block).collect::<Vec<_>>(), vec![a, c, b]);
    // Erasing b releases its uses; its slot is reused by the next op.
    ir.erase_op(b);
    assert!(ir.uses(va).is_empty() && ir.uses(vc).is_empty());
    let d = op(&ctx, &mut ir, "t.d", &[], 0);
    assert_eq!(d.index(), b.index(), "erased slots are reused");
    assert_eq!(ir.block_ops(block).collect::<Vec<_>>(), vec![a, c]);
}

#[test]
fn walks_are_iterative_and_ordered() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    // 20,000 nested single-region ops: recursion would overflow a test thread's stack.
    let root = op(&ctx, &mut ir, "t.nest", &[], 0);
    let mut s = OperationState::new(ctx.intern_str("t.nest"), None, ctx.unknown_loc());
    s.num_regions = 1;
    let mut parent = ir.create_op(s.clone());
    let first = parent;
    for _ in 0..20_000 {
        let region = ir.regions(parent)[0];
        let block = ir.create_block();
        ir.append_block(region, block);
        let child = ir.create_op(s.clone());
        ir.append_op(block, child);
        parent = child;
    }
    let pre: Vec<OpId> = ir.walk(first, WalkOrder::PreOrder).collect();
    let post: Vec<OpId> = ir.walk(first, WalkOrder::PostOrder).collect();
    assert_eq!(pre.len(), 20_001);
    assert_eq!(pre[0], first);
    assert_eq!(post[20_000], first);
    assert_eq!(post[0], parent);
    assert_eq!(ir.walk(root, WalkOrder::PreOrder).count(), 1);
    ir.erase_op(first);
    assert_eq!(ir.num_ops(), 1);
}

#[test]
fn verifier_reports_uses_before_definitions() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_compiler::DialectRegistry::new());
    let mut ir = Ir::new();
    let mut s = OperationState::new(ctx.intern_str("t.func"), None, ctx.unknown_loc());
    s.num_regions = 1;
    let f = ir.create_op(s);
    let block = ir.create_block();
    ir.append_block(ir.regions(f)[0], block);
    // A second block: like MLIR, Kiln takes a single-block region of an unregistered op to
    // be a graph region, and a multi-block one to have SSA dominance.
    let exit = ir.create_block();
    ir.append_block(ir.regions(f)[0], exit);
    // (A block of a multi-block region may not be empty; an unregistered op may end it.)
    let end = op(&ctx, &mut ir, "t.end", &[], 0);
    ir.append_op(exit, end);
    let a = op(&ctx, &mut ir, "t.a", &[], 1);
    let va = ir.results(a)[0];
    let b = op(&ctx, &mut ir, "t.b", &[va], 0);
    ir.append_op(block, b);
    ir.append_op(block, a);
    let errors = verify(&ctx, &ir, f).unwrap_err();
    assert_eq!(errors.len(), 1);
    // MLIR's wording: no op prefix, and a note at the definition saying where it is.
    assert_eq!(errors[0].message, "operand #0 does not dominate this use");
    // MLIR's notes: the op as it stands (generic form, local scope), then the definition.
    assert_eq!(errors[0].notes.len(), 2);
    assert_eq!(errors[0].notes[0].message, "see current operation: \"t.b\"(%0) : (i32) -> ()");
    assert_eq!(errors[0].notes[1].message, "operand defined here (op in the same block)");
    ir.move_op_before(a, b);
    assert!(verify(&ctx, &ir, f).is_ok());
}

#[test]
fn dominance_note_says_where_the_definition_is() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_compiler::DialectRegistry::new());
    let mut ir = Ir::new();
    // `t.w` has two regions of two blocks each (so both have SSA dominance); a value defined
    // in the first and used in the second is in neither a parent nor a child region.
    let mut s = OperationState::new(ctx.intern_str("t.w"), None, ctx.unknown_loc());
    s.num_regions = 2;
    let w = ir.create_op(s);
    let mut entries = Vec::new();
    for r in 0..2 {
        let region = ir.regions(w)[r];
        let entry = ir.create_block();
        ir.append_block(region, entry);
        let second = ir.create_block();
        ir.append_block(region, second);
        let end = op(&ctx, &mut ir, "t.end", &[], 0);
        ir.append_op(second, end);
        entries.push(entry);
    }
    let a = op(&ctx, &mut ir, "t.a", &[], 1);
    ir.append_op(entries[0], a);
    let va = ir.results(a)[0];
    let b = op(&ctx, &mut ir, "t.b", &[va], 0);
    ir.append_op(entries[1], b);
    let errors = verify(&ctx, &ir, w).unwrap_err();
    assert_eq!(errors[0].message, "operand #0 does not dominate this use");
    assert_eq!(
        errors[0].notes[1].message,
        "operand defined here (op is neither in a parent nor in a child region)"
    );
    // A block argument of the second block of the first region, used in its entry block.
    let arg_block = ir.next_block(entries[0]).unwrap();
    let x = ir.add_block_arg(arg_block, ctx.index_type(), None);
    ir.set_operands(b, &[]);
    let c = op(&ctx, &mut ir, "t.c", &[x], 0);
    ir.append_op(entries[0], c);
    let errors = verify(&ctx, &ir, w).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0].notes[1].message,
        "operand defined as a block argument (block #1 in the same region)"
    );
}

/// Every use recorded by a value is an operand pointing back at it, and every operand is
/// recorded once.
fn assert_use_lists_exact(ir: &Ir<'_>, ops: &[OpId], values: &[ValueId]) {
    let mut recorded = 0;
    for &v in values {
        for u in ir.uses(v) {
            assert_eq!(ir.operands(u.op)[u.index as usize], v, "stale use {u:?} of {v:?}");
            recorded += 1;
        }
    }
    let operands: usize = ops.iter().filter(|&&o| ir.contains_op(o)).map(|&o| ir.operands(o).len()).sum();
    assert_eq!(recorded, operands);
}

#[test]
fn use_lists_stay_exact_under_many_rewrites_of_wide_values() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    let block = ir.create_block();
    let sources: Vec<OpId> = (0..4).map(|_| op(&ctx, &mut ir, "t.src", &[], 1)).collect();
    let values: Vec<ValueId> = sources.iter().map(|&s| ir.results(s)[0]).collect();
    let mut users = Vec::new();
    for i in 0..2_000 {
        let u = op(&ctx, &mut ir, "t.use", &[values[i % 4], values[(i + 1) % 4]], 0);
        ir.append_op(block, u);
        users.push(u);
    }
    // A deterministic shuffle of operand rewrites, whole-value replacements and erasures.
    let mut state = 12345u64;
    for step in 0..3_000 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let pick = (state >> 33) as usize;
        let target = users[pick % users.len()];
        if !ir.contains_op(target) {
            continue;
        }
        match step % 7 {
            0 => ir.replace_all_uses(values[pick % 4], values[(pick + 1) % 4]),
            1 => ir.erase_op(target),
            _ => ir.set_operand(target, pick % 2, values[(pick >> 3) % 4]),
        }
    }
    assert_use_lists_exact(&ir, &users, &values);
}

#[test]
#[should_panic(
    expected = "erasing 't.def' (op0) whose result #0 (v0) of 't.def' is still used by 't.user' (op1)"
)]
fn erasing_a_used_op_fails_at_once() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    let block = ir.create_block();
    let def = op(&ctx, &mut ir, "t.def", &[], 1);
    ir.append_op(block, def);
    let v = ir.results(def)[0];
    let user = op(&ctx, &mut ir, "t.user", &[v], 0);
    ir.append_op(block, user);
    ir.erase_op(def);
}

#[test]
#[should_panic(expected = "is still used by 't.outside'")]
fn erasing_a_region_whose_values_are_used_outside_fails() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    let top = ir.create_block();
    let mut s = OperationState::new(ctx.intern_str("t.graph"), None, ctx.unknown_loc());
    s.num_regions = 1;
    let graph = ir.create_op(s);
    ir.append_op(top, graph);
    let inner = ir.create_block();
    let region = ir.regions(graph)[0];
    ir.append_block(region, inner);
    let arg = ir.add_block_arg(inner, ctx.int_type(32), None);
    // A value that uses itself inside is fine to erase with its op ...
    let cyclic = op(&ctx, &mut ir, "t.cyclic", &[arg], 1);
    ir.append_op(inner, cyclic);
    let own = ir.results(cyclic)[0];
    ir.set_operand(cyclic, 0, own);
    // ... one used from outside what is erased is not (a block argument here).
    let outside = op(&ctx, &mut ir, "t.outside", &[arg], 0);
    ir.append_op(top, outside);
    ir.erase_op(graph);
}

#[test]
fn erasing_ops_used_only_inside_what_is_erased_succeeds() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    let block = ir.create_block();
    let cyclic = op(&ctx, &mut ir, "t.cyclic", &[], 1);
    ir.append_op(block, cyclic);
    let own = ir.results(cyclic)[0];
    ir.set_operands(cyclic, &[own]);
    ir.erase_op(cyclic);
    assert_eq!(ir.num_ops(), 0);
}

#[test]
#[cfg(debug_assertions)]
fn a_stale_handle_is_caught_even_after_its_slot_is_reused() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    let block = ir.create_block();
    let old = op(&ctx, &mut ir, "t.old", &[], 1);
    ir.append_op(block, old);
    ir.erase_op(old);
    let new = op(&ctx, &mut ir, "t.new", &[], 1);
    assert_eq!(new.index(), old.index(), "the slot is reused");
    assert!(!ir.contains_op(old) && ir.contains_op(new));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ir.op(old).name));
    let message = caught.expect_err("a stale handle must not read the new op");
    let text = message.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(text.contains("use of stale op0"), "{text}");
}

#[test]
fn clone_op_copies_regions_and_remaps_values_and_successors() {
    use kiln_compiler::ir::Mapping;
    use kiln_compiler::syntax::parse_bytes;
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    ctx.set_allow_unregistered(true);
    let text = r#""t.def"() ({
    ^bb0(%x: i32, %y: i32):
      "t.outer"(%x) ({
      ^bb0(%a: i32):
        %1 = "t.add"(%a, %x) : (i32, i32) -> i32
        "t.br"(%1)[^bb1] : (i32) -> ()
      ^bb1:
        "t.use"(%1) : (i32) -> ()
      }) : (i32) -> ()
    }) : () -> ()"#;
    let mut module = parse_bytes(&ctx, text.as_bytes(), "t").expect("parses");
    let ir = &mut module.ir;
    let def = ir.walk(module.top, WalkOrder::PreOrder).find(|&o| ir.op(o).name == "t.def").unwrap();
    let entry = ir.entry_block(ir.regions(def)[0]).unwrap();
    let (x, y) = (ir.block_args(entry)[0], ir.block_args(entry)[1]);
    let outer = ir.block_ops(entry).next().unwrap();
    let mut map = Mapping::default();
    map.map_value(x, y);
    let copy = ir.clone_op(outer, &mut map);
    ir.insert_op_after(outer, copy);
    assert_eq!(ir.operands(copy), &[y], "operands go through the mapping");
    let blocks = |ir: &Ir<'_>, op: OpId| ir.region_blocks(ir.regions(op)[0]).collect::<Vec<_>>();
    let (old, new) = (blocks(ir, outer), blocks(ir, copy));
    assert_eq!(new.len(), 2);
    assert!(old.iter().all(|b| !new.contains(b)), "blocks are copies");
    let a = ir.block_args(new[0])[0];
    assert_ne!(a, ir.block_args(old[0])[0], "block arguments are fresh");
    let ops: Vec<OpId> = ir.block_ops(new[0]).collect();
    let add = ops[0];
    // The inner use of %x is mapped too; the copy's own values are used inside it.
    assert_eq!(ir.operands(add), &[a, y]);
    assert_eq!(ir.operands(ops[1]), &[ir.results(add)[0]]);
    assert_eq!(ir.successors(ops[1]), &[new[1]], "successors point into the copy");
    let user = ir.block_ops(new[1]).next().unwrap();
    assert_eq!(ir.operands(user), &[ir.results(add)[0]]);
    // The original is untouched, and both verify.
    assert_eq!(ir.operands(outer), &[x]);
    assert_eq!(ir.uses(x).len(), 2, "the original outer op and add");
    assert!(verify(&ctx, ir, module.top).is_ok());
}
