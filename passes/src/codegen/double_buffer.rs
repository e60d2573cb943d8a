//! Double buffering of a vector kernel's tile loop, as `kiln-codegen-plan-ub` applies it.
//!
//! The tile loop `scf.for %t = %b to %n step %s` becomes a loop of step `2 * %s` whose body
//! runs the original tile at `%t` on the first copy ("ping") of every buffer and, under
//! `scf.if %t + %s < %n`, the tile at `%t + %s` on the second copy ("pong"). The two copies are
//! the two results of one `npuvec.buffer`. No buffer may carry a value from one tile to the
//! next (then the copies would split it); [`tile_loop`] refuses such loops. What overlaps is
//! decided by `kiln-codegen-insert-sync`: the ping and pong buffers never conflict, so the
//! loads of one tile need not wait for the vector work and the stores of the other.

use kiln_compiler::InsertPoint;
use kiln_dialects::{arith, npuvec, scf};
use rustc_hash::{FxHashMap, FxHashSet};

use kiln_compiler::ir::{Mapping, WalkOrder};
use kiln_compiler::{Context, Ir, OpId, ValueId};

use super::access::touches;
use super::build::{i64_attr, Build, Builder};

/// The kernel's tile loop (its one top-level `scf.for`) when no buffer used inside it is read
/// before it is written in an iteration; `None` otherwise.
pub fn tile_loop(ir: &Ir<'_>, kernel: OpId) -> Option<OpId> {
    let body = ir.regions(kernel).first().and_then(|&r| ir.entry_block(r))?;
    let mut loops = ir.block_ops(body).filter(|&o| ir.is(o, &scf::FOR_OP));
    let l = loops.next()?;
    if loops.next().is_some() {
        return None;
    }
    let mut seen: FxHashSet<ValueId> = FxHashSet::default();
    for op in ir.walk(l, WalkOrder::PreOrder) {
        for t in touches(ir, op) {
            let on_chip = ir.defining_op(t.value).is_some_and(|d| ir.is(d, &npuvec::ALLOC_OP));
            if on_chip && seen.insert(t.value) && t.read {
                return None;
            }
        }
    }
    Some(l)
}

/// Unrolls `tile` by two: the second tile uses `pong[v]` wherever the first uses `v`.
pub fn unroll<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, tile: OpId, pong: &FxHashMap<ValueId, ValueId>) {
    let loc = ir.op(tile).loc;
    let (ub, step) = (ir.operands(tile)[1], ir.operands(tile)[2]);
    let mut b = Builder::new(ctx, ir, InsertPoint::Before(tile), loc);
    let two = b.index(2);
    let step2 = b.index_op(&arith::MULI_OP, step, two);
    ir.set_operand(tile, 2, step2);
    let body = ir.entry_block(ir.regions(tile)[0]).expect("loops have a body");
    let iv = ir.block_args(body)[0];
    let ops: Vec<OpId> = ir.block_ops(body).collect();
    let (&term, tile_ops) = ops.split_last().expect("loop bodies end in scf.yield");
    let mut b = Builder::new(ctx, ir, InsertPoint::Before(term), loc);
    let next = b.index_op(&arith::ADDI_OP, iv, step);
    // Predicate 2 is `slt` (indices here are never negative).
    let more = b.value(&arith::CMPI_OP, &[next, ub], &[("predicate", i64_attr(ctx, 2))], ctx.int_type(1));
    let guard = b.op(&scf::IF_OP, &[more], &[], &[], 2);
    let then = ir.create_block();
    ir.append_block(ir.regions(guard)[0], then);
    let mut map = Mapping::default();
    map.map_value(iv, next);
    for (&ping, &p) in pong {
        map.map_value(ping, p);
    }
    for &op in tile_ops {
        let copy = ir.clone_op(op, &mut map);
        ir.append_op(then, copy);
    }
    Builder::new(ctx, ir, InsertPoint::BlockEnd(then), loc).op(&scf::YIELD_OP, &[], &[], &[], 0);
}
