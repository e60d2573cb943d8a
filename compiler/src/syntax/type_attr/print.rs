//! Printing of types, attributes and locations exactly as mlir-opt 22 prints them
//! (`AsmPrinter.cpp`): type elision rules, float formatting, escapes, dense elements with the
//! hex form above 100 elements, location syntax, and aliases at every nesting level.

use std::fmt::{self, Write};

use super::dense::elem_bytes;
use super::float::format_float;
use super::AliasLookup;
use crate::asm::{DialectAsmPrinter, ParamPrinterBackend};
use crate::attributes::{AttrKind, Attribute, DenseData};
use crate::dialect_attrs::ParamSyntax;
use crate::types::{Signedness, Type, TypeKind, DYNAMIC};

/// When an attribute's `: type` suffix is left out (MLIR's `AttrTypeElision`).
#[derive(Clone, Copy, PartialEq)]
enum Elision {
    Never,
    May,
}

/// Appends `bytes` escaped as MLIR does: printable ASCII as is, `\\` doubled, the rest (and
/// `"`) as `\XX`.
pub(crate) fn escape_into(out: &mut String, bytes: &[u8]) {
    for &c in bytes {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\22"),
            0x20..=0x7E => out.push(c as char),
            _ => write!(out, "\\{c:02X}").unwrap(),
        }
    }
}

fn quoted(out: &mut String, bytes: &[u8]) {
    out.push('"');
    escape_into(out, bytes);
    out.push('"');
}

fn is_bare_identifier(name: &[u8]) -> bool {
    match name.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return false,
    }
    name[1..].iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.')
}

fn keyword_or_string(out: &mut String, name: &[u8]) {
    if is_bare_identifier(name) {
        out.push_str(std::str::from_utf8(name).unwrap_or_default());
    } else {
        quoted(out, name);
    }
}

fn dialect_symbol(out: &mut String, sigil: char, dialect: &str, body: &str) {
    out.push(sigil);
    out.push_str(dialect);
    if !body.starts_with('<') {
        out.push('.');
    }
    out.push_str(body);
}

/// What an elided elements attribute prints as (MLIR's `printElidedElementsAttr`).
const ELIDED: &str = "dense_resource<__elided__>";

struct Printer<'o, 'l, 'c> {
    out: &'o mut String,
    aliases: &'l dyn AliasLookup<'c>,
}

/// The printer behind the [`DialectAsmPrinter`] that print hooks of dialect attributes and
/// types write their parameters with.
impl<'c> ParamPrinterBackend<'c> for Printer<'_, '_, 'c> {
    fn write(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn print_attribute(&mut self, attr: Attribute<'c>) {
        self.attr(attr, Elision::Never);
    }

    fn print_type(&mut self, ty: Type<'c>) {
        self.ty(ty);
    }
}

impl<'c> Printer<'_, '_, 'c> {
    /// `#dialect.name<params>`, the brackets left out when there is nothing in them.
    fn dialect_kind(
        &mut self,
        sigil: char,
        dialect: &str,
        name: &str,
        syntax: &ParamSyntax,
        params: &[Attribute<'c>],
    ) {
        self.out.push(sigil);
        self.out.push_str(dialect);
        self.out.push('.');
        self.out.push_str(name);
        let open = self.out.len();
        self.out.push('<');
        match *syntax {
            ParamSyntax::Enum(cases) => {
                let case = params.first().and_then(|p| p.as_int()).and_then(|i| cases.get(i as usize));
                self.out.push_str(case.copied().unwrap_or_default());
            }
            ParamSyntax::Custom { print, .. } => print(&mut DialectAsmPrinter::new(self), params),
        }
        if self.out.len() == open + 1 {
            self.out.truncate(open);
        } else {
            self.out.push('>');
        }
    }

    fn list<T: Copy>(&mut self, items: &[T], mut f: impl FnMut(&mut Self, T)) {
        for (i, &x) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            f(self, x);
        }
    }

    fn ty(&mut self, ty: Type<'c>) {
        if let Some(a) = self.aliases.type_alias(ty) {
            self.out.push_str(a);
            return;
        }
        match *ty.kind() {
            TypeKind::Integer { width, signedness } => {
                let prefix = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                write!(self.out, "{prefix}{width}").unwrap();
            }
            TypeKind::Index => self.out.push_str("index"),
            TypeKind::Float(k) => self.out.push_str(k.keyword()),
            TypeKind::None => self.out.push_str("none"),
            TypeKind::Complex(e) => {
                self.out.push_str("complex<");
                self.ty(e);
                self.out.push('>');
            }
            TypeKind::Tuple(elems) => {
                self.out.push_str("tuple<");
                self.list(elems, |p, t| p.ty(t));
                self.out.push('>');
            }
            TypeKind::Function { inputs, results } => {
                self.out.push('(');
                self.list(inputs, |p, t| p.ty(t));
                self.out.push_str(") -> ");
                match results {
                    [r] if !matches!(r.kind(), TypeKind::Function { .. }) => self.ty(*r),
                    _ => {
                        self.out.push('(');
                        self.list(results, |p, t| p.ty(t));
                        self.out.push(')');
                    }
                }
            }
            TypeKind::RankedTensor { shape, elem, encoding } => {
                self.out.push_str("tensor<");
                self.dims(shape, &[]);
                self.ty(elem);
                if let Some(e) = encoding {
                    self.out.push_str(", ");
                    self.attr(e, Elision::Never);
                }
                self.out.push('>');
            }
            TypeKind::UnrankedTensor { elem } => {
                self.out.push_str("tensor<*x");
                self.ty(elem);
                self.out.push('>');
            }
            TypeKind::MemRef { shape, elem, layout, memory_space } => {
                self.out.push_str("memref<");
                self.dims(shape, &[]);
                self.ty(elem);
                if let Some(l) = layout {
                    self.out.push_str(", ");
                    self.attr(l, Elision::Never);
                }
                if let Some(m) = memory_space {
                    self.out.push_str(", ");
                    self.attr(m, Elision::May);
                }
                self.out.push('>');
            }
            TypeKind::UnrankedMemRef { elem, memory_space } => {
                self.out.push_str("memref<*x");
                self.ty(elem);
                if let Some(m) = memory_space {
                    self.out.push_str(", ");
                    self.attr(m, Elision::May);
                }
                self.out.push('>');
            }
            TypeKind::Vector { shape, scalable, elem } => {
                self.out.push_str("vector<");
                self.dims(shape, scalable);
                self.ty(elem);
                self.out.push('>');
            }
            TypeKind::Dialect { def, params } => {
                self.dialect_kind('!', def.dialect, def.name, &def.syntax, params)
            }
            TypeKind::Opaque { dialect, body } => dialect_symbol(self.out, '!', dialect, body),
        }
    }

    fn dims(&mut self, shape: &[i64], scalable: &[bool]) {
        for (i, &d) in shape.iter().enumerate() {
            let sc = scalable.get(i).copied().unwrap_or(false);
            if sc {
                self.out.push('[');
            }
            if d == DYNAMIC {
                self.out.push('?');
            } else {
                write!(self.out, "{d}").unwrap();
            }
            if sc {
                self.out.push(']');
            }
            self.out.push('x');
        }
    }

    fn attr(&mut self, attr: Attribute<'c>, elision: Elision) {
        if let Some(a) = self.aliases.attr_alias(attr) {
            self.out.push_str(a);
            return;
        }
        let suffix: Option<Type<'c>> = match *attr.kind() {
            AttrKind::Unit => {
                self.out.push_str("unit");
                None
            }
            AttrKind::Integer { value, ty } => {
                match *ty.kind() {
                    TypeKind::Integer { width: 1, signedness: Signedness::Signless } => {
                        self.out.push_str(if value != 0 { "true" } else { "false" });
                        return;
                    }
                    TypeKind::Integer { signedness: Signedness::Unsigned, .. } => {
                        write!(self.out, "{}", value as u128).unwrap()
                    }
                    _ => write!(self.out, "{value}").unwrap(),
                }
                let is_i64 =
                    matches!(ty.kind(), TypeKind::Integer { width: 64, signedness: Signedness::Signless });
                (!(elision == Elision::May && is_i64)).then_some(ty)
            }
            AttrKind::Distinct { inner, .. } => {
                write!(self.out, "distinct[{}]<", self.aliases.distinct_id(attr)).unwrap();
                if !matches!(inner.kind(), AttrKind::Unit) {
                    self.attr(inner, Elision::Never);
                }
                self.out.push('>');
                None
            }
            AttrKind::WideInteger { words, ty } => {
                let signed = !matches!(ty.kind(), TypeKind::Integer { signedness: Signedness::Unsigned, .. });
                self.out.push_str(&super::bignum::words_to_decimal(words, signed));
                Some(ty)
            }
            AttrKind::Float { bits, ty } => {
                if let TypeKind::Float(k) = *ty.kind() {
                    self.out.push_str(&format_float(k, bits));
                }
                let is_f64 = matches!(ty.kind(), TypeKind::Float(crate::types::FloatKind::F64));
                (!(elision == Elision::May && is_f64)).then_some(ty)
            }
            AttrKind::String { value, ty } => {
                quoted(self.out, value);
                ty
            }
            AttrKind::Type(t) => {
                self.ty(t);
                None
            }
            AttrKind::Array(items) => {
                self.out.push('[');
                self.list(items, |p, a| p.attr(a, Elision::May));
                self.out.push(']');
                None
            }
            AttrKind::Dictionary(entries) => {
                self.out.push('{');
                self.list(entries, |p, e| {
                    keyword_or_string(p.out, e.name.as_bytes());
                    if !matches!(e.value.kind(), AttrKind::Unit) {
                        p.out.push_str(" = ");
                        p.attr(e.value, Elision::Never);
                    }
                });
                self.out.push('}');
                None
            }
            AttrKind::SymbolRef { root, nested } => {
                self.out.push('@');
                keyword_or_string(self.out, root);
                for n in nested {
                    self.out.push_str("::@");
                    keyword_or_string(self.out, n);
                }
                None
            }
            AttrKind::DenseElements { ty, data } if self.elided(ty, data) => {
                self.out.push_str(ELIDED);
                Some(ty)
            }
            AttrKind::DenseElements { ty, data } => {
                self.out.push_str("dense<");
                self.dense(ty, data, true);
                self.out.push('>');
                Some(ty)
            }
            AttrKind::DenseResource { handle, ty } => {
                self.out.push_str("dense_resource<");
                crate::syntax::lexer::print_keyword_or_string(self.out, handle);
                self.out.push('>');
                Some(ty)
            }
            AttrKind::DenseArray { elem, len, bytes } => {
                self.out.push_str("array<");
                self.ty(elem);
                if len > 0 {
                    self.out.push_str(": ");
                    let size = elem_bytes(elem).unwrap_or(1);
                    for (i, chunk) in bytes.chunks(size).enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.element(elem, chunk);
                    }
                }
                self.out.push('>');
                return;
            }
            AttrKind::Sparse { ty, indices, values }
                if [indices, values].iter().any(
                    |a| matches!(*a.kind(), AttrKind::DenseElements { ty, data } if self.elided(ty, data)),
                ) =>
            {
                self.out.push_str(ELIDED);
                Some(ty)
            }
            AttrKind::Sparse { ty, indices, values } => {
                self.out.push_str("sparse<");
                if let (
                    AttrKind::DenseElements { ty: ity, data: idata },
                    AttrKind::DenseElements { ty: vty, data: vdata },
                ) = (indices.kind(), values.kind())
                {
                    if num_elements(*ity) != 0 {
                        self.dense(*ity, *idata, false);
                        self.out.push_str(", ");
                        self.dense(*vty, *vdata, true);
                    }
                }
                self.out.push('>');
                Some(ty)
            }
            AttrKind::AffineMap(m) => {
                write!(self.out, "affine_map<{m}>").unwrap();
                return;
            }
            AttrKind::IntegerSet(s) => {
                write!(self.out, "affine_set<{s}>").unwrap();
                return;
            }
            AttrKind::StridedLayout { offset, strides } => {
                self.out.push_str("strided<[");
                self.list(strides, |p, s| p.stride(s));
                self.out.push(']');
                if offset != 0 {
                    self.out.push_str(", offset: ");
                    self.stride(offset);
                }
                self.out.push('>');
                None
            }
            AttrKind::Dialect { def, params } => {
                self.dialect_kind('#', def.dialect, def.name, &def.syntax, params);
                None
            }
            AttrKind::Opaque { dialect, body, ty } => {
                dialect_symbol(self.out, '#', dialect, body);
                ty
            }
            AttrKind::FileLineColLoc { .. }
            | AttrKind::NameLoc { .. }
            | AttrKind::CallSiteLoc { .. }
            | AttrKind::FusedLoc { .. }
            | AttrKind::UnknownLoc => {
                self.out.push_str("loc(");
                self.loc_internal(attr);
                self.out.push(')');
                None
            }
        };
        if let Some(t) = suffix {
            if !matches!(t.kind(), TypeKind::None) {
                self.out.push_str(" : ");
                self.ty(t);
            }
        }
    }

    fn stride(&mut self, s: i64) {
        if s == DYNAMIC {
            self.out.push('?');
        } else {
            write!(self.out, "{s}").unwrap();
        }
    }

    /// One element of dense storage, as `printDenseIntElement` / `printFloatValue`.
    fn element(&mut self, elem: Type<'c>, bytes: &[u8]) {
        match *elem.kind() {
            TypeKind::Float(k) => {
                let bits = bytes.iter().rev().take(16).fold(0u128, |acc, &b| (acc << 8) | b as u128);
                self.out.push_str(&format_float(k, bits));
            }
            TypeKind::Complex(e) => {
                let half = bytes.len() / 2;
                self.out.push('(');
                self.element(e, &bytes[..half]);
                self.out.push(',');
                self.element(e, &bytes[half..]);
                self.out.push(')');
            }
            TypeKind::Integer { width: 1, .. } => {
                self.out.push_str(if bytes[0] & 1 != 0 { "true" } else { "false" })
            }
            TypeKind::Integer { width, signedness } => {
                let mut le = [0u8; 16];
                let n = bytes.len().min(16);
                le[..n].copy_from_slice(&bytes[..n]);
                let raw = u128::from_le_bytes(le);
                let w = width.min(128);
                let shift = 128 - w;
                if signedness == Signedness::Unsigned {
                    write!(self.out, "{}", (raw << shift) >> shift).unwrap();
                } else {
                    write!(self.out, "{}", ((raw << shift) as i128) >> shift).unwrap();
                }
            }
            _ => {
                let mut le = [0u8; 16];
                le[..8].copy_from_slice(&bytes[..8]);
                write!(self.out, "{}", i128::from_le_bytes(le) as i64).unwrap();
            }
        }
    }

    /// Whether `--mlir-elide-elementsattrs-if-larger` elides these elements (MLIR's
    /// `shouldElideElementsAttr`: more elements than the limit, and not a splat).
    fn elided(&self, ty: Type<'c>, data: DenseData<'c>) -> bool {
        let n = num_elements(ty);
        let splat = match data {
            DenseData::Raw { splat, .. } => splat || n == 1,
            DenseData::Strings(strs) => strs.len() == 1,
        };
        self.aliases.elements_limit().is_some_and(|limit| n > limit && !splat)
    }

    fn dense(&mut self, ty: Type<'c>, data: DenseData<'c>, allow_hex: bool) {
        let shape = ty.shape().unwrap_or(&[]);
        let elem = ty.element_type().expect("dense attributes have shaped types");
        let n = num_elements(ty);
        match data {
            DenseData::Strings(strs) => {
                let splat = strs.len() == 1 && n != 1;
                self.nested(shape, splat || n == 1, n, |p, i| quoted(p.out, strs[i]));
            }
            DenseData::Raw { bytes, splat } => {
                let esize = elem_bytes(elem).unwrap_or(1);
                if !splat && allow_hex && n > 100 {
                    self.out.push_str("\"0x");
                    if matches!(elem.kind(), TypeKind::Integer { width: 1, .. }) {
                        for chunk in bytes.chunks(8) {
                            let byte = chunk.iter().enumerate().fold(0u8, |acc, (i, b)| acc | ((b & 1) << i));
                            write!(self.out, "{byte:02X}").unwrap();
                        }
                    } else {
                        for b in bytes {
                            write!(self.out, "{b:02X}").unwrap();
                        }
                    }
                    self.out.push('"');
                    return;
                }
                self.nested(shape, splat, n, |p, i| p.element(elem, &bytes[i * esize..(i + 1) * esize]));
            }
        }
    }

    /// `printDenseElementsAttrImpl`: a splat as one element, else nested brackets.
    fn nested(&mut self, shape: &[i64], splat: bool, n: usize, mut elt: impl FnMut(&mut Self, usize)) {
        if splat {
            return elt(self, 0);
        }
        if n == 0 {
            return;
        }
        let rank = shape.len();
        let mut counter = vec![0i64; rank];
        let mut open = 0;
        for idx in 0..n {
            if idx != 0 {
                self.out.push_str(", ");
            }
            while open < rank {
                self.out.push('[');
                open += 1;
            }
            elt(self, idx);
            if rank == 0 {
                continue;
            }
            counter[rank - 1] += 1;
            for i in (1..rank).rev() {
                if counter[i] >= shape[i] {
                    counter[i] = 0;
                    counter[i - 1] += 1;
                    open -= 1;
                    self.out.push(']');
                }
            }
        }
        for _ in 0..open {
            self.out.push(']');
        }
    }

    fn loc_nested(&mut self, loc: Attribute<'c>) {
        match self.aliases.attr_alias(loc) {
            Some(a) => self.out.push_str(a),
            None => self.loc_internal(loc),
        }
    }

    fn loc_internal(&mut self, loc: Attribute<'c>) {
        match *loc.kind() {
            AttrKind::FileLineColLoc { file, line, col, end } => {
                quoted(self.out, file);
                write!(self.out, ":{line}:{col}").unwrap();
                match end {
                    Some((l, c)) if l == line => write!(self.out, " to :{c}").unwrap(),
                    Some((l, c)) => write!(self.out, " to {l}:{c}").unwrap(),
                    None => {}
                }
            }
            AttrKind::NameLoc { name, child } => {
                quoted(self.out, name);
                if let Some(c) = child {
                    self.out.push('(');
                    self.loc_nested(c);
                    self.out.push(')');
                }
            }
            AttrKind::CallSiteLoc { callee, caller } => {
                self.out.push_str("callsite(");
                self.loc_nested(callee);
                self.out.push_str(" at ");
                self.loc_nested(caller);
                self.out.push(')');
            }
            AttrKind::FusedLoc { locs, metadata } => {
                self.out.push_str("fused");
                if let Some(m) = metadata {
                    self.out.push('<');
                    self.attr(m, Elision::Never);
                    self.out.push('>');
                }
                self.out.push('[');
                self.list(locs, |p, l| p.loc_nested(l));
                self.out.push(']');
            }
            _ => self.out.push_str("unknown"),
        }
    }
}

/// The number of elements of a statically shaped type (1 for scalars).
fn num_elements(ty: Type<'_>) -> usize {
    ty.shape().unwrap_or(&[]).iter().map(|&d| d.max(0) as usize).product()
}

/// Appends `ty` as MLIR prints it, using the aliases `aliases` knows at every level.
pub fn print_type<'c>(out: &mut String, ty: Type<'c>, aliases: &dyn AliasLookup<'c>) {
    Printer { out, aliases }.ty(ty)
}

/// Appends `attr` as MLIR prints an attribute value in an attribute dictionary, including the
/// `: type` suffix where MLIR prints it (`1 : i64`, `2.0 : f32`, `dense<...> : tensor<...>`).
/// To print an alias definition (`#map = ...`), pass a lookup that hides that alias.
pub fn print_attr<'c>(out: &mut String, attr: Attribute<'c>, aliases: &dyn AliasLookup<'c>) {
    Printer { out, aliases }.attr(attr, Elision::Never)
}

/// Appends `loc(...)` for a location attribute, `loc(#alias)` if it has an alias.
pub fn print_location<'c>(out: &mut String, loc: Attribute<'c>, aliases: &dyn AliasLookup<'c>) {
    let mut p = Printer { out, aliases };
    p.out.push_str("loc(");
    p.loc_nested(loc);
    p.out.push(')');
}

impl fmt::Display for Type<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        print_type(&mut s, *self, &super::NoAliases);
        f.write_str(&s)
    }
}

impl fmt::Display for Attribute<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        print_attr(&mut s, *self, &super::NoAliases);
        f.write_str(&s)
    }
}
