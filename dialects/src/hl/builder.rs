//! Building `hl` ops from Rust with inferred result types (used by decompositions and
//! canonicalizations): `b.binary(&ADD, x, y)` creates `hl.add` before the insertion point and
//! returns its result.

use kiln_compiler::rewrite::Rewriter;
use kiln_compiler::{AttrKind, Attribute, DenseData, NamedAttr, OpDef, OperationState, Type, ValueId};
use kiln_compiler::{FloatKind, OpId, TypeKind};

use super::accessors::tensor_parts;
use super::infer::InferInput;
use super::interfaces::HlOp;
use super::CONSTANT;

/// Creates `hl` ops before a fixed op, at that op's location.
pub struct HlBuilder<'r, 'a, 'c> {
    /// The rewriter that owns the IR.
    pub rw: &'r mut Rewriter<'a, 'c>,
    before: OpId,
    loc: Attribute<'c>,
}

impl<'r, 'a, 'c> HlBuilder<'r, 'a, 'c> {
    /// A builder inserting before `before`.
    pub fn new(rw: &'r mut Rewriter<'a, 'c>, before: OpId) -> Self {
        let loc = rw.ir().op(before).loc;
        HlBuilder { rw, before, loc }
    }

    /// Creates `def(operands) {attrs}` with its result type inferred (or `result` when given,
    /// for ops whose result type is not derived). Inference failures are reported as `Err`.
    pub fn create(
        &mut self,
        def: &'static OpDef,
        operands: &[ValueId],
        attrs: &[(&str, Attribute<'c>)],
        result: Option<Type<'c>>,
    ) -> Result<ValueId, String> {
        let ctx = self.rw.ctx;
        let entries: Vec<NamedAttr<'c>> =
            attrs.iter().map(|(n, v)| NamedAttr { name: ctx.intern_str(n), value: *v }).collect();
        let props = (!entries.is_empty()).then(|| ctx.dict_attr(&entries));
        let types: Vec<Type<'c>> = operands.iter().map(|&v| self.rw.ir().value_type(v)).collect();
        let hl = def.interface::<HlOp>().ok_or_else(|| format!("'{}' is not an hl op", def.name))?;
        let lookup = |n: &str| props.and_then(|p| p.dict_get(n));
        let result_types = hl.infer.results(ctx, &InferInput { operands: &types, result, attr: &lookup })?;
        let mut state = OperationState::new(def.name, Some(def), self.loc);
        state.operands = operands.to_vec();
        state.result_types = result_types;
        state.properties = props;
        let op = self.rw.create_before(self.before, state);
        Ok(self.rw.ir().results(op)[0])
    }

    /// A rank-0 constant of element type `elem` holding `value` (broadcasts against anything).
    pub fn scalar(&mut self, elem: Type<'c>, value: f64) -> Result<ValueId, String> {
        let ty = self.rw.ctx.tensor_type(&[], elem);
        let attr = splat(self.rw.ctx, ty, value).ok_or_else(|| format!("cannot make a '{elem}' constant"))?;
        let name = self.rw.ctx.intern_str("value");
        let props = self.rw.ctx.dict_attr(&[NamedAttr { name, value: attr }]);
        let mut state = OperationState::new(CONSTANT.name, Some(&CONSTANT), self.loc);
        state.result_types = vec![ty];
        state.properties = Some(props);
        let op = self.rw.create_before(self.before, state);
        Ok(self.rw.ir().results(op)[0])
    }

    /// An `i64` array attribute.
    pub fn ints(&self, values: &[i64]) -> Attribute<'c> {
        let ctx = self.rw.ctx;
        let i64t = ctx.int_type(64);
        let items: Vec<Attribute<'c>> = values.iter().map(|&v| ctx.int_attr(i128::from(v), i64t)).collect();
        ctx.array_attr(&items)
    }

    /// An `i64` integer attribute.
    pub fn int(&self, value: i64) -> Attribute<'c> {
        self.rw.ctx.int_attr(i128::from(value), self.rw.ctx.int_type(64))
    }

    /// A `true` bool attribute.
    pub fn yes(&self) -> Attribute<'c> {
        self.rw.ctx.bool_attr(true)
    }
}

/// A splat dense attribute of shaped type `ty` holding `value` (converted to the element type
/// with round-to-nearest-even).
pub fn splat<'c>(ctx: &kiln_compiler::Context<'c>, ty: Type<'c>, value: f64) -> Option<Attribute<'c>> {
    let (_, elem) = tensor_parts(ty)?;
    let bytes: Vec<u8> = match *elem.kind() {
        TypeKind::Float(FloatKind::F32) => (value as f32).to_le_bytes().to_vec(),
        TypeKind::Float(FloatKind::F16) => half::f16::from_f64(value).to_le_bytes().to_vec(),
        TypeKind::Float(FloatKind::BF16) => half::bf16::from_f64(value).to_le_bytes().to_vec(),
        TypeKind::Integer { width: 1, .. } => vec![u8::from(value != 0.0)],
        TypeKind::Integer { width: 8, .. } => (value as i8).to_le_bytes().to_vec(),
        TypeKind::Integer { width: 32, .. } => (value as i32).to_le_bytes().to_vec(),
        TypeKind::Integer { width: 64, .. } => (value as i64).to_le_bytes().to_vec(),
        _ => return None,
    };
    let bytes = ctx.alloc_bytes(&bytes);
    Some(ctx.attr(AttrKind::DenseElements { ty, data: DenseData::Raw { bytes, splat: true } }))
}
