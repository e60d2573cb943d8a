//! Affine expressions, maps and integer sets, in MLIR's canonical form (subtraction is
//! `a + b * -1`, negation is `a * -1`), printed with MLIR's rules so that text produced by
//! mlir-opt prints back unchanged.

use std::fmt::{self, Write};

/// An affine expression; children live in the context's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AffineExpr<'c> {
    /// `d<n>`.
    Dim(u32),
    /// `s<n>`.
    Symbol(u32),
    /// An integer constant.
    Const(i64),
    /// A binary operation.
    Binary(AffineOp, &'c AffineExpr<'c>, &'c AffineExpr<'c>),
}

/// The binary operators of affine expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AffineOp {
    /// `+`
    Add,
    /// `*`
    Mul,
    /// `mod`
    Mod,
    /// `floordiv`
    FloorDiv,
    /// `ceildiv`
    CeilDiv,
}

impl AffineOp {
    fn spelling(self) -> &'static str {
        match self {
            AffineOp::Add => " + ",
            AffineOp::Mul => " * ",
            AffineOp::Mod => " mod ",
            AffineOp::FloorDiv => " floordiv ",
            AffineOp::CeilDiv => " ceildiv ",
        }
    }
}

/// `affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AffineMap<'c> {
    /// Number of dimension identifiers.
    pub num_dims: u32,
    /// Number of symbol identifiers.
    pub num_symbols: u32,
    /// The result expressions.
    pub results: &'c [AffineExpr<'c>],
}

/// `affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntegerSet<'c> {
    /// Number of dimension identifiers.
    pub num_dims: u32,
    /// Number of symbol identifiers.
    pub num_symbols: u32,
    /// Constraints: the expression and whether it is `== 0` (else `>= 0`).
    pub constraints: &'c [(AffineExpr<'c>, bool)],
}

#[derive(Clone, Copy, PartialEq)]
enum Binding {
    Weak,
    Strong,
}

fn print_expr(out: &mut String, e: &AffineExpr<'_>, binding: Binding) {
    let (op, lhs, rhs) = match *e {
        AffineExpr::Dim(i) => return write!(out, "d{i}").unwrap(),
        AffineExpr::Symbol(i) => return write!(out, "s{i}").unwrap(),
        AffineExpr::Const(c) => return write!(out, "{c}").unwrap(),
        AffineExpr::Binary(op, l, r) => (op, l, r),
    };
    let open = |out: &mut String| {
        if binding == Binding::Strong {
            out.push('(')
        }
    };
    let close = |out: &mut String| {
        if binding == Binding::Strong {
            out.push(')')
        }
    };
    open(out);
    if op != AffineOp::Add {
        if op == AffineOp::Mul && *rhs == AffineExpr::Const(-1) {
            out.push('-');
            print_expr(out, lhs, Binding::Strong);
        } else {
            print_expr(out, lhs, Binding::Strong);
            out.push_str(op.spelling());
            print_expr(out, rhs, Binding::Strong);
        }
        return close(out);
    }
    if let AffineExpr::Binary(AffineOp::Mul, rl, AffineExpr::Const(c)) = *rhs {
        if *c == -1 {
            print_expr(out, lhs, Binding::Weak);
            out.push_str(" - ");
            let strength = if matches!(rl, AffineExpr::Binary(AffineOp::Add, ..)) {
                Binding::Strong
            } else {
                Binding::Weak
            };
            print_expr(out, rl, strength);
            return close(out);
        }
        if *c < -1 {
            print_expr(out, lhs, Binding::Weak);
            out.push_str(" - ");
            print_expr(out, rl, Binding::Strong);
            write!(out, " * {}", c.unsigned_abs()).unwrap();
            return close(out);
        }
    }
    if let AffineExpr::Const(c) = *rhs {
        if c < 0 {
            print_expr(out, lhs, Binding::Weak);
            write!(out, " - {}", c.unsigned_abs()).unwrap();
            return close(out);
        }
    }
    print_expr(out, lhs, Binding::Weak);
    out.push_str(" + ");
    print_expr(out, rhs, Binding::Weak);
    close(out)
}

/// Appends `items`, each written by `each`, separated by `, `.
fn push_list<T>(out: &mut String, items: impl IntoIterator<Item = T>, mut each: impl FnMut(&mut String, T)) {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        each(out, item);
    }
}

fn print_ids(out: &mut String, num_dims: u32, num_symbols: u32) {
    out.push('(');
    push_list(out, 0..num_dims, |o, i| write!(o, "d{i}").unwrap());
    out.push(')');
    if num_symbols > 0 {
        out.push('[');
        push_list(out, 0..num_symbols, |o, i| write!(o, "s{i}").unwrap());
        out.push(']');
    }
}

impl fmt::Display for AffineExpr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        print_expr(&mut s, self, Binding::Weak);
        f.write_str(&s)
    }
}

impl fmt::Display for AffineMap<'_> {
    /// Prints the map without the `affine_map<...>` wrapper, as MLIR's `AffineMap::print`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        print_ids(&mut s, self.num_dims, self.num_symbols);
        s.push_str(" -> (");
        push_list(&mut s, self.results, |o, r| print_expr(o, r, Binding::Weak));
        s.push(')');
        f.write_str(&s)
    }
}

impl fmt::Display for IntegerSet<'_> {
    /// Prints the set without the `affine_set<...>` wrapper, as MLIR's `IntegerSet::print`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        print_ids(&mut s, self.num_dims, self.num_symbols);
        s.push_str(" : (");
        if self.constraints.is_empty() {
            s.push_str("1 == 0");
        }
        push_list(&mut s, self.constraints, |o, (e, is_eq)| {
            print_expr(o, e, Binding::Weak);
            o.push_str(if *is_eq { " == 0" } else { " >= 0" });
        });
        s.push(')');
        f.write_str(&s)
    }
}
