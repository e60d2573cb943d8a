//! Verifiers of `npuvec.set_flag` / `npuvec.wait_flag`: an event id below
//! [`EVENT_IDS`](crate::npuvec::EVENT_IDS) between two different pipes, neither of them `all`
//! (`npuvec.barrier` takes any pipe, which its declaration checks).

use kiln_compiler::{Context, Ir, OpId};

use super::{fail, VResult};
use crate::npuvec::attrs::Pipe;
use crate::npuvec::EVENT_IDS;

pub(crate) fn verify_flag<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let pipe = |name| ir.attr(op, name).and_then(Pipe::of);
    let (Some(src), Some(dst)) = (pipe("src"), pipe("dst")) else { return Ok(()) };
    if src == Pipe::All || dst == Pipe::All {
        return fail(ir, op, "expected `src` and `dst` pipes other than `all`");
    }
    if src == dst {
        return fail(
            ir,
            op,
            format!("expected different `src` and `dst` pipes, but both are `{}`", src.keyword()),
        );
    }
    let event = ir.attr(op, "event").and_then(|e| e.as_int());
    match event {
        Some(e) if (0..EVENT_IDS as i128).contains(&e) => Ok(()),
        Some(e) => fail(ir, op, format!("expected `event` in 0..{}, but got {e}", EVENT_IDS - 1)),
        None => Ok(()),
    }
}
