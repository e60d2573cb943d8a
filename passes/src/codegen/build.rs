//! Building the lowered IR: the core [`OpBuilder`] with the helpers the lowerings share, and
//! the types and attributes the back end writes (`memref<.., #npuvec.space<ub>>`,
//! `array<i64: ..>`, index and scalar constants).

use kiln_compiler::{
    AttrKind, Attribute, Context, FloatKind, Ir, OpBuilder, OpDef, OpId, Type, TypeKind, ValueId,
};
use kiln_dialects::hl::canonicalize::Splat;
use kiln_dialects::npuvec::Space;
use kiln_dialects::{arith, scf};

/// The back end's builder: the core [`OpBuilder`], with the helpers of [`Build`].
pub type Builder<'a, 'c> = OpBuilder<'a, 'c>;

/// What the lowerings build besides single ops: index arithmetic, scalar immediates, loops.
pub trait Build<'c> {
    /// `arith.constant <v> : index`.
    fn index(&mut self, v: i64) -> ValueId;
    /// `arith.constant <v> : <elem>` (a scalar immediate).
    fn scalar(&mut self, elem: Type<'c>, v: f64) -> ValueId;
    /// `arith.constant <s> : <elem>`, the element of a splat constant exactly.
    fn immediate(&mut self, elem: Type<'c>, s: Splat) -> ValueId;
    /// `arith.<op> %a, %b : index`.
    fn index_op(&mut self, op: &'static OpDef, a: ValueId, b: ValueId) -> ValueId;
    /// `constant + sum(index * scale)` over the terms that have an index (`index` itself for
    /// a scale of 1).
    fn linear(&mut self, terms: &[(Option<ValueId>, i64)], constant: i64) -> ValueId;
    /// `scf.for %iv = lo to hi step step` with the body `body` builds (its `scf.yield` added).
    fn for_loop<R>(
        &mut self,
        bounds: [ValueId; 3],
        body: impl FnOnce(&mut Builder<'_, 'c>, ValueId) -> R,
    ) -> R;
}

impl<'c> Build<'c> for Builder<'_, 'c> {
    fn index(&mut self, v: i64) -> ValueId {
        let ty = self.ctx.index_type();
        let attr = self.ctx.int_attr(v as i128, ty);
        self.value(&arith::CONSTANT_OP, &[], &[("value", attr)], ty)
    }

    fn scalar(&mut self, elem: Type<'c>, v: f64) -> ValueId {
        let attr = scalar_attr(self.ctx, elem, v);
        self.value(&arith::CONSTANT_OP, &[], &[("value", attr)], elem)
    }

    fn immediate(&mut self, elem: Type<'c>, s: Splat) -> ValueId {
        match s {
            Splat::Int(i) if !elem.is_float() => {
                let attr = self.ctx.int_attr(i128::from(i), elem);
                self.value(&arith::CONSTANT_OP, &[], &[("value", attr)], elem)
            }
            s => self.scalar(elem, s.to_f64()),
        }
    }

    fn index_op(&mut self, op: &'static OpDef, a: ValueId, b: ValueId) -> ValueId {
        let ty = self.ctx.index_type();
        self.value(op, &[a, b], &[], ty)
    }

    fn linear(&mut self, terms: &[(Option<ValueId>, i64)], constant: i64) -> ValueId {
        let mut acc = None;
        for &(i, scale) in terms {
            let Some(i) = i else { continue };
            let term = if scale == 1 {
                i
            } else {
                let c = self.index(scale);
                self.index_op(&arith::MULI_OP, i, c)
            };
            acc = Some(match acc {
                Some(a) => self.index_op(&arith::ADDI_OP, a, term),
                None => term,
            });
        }
        match acc {
            None => self.index(constant),
            Some(a) if constant == 0 => a,
            Some(a) => {
                let c = self.index(constant);
                self.index_op(&arith::ADDI_OP, a, c)
            }
        }
    }

    fn for_loop<R>(
        &mut self,
        bounds: [ValueId; 3],
        body: impl FnOnce(&mut Builder<'_, 'c>, ValueId) -> R,
    ) -> R {
        let for_op = self.op(&scf::FOR_OP, &bounds, &[], &[], 1);
        let blk = self.ir.create_block();
        self.ir.append_block(self.ir.regions(for_op)[0], blk);
        let iv = self.ir.add_block_arg(blk, self.ctx.index_type(), Some(self.loc));
        let mut bb = self.at_end(blk);
        let r = body(&mut bb, iv);
        bb.op(&scf::YIELD_OP, &[], &[], &[], 0);
        r
    }
}

/// The index along each of `dims` (row-major) of the flattened index `flat`: `(flat / inner) %
/// dim`, without the division for the innermost dim and the remainder for the outermost. The
/// ops are built innermost first; the indices come back in that order, with their dims'
/// positions.
pub fn split_index(b: &mut Builder<'_, '_>, flat: ValueId, dims: &[i64]) -> Vec<(usize, ValueId)> {
    let mut out = Vec::with_capacity(dims.len());
    let mut inner = 1i64;
    for (j, &dim) in dims.iter().enumerate().rev() {
        let mut i = flat;
        if inner > 1 {
            let d = b.index(inner);
            i = b.index_op(&arith::DIVUI_OP, i, d);
        }
        if j > 0 {
            let d = b.index(dim);
            i = b.index_op(&arith::REMUI_OP, i, d);
        }
        out.push((j, i));
        inner *= dim;
    }
    out
}

/// The attribute of a scalar of type `elem` holding `v` (floats rounded to the type; integers
/// and `i1` from the integral value).
pub fn scalar_attr<'c>(ctx: &Context<'c>, elem: Type<'c>, v: f64) -> Attribute<'c> {
    match *elem.kind() {
        TypeKind::Float(kind) => {
            let bits: u128 = match kind {
                FloatKind::F16 => half::f16::from_f64(v).to_bits() as u128,
                FloatKind::BF16 => half::bf16::from_f64(v).to_bits() as u128,
                FloatKind::F64 => v.to_bits() as u128,
                _ => (v as f32).to_bits() as u128,
            };
            ctx.attr(AttrKind::Float { bits, ty: elem })
        }
        _ => ctx.int_attr(v as i128, elem),
    }
}

/// `array<i64: ...>`.
pub fn i64_array<'c>(ctx: &Context<'c>, values: &[i64]) -> Attribute<'c> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes = ctx.alloc_bytes(&bytes);
    ctx.attr(AttrKind::DenseArray { elem: ctx.int_type(64), len: values.len(), bytes })
}

/// `array<i32: ...>`.
pub fn i32_array<'c>(ctx: &Context<'c>, values: &[i32]) -> Attribute<'c> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes = ctx.alloc_bytes(&bytes);
    ctx.attr(AttrKind::DenseArray { elem: ctx.int_type(32), len: values.len(), bytes })
}

/// The values of an `array<i64: ...>` attribute.
pub fn i64_array_values(attr: Attribute<'_>) -> Option<Vec<i64>> {
    match *attr.kind() {
        AttrKind::DenseArray { elem, bytes, .. } if elem.bit_width() == Some(64) => Some(
            bytes.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().expect("8-byte chunks"))).collect(),
        ),
        _ => None,
    }
}

/// `N : i64`.
pub fn i64_attr<'c>(ctx: &Context<'c>, v: i64) -> Attribute<'c> {
    ctx.int_attr(v as i128, ctx.int_type(64))
}

/// `memref<shape x elem, #npuvec.space<space>>`.
pub fn memref_type<'c>(ctx: &Context<'c>, shape: &[i64], elem: Type<'c>, space: Space) -> Type<'c> {
    let shape = ctx.alloc_slice(shape);
    let memory_space = Some(space.attr(ctx));
    ctx.ty(TypeKind::MemRef { shape, elem, layout: None, memory_space })
}

/// Sets discardable attribute `name` of `op` (keeping the attributes sorted).
pub fn set_attr<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, op: OpId, name: &str, value: Attribute<'c>) {
    let attrs = &mut ir.op_mut(op).attrs;
    attrs.insert(ctx.intern_str(name), value);
    attrs.sort_keys();
}
