//! The context: owner of interned types, attributes and strings, and of the dialect registry.
//!
//! Interned data lives in a `bumpalo` arena that the caller creates and lends to the context for
//! the lifetime `'c` (as rustc's `TyCtxt<'tcx>` borrows its arenas), so handles are plain
//! `&'c` pointers: `Copy`, comparable by identity, and readable without going through the
//! context. A uniquing set per kind guarantees one copy of each distinct value.

use std::cell::{Cell, RefCell};

use bumpalo::Bump;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::affine::AffineExpr;
use crate::attributes::{AttrKind, Attribute, NamedAttr};
use crate::dialect::DialectRegistry;
use crate::types::{FloatKind, Signedness, Type, TypeKind};

/// Owns interned IR data and the registry of known dialects.
pub struct Context<'c> {
    arena: &'c Bump,
    strings: RefCell<HashSet<&'c str>>,
    types: RefCell<HashSet<&'c TypeKind<'c>>>,
    attrs: RefCell<HashSet<&'c AttrKind<'c>>>,
    registry: DialectRegistry,
    allow_unregistered: Cell<bool>,
    /// Whether an error about an op carries a `see current operation` note (MLIR's
    /// `printOpOnDiagnostic`).
    print_op_on_diagnostic: Cell<bool>,
    /// The debug output enabled (LLVM's `-debug` / `-debug-only`): `None` off, an empty list
    /// every type, else the types listed.
    debug_types: RefCell<Option<Vec<String>>>,
    /// The next [`AttrKind::Distinct`] id.
    next_distinct: Cell<u64>,
    /// Alias names read from parsed files (`#name = attr`), which the printer may reuse for
    /// values whose alias a dialect chooses (MLIR's `OpAsmDialectInterface::getAlias`).
    attr_alias_names: RefCell<HashMap<Attribute<'c>, &'c str>>,
    type_alias_names: RefCell<HashMap<Type<'c>, &'c str>>,
    /// The same, by name (the last definition wins).
    attrs_by_alias: RefCell<HashMap<&'c str, Attribute<'c>>>,
    types_by_alias: RefCell<HashMap<&'c str, Type<'c>>>,
    /// Where each alias definition came in the parsed files (`true` for types), by name.
    alias_positions: RefCell<HashMap<(bool, &'c str), u32>>,
}

impl<'c> Context<'c> {
    /// A context interning into `arena`, knowing the dialects in `registry`.
    pub fn new(arena: &'c Bump, registry: DialectRegistry) -> Self {
        Context {
            arena,
            strings: RefCell::default(),
            types: RefCell::default(),
            attrs: RefCell::default(),
            registry,
            allow_unregistered: Cell::new(false),
            print_op_on_diagnostic: Cell::new(true),
            debug_types: RefCell::new(None),
            next_distinct: Cell::new(0),
            attr_alias_names: RefCell::default(),
            type_alias_names: RefCell::default(),
            attrs_by_alias: RefCell::default(),
            types_by_alias: RefCell::default(),
            alias_positions: RefCell::default(),
        }
    }

    /// Remembers that a parsed file named `attr` `#name` (the first name wins).
    pub fn note_attr_alias(&self, attr: Attribute<'c>, name: &str) {
        let name = self.intern_str(name);
        self.attr_alias_names.borrow_mut().entry(attr).or_insert(name);
        self.attrs_by_alias.borrow_mut().insert(name, attr);
        self.note_alias_position(false, name);
    }

    fn note_alias_position(&self, is_type: bool, name: &'c str) {
        let mut positions = self.alias_positions.borrow_mut();
        let next = positions.len() as u32;
        positions.entry((is_type, name)).or_insert(next);
    }

    /// The position of alias `name`'s definition among those parsed (types when `is_type`).
    pub fn alias_position(&self, is_type: bool, name: &str) -> Option<u32> {
        self.alias_positions.borrow().get(&(is_type, name)).copied()
    }

    /// Remembers that a parsed file named `ty` `!name` (the first name wins).
    pub fn note_type_alias(&self, ty: Type<'c>, name: &str) {
        let name = self.intern_str(name);
        self.type_alias_names.borrow_mut().entry(ty).or_insert(name);
        self.types_by_alias.borrow_mut().insert(name, ty);
        self.note_alias_position(true, name);
    }

    /// The attribute a parsed file named `#name`.
    pub fn attr_by_alias(&self, name: &str) -> Option<Attribute<'c>> {
        self.attrs_by_alias.borrow().get(name).copied()
    }

    /// The type a parsed file named `!name`.
    pub fn type_by_alias(&self, name: &str) -> Option<Type<'c>> {
        self.types_by_alias.borrow().get(name).copied()
    }

    /// The alias name a parsed file gave `attr`, if any.
    pub fn attr_alias_name(&self, attr: Attribute<'c>) -> Option<&'c str> {
        let names = self.attr_alias_names.borrow();
        if names.is_empty() {
            return None;
        }
        names.get(&attr).copied()
    }

    /// The alias name a parsed file gave `ty`, if any.
    pub fn type_alias_name(&self, ty: Type<'c>) -> Option<&'c str> {
        let names = self.type_alias_names.borrow();
        if names.is_empty() {
            return None;
        }
        names.get(&ty).copied()
    }

    /// A new `distinct[..]<inner>` attribute, different from every other one.
    pub fn distinct_attr(&self, inner: Attribute<'c>) -> Attribute<'c> {
        let id = self.next_distinct.get();
        self.next_distinct.set(id + 1);
        self.attr(AttrKind::Distinct { id, inner })
    }

    /// The registered dialects and their operations.
    pub fn registry(&self) -> &DialectRegistry {
        &self.registry
    }

    /// Whether ops, types and attributes of unknown dialects are accepted.
    pub fn allows_unregistered(&self) -> bool {
        self.allow_unregistered.get()
    }

    /// Accept (or reject) ops, types and attributes of unknown dialects.
    pub fn set_allow_unregistered(&self, allow: bool) {
        self.allow_unregistered.set(allow)
    }

    /// Whether an error about an op carries a note with the op printed in the generic form
    /// (`see current operation: ...`), as MLIR's `shouldPrintOpOnDiagnostic` (on by default;
    /// mlir-opt turns it off under `--verify-diagnostics`).
    pub fn prints_op_on_diagnostic(&self) -> bool {
        self.print_op_on_diagnostic.get()
    }

    /// Attach (or not) the `see current operation` note to errors about ops.
    pub fn set_print_op_on_diagnostic(&self, print: bool) {
        self.print_op_on_diagnostic.set(print)
    }

    /// Turns debug output on for the listed debug types (`-debug-only=a,b`), for all of them
    /// (an empty list, `-debug`), or off (`None`). Drivers and passes print it to stderr, as
    /// LLVM's `dbgs()`: it is a trace for compiler engineers, not a diagnostic.
    pub fn set_debug(&self, types: Option<Vec<String>>) {
        *self.debug_types.borrow_mut() = types;
    }

    /// Whether debug output of type `ty` (`dialect-conversion`, ...) is on.
    pub fn debug_enabled(&self, ty: &str) -> bool {
        self.debug_types.borrow().as_ref().is_some_and(|t| t.is_empty() || t.iter().any(|x| x == ty))
    }

    /// Makes room for about `additional` more attributes (e.g. one location per op of a large
    /// file about to be parsed), so the uniquing table does not rehash as it grows.
    pub fn reserve_attrs(&self, additional: usize) {
        self.attrs.borrow_mut().reserve(additional);
    }

    /// Interns a string.
    pub fn intern_str(&self, s: &str) -> &'c str {
        let mut set = self.strings.borrow_mut();
        if let Some(&found) = set.get(s) {
            return found;
        }
        let stored: &'c str = self.arena.alloc_str(s);
        set.insert(stored);
        stored
    }

    /// Copies a slice into the arena (not uniqued; used to build interned values).
    pub fn alloc_slice<T: Copy>(&self, items: &[T]) -> &'c [T] {
        self.arena.alloc_slice_copy(items)
    }

    /// Copies bytes into the arena.
    pub fn alloc_bytes(&self, bytes: &[u8]) -> &'c [u8] {
        self.arena.alloc_slice_copy(bytes)
    }

    /// Allocates one affine expression node in the arena.
    pub fn alloc_affine(&self, expr: AffineExpr<'c>) -> &'c AffineExpr<'c> {
        self.arena.alloc(expr)
    }

    /// Interns a type.
    pub fn ty(&self, kind: TypeKind<'c>) -> Type<'c> {
        let mut set = self.types.borrow_mut();
        if let Some(&found) = set.get(&kind) {
            return Type(found);
        }
        let stored: &'c TypeKind<'c> = self.arena.alloc(kind);
        set.insert(stored);
        Type(stored)
    }

    /// Interns an attribute.
    pub fn attr(&self, kind: AttrKind<'c>) -> Attribute<'c> {
        let mut set = self.attrs.borrow_mut();
        if let Some(&found) = set.get(&kind) {
            return Attribute(found);
        }
        let stored: &'c AttrKind<'c> = self.arena.alloc(kind);
        set.insert(stored);
        Attribute(stored)
    }

    /// `iN` (signless).
    pub fn int_type(&self, width: u32) -> Type<'c> {
        self.ty(TypeKind::Integer { width, signedness: Signedness::Signless })
    }

    /// `index`.
    pub fn index_type(&self) -> Type<'c> {
        self.ty(TypeKind::Index)
    }

    /// A float type.
    pub fn float_type(&self, kind: FloatKind) -> Type<'c> {
        self.ty(TypeKind::Float(kind))
    }

    /// `none`.
    pub fn none_type(&self) -> Type<'c> {
        self.ty(TypeKind::None)
    }

    /// `(inputs) -> results`.
    pub fn function_type(&self, inputs: &[Type<'c>], results: &[Type<'c>]) -> Type<'c> {
        let inputs = self.alloc_slice(inputs);
        let results = self.alloc_slice(results);
        self.ty(TypeKind::Function { inputs, results })
    }

    /// `tensor<shape x elem>` without encoding.
    pub fn tensor_type(&self, shape: &[i64], elem: Type<'c>) -> Type<'c> {
        let shape = self.alloc_slice(shape);
        self.ty(TypeKind::RankedTensor { shape, elem, encoding: None })
    }

    /// `unit`.
    pub fn unit_attr(&self) -> Attribute<'c> {
        self.attr(AttrKind::Unit)
    }

    /// An integer attribute of type `ty` (the value is truncated to the type's width).
    pub fn int_attr(&self, value: i128, ty: Type<'c>) -> Attribute<'c> {
        let value = match ty.kind() {
            TypeKind::Integer { width, signedness } if *width < 128 => {
                let shift = 128 - width;
                match signedness {
                    Signedness::Unsigned => ((value << shift) as u128 >> shift) as i128,
                    _ => (value << shift) >> shift,
                }
            }
            _ => value,
        };
        self.attr(AttrKind::Integer { value, ty })
    }

    /// `true` / `false` (an `i1` integer attribute).
    pub fn bool_attr(&self, value: bool) -> Attribute<'c> {
        self.int_attr(value as i128, self.int_type(1))
    }

    /// A string attribute without type.
    pub fn str_attr(&self, value: &[u8]) -> Attribute<'c> {
        let value = self.alloc_bytes(value);
        self.attr(AttrKind::String { value, ty: None })
    }

    /// A type attribute.
    pub fn type_attr(&self, ty: Type<'c>) -> Attribute<'c> {
        self.attr(AttrKind::Type(ty))
    }

    /// An array attribute.
    pub fn array_attr(&self, items: &[Attribute<'c>]) -> Attribute<'c> {
        let items = self.alloc_slice(items);
        self.attr(AttrKind::Array(items))
    }

    /// A dictionary attribute; entries are sorted by name (a later duplicate name wins).
    pub fn dict_attr(&self, entries: &[NamedAttr<'c>]) -> Attribute<'c> {
        let mut sorted: Vec<NamedAttr<'c>> = Vec::with_capacity(entries.len());
        for e in entries {
            match sorted.binary_search_by(|x| x.name.cmp(e.name)) {
                Ok(i) => sorted[i] = *e,
                Err(i) => sorted.insert(i, *e),
            }
        }
        let entries = self.alloc_slice(&sorted);
        self.attr(AttrKind::Dictionary(entries))
    }

    /// A flat symbol reference `@name`.
    pub fn symbol_ref_attr(&self, name: &[u8]) -> Attribute<'c> {
        let root = self.alloc_bytes(name);
        self.attr(AttrKind::SymbolRef { root, nested: &[] })
    }

    /// `loc(unknown)`.
    pub fn unknown_loc(&self) -> Attribute<'c> {
        self.attr(AttrKind::UnknownLoc)
    }

    /// `loc("file":line:col)`.
    pub fn file_loc(&self, file: &str, line: u32, col: u32) -> Attribute<'c> {
        let file = self.alloc_bytes(file.as_bytes());
        self.attr(AttrKind::FileLineColLoc { file, line, col, end: None })
    }
}
