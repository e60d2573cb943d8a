//! Verifiers of `npuvec.alloc` and `npuvec.buffer`: on-chip buffers (static 2-D memrefs in a
//! non-GM space); a planned buffer has one non-negative offset per result, each a multiple of
//! [`BUFFER_ALIGN`](crate::npuvec::BUFFER_ALIGN) bytes (its results share one type by
//! declaration).

use kiln_compiler::{Context, Ir, OpId};

use super::{check_buffer, fail, i64_array_attr, VResult};
use crate::npuvec::attrs::Space;
use crate::npuvec::BUFFER_ALIGN;

/// The spaces an on-chip buffer may live in.
const ON_CHIP: &[Space] = &[Space::Ub, Space::L1, Space::L0a, Space::L0b, Space::L0c];

fn results_on_chip<'c>(ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    for (i, &r) in ir.results(op).iter().enumerate() {
        check_buffer(ir, op, &format!("result #{i}"), ir.value_type(r), ON_CHIP)?;
    }
    Ok(())
}

pub(crate) fn verify_alloc<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    results_on_chip(ir, op)
}

pub(crate) fn verify_buffer<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    results_on_chip(ir, op)?;
    let offsets = i64_array_attr(ir, op, "offsets")?;
    let results = ir.results(op).len();
    if offsets.len() != results {
        return fail(
            ir,
            op,
            format!("expected one offset per result ({results}), but got {}", offsets.len()),
        );
    }
    if let Some(o) = offsets.iter().find(|&&o| o < 0 || o % BUFFER_ALIGN != 0) {
        return fail(
            ir,
            op,
            format!("expected offsets that are non-negative multiples of {BUFFER_ALIGN} bytes, but got {o}"),
        );
    }
    Ok(())
}
