//! Building the lowered IR: ops appended to a block (or inserted before an op) by name, with
//! their registered definitions looked up once, and the types and attributes the back end
//! writes (`memref<.., #npuvec.space<ub>>`, `array<i64: ..>`, index and scalar constants).

use std::sync::OnceLock;

use kiln_compiler::{
    AttrKind, Attribute, BlockId, Context, DialectRegistry, FloatKind, Ir, NamedAttr, OpDef, OpId,
    OperationState, Type, TypeKind, ValueId,
};

/// The registry of every Kiln dialect, built once, to find op definitions by name.
fn registry() -> &'static DialectRegistry {
    static REGISTRY: OnceLock<DialectRegistry> = OnceLock::new();
    REGISTRY.get_or_init(kiln_dialects::all_dialects)
}

/// The registered definition of op `name`.
pub fn op_def(name: &str) -> Option<&'static OpDef> {
    registry().op(name)
}

/// Where a [`Builder`] puts new ops.
#[derive(Clone, Copy, Debug)]
pub enum At {
    /// At the end of a block.
    End(BlockId),
    /// Before an op.
    Before(OpId),
}

/// Creates ops at one insertion point with one location.
pub struct Builder<'a, 'c> {
    /// The context.
    pub ctx: &'a Context<'c>,
    /// The IR.
    pub ir: &'a mut Ir<'c>,
    /// The insertion point.
    pub at: At,
    /// The location of every op created.
    pub loc: Attribute<'c>,
}

impl<'a, 'c> Builder<'a, 'c> {
    /// A builder at `at`.
    pub fn new(ctx: &'a Context<'c>, ir: &'a mut Ir<'c>, at: At, loc: Attribute<'c>) -> Self {
        Builder { ctx, ir, at, loc }
    }

    /// Creates `name(operands) {attrs} : results` at the insertion point. Attributes the op
    /// declares go into its properties, others are discardable.
    pub fn op(
        &mut self,
        name: &'static str,
        operands: &[ValueId],
        attrs: &[(&str, Attribute<'c>)],
        results: &[Type<'c>],
        regions: usize,
    ) -> OpId {
        let def = op_def(name);
        let mut state = OperationState::new(name, def, self.loc);
        state.operands = operands.to_vec();
        state.result_types = results.to_vec();
        state.num_regions = regions;
        let mut props = Vec::new();
        for &(n, v) in attrs {
            if def.is_some_and(|d| d.attr_spec(n).is_some()) {
                props.push(NamedAttr { name: self.ctx.intern_str(n), value: v });
            } else {
                state.attrs.push((self.ctx.intern_str(n), v));
            }
        }
        if !props.is_empty() {
            state.properties = Some(self.ctx.dict_attr(&props));
        }
        let op = self.ir.create_op(state);
        match self.at {
            At::End(block) => self.ir.append_op(block, op),
            At::Before(before) => self.ir.insert_op_before(before, op),
        }
        op
    }

    /// Like [`Builder::op`] with one result, which it returns.
    pub fn value(
        &mut self,
        name: &'static str,
        operands: &[ValueId],
        attrs: &[(&str, Attribute<'c>)],
        ty: Type<'c>,
    ) -> ValueId {
        let op = self.op(name, operands, attrs, &[ty], 0);
        self.ir.results(op)[0]
    }

    /// `arith.constant <v> : index`.
    pub fn index(&mut self, v: i64) -> ValueId {
        let ty = self.ctx.index_type();
        let attr = self.ctx.int_attr(v as i128, ty);
        self.value("arith.constant", &[], &[("value", attr)], ty)
    }

    /// `arith.constant <v> : <elem>` (a scalar immediate).
    pub fn scalar(&mut self, elem: Type<'c>, v: f64) -> ValueId {
        let attr = scalar_attr(self.ctx, elem, v);
        self.value("arith.constant", &[], &[("value", attr)], elem)
    }

    /// `arith.<op> %a, %b : index`.
    pub fn index_op(&mut self, op: &'static str, a: ValueId, b: ValueId) -> ValueId {
        let ty = self.ctx.index_type();
        self.value(op, &[a, b], &[], ty)
    }

    /// `constant + sum(index * scale)` over the terms that have an index (`index` itself for
    /// a scale of 1).
    pub fn linear(&mut self, terms: &[(Option<ValueId>, i64)], constant: i64) -> ValueId {
        let mut acc = None;
        for &(i, scale) in terms {
            let Some(i) = i else { continue };
            let term = if scale == 1 {
                i
            } else {
                let c = self.index(scale);
                self.index_op("arith.muli", i, c)
            };
            acc = Some(match acc {
                Some(a) => self.index_op("arith.addi", a, term),
                None => term,
            });
        }
        match acc {
            None => self.index(constant),
            Some(a) if constant == 0 => a,
            Some(a) => {
                let c = self.index(constant);
                self.index_op("arith.addi", a, c)
            }
        }
    }

    /// `scf.for %iv = lo to hi step step` with the body `body` builds (its `scf.yield` added).
    pub fn for_loop<R>(
        &mut self,
        bounds: [ValueId; 3],
        body: impl FnOnce(&mut Builder<'_, 'c>, ValueId) -> R,
    ) -> R {
        let for_op = self.op("scf.for", &bounds, &[], &[], 1);
        let blk = self.ir.create_block();
        self.ir.append_block(self.ir.regions(for_op)[0], blk);
        let iv = self.ir.add_block_arg(blk, self.ctx.index_type(), Some(self.loc));
        let mut bb = self.at_end(blk);
        let r = body(&mut bb, iv);
        bb.op("scf.yield", &[], &[], &[], 0);
        r
    }

    /// A new builder appending to `block` with the same location.
    pub fn at_end(&mut self, block: BlockId) -> Builder<'_, 'c> {
        Builder { ctx: self.ctx, ir: self.ir, at: At::End(block), loc: self.loc }
    }
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

/// `#npuvec.<family><keyword>` (`#npuvec.space<ub>`, `#npuvec.pipe<v>`, ...), the enum attribute
/// of the registered `npuvec` dialect.
///
/// # Panics
/// When the family or keyword does not exist: the back end only writes the spellings it
/// declares, so this is a bug, not bad input.
pub fn npuvec_enum<'c>(ctx: &Context<'c>, family: &str, keyword: &str) -> Attribute<'c> {
    let def = registry()
        .dialect("npuvec")
        .and_then(|d| d.attr_def(family))
        .unwrap_or_else(|| panic!("no attribute npuvec.{family}"));
    let case = def
        .cases()
        .iter()
        .position(|c| *c == keyword)
        .unwrap_or_else(|| panic!("no #npuvec.{family}<{keyword}>"));
    ctx.enum_attr(def, case)
}

/// `memref<shape x elem, #npuvec.space<space>>`.
pub fn memref_type<'c>(ctx: &Context<'c>, shape: &[i64], elem: Type<'c>, space: &str) -> Type<'c> {
    let shape = ctx.alloc_slice(shape);
    let memory_space = Some(npuvec_enum(ctx, "space", space));
    ctx.ty(TypeKind::MemRef { shape, elem, layout: None, memory_space })
}

/// Sets discardable attribute `name` of `op` (keeping the attributes sorted).
pub fn set_attr<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, op: OpId, name: &str, value: Attribute<'c>) {
    let attrs = &mut ir.op_mut(op).attrs;
    attrs.insert(ctx.intern_str(name), value);
    attrs.sort_keys();
}
