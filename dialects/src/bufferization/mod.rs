//! The `bufferization` dialect (the two ops Kiln's bufferization needs): the bridges between
//! a GM buffer and the tensor computed from or into it, which `kiln-codegen-bufferize`
//! writes at kernel boundaries and `kiln-codegen-lower` consumes. Generic form only; the names,
//! operands and effects are upstream MLIR's.

use kiln_compiler::dialect::effects::{EffectDecl, EffectOn, MemoryEffects, Resource};
use kiln_compiler::{Arity, Dialect, OpDef, TypeConstraint as C, ValueDef};

mod syntax;

kiln_compiler::op_def! {
    /// `bufferization.to_tensor`: the tensor whose elements a buffer holds.
    ///
    /// Effect: reads the buffer.
    ///
    /// Custom form: `%t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>`.
    /// Generic form:
    /// `%t = "bufferization.to_tensor"(%m) : (memref<4xf32>) -> tensor<4xf32>`.
    pub static TO_TENSOR_OP: OpDef = OpDef {
        name: "bufferization.to_tensor",
        summary: "create a tensor from a buffer",
        operands: Arity::Named(&[ValueDef::single("buffer", C::AnyMemRef)]),
        results: Arity::Named(&[ValueDef::single("result", C::AnyRankedTensor)]),
        interfaces: &[&MemoryEffects(&[EffectDecl::read(EffectOn::Operand(0), Resource::MemorySpace)])],
        syntax: Some(&syntax::TO_TENSOR_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `bufferization.materialize_in_destination`: writes a tensor's elements into a buffer.
    ///
    /// Effect: writes the buffer (operand #1).
    ///
    /// Custom form:
    /// `bufferization.materialize_in_destination %t in writable %m : (tensor<4xf32>, memref<4xf32>) -> ()`.
    /// Generic form:
    /// `"bufferization.materialize_in_destination"(%t, %m) : (tensor<4xf32>, memref<4xf32>) -> ()`.
    pub static MATERIALIZE_IN_DESTINATION_OP: OpDef = OpDef {
        name: "bufferization.materialize_in_destination",
        summary: "copy a tensor into a buffer",
        operands: Arity::Named(&[
            ValueDef::single("source", C::AnyRankedTensor),
            ValueDef::single("dest", C::AnyMemRef),
        ]),
        interfaces: &[&MemoryEffects(&[EffectDecl::write(EffectOn::Operand(1), Resource::MemorySpace)])],
        syntax: Some(&syntax::MATERIALIZE_SYNTAX),
        ..OpDef::DEFAULT
    };
}

/// The dialect.
pub static BUFFERIZATION: Dialect = Dialect {
    name: "bufferization",
    summary: "bridges between tensors and buffers",
    ops: &[&TO_TENSOR_OP, &MATERIALIZE_IN_DESTINATION_OP],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
    attrs: &[],
    types: &[],
};
