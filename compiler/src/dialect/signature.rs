//! Named operands and results: declared groups (single, optional, variadic) with type
//! constraints, and their segments.
//!
//! An op's operands are split into its declared groups in order. With at most one optional or
//! variadic group, the group sizes follow from the operand count; with more, the op carries
//! MLIR's `operandSegmentSizes` property (`<{operandSegmentSizes = array<i32: 1, 0, 2>}>`), one
//! size per group, and likewise `resultSegmentSizes` for results.

use crate::attributes::{AttrKind, Attribute};
use crate::dialect::constraint::TypeConstraint;
use crate::ir::{Ir, OpId, ValueId};

/// The property holding operand group sizes.
pub const OPERAND_SEGMENTS: &str = "operandSegmentSizes";
/// The property holding result group sizes.
pub const RESULT_SEGMENTS: &str = "resultSegmentSizes";

/// How many values a declared group holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Exactly one.
    Single,
    /// Zero or one.
    Optional,
    /// Any number.
    Variadic,
}

/// A named operand or result group of an op declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueDef {
    /// Its name (`lhs`, `dynamicSizes`), as in MLIR's ODS.
    pub name: &'static str,
    /// What the type of each value must be.
    pub constraint: TypeConstraint,
    /// How many values the group holds.
    pub kind: ValueKind,
}

impl ValueDef {
    /// One value.
    pub const fn single(name: &'static str, constraint: TypeConstraint) -> Self {
        ValueDef { name, constraint, kind: ValueKind::Single }
    }

    /// Zero or one value.
    pub const fn optional(name: &'static str, constraint: TypeConstraint) -> Self {
        ValueDef { name, constraint, kind: ValueKind::Optional }
    }

    /// Any number of values.
    pub const fn variadic(name: &'static str, constraint: TypeConstraint) -> Self {
        ValueDef { name, constraint, kind: ValueKind::Variadic }
    }

    /// The description of one value of the group in messages (`variadic of index`).
    pub fn describe(&self) -> String {
        match self.kind {
            ValueKind::Variadic => format!("variadic of {}", self.constraint.describe()),
            _ => self.constraint.describe(),
        }
    }
}

/// Whether groups `defs` need a segment-sizes property (more than one non-single group).
pub fn needs_segments(defs: &[ValueDef]) -> bool {
    defs.iter().filter(|d| d.kind != ValueKind::Single).count() > 1
}

/// Why the values of an op cannot be split into its declared groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentError {
    /// Too few values for the single groups (the count check reports it).
    Count,
    /// The segment property is not an `array<i32: ...>`.
    NotDenseI32,
    /// The property has the wrong number of elements.
    Length {
        /// Number of declared groups.
        expected: usize,
        /// Number of elements.
        got: usize,
    },
    /// A size is negative.
    Negative,
    /// The sizes do not add up to the value count.
    Total {
        /// Number of values.
        count: usize,
        /// Sum of the sizes.
        total: usize,
    },
}

/// The size of each group in `defs` for `count` values, taken from the segment property `attr`
/// when the groups need one (an absent property counts as all zeros, as MLIR's default
/// properties do).
pub fn group_sizes(
    defs: &[ValueDef],
    count: usize,
    attr: Option<Attribute<'_>>,
) -> Result<Vec<usize>, SegmentError> {
    if !needs_segments(defs) {
        let singles = defs.iter().filter(|d| d.kind == ValueKind::Single).count();
        let rest = count.checked_sub(singles).ok_or(SegmentError::Count)?;
        if rest > 0 && defs.len() == singles {
            return Err(SegmentError::Count);
        }
        return Ok(defs.iter().map(|d| if d.kind == ValueKind::Single { 1 } else { rest }).collect());
    }
    let sizes = match attr {
        None => vec![0; defs.len()],
        Some(a) => dense_i32(a).ok_or(SegmentError::NotDenseI32)?,
    };
    if sizes.len() != defs.len() {
        return Err(SegmentError::Length { expected: defs.len(), got: sizes.len() });
    }
    if sizes.iter().any(|&s| s < 0) {
        return Err(SegmentError::Negative);
    }
    let sizes: Vec<usize> = sizes.into_iter().map(|s| s as usize).collect();
    let total = sizes.iter().sum();
    if total != count {
        return Err(SegmentError::Total { count, total });
    }
    Ok(sizes)
}

/// The elements of an `array<i32: ...>` attribute.
fn dense_i32(attr: Attribute<'_>) -> Option<Vec<i32>> {
    match *attr.kind() {
        AttrKind::DenseArray { elem, len, bytes } if elem.is_integer() && elem.bit_width() == Some(32) => {
            let sizes: Vec<i32> =
                bytes.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            (sizes.len() == len).then_some(sizes)
        }
        _ => None,
    }
}

/// The values of group `name` among `values`, split by `defs` (and the segment property
/// `attr`); `None` when there is no such group or the values do not split.
fn group<'a>(
    defs: &[ValueDef],
    values: &'a [ValueId],
    attr: Option<Attribute<'_>>,
    name: &str,
) -> Option<&'a [ValueId]> {
    let index = defs.iter().position(|d| d.name == name)?;
    let sizes = group_sizes(defs, values.len(), attr).ok()?;
    let start: usize = sizes[..index].iter().sum();
    values.get(start..start + sizes[index])
}

/// The operands of `op` in its declared group `name` (MLIR's `getODSOperands`); `None` when
/// the op declares no such group or its operands do not split into the declared groups.
pub fn operand_group<'a>(ir: &'a Ir<'_>, op: OpId, name: &str) -> Option<&'a [ValueId]> {
    let defs = ir.op(op).def?.operands.defs();
    group(defs, ir.operands(op), ir.attr(op, OPERAND_SEGMENTS), name)
}

/// The results of `op` in its declared group `name`, as [`operand_group`].
pub fn result_group<'a>(ir: &'a Ir<'_>, op: OpId, name: &str) -> Option<&'a [ValueId]> {
    let defs = ir.op(op).def?.results.defs();
    group(defs, ir.results(op), ir.attr(op, RESULT_SEGMENTS), name)
}
