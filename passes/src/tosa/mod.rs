//! What `tosa-to-hl` and `hl-to-tosa` share: the TOSA ops they know (MLIR 22, TOSA v1.0) in
//! tables shared by both directions, the pattern their table entries become (rooted on the op
//! it converts), a builder of TOSA ops (which are unregistered ops in Kiln, read and written in
//! the generic form, and so known by name), and readers of TOSA's operand and attribute
//! encodings (`!tosa.shape` operands from `tosa.const_shape`, `array<i64: ...>` attributes,
//! zero-point constants).

use kiln_compiler::conversion::{
    apply_partial_conversion, ConversionPattern, ConversionPatternSet, ConversionRewriter, ConversionTarget,
    Root,
};
use kiln_compiler::rewrite::Rewriter;
use kiln_compiler::{
    AttrKind, Attribute, Context, DenseData, Diagnostic, FloatKind, Ir, NamedAttr, OpDef, OpId,
    OperationState, Type, TypeKind, ValueId,
};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::attrs::CmpPredicate;
use kiln_dialects::{arith, hl};

/// `tosa.const`: a constant tensor (`values`).
pub const CONST: &str = "tosa.const";

/// `tosa.const_shape`: a `!tosa.shape` constant (`values`), the shape operands of TOSA ops.
pub const CONST_SHAPE: &str = "tosa.const_shape";

/// `(hl, tosa)`: the unary elementwise ops with the same meaning in both (mostly the same name).
pub const UNARY: &[(&OpDef, &str)] = &[
    (&hl::EXP, "tosa.exp"),
    (&hl::LOG, "tosa.log"),
    (&hl::TANH, "tosa.tanh"),
    (&hl::SIGMOID, "tosa.sigmoid"),
    (&hl::ERF, "tosa.erf"),
    (&hl::RECIPROCAL, "tosa.reciprocal"),
    (&hl::RSQRT, "tosa.rsqrt"),
    (&hl::ABS, "tosa.abs"),
    (&hl::FLOOR, "tosa.floor"),
    (&hl::CEIL, "tosa.ceil"),
    (&hl::NOT, "tosa.logical_not"),
];

/// `(hl, tosa)`: the elementwise ops with numpy-style broadcasting in both (TOSA's of operands
/// of equal rank), besides `mul` (TOSA's has a shift operand).
pub const BROADCASTING: &[(&OpDef, &str)] = &[
    (&hl::ADD, "tosa.add"),
    (&hl::SUB, "tosa.sub"),
    (&hl::MAXIMUM, "tosa.maximum"),
    (&hl::MINIMUM, "tosa.minimum"),
    (&hl::POW, "tosa.pow"),
    (&hl::AND, "tosa.logical_and"),
    (&hl::OR, "tosa.logical_or"),
    (&hl::SELECT, "tosa.select"),
];

/// `(tosa, hl predicate)` of the comparisons.
pub const COMPARISONS: &[(&str, CmpPredicate)] = &[
    ("tosa.greater", CmpPredicate::Gt),
    ("tosa.greater_equal", CmpPredicate::Ge),
    ("tosa.equal", CmpPredicate::Eq),
];

/// The element type of a value's ranked tensor type.
pub fn elem_of<'c>(ir: &Ir<'c>, v: ValueId) -> Option<Type<'c>> {
    tensor_parts(ir.value_type(v)).map(|(_, e)| e)
}

/// The shape of a value's ranked tensor type.
pub fn shape_of(ir: &Ir<'_>, v: ValueId) -> Option<Vec<i64>> {
    tensor_parts(ir.value_type(v)).map(|(s, _)| s.to_vec())
}

/// The integers of a dense integer or index elements attribute (a splat is expanded).
pub fn dense_ints(attr: Attribute<'_>) -> Option<Vec<i64>> {
    let AttrKind::DenseElements { ty, data: DenseData::Raw { bytes, splat } } = *attr.kind() else {
        return None;
    };
    let (shape, elem) = tensor_parts(ty)?;
    let width = match *elem.kind() {
        TypeKind::Index => 64,
        TypeKind::Integer { width, .. } => width as usize,
        _ => return None,
    };
    let size = width.div_ceil(8);
    let count: usize = shape.iter().map(|&d| usize::try_from(d).ok()).product::<Option<usize>>()?;
    let read = |i: usize| -> Option<i64> {
        let chunk = bytes.get(i * size..i * size + size)?;
        let mut raw = [0u8; 8];
        raw[..size.min(8)].copy_from_slice(&chunk[..size.min(8)]);
        let v = i64::from_le_bytes(raw);
        let shift = 64 - (size.min(8) * 8) as u32;
        Some(if shift == 0 { v } else { (v << shift) >> shift })
    };
    (0..count).map(|i| read(if splat { 0 } else { i })).collect()
}

/// Whether every element of a dense elements attribute is zero bits (`+0.0` for floats).
pub fn is_zero_dense(attr: Attribute<'_>) -> bool {
    matches!(*attr.kind(), AttrKind::DenseElements { data: DenseData::Raw { bytes, .. }, .. } if bytes.iter().all(|&b| b == 0))
}

/// The `values` of the constant (`tosa.const`, `tosa.const_shape`, `hl.constant`) defining `v`.
pub fn constant_of<'c>(ir: &Ir<'c>, v: ValueId) -> Option<Attribute<'c>> {
    let def = ir.defining_op(v)?;
    if ir.is_any(def, &[&hl::CONSTANT, &arith::CONSTANT_OP]) {
        return ir.attr(def, "value");
    }
    // tosa is not a registered dialect: its ops are known by name.
    let tosa = [CONST, CONST_SHAPE].iter().any(|&name| Root::Unregistered(name).matches(ir, def));
    tosa.then(|| ir.attr(def, "values")).flatten()
}

/// The integers of a `tosa.const_shape` operand.
pub fn shape_operand(ir: &Ir<'_>, v: ValueId) -> Result<Vec<i64>, String> {
    constant_of(ir, v)
        .and_then(dense_ints)
        .ok_or_else(|| "a shape operand is not a 'tosa.const_shape'".into())
}

/// The integers of an `array<i32: ...>` / `array<i64: ...>` attribute.
pub fn array_ints(attr: Option<Attribute<'_>>) -> Option<Vec<i64>> {
    let AttrKind::DenseArray { elem, len, bytes } = *attr?.kind() else { return None };
    let TypeKind::Integer { width: width @ (32 | 64), .. } = *elem.kind() else { return None };
    let size = width as usize / 8;
    (0..len)
        .map(|i| {
            let chunk = bytes.get(i * size..i * size + size)?;
            Some(if size == 4 {
                i64::from(i32::from_le_bytes(chunk.try_into().ok()?))
            } else {
                i64::from_le_bytes(chunk.try_into().ok()?)
            })
        })
        .collect()
}

/// A float attribute of float type `ty` holding `value` (rounded to nearest even).
pub fn float_attr<'c>(ctx: &Context<'c>, ty: Type<'c>, value: f64) -> Option<Attribute<'c>> {
    let bits = match *ty.kind() {
        TypeKind::Float(FloatKind::F64) => u128::from(value.to_bits()),
        TypeKind::Float(FloatKind::F32) => u128::from((value as f32).to_bits()),
        TypeKind::Float(FloatKind::F16) => u128::from(half::f16::from_f64(value).to_bits()),
        TypeKind::Float(FloatKind::BF16) => u128::from(half::bf16::from_f64(value).to_bits()),
        _ => return None,
    };
    Some(ctx.attr(AttrKind::Float { bits, ty }))
}

/// Creates TOSA ops (unregistered, generic form) before a fixed op, at that op's location.
pub struct TosaBuilder<'r, 'a, 'c> {
    /// The rewriter that owns the IR.
    pub rw: &'r mut Rewriter<'a, 'c>,
    before: OpId,
    loc: Attribute<'c>,
}

impl<'r, 'a, 'c> TosaBuilder<'r, 'a, 'c> {
    /// A builder inserting before `before`.
    pub fn new(rw: &'r mut Rewriter<'a, 'c>, before: OpId) -> Self {
        let loc = rw.ir().op(before).loc;
        TosaBuilder { rw, before, loc }
    }

    fn ctx(&self) -> &'a Context<'c> {
        self.rw.ctx
    }

    /// Creates `tosa.<op>(operands) <{props}> : ty` and returns its result.
    pub fn op(
        &mut self,
        op: &str,
        operands: &[ValueId],
        props: &[(&str, Attribute<'c>)],
        ty: Type<'c>,
    ) -> ValueId {
        self.named(&format!("tosa.{op}"), operands, props, ty)
    }

    /// Creates the op `name` (of any dialect, e.g. `arith.divf`) as [`TosaBuilder::op`] does.
    pub fn named(
        &mut self,
        name: &str,
        operands: &[ValueId],
        props: &[(&str, Attribute<'c>)],
        ty: Type<'c>,
    ) -> ValueId {
        let ctx = self.ctx();
        let name = ctx.intern_str(name);
        let mut entries: Vec<NamedAttr<'c>> =
            props.iter().map(|(n, v)| NamedAttr { name: ctx.intern_str(n), value: *v }).collect();
        entries.sort_by(|a, b| a.name.cmp(b.name));
        let mut state = OperationState::new(name, None, self.loc);
        state.operands = operands.to_vec();
        state.result_types = vec![ty];
        state.properties = (!entries.is_empty()).then(|| ctx.dict_attr(&entries));
        let op = self.rw.create_before(self.before, state);
        self.rw.ir().results(op)[0]
    }

    /// `array<i64: values>` (`i32` with `wide = false`).
    pub fn array(&self, values: &[i64], wide: bool) -> Attribute<'c> {
        let ctx = self.ctx();
        let bytes: Vec<u8> = if wide {
            values.iter().flat_map(|v| v.to_le_bytes()).collect()
        } else {
            values.iter().flat_map(|&v| (v as i32).to_le_bytes()).collect()
        };
        let elem = ctx.int_type(if wide { 64 } else { 32 });
        ctx.attr(AttrKind::DenseArray { elem, len: values.len(), bytes: ctx.alloc_bytes(&bytes) })
    }

    /// An `i32` integer attribute (TOSA's `axis`).
    pub fn i32(&self, value: i64) -> Attribute<'c> {
        self.ctx().int_attr(i128::from(value), self.ctx().int_type(32))
    }

    /// `tosa.const_shape {values = dense<values> : tensor<Nxindex>} : !tosa.shape<N>`.
    pub fn shape(&mut self, values: &[i64]) -> ValueId {
        let ctx = self.ctx();
        let ty = ctx.tensor_type(&[values.len() as i64], ctx.index_type());
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let data = DenseData::Raw { bytes: ctx.alloc_bytes(&bytes), splat: false };
        let dense = ctx.attr(AttrKind::DenseElements { ty, data });
        let body = ctx.intern_str(&format!("shape<{}>", values.len()));
        let shape_ty = ctx.ty(TypeKind::Opaque { dialect: "tosa", body });
        self.op("const_shape", &[], &[("values", dense)], shape_ty)
    }

    /// `tosa.const` of type `tensor<dims x elem>` holding `value` everywhere.
    pub fn splat(&mut self, dims: &[i64], elem: Type<'c>, value: f64) -> Result<ValueId, String> {
        let ty = self.ctx().tensor_type(dims, elem);
        let attr = kiln_dialects::hl::builder::splat(self.ctx(), ty, value)
            .ok_or_else(|| format!("cannot make a '{elem}' constant"))?;
        Ok(self.op("const", &[], &[("values", attr)], ty))
    }

    /// A `tensor<1 x elem>` zero (TOSA's zero points and `tosa.mul`'s shift).
    pub fn zero(&mut self, elem: Type<'c>) -> Result<ValueId, String> {
        self.splat(&[1], elem, 0.0)
    }

    /// `tosa.reshape` of `x` to `dims` (`x` itself when the shape is already `dims`).
    pub fn reshape(&mut self, x: ValueId, dims: &[i64]) -> Result<ValueId, String> {
        let (shape, elem) =
            tensor_parts(self.rw.ir().value_type(x)).ok_or("operand is not a ranked tensor")?;
        if shape == dims {
            return Ok(x);
        }
        let ty = self.ctx().tensor_type(dims, elem);
        let s = self.shape(dims);
        Ok(self.op("reshape", &[x, s], &[], ty))
    }

    /// `tosa.transpose` of `x` by `perm` (result dim `i` is operand dim `perm[i]`); `x` itself
    /// for the identity.
    pub fn transpose(&mut self, x: ValueId, perm: &[i64]) -> Result<ValueId, String> {
        if perm.iter().enumerate().all(|(i, &p)| p == i as i64) {
            return Ok(x);
        }
        let (shape, elem) =
            tensor_parts(self.rw.ir().value_type(x)).ok_or("operand is not a ranked tensor")?;
        let dims: Vec<i64> = perm.iter().map(|&p| shape[p as usize]).collect();
        let ty = self.ctx().tensor_type(&dims, elem);
        let perms = self.array(perm, false);
        Ok(self.op("transpose", &[x], &[("perms", perms)], ty))
    }
}

/// Builds the converted form of op `op` (`x`: its converted operands) before it as a table
/// entry's `T` says; the value replacing its result, or why it cannot.
pub type Convert<T> = for<'r, 'a, 'b, 'c> fn(
    &'r mut ConversionRewriter<'a, 'b, 'c>,
    OpId,
    T,
    &[ValueId],
) -> Result<ValueId, String>;

/// The conversion pattern of one table entry: rooted on the op it converts (and named after it
/// in the driver's notes), it converts with `convert` given the entry's `with`.
pub struct PerOp<T> {
    name: &'static str,
    root: Root,
    with: T,
    convert: Convert<T>,
}

impl<T> PerOp<T> {
    /// The pattern of the registered op `def`.
    pub fn registered(def: &'static OpDef, with: T, convert: Convert<T>) -> Self {
        PerOp { name: def.name, root: Root::Op(def), with, convert }
    }

    /// The pattern of the unregistered op `name` (`tosa.exp`; `arith.addf`, which Kiln's
    /// `arith` does not define).
    pub fn unregistered(name: &'static str, with: T, convert: Convert<T>) -> Self {
        PerOp { name, root: Root::Unregistered(name), with, convert }
    }
}

impl<T: Copy + 'static> ConversionPattern for PerOp<T> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn root(&self) -> Root {
        self.root
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        operands: &[ValueId],
    ) -> bool {
        match (self.convert)(rw, op, self.with, operands) {
            Ok(v) => rw.replace_op(op, &[v]),
            Err(reason) => rw.notify_match_failure(reason),
        }
    }
}

/// Converts, under `root`, the ops `patterns` are rooted on (a partial conversion to `target`);
/// the driver's error carries, as notes, the pattern tried on the op that could not be
/// converted and why it declined.
pub fn convert_per_op<'c, T: Copy + 'static>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    root: OpId,
    target: &ConversionTarget<'_, 'c>,
    patterns: impl IntoIterator<Item = PerOp<T>>,
) -> Result<(), Diagnostic<'c>> {
    let mut set = ConversionPatternSet::new();
    for p in patterns {
        set.add(p);
    }
    apply_partial_conversion(ctx, ir, root, target, &set, None)
}
