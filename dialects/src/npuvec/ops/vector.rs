//! The vector ops (pipe V) on UB buffers: the unary and binary families, `cmp`, `select`,
//! `reduce`, `broadcast`, `fill`, `cast`, `transpose` and `copy`.

use kiln_compiler::dialect::effects::MemoryEffects;
use kiln_compiler::{Arity, AttrConstraint, AttrSpec, OpDef, TypeConstraint as C, ValueDef};

use super::{read, ub, write, READ01_WRITE2, READ0_WRITE1, SRC_DST, SRC_DST_SAME};
use crate::npuvec::attrs::{CMP_PREDICATE, REDUCE_KIND, ROUND_MODE};
use crate::npuvec::interfaces::Instruction;
use crate::npuvec::{syntax, verify::vector as v};
use kiln_bytecode::isa::{BinaryOp, UnaryOp};
use kiln_bytecode::opcode::{InstKind, Opcode};

/// Declares the unary vector ops (instruction `Unary`) of the ISA's list
/// ([`kiln_bytecode::unary_instructions!`]): `dst = op(src)` elementwise, `src` and `dst` UB
/// buffers of one type; and [`UNARY_OPS`], all of them in encoding order.
macro_rules! npuvec_unary {
    ($($member:ident, $ident:ident, $name:literal, $summary:literal;)+) => {
        /// The unary vector ops, in the encoding order of their instructions.
        pub const UNARY_OPS: &[&OpDef] = &[$(&$ident),+];
        $(
        kiln_compiler::op_def! {
            #[doc = concat!("`", $name, "`: ", $summary, ", elementwise (pipe V, instruction `Unary`).")]
            #[doc = ""]
            #[doc = "`src` and `dst` are UB buffers of one type; `dst = op(src)`. Effects: reads `src`, writes `dst`."]
            #[doc = ""]
            #[doc = "```mlir"]
            #[doc = concat!($name, " ins(%a : ", ub!(), ") outs(%b : ", ub!(), ")")]
            #[doc = concat!("\"", $name, "\"(%a, %b) : (", ub!(), ", ", ub!(), ") -> ()")]
            #[doc = "```"]
            pub static $ident: kiln_compiler::OpDef = OpDef {
                name: $name,
                summary: $summary,
                operands: Arity::Named(SRC_DST_SAME),
                verify: Some(v::verify_unary),
                syntax: Some(&syntax::DPS_SYNTAX),
                interfaces: &[&READ0_WRITE1, &Instruction(InstKind::Unary(UnaryOp::$member))],
                ..OpDef::DEFAULT
            };
        }
    )+};
}

kiln_bytecode::unary_instructions!(npuvec_unary);

/// Two sources (buffers or scalars) and a destination buffer.
const BINARY: &[ValueDef] = &[
    ValueDef::single("lhs", C::Any),
    ValueDef::single("rhs", C::Any),
    ValueDef::single("dst", C::AnyMemRef),
];

/// Declares the binary vector ops (instruction `Binary`) of the ISA's list
/// ([`kiln_bytecode::binary_instructions!`]): `dst = lhs op rhs` elementwise with
/// broadcasting; and [`BINARY_OPS`], all of them in encoding order.
macro_rules! npuvec_binary {
    ($($member:ident, $ident:ident, $name:literal, $summary:literal;)+) => {
        /// The binary vector ops, in the encoding order of their instructions.
        pub const BINARY_OPS: &[&OpDef] = &[$(&$ident),+];
        $(
        kiln_compiler::op_def! {
            #[doc = concat!("`", $name, "`: ", $summary, ", elementwise (pipe V, instruction `Binary`).")]
            #[doc = ""]
            #[doc = "`dst` is a UB buffer; each source is a UB buffer of `dst`'s element type that broadcasts to it"]
            #[doc = "(`[R, C]`, `[1, C]`, `[R, 1]` or `[1, 1]` against `[R, C]`) or a scalar of that type (an"]
            #[doc = "immediate). Effects: reads the sources, writes `dst`."]
            #[doc = ""]
            #[doc = "```mlir"]
            #[doc = concat!($name, " ins(%a, %cst : ", ub!(), ", f32) outs(%c : ", ub!(), ")")]
            #[doc = concat!("\"", $name, "\"(%a, %cst, %c) : (", ub!(), ", f32, ", ub!(), ") -> ()")]
            #[doc = "```"]
            pub static $ident: kiln_compiler::OpDef = OpDef {
                name: $name,
                summary: $summary,
                operands: Arity::Named(BINARY),
                verify: Some(v::verify_binary),
                syntax: Some(&syntax::DPS_SYNTAX),
                interfaces: &[&READ01_WRITE2, &Instruction(InstKind::Binary(BinaryOp::$member))],
                ..OpDef::DEFAULT
            };
        }
    )+};
}

kiln_bytecode::binary_instructions!(npuvec_binary);

kiln_compiler::op_def! {
    /// `npuvec.cmp`: elementwise comparison into an `i1` mask (pipe V, instruction `Cmp`).
    ///
    /// Sources broadcast as those of the binary ops and share one element type; `dst` is a UB
    /// buffer of `i1` (one byte per element). Float comparisons are ordered (false with a NaN)
    /// except `ne`. Effects: reads the sources, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.cmp lt ins(%a, %b : memref<8x64xf32, #npuvec.space<ub>>, memref<8x1xf32, #npuvec.space<ub>>) outs(%m : memref<8x64xi1, #npuvec.space<ub>>)
    /// "npuvec.cmp"(%a, %b, %m) <{predicate = #npuvec.cmp<lt>}> : (memref<8x64xf32, #npuvec.space<ub>>, memref<8x1xf32, #npuvec.space<ub>>, memref<8x64xi1, #npuvec.space<ub>>) -> ()
    /// ```
    pub static CMP_OP: OpDef = OpDef {
        name: "npuvec.cmp",
        summary: "elementwise comparison",
        operands: Arity::Named(BINARY),
        attrs: &[AttrSpec { name: "predicate", constraint: AttrConstraint::DialectAttr(&CMP_PREDICATE), optional: false }],
        verify: Some(v::verify_cmp),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&READ01_WRITE2, &Instruction(InstKind::Op(Opcode::Cmp))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.select`: `dst = mask ? true_value : false_value` elementwise (pipe V,
    /// instruction `Select`).
    ///
    /// The mask is an `i1` UB buffer, the values buffers or scalars of `dst`'s element type;
    /// all broadcast to `dst`. Effects: reads the sources, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.select ins(%m, %a, %cst : memref<8x64xi1, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>, f32) outs(%c : memref<8x64xf32, #npuvec.space<ub>>)
    /// "npuvec.select"(%m, %a, %cst, %c) : (memref<8x64xi1, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>, f32, memref<8x64xf32, #npuvec.space<ub>>) -> ()
    /// ```
    pub static SELECT_OP: OpDef = OpDef {
        name: "npuvec.select",
        summary: "elementwise selection",
        operands: Arity::Named(&[
            ValueDef::single("mask", C::Any),
            ValueDef::single("true_value", C::Any),
            ValueDef::single("false_value", C::Any),
            ValueDef::single("dst", C::AnyMemRef),
        ]),
        verify: Some(v::verify_select),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&MemoryEffects(&[read(0), read(1), read(2), write(3)]), &Instruction(InstKind::Op(Opcode::Select))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.reduce`: reduces each row of `src` (`[R, C]`) into `dst` (`[R, 1]`) (pipe V,
    /// instruction `Reduce`).
    ///
    /// Both are UB buffers of one element type; `kind` is `sum`, `max`, `min` or `prod`; with
    /// `accumulate` the fold continues from `dst`'s value. Effects: reads `src` and `dst`,
    /// writes `dst`.
    ///
    /// ```mlir
    /// npuvec.reduce sum ins(%a : memref<8x64xf32, #npuvec.space<ub>>) outs(%s : memref<8x1xf32, #npuvec.space<ub>>)
    /// "npuvec.reduce"(%a, %s) <{kind = #npuvec.reduce<sum>}> : (memref<8x64xf32, #npuvec.space<ub>>, memref<8x1xf32, #npuvec.space<ub>>) -> ()
    /// ```
    pub static REDUCE_OP: OpDef = OpDef {
        name: "npuvec.reduce",
        summary: "row reduction",
        operands: Arity::Named(SRC_DST),
        attrs: &[AttrSpec { name: "kind", constraint: AttrConstraint::DialectAttr(&REDUCE_KIND), optional: false }],
        verify: Some(v::verify_reduce),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&MemoryEffects(&[read(0), read(1), write(1)]), &Instruction(InstKind::Op(Opcode::Reduce))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.broadcast`: broadcasts `src` (`[R, 1]`, `[1, C]` or `[1, 1]`) to `dst`
    /// (`[R, C]`) (pipe V, instruction `Broadcast`).
    ///
    /// Both are UB buffers of one element type. Effects: reads `src`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.broadcast ins(%s : memref<8x1xf32, #npuvec.space<ub>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>)
    /// "npuvec.broadcast"(%s, %b) : (memref<8x1xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>) -> ()
    /// ```
    pub static BROADCAST_OP: OpDef = OpDef {
        name: "npuvec.broadcast",
        summary: "broadcast along rows or columns",
        operands: Arity::Named(SRC_DST),
        verify: Some(v::verify_broadcast),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&READ0_WRITE1, &Instruction(InstKind::Op(Opcode::Broadcast))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.fill`: sets every element of `dst` to `value` (pipe V, instruction `Fill`).
    ///
    /// `value` is a scalar of `dst`'s element type (an immediate). Effects: writes `dst`.
    ///
    /// ```mlir
    /// npuvec.fill ins(%cst : f32) outs(%b : memref<8x64xf32, #npuvec.space<ub>>)
    /// "npuvec.fill"(%cst, %b) : (f32, memref<8x64xf32, #npuvec.space<ub>>) -> ()
    /// ```
    pub static FILL_OP: OpDef = OpDef {
        name: "npuvec.fill",
        summary: "fill a buffer with a scalar",
        operands: Arity::Named(&[
            ValueDef::single("value", C::ElementTypeOf("dst")),
            ValueDef::single("dst", C::AnyMemRef),
        ]),
        verify: Some(v::verify_fill),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&MemoryEffects(&[write(1)]), &Instruction(InstKind::Op(Opcode::Fill))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.cast`: converts `src` to `dst`'s element type (pipe V, instruction `Cast`).
    ///
    /// Both are UB buffers of one shape; `round` (`rint`, `trunc`, `floor`, `ceil`) says how an
    /// inexact value rounds. Effects: reads `src`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.cast rint ins(%a : memref<8x64xf32, #npuvec.space<ub>>) outs(%h : memref<8x64xf16, #npuvec.space<ub>>)
    /// "npuvec.cast"(%a, %h) <{round = #npuvec.round<rint>}> : (memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf16, #npuvec.space<ub>>) -> ()
    /// ```
    pub static CAST_OP: OpDef = OpDef {
        name: "npuvec.cast",
        summary: "element type conversion",
        operands: Arity::Named(SRC_DST),
        attrs: &[AttrSpec { name: "round", constraint: AttrConstraint::DialectAttr(&ROUND_MODE), optional: false }],
        verify: Some(v::verify_cast),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&READ0_WRITE1, &Instruction(InstKind::Op(Opcode::Cast))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.transpose`: transposes `src` (`[r, c]`) into `dst` (`[c, r]`) in 16x16 blocks
    /// (pipe V, instruction `Transpose`).
    ///
    /// Both are UB buffers of one element type; `r` and `c` are multiples of 16. Effects: reads
    /// `src`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.transpose ins(%a : memref<16x32xf16, #npuvec.space<ub>>) outs(%t : memref<32x16xf16, #npuvec.space<ub>>)
    /// "npuvec.transpose"(%a, %t) : (memref<16x32xf16, #npuvec.space<ub>>, memref<32x16xf16, #npuvec.space<ub>>) -> ()
    /// ```
    pub static TRANSPOSE_OP: OpDef = OpDef {
        name: "npuvec.transpose",
        summary: "16x16-block transpose",
        operands: Arity::Named(SRC_DST),
        verify: Some(v::verify_transpose),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&READ0_WRITE1, &Instruction(InstKind::Op(Opcode::Transpose))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.copy`: copies `src` into `dst` (pipe V, instruction `Copy`).
    ///
    /// Both are UB buffers of one type. Effects: reads `src`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.copy ins(%a : memref<8x64xf32, #npuvec.space<ub>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>)
    /// "npuvec.copy"(%a, %b) : (memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>) -> ()
    /// ```
    pub static COPY_OP: OpDef = OpDef {
        name: "npuvec.copy",
        summary: "UB to UB copy",
        operands: Arity::Named(SRC_DST_SAME),
        verify: Some(v::verify_unary),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&READ0_WRITE1, &Instruction(InstKind::Op(Opcode::Copy))],
        ..OpDef::DEFAULT
    };
}
