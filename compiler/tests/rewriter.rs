//! The rewriter tells its listener about every change; it refuses to forward an op to its own
//! result; the greedy driver applies a pattern only to ops of its root definition and
//! revisits what a rewrite changed.

use bumpalo::Bump;
use kiln_compiler::ir::Ir;
use kiln_compiler::rewrite::{
    apply_patterns_greedily, GreedyConfig, InsertPoint, Listener, PatternSet, RewritePattern, Rewriter,
};
use kiln_compiler::{Arity, Context, DialectRegistry, OpDef, OpId, OperationState, ValueId};

static T_A: OpDef = OpDef { name: "t.a", operands: Arity::Any, results: Arity::Exactly(1), ..OpDef::DEFAULT };
static T_B: OpDef = OpDef { name: "t.b", operands: Arity::Any, results: Arity::Exactly(1), ..OpDef::DEFAULT };

fn op<'c>(ctx: &Context<'c>, def: &'static OpDef, operands: &[ValueId]) -> OperationState<'c> {
    let mut s = OperationState::new(def.name, Some(def), ctx.unknown_loc());
    s.operands = operands.to_vec();
    s.result_types = vec![ctx.int_type(32)];
    s
}

#[derive(Default)]
struct Log(Vec<String>);

impl<'c> Listener<'c> for Log {
    fn notify_inserted(&mut self, ir: &Ir<'c>, op: OpId) {
        self.0.push(format!("inserted {}", ir.op(op).name));
    }
    fn notify_modified(&mut self, ir: &Ir<'c>, op: OpId) {
        self.0.push(format!("modified {}", ir.op(op).name));
    }
    fn notify_replaced(&mut self, ir: &Ir<'c>, op: OpId, with: &[ValueId]) {
        self.0.push(format!("replaced {} by {} values", ir.op(op).name, with.len()));
    }
    fn notify_erased(&mut self, ir: &Ir<'c>, op: OpId) {
        self.0.push(format!("erased {}", ir.op(op).name));
    }
}

#[test]
fn the_listener_hears_every_change() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    let block = ir.create_block();
    let s = op(&ctx, &T_A, &[]);
    let a = ir.create_op(s);
    ir.append_op(block, a);
    let va = ir.results(a)[0];
    let s = op(&ctx, &T_B, &[va]);
    let user = ir.create_op(s);
    ir.append_op(block, user);
    let mut log = Log::default();
    let mut rw = Rewriter::with_listener(&ctx, &mut ir, &mut log);
    let s = op(&ctx, &T_B, &[]);
    let b = rw.create(InsertPoint::Before(a), s);
    let vb = rw.ir().results(b)[0];
    assert!(rw.replace_op(a, &[vb]));
    rw.set_operands(user, &[vb, vb]);
    assert_eq!(rw.ir().operands(user), &[vb, vb]);
    assert_eq!(
        log.0,
        ["inserted t.b", "replaced t.a by 1 values", "modified t.b", "erased t.a", "modified t.b"]
    );
}

#[test]
fn an_op_is_never_forwarded_to_its_own_result() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    let block = ir.create_block();
    let a = ir.create_op(op(&ctx, &T_A, &[]));
    ir.append_op(block, a);
    let own = ir.results(a)[0];
    ir.set_operands(a, &[own]);
    let mut rw = Rewriter::new(&ctx, &mut ir);
    assert!(!rw.replace_op(a, &[own]), "`%0 = t.a %0` cannot become `%0`");
    assert!(ir.contains_op(a) && ir.uses(own).len() == 1);
}

/// `t.a(x) -> x`, rooted on `t.a`.
struct ForwardA;

impl RewritePattern for ForwardA {
    fn root(&self) -> Option<&'static OpDef> {
        Some(&T_A)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        match *rw.ir().operands(op) {
            [x] => rw.replace_op(op, &[x]),
            _ => false,
        }
    }
}

#[test]
fn the_greedy_driver_applies_patterns_to_their_root_and_revisits_changes() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut ir = Ir::new();
    let mut s = OperationState::new("t.top", None, ctx.unknown_loc());
    s.num_regions = 1;
    let top = ir.create_op(s);
    let block = ir.create_block();
    let region = ir.regions(top)[0];
    ir.append_block(region, block);
    let x = ir.add_block_arg(block, ctx.int_type(32), None);
    // t.a(t.a(t.b(x))) used by a t.b that has an operand, so only the t.a ops forward.
    let b = ir.create_op(op(&ctx, &T_B, &[x]));
    ir.append_op(block, b);
    let vb = ir.results(b)[0];
    let a1 = ir.create_op(op(&ctx, &T_A, &[vb]));
    ir.append_op(block, a1);
    let v1 = ir.results(a1)[0];
    let a2 = ir.create_op(op(&ctx, &T_A, &[v1]));
    ir.append_op(block, a2);
    let v2 = ir.results(a2)[0];
    let mut s = OperationState::new("t.sink", None, ctx.unknown_loc());
    s.operands = vec![v2];
    let sink = ir.create_op(s);
    ir.append_op(block, sink);
    let mut patterns = PatternSet::new();
    patterns.add(ForwardA);
    let stats = apply_patterns_greedily(&ctx, &mut ir, top, &patterns, GreedyConfig::default());
    assert_eq!((stats.rewrites, stats.converged), (2, true));
    assert_eq!(ir.operands(sink), &[vb]);
    assert_eq!(ir.block_ops(block).collect::<Vec<_>>(), vec![b, sink]);
}
