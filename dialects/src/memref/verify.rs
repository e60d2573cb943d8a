//! Verifiers of the `memref` ops, for what their declarations cannot say. Messages follow
//! MLIR's.

use kiln_compiler::affine::AffineMap;
use kiln_compiler::dialect::operand_group;
use kiln_compiler::{AttrKind, Context, Diagnostic, Ir, OpId, TypeKind, DYNAMIC};

pub(crate) fn verify_alloc<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let err = |message: String| Err(Diagnostic::op_error(ir, op, message));
    if ir.attr(op, "alignment").and_then(|a| a.as_int()).is_some_and(|a| a <= 0 || a.count_ones() != 1) {
        return err(
            "attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose \
                    value is positive and whose value is a power of two > 0"
                .into(),
        );
    }
    let TypeKind::MemRef { shape, layout, .. } = *ir.value_type(ir.results(op)[0]).kind() else {
        return Ok(());
    };
    let dynamic = shape.iter().filter(|&&d| d == DYNAMIC).count();
    let sizes = operand_group(ir, op, "dynamicSizes").map_or(0, <[_]>::len);
    // A shape class's host temporary is sized by an expression over its symbols
    // (`npuvec.size`, checked by the `npuvec` dialect) instead of operands: the host program
    // has no scalars.
    let class_sized = sizes == 0 && ir.attr(op, crate::npuvec::SIZE_ATTR).is_some();
    if sizes != dynamic && !class_sized {
        return err(format!("incorrect number of dynamic sizes, has {sizes}, expected {dynamic}"));
    }
    let symbols = match layout.map(|l| l.kind()) {
        Some(AttrKind::AffineMap(AffineMap { num_symbols, .. })) => *num_symbols as usize,
        _ => 0,
    };
    let got = operand_group(ir, op, "symbolOperands").map_or(0, <[_]>::len);
    if got != symbols {
        return err(format!(
            "symbol operand count does not equal memref symbol count: expected {symbols}, got {got}"
        ));
    }
    Ok(())
}

/// The rank of the `memref` group's type and the number of `indices`.
fn rank_and_indices(ir: &Ir<'_>, op: OpId) -> Option<(usize, usize)> {
    let memref = *operand_group(ir, op, "memref")?.first()?;
    let rank = ir.value_type(memref).shape()?.len();
    Some((rank, operand_group(ir, op, "indices")?.len()))
}

pub(crate) fn verify_load<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    match rank_and_indices(ir, op) {
        Some((rank, n)) if rank != n => Err(Diagnostic::op_error(
            ir,
            op,
            format!("incorrect number of indices for load, expected {rank} but got {n}"),
        )),
        _ => Ok(()),
    }
}

pub(crate) fn verify_store<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    match rank_and_indices(ir, op) {
        Some((rank, n)) if rank != n => {
            Err(Diagnostic::op_error(ir, op, "store index operand count not equal to memref rank"))
        }
        _ => Ok(()),
    }
}
