//! Conversion of pest pairs into interned types, attributes and locations, with MLIR's
//! semantic checks (integer widths, memref layouts, unregistered dialects, ...).

use pest::iterators::Pair;

use super::grammar::Rule;
use super::{literal, Aliases, SyntaxError};
use crate::attributes::{AttrKind, Attribute};
use crate::context::Context;
use crate::types::{FloatKind, Signedness, Type, TypeKind, DYNAMIC};

/// MLIR's limit on integer type widths.
const MAX_INT_WIDTH: u64 = (1 << 24) - 1;

pub(super) type Result<T> = std::result::Result<T, SyntaxError>;

/// Converts pairs of one parsed extent; `base` is the extent's offset in the source.
pub(super) struct Builder<'p, 'a, 'c> {
    pub(super) ctx: &'a Context<'c>,
    pub(super) aliases: &'p Aliases<'c>,
    pub(super) base: usize,
}

impl<'c> Builder<'_, '_, 'c> {
    /// An error at the start of `pair`.
    pub(super) fn err<T>(&self, pair: &Pair<'_, Rule>, message: impl Into<String>) -> Result<T> {
        Err(self.error_at(pair.as_span().start(), message))
    }

    /// An error at the end of `pair`.
    pub(super) fn err_end<T>(&self, pair: &Pair<'_, Rule>, message: impl Into<String>) -> Result<T> {
        Err(self.error_at(pair.as_span().end(), message))
    }

    /// An error at byte `offset` of the extent.
    pub(super) fn error_at(&self, offset: usize, message: impl Into<String>) -> SyntaxError {
        SyntaxError { offset: self.base + offset, message: message.into() }
    }

    pub(super) fn ty(&self, pair: Pair<'_, Rule>) -> Result<Type<'c>> {
        let inner = first(pair.clone());
        match inner.as_rule() {
            Rule::function_type => {
                let mut it = inner.into_inner();
                let inputs = self.type_list(it.next().unwrap())?;
                let res = it.next().unwrap();
                let results = match res.as_rule() {
                    Rule::type_list_parens => self.type_list(res)?,
                    _ => vec![self.non_function_type(res)?],
                };
                Ok(self.ctx.function_type(&inputs, &results))
            }
            _ => self.non_function_type(inner),
        }
    }

    fn type_list(&self, pair: Pair<'_, Rule>) -> Result<Vec<Type<'c>>> {
        pair.into_inner().map(|p| self.ty(p)).collect()
    }

    fn non_function_type(&self, pair: Pair<'_, Rule>) -> Result<Type<'c>> {
        match pair.as_rule() {
            Rule::keyword_type => self.keyword_type(&pair),
            Rule::type_alias => {
                let name = &pair.as_str()[1..];
                match self.aliases.types.get(name) {
                    Some(&t) => Ok(t),
                    None => self.err_end(&pair, format!("undefined symbol alias id '{name}'")),
                }
            }
            Rule::dialect_type => {
                if let Some(t) = self.dialect_type(&pair)? {
                    return Ok(t);
                }
                let (dialect, body) = self.dialect_symbol(&pair, "!")?;
                Ok(self.ctx.ty(TypeKind::Opaque { dialect, body }))
            }
            Rule::complex_type => {
                let elem_pair = pair.into_inner().nth(1).unwrap();
                let elem = self.ty(elem_pair.clone())?;
                if !is_valid_complex_element(elem) {
                    return self.err(&elem_pair, "invalid element type for complex");
                }
                Ok(self.ctx.ty(TypeKind::Complex(elem)))
            }
            Rule::tuple_type => {
                let elems = pair.into_inner().skip(1).map(|p| self.ty(p)).collect::<Result<Vec<_>>>()?;
                Ok(self.ctx.ty(TypeKind::Tuple(self.ctx.alloc_slice(&elems))))
            }
            Rule::vector_type => self.vector_type(pair),
            Rule::tensor_type | Rule::memref_type => self.shaped_type(pair),
            _ => self.err(&pair, "expected non-function type"),
        }
    }

    fn keyword_type(&self, pair: &Pair<'_, Rule>) -> Result<Type<'c>> {
        let s = pair.as_str();
        let int = |prefix: &str, signedness| -> Option<Result<Type<'c>>> {
            let digits = s.strip_prefix(prefix)?;
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some(match digits.parse::<u64>() {
                Ok(w) if w <= MAX_INT_WIDTH => {
                    Ok(self.ctx.ty(TypeKind::Integer { width: w as u32, signedness }))
                }
                _ => self.err(pair, format!("integer bitwidth is limited to {MAX_INT_WIDTH} bits")),
            })
        };
        if let Some(t) = int("i", Signedness::Signless)
            .or_else(|| int("si", Signedness::Signed))
            .or_else(|| int("ui", Signedness::Unsigned))
        {
            return t;
        }
        match s {
            "index" => Ok(self.ctx.index_type()),
            "none" => Ok(self.ctx.none_type()),
            _ => match FloatKind::from_keyword(s) {
                Some(k) => Ok(self.ctx.float_type(k)),
                None => self.err(pair, "expected non-function type"),
            },
        }
    }

    fn dims(&self, pair: Pair<'_, Rule>) -> Result<Vec<i64>> {
        pair.into_inner()
            .map(|d| match d.as_rule() {
                Rule::question => Ok(DYNAMIC),
                _ => d.as_str().parse::<i64>().or_else(|_| self.err(&d, "invalid dimension")),
            })
            .collect()
    }

    fn shaped_type(&self, pair: Pair<'_, Rule>) -> Result<Type<'c>> {
        let is_tensor = pair.as_rule() == Rule::tensor_type;
        let mut it = pair.into_inner().skip(1);
        let dims_pair = it.next().unwrap();
        let ranked = dims_pair.as_rule() == Rule::dims;
        let shape = if ranked { self.dims(dims_pair)? } else { Vec::new() };
        let elem_pair = it.next().unwrap();
        let elem_at = elem_pair.as_span().start();
        let elem = self.ty(elem_pair)?;
        // MLIR checks a memref's element type before its layout and memory space, a tensor's
        // after its encoding.
        if !is_tensor && !is_valid_memref_element(elem) {
            return Err(self.error_at(elem_at, "invalid memref element type"));
        }
        let attrs = it.map(|p| Ok((p.as_span().start(), self.attr(p)?))).collect::<Result<Vec<_>>>()?;
        if is_tensor && !is_valid_tensor_element(elem) {
            return Err(self.error_at(elem_at, "invalid tensor element type"));
        }
        if is_tensor {
            let encoding = attrs.first().map(|a| a.1);
            return Ok(if ranked {
                let shape = self.ctx.alloc_slice(&shape);
                self.ctx.ty(TypeKind::RankedTensor { shape, elem, encoding })
            } else if encoding.is_some() {
                return Err(self.error_at(attrs[0].0, "expected '>' in tensor type"));
            } else {
                self.ctx.ty(TypeKind::UnrankedTensor { elem })
            });
        }
        let (mut layout, mut memory_space) = (None, None);
        for (at, a) in attrs {
            let is_layout = matches!(a.kind(), AttrKind::AffineMap(_) | AttrKind::StridedLayout { .. });
            if is_layout && ranked && layout.is_none() && memory_space.is_none() {
                layout = Some(a);
            } else if is_layout && memory_space.is_some() {
                return Err(self.error_at(at, "expected memory space to be last in memref type"));
            } else if memory_space.is_none() && !is_layout {
                // Attributes of dialects we do not know (e.g. `#gpu.address_space<...>`) are
                // accepted: mlir-opt checks them through their dialect.
                if !matches!(
                    a.kind(),
                    AttrKind::Integer { .. }
                        | AttrKind::WideInteger { .. }
                        | AttrKind::String { .. }
                        | AttrKind::Dictionary(_)
                        | AttrKind::Dialect { .. }
                        | AttrKind::Opaque { .. }
                ) {
                    return Err(self.error_at(at, "unsupported memory space Attribute"));
                }
                memory_space = Some(a);
            } else {
                return Err(self.error_at(at, "expected '>' in memref type"));
            }
        }
        if let Some(AttrKind::AffineMap(m)) = layout.map(|l| l.kind()) {
            let identity = m.num_symbols == 0
                && m.results.len() == m.num_dims as usize
                && m.results.iter().enumerate().all(|(i, r)| *r == crate::affine::AffineExpr::Dim(i as u32));
            if identity {
                layout = None;
            }
        }
        if memory_space.and_then(|m| m.as_int()) == Some(0) {
            memory_space = None;
        }
        Ok(if ranked {
            let shape = self.ctx.alloc_slice(&shape);
            self.ctx.ty(TypeKind::MemRef { shape, elem, layout, memory_space })
        } else {
            self.ctx.ty(TypeKind::UnrankedMemRef { elem, memory_space })
        })
    }

    fn vector_type(&self, pair: Pair<'_, Rule>) -> Result<Type<'c>> {
        let mut it = pair.clone().into_inner().skip(1);
        let (mut shape, mut scalable) = (Vec::new(), Vec::new());
        for d in it.next().unwrap().into_inner() {
            let (text, is_scalable) = match d.as_rule() {
                Rule::scalable_dim => (first(d.clone()), true),
                _ => (d.clone(), false),
            };
            match text.as_str().parse::<u64>().ok().and_then(|n| i64::try_from(n).ok()) {
                Some(n) => shape.push(n),
                None => return self.err(&text, "invalid dimension"),
            }
            scalable.push(is_scalable);
        }
        let elem = self.ty(it.next().unwrap())?;
        // MLIR 22 checks both in `VectorType::verify`, at the `vector` keyword: the element type
        // first, then the sizes (all of them listed).
        if !is_valid_vector_element(elem) {
            return self.err(&pair, "failed to verify 'elementType': VectorElementTypeInterface instance");
        }
        if shape.iter().any(|&n| n <= 0) {
            let sizes: Vec<String> = shape.iter().map(i64::to_string).collect();
            return self.err(
                &pair,
                format!("vector types must have positive constant sizes but got {}", sizes.join(", ")),
            );
        }
        let shape = self.ctx.alloc_slice(&shape);
        let scalable = self.ctx.alloc_slice(&scalable);
        Ok(self.ctx.ty(TypeKind::Vector { shape, scalable, elem }))
    }

    /// `!foo.bar<...>` / `#foo<...>`: the namespace and the body in [`TypeKind::Opaque`]'s form.
    fn dialect_symbol(&self, pair: &Pair<'_, Rule>, sigil: &str) -> Result<(&'c str, &'c str)> {
        let sym = first(pair.clone());
        let ns = first(sym.clone());
        let dialect = ns.as_str();
        let rest = &sym.as_str()[dialect.len()..];
        // MLIR's `Dialect::isValidNamespace`; its message quotes the namespace as a string
        // attribute, at the symbol's data (pretty form) or at the sigil (`#foo-<...>`).
        if !is_valid_namespace(dialect) {
            let at = if sym.as_rule() == Rule::dialect_pretty {
                ns.as_span().end() + 1
            } else {
                pair.as_span().start()
            };
            return Err(self.error_at(at, format!("invalid dialect namespace '\"{dialect}\"'")));
        }
        let body = match rest.strip_prefix('.') {
            // A pretty name MLIR would not print back as one (`#foo.b-ar`, `!foo.`) is kept in
            // the bracketed form it prints (`#foo<b-ar>`, `!foo<>`).
            Some(pretty) if is_simple_symbol(pretty) => pretty.to_string(),
            Some(pretty) => format!("<{pretty}>"),
            None => {
                let inner = &rest[1..rest.len() - 1];
                if is_simple_symbol(inner) {
                    inner.to_string()
                } else {
                    rest.to_string()
                }
            }
        };
        // The strings of the body are MLIR tokens: their escapes are checked.
        let body_at = sym.as_span().start() + dialect.len();
        self.check_strings(&sym.as_str()[dialect.len()..], body_at)?;
        let known = self.ctx.registry().dialect(dialect).is_some();
        if !known && !self.ctx.allows_unregistered() {
            let data = body.strip_prefix('<').and_then(|b| b.strip_suffix('>')).unwrap_or(&body);
            let mut esc = String::new();
            super::print::escape_into(&mut esc, data.as_bytes());
            let what = if sigil == "!" { "type" } else { "attribute" };
            let desc = if sigil == "!" {
                format!("`!\"{dialect}\"<\"{esc}\">` type")
            } else {
                format!("#\"{dialect}\"<\"{esc}\"> : 'none' {what}")
            };
            let at = ns.as_span().end() + 1;
            return Err(self.error_at(
                at,
                format!(
                    "{desc} created with unregistered dialect. If this is intended, please call \
                     allowUnregisteredDialects() on the MLIRContext, or use \
                     -allow-unregistered-dialect with the MLIR opt tool used"
                ),
            ));
        }
        Ok((self.ctx.intern_str(dialect), self.ctx.intern_str(&body)))
    }

    /// Checks the escapes of the string literals in `text` (the body of a dialect value, kept
    /// verbatim), which starts at `at` in the extent.
    fn check_strings(&self, text: &str, at: usize) -> Result<()> {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'"' {
                i += 1;
                continue;
            }
            match crate::syntax::lexer::scan_string(b, i) {
                Ok(end) => i = end,
                Err((offset, message)) => return Err(self.error_at(at + offset, message)),
            }
        }
        Ok(())
    }

    /// `distinct[N]<attr>`: the same attribute for the same `N` in one source, a new one
    /// otherwise.
    fn distinct(&self, pair: Pair<'_, Rule>) -> Result<Attribute<'c>> {
        let mut it = pair.clone().into_inner().skip(1);
        let id_pair = it.next().expect("grammar: distinct id");
        let Some(id) = literal::uint_value(id_pair.as_str()) else {
            return Err(self.error_at(id_pair.as_span().start(), "expected an unsigned 64-bit integer"));
        };
        let inner = match it.next() {
            Some(p) => self.attr(p)?,
            None => self.ctx.attr(AttrKind::Unit),
        };
        let mut known = self.aliases.distinct.borrow_mut();
        if let Some(&prev) = known.get(&id) {
            match *prev.kind() {
                AttrKind::Distinct { inner: prev_inner, .. } if prev_inner == inner => return Ok(prev),
                AttrKind::Distinct { inner: prev_inner, .. } => {
                    let mut s = String::new();
                    super::print_attr(&mut s, prev_inner, &super::NoAliases);
                    let msg = format!("referenced attribute does not match previous definition: {s}");
                    return self.err(&pair, msg);
                }
                _ => unreachable!("only distinct attributes are recorded"),
            }
        }
        let attr = self.ctx.distinct_attr(inner);
        known.insert(id, attr);
        Ok(attr)
    }

    pub(super) fn attr(&self, pair: Pair<'_, Rule>) -> Result<Attribute<'c>> {
        let ctx = self.ctx;
        match pair.as_rule() {
            Rule::number_attr => {
                let span = pair.as_span();
                let after = super::scan::skip_ws(span.get_input(), span.end());
                let mut it = pair.into_inner();
                let num = it.next().unwrap();
                let ty = it.next().map(|t| self.ty(first(t))).transpose()?;
                literal::number_attr(self, num, ty, after)
            }
            Rule::string_attr => {
                let mut it = pair.into_inner();
                let value = literal::string_value(self, it.next().unwrap())?;
                let ty = it.next().map(|t| self.ty(first(t))).transpose()?;
                let value = ctx.alloc_bytes(&value);
                Ok(ctx.attr(AttrKind::String { value, ty }))
            }
            Rule::bool_attr => Ok(ctx.bool_attr(first(pair).as_rule() == Rule::kw_true)),
            Rule::unit_attr => Ok(ctx.unit_attr()),
            // `loc` is a keyword: as an attribute it starts an inline location.
            Rule::type_attr if pair.as_str() == "loc" => {
                self.err_end(&pair, "expected '(' in inline location")
            }
            Rule::type_attr => Ok(ctx.type_attr(self.ty(first(pair))?)),
            Rule::array_attr => {
                let items = pair.into_inner().map(|p| self.attr(p)).collect::<Result<Vec<_>>>()?;
                Ok(ctx.array_attr(&items))
            }
            Rule::dict_attr => self.dict(pair),
            Rule::symbol_ref => {
                let names = pair
                    .into_inner()
                    .map(|n| {
                        let inner = first(n);
                        match inner.as_rule() {
                            Rule::string => literal::string_value(self, inner),
                            _ => Ok(inner.as_str().as_bytes().to_vec()),
                        }
                    })
                    .collect::<Result<Vec<_>>>()?;
                let root = ctx.alloc_bytes(&names[0]);
                let nested: Vec<&'c [u8]> = names[1..].iter().map(|n| ctx.alloc_bytes(n)).collect();
                let nested = ctx.alloc_slice(&nested);
                Ok(ctx.attr(AttrKind::SymbolRef { root, nested }))
            }
            Rule::distinct_attr => self.distinct(pair),
            Rule::attr_alias => {
                let name = &pair.as_str()[1..];
                match self.aliases.attrs.get(name) {
                    Some(&a) => Ok(a),
                    None => self.err_end(&pair, format!("undefined symbol alias id '{name}'")),
                }
            }
            Rule::dialect_attr_typed => {
                let mut it = pair.into_inner();
                let sym = it.next().unwrap();
                let ty = it.next();
                if let Some(a) = self.dialect_attr(&sym)? {
                    return match ty {
                        Some(t) => self.err(
                            &t,
                            format!(
                                "{} takes no type",
                                a.as_dialect().map_or_else(String::new, |(d, _)| d.full_name())
                            ),
                        ),
                        None => Ok(a),
                    };
                }
                let (dialect, body) = self.dialect_symbol(&sym, "#")?;
                let ty = ty.map(|t| self.ty(first(t))).transpose()?;
                Ok(ctx.attr(AttrKind::Opaque { dialect, body, ty }))
            }
            Rule::dense_attr | Rule::sparse_attr | Rule::dense_resource_attr | Rule::array_dense_attr => {
                super::dense::build(self, pair)
            }
            Rule::affine_map_attr | Rule::affine_set_attr => super::affine::build(self, pair),
            Rule::strided_attr => {
                let mut strides = Vec::new();
                let mut offset = 0;
                let mut after_offset = false;
                for p in pair.into_inner().skip(1) {
                    match p.as_rule() {
                        Rule::kw_offset => after_offset = true,
                        _ if after_offset => offset = self.stride(p)?,
                        _ => strides.push(self.stride(p)?),
                    }
                }
                Ok(ctx.attr(AttrKind::StridedLayout { offset, strides: ctx.alloc_slice(&strides) }))
            }
            Rule::location => super::location::build(self, pair),
            _ => self.err(&pair, "expected attribute value"),
        }
    }

    /// A stride or offset of `strided<...>`: `?`, or an optional `-` and an unsigned integer
    /// (decimal or hex) of at most `i64::MAX`, negated after, as MLIR reads it (so
    /// `-9223372036854775808` is refused).
    fn stride(&self, p: Pair<'_, Rule>) -> Result<i64> {
        let mut negative = false;
        for q in p.clone().into_inner() {
            match q.as_rule() {
                Rule::question => return Ok(DYNAMIC),
                Rule::neg => negative = true,
                _ => {
                    if let Some(v) = literal::uint_value(q.as_str()).and_then(|v| i64::try_from(v).ok()) {
                        return Ok(if negative { -v } else { v });
                    }
                }
            }
        }
        self.err(&p, "expected a 64-bit signed integer or '?'")
    }

    fn dict(&self, pair: Pair<'_, Rule>) -> Result<Attribute<'c>> {
        let mut entries = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for e in pair.into_inner() {
            let mut it = e.clone().into_inner();
            let key = it.next().unwrap();
            let name = match key.as_rule() {
                Rule::string => {
                    let bytes = literal::string_value(self, key.clone())?;
                    match String::from_utf8(bytes) {
                        Ok(s) => s,
                        Err(_) => return self.err(&key, "expected valid attribute name"),
                    }
                }
                _ => key.as_str().to_string(),
            };
            if name.is_empty() {
                return self.err(&key, "expected valid attribute name");
            }
            if !seen.insert(name.clone()) {
                return self.err(&key, format!("duplicate key '{name}' in dictionary attribute"));
            }
            let value = match it.next() {
                Some(v) => self.attr(v)?,
                None => self.ctx.unit_attr(),
            };
            entries.push(crate::attributes::NamedAttr { name: self.ctx.intern_str(&name), value });
        }
        Ok(self.ctx.dict_attr(&entries))
    }
}

/// The first inner pair (grammar guarantees it exists).
pub(super) fn first(pair: Pair<'_, Rule>) -> Pair<'_, Rule> {
    pair.into_inner().next().expect("grammar guarantees an inner pair")
}

/// Types of dialects that mlir-opt 22 registers and Kiln does not (so they are
/// [`TypeKind::Opaque`] here) which implement MLIR's element type interfaces, by namespace and
/// mnemonic: whether each is a float type (`!llvm.ppc_fp128`), a memref element
/// (`MemRefElementTypeInterface`) and a vector element (`VectorElementTypeInterface`). Opaque
/// types of any other dialect implement neither, as MLIR's `OpaqueType`.
const OPAQUE_ELEMENT_TYPES: [(&str, &str, bool, bool, bool); 4] = [
    ("llvm", "ppc_fp128", true, true, true),
    ("llvm", "ptr", false, false, true),
    ("ptr", "ptr", false, true, true),
    ("test", "memref_element", false, true, false),
];

/// The row of [`OPAQUE_ELEMENT_TYPES`] for `ty`, if it is one of those types.
fn opaque_element_row(ty: Type<'_>) -> Option<(bool, bool, bool)> {
    let TypeKind::Opaque { dialect, body } = *ty.kind() else { return None };
    let mnemonic = body.split('<').next().unwrap_or(body);
    OPAQUE_ELEMENT_TYPES
        .iter()
        .find(|r| r.0 == dialect && r.1 == mnemonic && !body.starts_with('<'))
        .map(|r| (r.2, r.3, r.4))
}

/// MLIR's `TensorType::isValidElementType`: complex, float, integer, index and vector types,
/// and any type not of the builtin dialect (the types of registered and unregistered dialects).
fn is_valid_tensor_element(ty: Type<'_>) -> bool {
    matches!(
        ty.kind(),
        TypeKind::Complex(_)
            | TypeKind::Float(_)
            | TypeKind::Integer { .. }
            | TypeKind::Index
            | TypeKind::Vector { .. }
            | TypeKind::Dialect { .. }
            | TypeKind::Opaque { .. }
    )
}

/// MLIR's `BaseMemRefType::isValidElementType`: integer, index and float types, complex,
/// vector, ranked and unranked memref types, and types implementing
/// `MemRefElementTypeInterface` (see [`OPAQUE_ELEMENT_TYPES`]). Types of Kiln's registered
/// dialects are taken, as before Kiln had an element type interface.
fn is_valid_memref_element(ty: Type<'_>) -> bool {
    matches!(
        ty.kind(),
        TypeKind::Integer { .. }
            | TypeKind::Index
            | TypeKind::Float(_)
            | TypeKind::Complex(_)
            | TypeKind::Vector { .. }
            | TypeKind::MemRef { .. }
            | TypeKind::UnrankedMemRef { .. }
            | TypeKind::Dialect { .. }
    ) || opaque_element_row(ty).is_some_and(|(float, memref, _)| float || memref)
}

/// MLIR's `VectorType::isValidElementType`: integer, index and float types, and types
/// implementing `VectorElementTypeInterface` (see [`OPAQUE_ELEMENT_TYPES`]). Types of Kiln's
/// registered dialects are taken, as before Kiln had an element type interface.
fn is_valid_vector_element(ty: Type<'_>) -> bool {
    matches!(
        ty.kind(),
        TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_) | TypeKind::Dialect { .. }
    ) || opaque_element_row(ty).is_some_and(|(_, _, vector)| vector)
}

/// MLIR's check of `complex<T>`: `T` is an integer or float type (`!llvm.ppc_fp128` is one).
fn is_valid_complex_element(ty: Type<'_>) -> bool {
    matches!(ty.kind(), TypeKind::Integer { .. } | TypeKind::Float(_))
        || opaque_element_row(ty).is_some_and(|(float, _, _)| float)
}

/// Whether `ns` is a valid dialect namespace (MLIR's `Dialect::isValidNamespace`):
/// `[a-zA-Z_][a-zA-Z_0-9$]*`.
fn is_valid_namespace(ns: &str) -> bool {
    let b = ns.as_bytes();
    b.first().is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$')
}

/// Whether `!foo<body>` may print as `!foo.body`: an identifier, optionally followed by `<...>`.
pub(super) fn is_simple_symbol(body: &str) -> bool {
    let b = body.as_bytes();
    if b.is_empty() || !b[0].is_ascii_alphabetic() {
        return false;
    }
    let rest = body.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    rest.is_empty() || (rest.starts_with('<') && rest.ends_with('>'))
}
