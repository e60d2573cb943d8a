//! The checks derived from an op's named operands and results: group sizes (from the segment
//! property when more than one group varies), each value's type constraint, then the
//! constraints that relate two groups. Messages are MLIR's ODS-generated ones; as there, the
//! first failure of an op is reported.

use crate::dialect::{
    group_sizes, Arity, OpDef, SegmentError, ValueDef, ValueKind, OPERAND_SEGMENTS, RESULT_SEGMENTS,
};
use crate::ir::{Ir, OpId, ValueId};

/// The first signature error of `op` (the message, without the op prefix), if any. Assumes the
/// operand and result counts satisfy the declaration.
pub(super) fn verify_signature(ir: &Ir<'_>, op: OpId, def: &OpDef) -> Option<String> {
    let sides = [
        ("operand", def.operands, ir.operands(op), OPERAND_SEGMENTS),
        ("result", def.results, ir.results(op), RESULT_SEGMENTS),
    ];
    // The groups of both sides, by name, for the relational constraints.
    let mut groups: Vec<(&str, &ValueDef, &[ValueId])> = Vec::new();
    for (what, arity, values, segments) in sides {
        let Arity::Named(defs) = arity else { continue };
        let sizes = match group_sizes(defs, values.len(), ir.attr(op, segments)) {
            Ok(sizes) => sizes,
            // A count that does not fit the single groups is reported by the count check.
            Err(SegmentError::Count) => return None,
            Err(SegmentError::NotDenseI32) => {
                return Some(format!("attribute '{segments}' failed to satisfy constraint: i32 dense array attribute"))
            }
            Err(SegmentError::Length { expected, got }) => {
                return Some(format!(
                    "'{segments}' attribute for specifying {what} segments must have {expected} elements, but got {got}"
                ))
            }
            Err(SegmentError::Negative) => return Some(format!("'{segments}' attribute cannot have negative elements")),
            Err(SegmentError::Total { count, total }) => {
                return Some(format!(
                    "{what} count ({count}) does not match with the total size ({total}) specified in attribute \
                     '{segments}'"
                ))
            }
        };
        let mut start = 0;
        for (d, size) in defs.iter().zip(sizes) {
            let group = &values[start..start + size];
            let required = match d.kind {
                ValueKind::Single if size != 1 => Some("1 element"),
                ValueKind::Optional if size > 1 => Some("0 or 1 element"),
                _ => None,
            };
            if let Some(required) = required {
                return Some(format!(
                    "{what} group starting at #{start} requires {required}, but found {size}"
                ));
            }
            for (i, &v) in group.iter().enumerate() {
                let ty = ir.value_type(v);
                if !d.constraint.accepts(ty) {
                    return Some(format!("{what} #{} must be {}, but got '{ty}'", start + i, d.describe()));
                }
            }
            groups.push((what, d, group));
            start += size;
        }
    }
    verify_relations(ir, &groups)
}

/// `SameAs` and `ElementTypeOf` between groups (an absent optional group relates to nothing).
fn verify_relations(ir: &Ir<'_>, groups: &[(&str, &ValueDef, &[ValueId])]) -> Option<String> {
    use crate::dialect::TypeConstraint as C;
    for &(what, d, values) in groups {
        let Some(other) = d.constraint.related_to() else { continue };
        let Some(&(_, _, other_values)) = groups.iter().find(|(_, g, _)| g.name == other) else { continue };
        let Some(&reference) = other_values.first() else { continue };
        let reference = ir.value_type(reference);
        for &v in values {
            let ty = ir.value_type(v);
            match d.constraint {
                C::SameAs(_) if ty != reference => {
                    return Some(format!(
                        "failed to verify that all of {{{other}, {}}} have same type",
                        d.name
                    ));
                }
                C::ElementTypeOf(_) if reference.element_type() != Some(ty) => {
                    // MLIR's `TypesMatchWith` summaries: "result type" / "type of 'value'".
                    let subject = if what == "result" {
                        "result type".to_string()
                    } else {
                        format!("type of '{}'", d.name)
                    };
                    return Some(format!(
                        "failed to verify that {subject} matches element type of '{other}'"
                    ));
                }
                _ => {}
            }
        }
    }
    None
}
