//! Verifiers of the cube ops: `npuvec.mmad` (L0A x L0B -> L0C, `f32` accumulator, fractal
//! multiples) and `npuvec.fixpipe` (L0C -> UB, one shape).

use kiln_compiler::{Context, Ir, OpId};

use super::{buffer, dims, fail, operand_name, same_elem, VResult};
use crate::npuvec::attrs::Space;
use crate::npuvec::FRACTAL;

/// `npuvec.mmad %a, %b, %c`: `a [m, k]` in L0A, `b [k, n]` in L0B, `c [m, n]` `f32` in L0C.
pub(crate) fn verify_mmad<'c>(ctx: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let a = buffer(ir, op, 0, &[Space::L0a])?;
    let b = buffer(ir, op, 1, &[Space::L0b])?;
    let c = buffer(ir, op, 2, &[Space::L0c])?;
    same_elem(ir, op, &operand_name(ir, op, 1), b.elem, a.elem)?;
    same_elem(ir, op, &operand_name(ir, op, 2), c.elem, ctx.float_type(kiln_compiler::FloatKind::F32))?;
    let (m, k, n) = (a.rows, a.cols, b.cols);
    if b.rows != k || c.shape() != [m, n] {
        return fail(
            ir,
            op,
            format!(
                "expected operands of shapes [m, k], [k, n] and [m, n], but got {}, {} and {}",
                dims(&a.shape()),
                dims(&b.shape()),
                dims(&c.shape())
            ),
        );
    }
    if [m, k, n].iter().any(|d| d % FRACTAL != 0) {
        return fail(
            ir,
            op,
            format!("expected m, k and n to be multiples of {FRACTAL}, but got {m}, {k} and {n}"),
        );
    }
    Ok(())
}

/// `npuvec.fixpipe %src, %dst`: L0C -> UB; `dst` is `src` or its top-left block (a tail tile);
/// the element type may change.
pub(crate) fn verify_fixpipe<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let src = buffer(ir, op, 0, &[Space::L0c])?;
    let dst = buffer(ir, op, 1, &[Space::Ub])?;
    if dst.rows > src.rows || dst.cols > src.cols {
        return fail(
            ir,
            op,
            format!(
                "the destination {}x{} is larger than the source {}x{}",
                dst.rows, dst.cols, src.rows, src.cols
            ),
        );
    }
    Ok(())
}
