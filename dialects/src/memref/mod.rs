//! The `memref` dialect (the subset Kiln needs so far): allocate, free, load and store
//! buffers. The ops are declared with named operands and memory effects, so the generic
//! verifier checks their operand groups (`memref.alloc` carries `operandSegmentSizes`) and
//! `dce` / `cse` know what they touch. They have mlir-opt 22's custom forms
//! (`memref.alloc(%n) : memref<?xf32>`, see `syntax`), and their generic form is
//! byte-identical to mlir-opt 22's generic output.

mod syntax;
mod verify;

use kiln_compiler::dialect::effects::{EffectDecl, EffectOn, MemoryEffects, Resource};
use kiln_compiler::syntax::custom::AsmResultName;
use kiln_compiler::{Arity, AttrConstraint, AttrSpec, Dialect, OpDef, TypeConstraint as C, ValueDef};

kiln_compiler::op_def! {
    /// `memref.alloc`: allocates a buffer of the result's memref type.
    ///
    /// `dynamicSizes` give the result's dynamic dims in order; `symbolOperands` bind the symbols
    /// of its affine layout. Both are variadic, so the op carries `operandSegmentSizes`. Effect:
    /// allocates its result in the result's memory space.
    ///
    /// Custom form: `%0 = memref.alloc(%n) {alignment = 64 : i64} : memref<?x8xf32>`.
    /// Generic form:
    /// `%0 = "memref.alloc"(%n) <{alignment = 64 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?x8xf32>`.
    pub static ALLOC_OP: OpDef = OpDef {
        name: "memref.alloc",
        summary: "memory allocation operation",
        operands: Arity::Named(&[
            ValueDef::variadic("dynamicSizes", C::Index),
            ValueDef::variadic("symbolOperands", C::Index),
        ]),
        results: Arity::Named(&[ValueDef::single("memref", C::AnyMemRef)]),
        attrs: &[AttrSpec { name: "alignment", constraint: AttrConstraint::Integer, optional: true }],
        verify: Some(verify::verify_alloc),
        syntax: Some(&syntax::ALLOC_SYNTAX),
        interfaces: &[
            &MemoryEffects(&[EffectDecl::allocate(EffectOn::Result(0), Resource::MemorySpace)]),
            &AsmResultName(|_, _| Some("alloc".into())),
        ],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `memref.dealloc`: frees a buffer allocated by `memref.alloc`.
    ///
    /// Effect: frees its operand in the operand's memory space.
    ///
    /// Custom form: `memref.dealloc %0 : memref<8xf32>`.
    /// Generic form: `"memref.dealloc"(%0) : (memref<8xf32>) -> ()`.
    pub static DEALLOC_OP: OpDef = OpDef {
        name: "memref.dealloc",
        summary: "memory deallocation operation",
        operands: Arity::Named(&[ValueDef::single("memref", C::AnyRankedOrUnrankedMemRef)]),
        syntax: Some(&syntax::DEALLOC_SYNTAX),
        interfaces: &[&MemoryEffects(&[EffectDecl::free(EffectOn::Operand(0), Resource::MemorySpace)])],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `memref.load`: reads the element of `memref` at `indices` (one `index` per dim).
    ///
    /// Effect: reads its memref operand in its memory space.
    ///
    /// Custom form: `%v = memref.load %m[%i, %j] : memref<4x8xf32>`.
    /// Generic form: `%v = "memref.load"(%m, %i, %j) : (memref<4x8xf32>, index, index) -> f32`.
    pub static LOAD_OP: OpDef = OpDef {
        name: "memref.load",
        summary: "load operation",
        operands: Arity::Named(&[
            ValueDef::single("memref", C::AnyMemRef),
            ValueDef::variadic("indices", C::Index),
        ]),
        results: Arity::Named(&[ValueDef::single("result", C::ElementTypeOf("memref"))]),
        attrs: &[AttrSpec { name: "nontemporal", constraint: AttrConstraint::Bool, optional: true }],
        verify: Some(verify::verify_load),
        syntax: Some(&syntax::LOAD_SYNTAX),
        interfaces: &[&MemoryEffects(&[EffectDecl::read(EffectOn::Operand(0), Resource::MemorySpace)])],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `memref.store`: writes `value` to the element of `memref` at `indices`.
    ///
    /// Effect: writes its memref operand (operand #1) in its memory space.
    ///
    /// Custom form: `memref.store %v, %m[%i] : memref<4xf32>`.
    /// Generic form: `"memref.store"(%v, %m, %i) : (f32, memref<4xf32>, index) -> ()`.
    pub static STORE_OP: OpDef = OpDef {
        name: "memref.store",
        summary: "store operation",
        operands: Arity::Named(&[
            ValueDef::single("value", C::ElementTypeOf("memref")),
            ValueDef::single("memref", C::AnyMemRef),
            ValueDef::variadic("indices", C::Index),
        ]),
        attrs: &[AttrSpec { name: "nontemporal", constraint: AttrConstraint::Bool, optional: true }],
        verify: Some(verify::verify_store),
        syntax: Some(&syntax::STORE_SYNTAX),
        interfaces: &[&MemoryEffects(&[EffectDecl::write(EffectOn::Operand(1), Resource::MemorySpace)])],
        ..OpDef::DEFAULT
    };
}

/// The `memref` dialect.
pub static MEMREF: Dialect = Dialect {
    name: "memref",
    summary: "buffers: allocation, loads and stores",
    ops: &[&ALLOC_OP, &DEALLOC_OP, &LOAD_OP, &STORE_OP],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
    attrs: &[],
    types: &[],
};
