//! Elements attributes: `dense<...>` (nested lists, splats, complex pairs, strings and hex
//! blobs), `sparse<indices, values>`, `dense_resource<handle>` and `array<T: ...>`.
//!
//! Data is stored as [`DenseData::Raw`] describes it: little-endian, `ceil(width / 8)` bytes
//! per element (one byte per `i1`), and, as MLIR does, a literal whose elements are all equal is
//! stored as a splat.

use pest::iterators::Pair;

use super::construct::{first, Builder, Result};
use super::grammar::Rule;
use super::literal::{float_bits, int_value, string_value, Number};
use crate::attributes::{AttrKind, Attribute, DenseData};
use crate::types::{Type, TypeKind};

/// Bytes per element of `ty` in dense storage, or `None` if `ty` is not numeric.
pub(crate) fn elem_bytes(ty: Type<'_>) -> Option<usize> {
    match *ty.kind() {
        TypeKind::Integer { width, .. } => Some((width as usize).div_ceil(8).max(1)),
        TypeKind::Index => Some(8),
        TypeKind::Float(k) => Some((k.bit_width() as usize).div_ceil(8)),
        TypeKind::Complex(e) => elem_bytes(e).map(|n| 2 * n),
        _ => None,
    }
}

/// Whether `ty` is `i1` (stored one byte per element, bit-packed in hex blobs).
fn is_i1(ty: Type<'_>) -> bool {
    matches!(ty.kind(), TypeKind::Integer { width: 1, .. })
}

fn push_int(out: &mut Vec<u8>, value: i128, nbytes: usize) {
    let le = value.to_le_bytes();
    let fill = if value < 0 { 0xFF } else { 0 };
    out.extend((0..nbytes).map(|i| le.get(i).copied().unwrap_or(fill)));
}

/// The element count of a static shape, `None` if it overflows.
fn num_elements(shape: &[i64]) -> Option<i64> {
    shape.iter().try_fold(1i64, |acc, &d| if d < 0 { None } else { acc.checked_mul(d) })
}

/// The shape and element type of `ty` for an elements literal, or mlir-opt's message: any
/// ranked tensor, vector or memref has them (MLIR's `ShapedType`); an unranked one has no
/// static shape.
fn literal_shape<'c>(ty: Type<'c>) -> std::result::Result<(&'c [i64], Type<'c>), &'static str> {
    match *ty.kind() {
        TypeKind::RankedTensor { shape, elem, .. }
        | TypeKind::Vector { shape, elem, .. }
        | TypeKind::MemRef { shape, elem, .. } => Ok((shape, elem)),
        TypeKind::UnrankedTensor { .. } | TypeKind::UnrankedMemRef { .. } => {
            Err("elements literal type must have static shape")
        }
        _ => Err("elements literal must be a shaped type"),
    }
}

/// Collapses all-equal elements into a splat.
fn canonical<'c>(b: &Builder<'_, '_, 'c>, bytes: Vec<u8>, elem: usize, splat: bool) -> DenseData<'c> {
    let is_splat = splat || (!bytes.is_empty() && bytes.chunks(elem).all(|c| c == &bytes[..elem]));
    let kept = if is_splat && !bytes.is_empty() { &bytes[..elem] } else { &bytes[..] };
    DenseData::Raw { bytes: b.ctx.alloc_bytes(kept), splat: is_splat }
}

impl<'c> Builder<'_, '_, 'c> {
    /// Flattens a literal into its leaves, returning its inferred shape.
    fn walk<'i>(&self, pair: Pair<'i, Rule>, out: &mut Vec<Pair<'i, Rule>>) -> Result<Vec<i64>> {
        let inner = first(pair);
        if inner.as_rule() != Rule::dense_list {
            out.push(inner);
            return Ok(Vec::new());
        }
        let mut shape: Option<Vec<i64>> = None;
        let mut n = 0;
        for e in inner.into_inner() {
            let span = e.as_span();
            // MLIR reports an inconsistent element at the token after it.
            let at = super::scan::skip_ws(span.get_input(), span.end());
            let s = self.walk(e, out)?;
            match &shape {
                Some(prev) if *prev != s => {
                    return Err(self.error_at(
                        at,
                        "tensor literal is invalid; ranks are not consistent between elements",
                    ))
                }
                _ => shape = Some(s),
            }
            n += 1;
        }
        let mut r = vec![n];
        r.extend(shape.unwrap_or_default());
        Ok(r)
    }

    /// Encodes one scalar leaf as an element of `elem`.
    fn leaf(&self, leaf: &Pair<'_, Rule>, elem: Type<'c>, out: &mut Vec<u8>) -> Result<()> {
        let nbytes = elem_bytes(elem).unwrap_or(0);
        match (leaf.as_rule(), *elem.kind()) {
            (Rule::dense_complex, TypeKind::Complex(inner)) => {
                for part in leaf.clone().into_inner() {
                    if part.as_rule() == Rule::dense_complex {
                        return self.err(&part, "expected scalar in complex literal");
                    }
                    self.leaf(&part, inner, out)?;
                }
                Ok(())
            }
            (Rule::dense_complex, _) => self.err(leaf, "complex literal for non-complex element type"),
            (_, TypeKind::Complex(_)) => self.err(leaf, "expected complex element literal"),
            (Rule::bool_attr, _) if is_i1(elem) => {
                out.push((first(leaf.clone()).as_rule() == Rule::kw_true) as u8);
                Ok(())
            }
            (Rule::bool_attr, _) => self.err(leaf, "expected i1 type for 'true' or 'false' values"),
            (Rule::string, _) => self.err(leaf, "expected integer or floating point literal"),
            (_, TypeKind::Float(k)) => {
                let num = Number::new(leaf.clone());
                if num.kind == Rule::dec_int {
                    return Err(self.error_at(num.at, "expected floating-point elements, but parsed integer"));
                }
                let bits = float_bits(self, &num, k)?;
                push_int(out, bits as i128, nbytes);
                Ok(())
            }
            _ => {
                let num = Number::new(leaf.clone());
                let v = int_value(self, &num, elem, "integer constant out of range for type")?;
                push_int(out, if is_i1(elem) { v & 1 } else { v }, nbytes);
                Ok(())
            }
        }
    }

    /// The data of a dense literal (`None` for `dense<>`) of shaped type `ty`.
    fn dense_data(&self, lit: Option<Pair<'_, Rule>>, ty: Type<'c>, at: usize) -> Result<DenseData<'c>> {
        let (shape, elem) = literal_shape(ty).map_err(|m| self.error_at(at, m))?;
        let Some(n) = num_elements(shape) else {
            return Err(self.error_at(at, "elements literal type must have static shape"));
        };
        let numeric = elem_bytes(elem);
        let Some(lit) = lit else {
            if n != 0 {
                return Err(
                    self.error_at(at, format!("parsed zero elements, but type ('{ty}') expected at least 1"))
                );
            }
            return Ok(match numeric {
                Some(_) => DenseData::Raw { bytes: &[], splat: false },
                None => DenseData::Strings(&[]),
            });
        };
        let mut leaves = Vec::new();
        let lit_shape = self.walk(lit, &mut leaves)?;
        if let (Some(esize), [single], true) = (numeric, &leaves[..], lit_shape.is_empty()) {
            if single.as_rule() == Rule::string {
                return self.hex_data(single, ty, elem, esize, n);
            }
        }
        if !lit_shape.is_empty() && lit_shape != shape && !(n == 0 && leaves.is_empty()) {
            let fmt = |s: &[i64]| s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
            return Err(self.error_at(
                at,
                format!(
                    "inferred shape of elements literal ([{}]) does not match type ([{}])",
                    fmt(&lit_shape),
                    fmt(shape)
                ),
            ));
        }
        let splat = lit_shape.is_empty();
        let Some(esize) = numeric else {
            let mut strs: Vec<&'c [u8]> = Vec::with_capacity(leaves.len());
            for l in &leaves {
                if l.as_rule() != Rule::string {
                    return self.err(l, "expected string elements for non-numeric element type");
                }
                strs.push(self.ctx.alloc_bytes(&string_value(self, l.clone())?));
            }
            if strs.len() > 1 && strs.iter().all(|s| *s == strs[0]) {
                strs.truncate(1);
            }
            return Ok(DenseData::Strings(self.ctx.alloc_slice(&strs)));
        };
        let mut bytes = Vec::with_capacity(leaves.len() * esize);
        for l in &leaves {
            self.leaf(l, elem, &mut bytes)?;
        }
        Ok(canonical(self, bytes, esize, splat))
    }

    /// `dense<"0x...">`: raw little-endian data (bit-packed for `i1`), or one splat element.
    fn hex_data(
        &self,
        s: &Pair<'_, Rule>,
        ty: Type<'c>,
        elem: Type<'c>,
        esize: usize,
        n: i64,
    ) -> Result<DenseData<'c>> {
        let text = s.as_str();
        let digits = &text[1..text.len() - 1];
        // Digit pairs by bytes (a non-ASCII character is no digit, and no char boundary).
        let bytes = digits.strip_prefix("0x").filter(|h| h.len() % 2 == 0).and_then(|h| {
            h.as_bytes()
                .chunks(2)
                .map(|p| {
                    let digit = |c: u8| (c as char).to_digit(16);
                    Some((digit(p[0])? * 16 + digit(p[1])?) as u8)
                })
                .collect()
        });
        let Some(bytes): Option<Vec<u8>> = bytes else {
            return self.err(s, "expected string containing hex digits starting with `0x`");
        };
        let bad = || self.err(s, format!("elements hex data size is invalid for provided type: '{ty}'"));
        let n = n as usize;
        if is_i1(elem) {
            if let [b] = bytes[..] {
                if b == 0 || b == 0xFF {
                    return Ok(canonical(self, vec![(b != 0) as u8], 1, true));
                }
            }
            if bytes.len() != n.div_ceil(8) {
                return bad();
            }
            let unpacked = (0..n).map(|i| (bytes[i / 8] >> (i % 8)) & 1).collect();
            return Ok(canonical(self, unpacked, 1, false));
        }
        if bytes.len() == esize {
            return Ok(canonical(self, bytes, esize, true));
        }
        if Some(bytes.len()) != n.checked_mul(esize) {
            return bad();
        }
        Ok(canonical(self, bytes, esize, false))
    }
}

/// Builds `dense<...>`, `sparse<...>`, `dense_resource<...>` or `array<...>`.
pub(super) fn build<'c>(b: &Builder<'_, '_, 'c>, pair: Pair<'_, Rule>) -> Result<Attribute<'c>> {
    let ctx = b.ctx;
    let rule = pair.as_rule();
    let at = pair.as_span().start();
    let mut parts: Vec<_> = pair.into_inner().skip(1).collect();
    match rule {
        Rule::dense_attr => {
            let ty = b.ty(first(parts.pop().expect("grammar: type")))?;
            let data = b.dense_data(parts.pop(), ty, at)?;
            Ok(ctx.attr(AttrKind::DenseElements { ty, data }))
        }
        Rule::dense_resource_attr => {
            let type_pair = first(parts.pop().expect("grammar: type"));
            let type_at = type_pair.as_span().start();
            let ty = b.ty(type_pair)?;
            // Any shaped type, ranked or not, static or not (mlir-opt 22 keeps the blob's size
            // unchecked until the data is read).
            if ty.shape().is_none()
                && !matches!(ty.kind(), TypeKind::UnrankedTensor { .. } | TypeKind::UnrankedMemRef { .. })
            {
                return Err(b.error_at(type_at, "`dense_resource` expected a shaped type"));
            }
            // A quoted handle (`dense_resource<"a\22b">`) names the key it decodes to.
            let handle = match parts[0].as_rule() {
                Rule::string => {
                    let bytes = super::literal::string_value(b, parts[0].clone())?;
                    ctx.intern_str(&String::from_utf8_lossy(&bytes))
                }
                _ => ctx.intern_str(parts[0].as_str()),
            };
            Ok(ctx.attr(AttrKind::DenseResource { handle, ty }))
        }
        Rule::sparse_attr => {
            let ty = b.ty(first(parts.pop().expect("grammar: type")))?;
            let (shape, elem) = literal_shape(ty).map_err(|m| b.error_at(at, m))?;
            if num_elements(shape).is_none() {
                return Err(b.error_at(at, "elements literal type must have static shape"));
            }
            let rank = shape.len() as i64;
            let i64t = ctx.int_type(64);
            let (indices, values) = match (parts.first(), parts.get(1)) {
                (Some(ip), Some(vp)) => {
                    let mut leaves = Vec::new();
                    let s = b.walk(ip.clone(), &mut leaves)?;
                    let ishape = if s.is_empty() { vec![1, rank] } else { s };
                    let ity = ctx.tensor_type(&ishape, i64t);
                    let idata = b.dense_data(Some(ip.clone()), ity, ip.as_span().start())?;
                    let mut vleaves = Vec::new();
                    let vs = b.walk(vp.clone(), &mut vleaves)?;
                    let vshape = if vs.is_empty() { vec![ishape[0]] } else { vs };
                    let vty = ctx.tensor_type(&vshape, elem);
                    let vdata = b.dense_data(Some(vp.clone()), vty, vp.as_span().start())?;
                    (
                        ctx.attr(AttrKind::DenseElements { ty: ity, data: idata }),
                        ctx.attr(AttrKind::DenseElements { ty: vty, data: vdata }),
                    )
                }
                _ => {
                    let ity = ctx.tensor_type(&[0, rank], i64t);
                    let vty = ctx.tensor_type(&[0], elem);
                    let empty = |t| b.dense_data(None, t, at);
                    (
                        ctx.attr(AttrKind::DenseElements { ty: ity, data: empty(ity)? }),
                        ctx.attr(AttrKind::DenseElements { ty: vty, data: empty(vty)? }),
                    )
                }
            };
            Ok(ctx.attr(AttrKind::Sparse { ty, indices, values }))
        }
        _ => {
            let mut it = parts.into_iter();
            let tp = it.next().expect("grammar: type");
            let elem = b.ty(tp.clone())?;
            match *elem.kind() {
                TypeKind::Integer { width, .. } if width != 1 && width % 8 != 0 => {
                    return b.err(&tp, "element type bitwidth must be a multiple of 8");
                }
                TypeKind::Integer { .. } | TypeKind::Float(_) => {}
                _ => return b.err(&tp, format!("expected integer or float type, got: {elem}")),
            }
            let mut bytes = Vec::new();
            let mut len = 0;
            for l in it {
                b.leaf(&l, elem, &mut bytes)?;
                len += 1;
            }
            let bytes = ctx.alloc_bytes(&bytes);
            Ok(ctx.attr(AttrKind::DenseArray { elem, len, bytes }))
        }
    }
}
