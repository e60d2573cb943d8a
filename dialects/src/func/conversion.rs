//! Dialect conversion of `func` ops (MLIR's `populateFunctionOpInterfaceTypeConversionPattern`
//! and the return pattern): a function's signature and entry block take the converted types,
//! a `func.return` its converted operands. Lowerings that change types across function
//! boundaries add both patterns.

use kiln_compiler::conversion::{ConversionPattern, ConversionRewriter, Root};
use kiln_compiler::ir::OpData;
use kiln_compiler::{Context, Ir, NamedAttr, OpId, Type, TypeKind, ValueId};

use super::{FUNC_OP, RETURN_OP};

/// The inputs and results of a `func.func`'s `function_type`.
pub fn signature<'c>(ir: &Ir<'c>, op: OpId) -> Option<(&'c [Type<'c>], &'c [Type<'c>])> {
    match *ir.attr(op, "function_type")?.as_type()?.kind() {
        TypeKind::Function { inputs, results } => Some((inputs, results)),
        _ => None,
    }
}

/// Sets the `function_type` property of a `func.func`.
pub fn set_signature<'c>(
    ctx: &Context<'c>,
    data: &mut OpData<'c>,
    inputs: &[Type<'c>],
    results: &[Type<'c>],
) {
    let name = ctx.intern_str("function_type");
    let ty = ctx.type_attr(ctx.function_type(inputs, results));
    let mut entries: Vec<NamedAttr<'c>> = data.properties.and_then(|p| p.as_dict()).unwrap_or(&[]).to_vec();
    entries.retain(|e| e.name != name);
    entries.push(NamedAttr { name, value: ty });
    entries.sort_by_key(|e| e.name);
    data.properties = Some(ctx.dict_attr(&entries));
}

/// Converts a function's `function_type` and the argument types of its blocks (their users
/// keep the old types through source materializations).
pub struct SignatureConversion;

impl ConversionPattern for SignatureConversion {
    fn root(&self) -> Root {
        Root::Op(&FUNC_OP)
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        _: &[ValueId],
    ) -> bool {
        let Some((inputs, results)) = signature(rw.ir(), op) else { return false };
        let convert = |ts: &[Type<'c>]| ts.iter().map(|&t| rw.convert_type(t)).collect::<Option<Vec<_>>>();
        let (Some(inputs), Some(results)) = (convert(inputs), convert(results)) else { return false };
        let Some(&region) = rw.ir().regions(op).first() else { return false };
        if !rw.convert_region_types(region) {
            return false;
        }
        let ctx = rw.ctx;
        rw.modify_op(op, |data| set_signature(ctx, data, &inputs, &results));
        true
    }
}

/// `func.return` takes its converted operands.
pub struct ReturnConversion;

impl ConversionPattern for ReturnConversion {
    fn root(&self) -> Root {
        Root::Op(&RETURN_OP)
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        operands: &[ValueId],
    ) -> bool {
        rw.set_operands(op, operands);
        true
    }
}
