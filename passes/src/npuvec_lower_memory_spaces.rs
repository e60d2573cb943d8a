//! `npuvec-lower-memory-spaces`: rewrites `#npuvec.space<..>` memref memory spaces to integer
//! ones, so that tools that do not know `npuvec` (mlir-opt 22 rejects an unregistered
//! dialect's attribute as a memory space) read the IR; as MLIR's GPU address-space lowering
//! does.
//!
//! Rewrites: every memref and unranked memref type whose memory space is
//! `#npuvec.space<s>` gets the integer space of `s` (gm 0, ub 1, l1 2, l0a 3, l0b 4, l0c 5, as
//! `i64` attributes); space 0 is written as no memory space, MLIR's canonical form of
//! `memref<..., 0>`. Types are rewritten wherever they occur: op results, block arguments, and
//! attributes and properties holding types (`function_type`, type attributes inside arrays and
//! dictionaries), including types nested in function, tuple, tensor-encoding and dialect-type
//! parameters.
//! Assumes: nothing (any IR, verified or not).
//! Guarantees: no type of the result names `#npuvec.space`; nothing else changes. The result
//! still verifies: the `npuvec` verifiers read an integer space (and no space, for GM) as the
//! named one, as MLIR's GPU dialect accepts both its address-space attribute and the integer.

use std::collections::HashMap;

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{AttrKind, Attribute, Context, NamedAttr, OpId, Type, TypeKind};
use kiln_dialects::npuvec::Space;

kiln_compiler::declare_pass! {
    struct NpuvecLowerMemorySpaces;
    name: "npuvec-lower-memory-spaces",
    summary: "Rewrite #npuvec.space memory spaces to integer memory spaces",
    description: "Rewrites every `#npuvec.space<..>` memref memory space (in op results, block \
        arguments and attributes holding types) to an integer space: gm 0, ub 1, l1 2, l0a 3, \
        l0b 4, l0c 5.",

    fn run(&mut self, cx, root) {
        let ops: Vec<OpId> = cx.ir.walk(root, WalkOrder::PreOrder).collect();
        let mut lower = Lowering { ctx: cx.ctx, types: HashMap::new(), attrs: HashMap::new() };
        let mut rewritten = 0;
        for op in ops {
            let mut values: Vec<_> = cx.ir.results(op).to_vec();
            for &region in cx.ir.regions(op) {
                for block in cx.ir.region_blocks(region) {
                    values.extend_from_slice(cx.ir.block_args(block));
                }
            }
            for v in values {
                let ty = cx.ir.value_type(v);
                let lowered = lower.ty(ty);
                if lowered != ty {
                    cx.ir.set_value_type(v, lowered);
                    rewritten += 1;
                }
            }
            let data = cx.ir.op_mut(op);
            for value in data.attrs.values_mut() {
                *value = lower.attr(*value);
            }
            data.properties = data.properties.map(|p| lower.attr(p));
        }
        cx.add_statistic("num-values", "Number of values whose type was rewritten", rewritten);
        Ok(())
    }
}

/// Rewrites types and the attributes that hold them, remembering each answer (MLIR's
/// `AttrTypeReplacer`). It recurses over the nesting of one type or attribute, which is
/// shallow; IR is walked with a list, not recursion.
struct Lowering<'a, 'c> {
    ctx: &'a Context<'c>,
    types: HashMap<Type<'c>, Type<'c>>,
    attrs: HashMap<Attribute<'c>, Attribute<'c>>,
}

impl<'c> Lowering<'_, 'c> {
    /// The memory space that replaces `space` (`None`: no memory space).
    fn space(&mut self, space: Option<Attribute<'c>>) -> Option<Attribute<'c>> {
        let space = space?;
        match Space::of(space).map(Space::integer) {
            Some(0) => None,
            Some(n) => Some(self.ctx.int_attr(n.into(), self.ctx.int_type(64))),
            None => Some(self.attr(space)),
        }
    }

    fn types(&mut self, types: &[Type<'c>]) -> &'c [Type<'c>] {
        let lowered: Vec<Type<'c>> = types.iter().map(|&t| self.ty(t)).collect();
        self.ctx.alloc_slice(&lowered)
    }

    fn attr_list(&mut self, attrs: &[Attribute<'c>]) -> &'c [Attribute<'c>] {
        let lowered: Vec<Attribute<'c>> = attrs.iter().map(|&a| self.attr(a)).collect();
        self.ctx.alloc_slice(&lowered)
    }

    fn ty(&mut self, ty: Type<'c>) -> Type<'c> {
        if let Some(&done) = self.types.get(&ty) {
            return done;
        }
        let kind = match *ty.kind() {
            TypeKind::MemRef { shape, elem, layout, memory_space } => TypeKind::MemRef {
                shape,
                elem: self.ty(elem),
                layout: layout.map(|l| self.attr(l)),
                memory_space: self.space(memory_space),
            },
            TypeKind::UnrankedMemRef { elem, memory_space } => {
                TypeKind::UnrankedMemRef { elem: self.ty(elem), memory_space: self.space(memory_space) }
            }
            TypeKind::Function { inputs, results } => {
                TypeKind::Function { inputs: self.types(inputs), results: self.types(results) }
            }
            TypeKind::Tuple(items) => TypeKind::Tuple(self.types(items)),
            TypeKind::RankedTensor { shape, elem, encoding } => TypeKind::RankedTensor {
                shape,
                elem: self.ty(elem),
                encoding: encoding.map(|e| self.attr(e)),
            },
            TypeKind::Dialect { def, params } => TypeKind::Dialect { def, params: self.attr_list(params) },
            _ => return ty,
        };
        let lowered = self.ctx.ty(kind);
        self.types.insert(ty, lowered);
        lowered
    }

    fn attr(&mut self, attr: Attribute<'c>) -> Attribute<'c> {
        if let Some(&done) = self.attrs.get(&attr) {
            return done;
        }
        let lowered = match *attr.kind() {
            AttrKind::Type(t) => self.ctx.type_attr(self.ty(t)),
            AttrKind::Array(items) => {
                let items = self.attr_list(items);
                self.ctx.array_attr(items)
            }
            AttrKind::Dictionary(entries) => {
                let entries: Vec<NamedAttr<'c>> =
                    entries.iter().map(|e| NamedAttr { name: e.name, value: self.attr(e.value) }).collect();
                self.ctx.dict_attr(&entries)
            }
            AttrKind::Dialect { def, params } => {
                let params = self.attr_list(params);
                self.ctx.attr(AttrKind::Dialect { def, params })
            }
            _ => attr,
        };
        self.attrs.insert(attr, lowered);
        lowered
    }
}
