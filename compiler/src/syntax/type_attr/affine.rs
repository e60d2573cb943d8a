//! `affine_map<...>` and `affine_set<...>`: parsing into [`crate::affine`] with the
//! simplifications MLIR applies while building expressions (constant folding, constants on the
//! right, `a - b` as `a + b * -1`), so that text printed by mlir-opt prints back unchanged.

use pest::iterators::Pair;

use super::build::{Builder, Result};
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

    fn add(&self, l: Expr<'c>, r: Expr<'c>) -> Expr<'c> {
        match (l, r) {
            (Expr::Const(a), Expr::Const(b)) => match a.checked_add(b) {
                Some(c) => Expr::Const(c),
                None => self.bin(AffineOp::Add, l, r),
            },
            (Expr::Const(_), _) => self.add(r, l),
            (_, Expr::Const(0)) => l,
            (Expr::Binary(AffineOp::Add, x, Expr::Const(a)), Expr::Const(b)) => match a.checked_add(b) {
                Some(c) => self.add(*x, Expr::Const(c)),
                None => self.bin(AffineOp::Add, l, r),
            },
            (_, Expr::Binary(AffineOp::Add, x, c @ Expr::Const(_))) => {
                let inner = self.add(l, *x);
                self.add(inner, *c)
            }
            _ if is_symbolic(&l) && !is_symbolic(&r) => self.bin(AffineOp::Add, r, l),
            _ => self.bin(AffineOp::Add, l, r),
        }
    }

    fn mul(&self, l: Expr<'c>, r: Expr<'c>) -> Expr<'c> {
        match (l, r) {
            (Expr::Const(a), Expr::Const(b)) => match a.checked_mul(b) {
                Some(c) => Expr::Const(c),
                None => self.bin(AffineOp::Mul, l, r),
            },
            (Expr::Const(_), _) => self.mul(r, l),
            (_, Expr::Const(1)) => l,
            (_, Expr::Const(0)) => Expr::Const(0),
            (Expr::Binary(AffineOp::Mul, x, Expr::Const(a)), Expr::Const(b)) => match a.checked_mul(b) {
                Some(c) => self.mul(*x, Expr::Const(c)),
                None => self.bin(AffineOp::Mul, l, r),
            },
            _ if is_symbolic(&l) && !is_symbolic(&r) => self.bin(AffineOp::Mul, r, l),
            _ => self.bin(AffineOp::Mul, l, r),
        }
    }

    fn div_like(&self, op: AffineOp, l: Expr<'c>, r: Expr<'c>) -> Expr<'c> {
        if let (Expr::Const(a), Expr::Const(b)) = (l, r) {
            if b != 0 {
                let (q, m) = (a.div_euclid(b), a.rem_euclid(b));
                return Expr::Const(match op {
                    AffineOp::FloorDiv if b > 0 => q,
                    AffineOp::FloorDiv => (a as f64 / b as f64).floor() as i64,
                    AffineOp::CeilDiv => -((-a as f64 / b as f64).floor() as i64),
                    _ => m,
                });
            }
        }
        match (op, r) {
            (AffineOp::FloorDiv | AffineOp::CeilDiv, Expr::Const(1)) => l,
            (AffineOp::Mod, Expr::Const(1)) => Expr::Const(0),
            _ => self.bin(op, l, r),
        }
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
            Rule::dec_int => match p.as_str().parse::<i64>() {
                Ok(v) => Expr::Const(v),
                Err(_) => return self.err(&p, "constant too large for index"),
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
