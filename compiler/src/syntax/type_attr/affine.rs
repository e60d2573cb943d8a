//! `affine_map<...>` and `affine_set<...>`: parsing into [`crate::affine`] with the
//! simplifications MLIR applies while building expressions (constant folding, constants on the
//! right, `a - b` as `a + b * -1`), so that text printed by mlir-opt prints back unchanged.

use pest::iterators::Pair;

use super::construct::{Builder, Result};
use super::grammar::Rule;
use crate::affine::{AffineExpr, AffineMap, AffineOp, IntegerSet};
use crate::attributes::{AttrKind, Attribute};

type Expr<'c> = AffineExpr<'c>;

struct Ids<'s> {
    dims: Vec<&'s str>,
    syms: Vec<&'s str>,
}

impl<'c> Builder<'_, '_, 'c> {
    fn bin(&self, op: AffineOp, l: Expr<'c>, r: Expr<'c>) -> Expr<'c> {
        Expr::Binary(op, self.ctx.alloc_affine(l), self.ctx.alloc_affine(r))
    }

    /// MLIR's `simplifyAdd`, then a plain `+` node.
    fn add(&self, l: Expr<'c>, r: Expr<'c>) -> Expr<'c> {
        if let (Expr::Const(a), Expr::Const(b)) = (l, r) {
            if let Some(c) = a.checked_add(b) {
                return Expr::Const(c);
            }
        }
        if matches!(l, Expr::Const(_)) || (is_symbolic(&l) && !is_symbolic(&r)) {
            return self.add(r, l);
        }
        if r == Expr::Const(0) {
            return l;
        }
        if let (Expr::Binary(AffineOp::Add, x, Expr::Const(a)), Expr::Const(b)) = (l, r) {
            if let Some(c) = a.checked_add(b) {
                return self.add(*x, Expr::Const(c));
            }
        }
        let split = |e: Expr<'c>| match e {
            Expr::Binary(AffineOp::Mul, x, Expr::Const(c)) => (*x, *c),
            _ => (e, 1),
        };
        let ((x, cx), (y, cy)) = (split(l), split(r));
        if x == y {
            if let Some(c) = cx.checked_add(cy) {
                return self.mul(x, Expr::Const(c));
            }
        }
        if let Expr::Binary(AffineOp::Add, x, c @ Expr::Const(_)) = l {
            let inner = self.add(*x, r);
            return self.add(inner, *c);
        }
        if let Expr::Binary(AffineOp::Add, y, c @ Expr::Const(_)) = r {
            let inner = self.bin(AffineOp::Add, l, *y);
            return self.add(inner, *c);
        }
        match (l, r) {
            (Expr::Dim(a), Expr::Dim(b)) | (Expr::Symbol(a), Expr::Symbol(b)) if a > b => {
                self.bin(AffineOp::Add, r, l)
            }
            _ => self.bin(AffineOp::Add, l, r),
        }
    }

    /// MLIR's `simplifyMul`, then a plain `*` node.
    fn mul(&self, l: Expr<'c>, r: Expr<'c>) -> Expr<'c> {
        if let (Expr::Const(a), Expr::Const(b)) = (l, r) {
            if let Some(c) = a.checked_mul(b) {
                return Expr::Const(c);
            }
        }
        if matches!(l, Expr::Const(_)) || (is_symbolic(&l) && !is_symbolic(&r)) {
            return self.mul(r, l);
        }
        match (l, r) {
            (_, Expr::Const(1)) => l,
            (_, Expr::Const(0)) => Expr::Const(0),
            (Expr::Binary(AffineOp::Mul, x, Expr::Const(a)), Expr::Const(b)) => match a.checked_mul(b) {
                Some(c) => self.mul(*x, Expr::Const(c)),
                None => self.bin(AffineOp::Mul, l, r),
            },
            _ => self.bin(AffineOp::Mul, l, r),
        }
    }

    /// MLIR's `simplifyFloorDiv` / `simplifyCeilDiv` / `simplifyMod`, then a plain node.
    fn div_like(&self, op: AffineOp, l: Expr<'c>, r: Expr<'c>) -> Expr<'c> {
        let Expr::Const(b) = r else { return self.bin(op, l, r) };
        match (op, l) {
            (AffineOp::FloorDiv, Expr::Const(a)) if b != 0 => {
                let q = if b > 0 { a.div_euclid(b) } else { a.checked_neg().unwrap_or(a).div_euclid(-b) };
                return Expr::Const(q);
            }
            (AffineOp::CeilDiv, Expr::Const(a)) if b != 0 => {
                let neg_a = a.checked_neg().unwrap_or(a);
                let q = if b > 0 { neg_a.div_euclid(b) } else { a.div_euclid(-b) };
                return Expr::Const(-q);
            }
            (AffineOp::Mod, Expr::Const(a)) if b > 0 => return Expr::Const(a.rem_euclid(b)),
            (AffineOp::FloorDiv | AffineOp::CeilDiv, _) if b == 1 => return l,
            (AffineOp::Mod, _) if b == 1 => return Expr::Const(0),
            (_, Expr::Binary(AffineOp::Mul, x, Expr::Const(c))) if b > 0 && c % b == 0 => {
                return match op {
                    AffineOp::Mod => Expr::Const(0),
                    _ => self.mul(*x, Expr::Const(c / b)),
                };
            }
            _ => {}
        }
        self.bin(op, l, r)
    }

    fn expr(&self, pair: Pair<'_, Rule>, ids: &Ids<'_>) -> Result<Expr<'c>> {
        let mut it = pair.into_inner();
        let mut acc = self.term(it.next().expect("grammar: term"), ids)?;
        while let Some(op) = it.next() {
            let rhs = self.term(it.next().expect("grammar: term"), ids)?;
            acc = if op.as_str() == "-" {
                self.add(acc, self.mul(rhs, Expr::Const(-1)))
            } else {
                self.add(acc, rhs)
            };
        }
        Ok(acc)
    }

    fn term(&self, pair: Pair<'_, Rule>, ids: &Ids<'_>) -> Result<Expr<'c>> {
        let mut it = pair.into_inner();
        let mut acc = self.factor(it.next().expect("grammar: factor"), ids)?;
        while let Some(op) = it.next() {
            let rhs_pair = it.next().expect("grammar: factor");
            let rhs = self.factor(rhs_pair.clone(), ids)?;
            acc = match op.as_str() {
                "*" => {
                    if !is_symbolic(&acc) && !is_symbolic(&rhs) {
                        return self.err(&rhs_pair, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic");
                    }
                    self.mul(acc, rhs)
                }
                s => {
                    if !is_symbolic(&rhs) {
                        return self.err(&rhs_pair, "non-affine expression: right operand of floordiv, ceildiv, and mod has to be either a constant or symbolic");
                    }
                    let op = match s {
                        "floordiv" => AffineOp::FloorDiv,
                        "ceildiv" => AffineOp::CeilDiv,
                        _ => AffineOp::Mod,
                    };
                    self.div_like(op, acc, rhs)
                }
            };
        }
        Ok(acc)
    }

    fn factor(&self, pair: Pair<'_, Rule>, ids: &Ids<'_>) -> Result<Expr<'c>> {
        let mut negs = 0;
        let mut primary = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::neg => negs += 1,
                _ => primary = Some(p),
            }
        }
        let p = primary.expect("grammar: primary");
        let mut e = match p.as_rule() {
            Rule::affine_expr => self.expr(p, ids)?,
            // MLIR reads the constant as an unsigned 64-bit integer (decimal or hex) that must
            // fit in an `int64_t`.
            Rule::uint => match super::literal::uint_value(p.as_str()).and_then(|v| i64::try_from(v).ok()) {
                Some(v) => Expr::Const(v),
                None => return self.err(&p, "constant too large for index"),
            },
            _ => {
                let name = p.as_str();
                if let Some(i) = ids.dims.iter().position(|d| *d == name) {
                    Expr::Dim(i as u32)
                } else if let Some(i) = ids.syms.iter().position(|d| *d == name) {
                    Expr::Symbol(i as u32)
                } else {
                    return self.err(&p, format!("use of undeclared identifier '{name}'"));
                }
            }
        };
        for _ in 0..negs {
            e = self.mul(e, Expr::Const(-1));
        }
        Ok(e)
    }

    fn ids<'s>(&self, pair: Pair<'s, Rule>) -> Result<Ids<'s>> {
        let mut ids = Ids { dims: Vec::new(), syms: Vec::new() };
        for list in pair.into_inner() {
            let is_dims = list.as_rule() == Rule::dim_ids;
            for id in list.into_inner() {
                let name = id.as_str();
                if ids.dims.contains(&name) || ids.syms.contains(&name) {
                    return self.err(&id, format!("redefinition of identifier '{name}'"));
                }
                if is_dims {
                    ids.dims.push(name)
                } else {
                    ids.syms.push(name)
                }
            }
        }
        Ok(ids)
    }
}

fn is_symbolic(e: &Expr<'_>) -> bool {
    match e {
        Expr::Dim(_) => false,
        Expr::Symbol(_) | Expr::Const(_) => true,
        Expr::Binary(_, l, r) => is_symbolic(l) && is_symbolic(r),
    }
}

/// Builds an `affine_map` or `affine_set` attribute.
pub(super) fn build<'c>(b: &Builder<'_, '_, 'c>, pair: Pair<'_, Rule>) -> Result<Attribute<'c>> {
    let is_map = pair.as_rule() == Rule::affine_map_attr;
    let mut it = pair.into_inner().skip(1);
    let ids = b.ids(it.next().expect("grammar: ids"))?;
    let (num_dims, num_symbols) = (ids.dims.len() as u32, ids.syms.len() as u32);
    if is_map {
        let results = it.map(|e| b.expr(e, &ids)).collect::<Result<Vec<_>>>()?;
        let map = AffineMap { num_dims, num_symbols, results: b.ctx.alloc_slice(&results) };
        return Ok(b.ctx.attr(AttrKind::AffineMap(&b.ctx.alloc_slice(&[map])[0])));
    }
    let mut constraints = Vec::new();
    for c in it {
        let mut parts = c.into_inner();
        let lhs = b.expr(parts.next().expect("grammar: lhs"), &ids)?;
        let op = parts.next().expect("grammar: op").as_str();
        let rhs = b.expr(parts.next().expect("grammar: rhs"), &ids)?;
        let (e, is_eq) = match op {
            ">=" => (b.add(lhs, b.mul(rhs, Expr::Const(-1))), false),
            "<=" => (b.add(rhs, b.mul(lhs, Expr::Const(-1))), false),
            _ => (b.add(lhs, b.mul(rhs, Expr::Const(-1))), true),
        };
        constraints.push((e, is_eq));
    }
    let set = IntegerSet { num_dims, num_symbols, constraints: b.ctx.alloc_slice(&constraints) };
    Ok(b.ctx.attr(AttrKind::IntegerSet(&b.ctx.alloc_slice(&[set])[0])))
}
