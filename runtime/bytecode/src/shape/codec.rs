//! The shape class section's bytes (the layout is in [`crate::format`]): writing and reading
//! it. Reading checks the form only (counts against the bytes left, codes, field widths);
//! what the class means for its module is [`validate_class`](fn@crate::validate_class)'s job.

use super::{Expr, Extent, KernelClass, ParamRange, ShapeClass, Term, MAX_EXPR_TERMS};
use crate::encode::{put_str, put_u32, put_u64};
use crate::error::LoadError;
use crate::isa::Reg;
use crate::reader::Reader;

/// Term codes below the operators'.
const CONST: u32 = 0;
const SYM: u32 = 1;

fn put_expr(out: &mut Vec<u8>, e: &Expr) {
    put_u32(out, e.0.len() as u32);
    for t in &e.0 {
        match *t {
            Term::Const(v) => {
                put_u32(out, CONST);
                put_u64(out, v as u64);
            }
            Term::Sym(k) => {
                put_u32(out, SYM);
                put_u32(out, k);
            }
            op => {
                let i = Term::OPERATORS.iter().position(|&o| o == op).unwrap_or(0);
                put_u32(out, 2 + i as u32);
            }
        }
    }
}

fn put_opt(out: &mut Vec<u8>, e: &Option<Expr>) {
    match e {
        None => put_u32(out, 0),
        Some(e) => {
            put_u32(out, 1);
            put_expr(out, e);
        }
    }
}

/// Writes the shape class section.
pub(crate) fn put_class(out: &mut Vec<u8>, c: &ShapeClass) {
    put_u32(out, c.symbols.len() as u32);
    for s in &c.symbols {
        put_str(out, s);
    }
    put_u32(out, c.inputs.len() as u32);
    for dims in &c.inputs {
        put_u32(out, dims.len() as u32);
        for d in dims {
            put_u32(out, d.map_or(0, |k| k.wrapping_add(1)));
        }
    }
    put_u32(out, c.temps.len() as u32);
    for t in &c.temps {
        put_opt(out, t);
    }
    put_u32(out, c.outputs.len() as u32);
    for dims in &c.outputs {
        put_u32(out, dims.len() as u32);
        for d in dims {
            put_opt(out, d);
        }
    }
    put_u32(out, c.launches.len() as u32);
    for params in &c.launches {
        put_u32(out, params.len() as u32);
        for e in params {
            put_expr(out, e);
        }
    }
    put_u32(out, c.kernels.len() as u32);
    for k in &c.kernels {
        put_u32(out, k.params.len() as u32);
        for p in &k.params {
            put_u64(out, p.min as u64);
            put_u64(out, p.max as u64);
        }
        put_u32(out, k.extents.len() as u32);
        for e in &k.extents {
            put_u32(out, e.inst);
            put_u32(out, e.dim as u32);
            put_u32(out, e.reg.0 as u32);
        }
    }
}

/// A count of records of at least `min_bytes`, checked against the bytes left.
fn count(r: &mut Reader, min_bytes: usize, what: &str) -> Result<usize, LoadError> {
    let n = r.u32(what)?;
    r.count(n as u64, min_bytes, what)
}

fn expr(r: &mut Reader) -> Result<Expr, LoadError> {
    let at = r.pos();
    let n = r.u32("an expression's term count")?;
    if n == 0 || n as usize > MAX_EXPR_TERMS {
        return Err(LoadError::at(
            at,
            format!("an expression has {n} terms, expected 1 to {MAX_EXPR_TERMS}"),
        ));
    }
    let mut terms = Vec::with_capacity(r.count(n as u64, 4, "expression term")?);
    for _ in 0..n {
        let at = r.pos();
        terms.push(match r.u32("an expression term")? {
            CONST => Term::Const(r.u64("a constant term")? as i64),
            SYM => Term::Sym(r.u32("a symbol term")?),
            code => *Term::OPERATORS
                .get((code - 2) as usize)
                .ok_or_else(|| LoadError::at(at, format!("unknown expression term {code}")))?,
        });
    }
    Ok(Expr(terms))
}

fn opt_expr(r: &mut Reader) -> Result<Option<Expr>, LoadError> {
    let at = r.pos();
    match r.u32("an optional expression")? {
        0 => Ok(None),
        1 => expr(r).map(Some),
        f => Err(LoadError::at(at, format!("an optional expression's flag is {f}, expected 0 or 1"))),
    }
}

/// A `u32` field that must fit a byte.
fn byte(r: &mut Reader, what: &str) -> Result<u8, LoadError> {
    let at = r.pos();
    let v = r.u32(what)?;
    u8::try_from(v).map_err(|_| LoadError::at(at, format!("{what} {v} does not fit 8 bits")))
}

/// Reads the shape class section.
pub(crate) fn class(r: &mut Reader) -> Result<ShapeClass, LoadError> {
    let n = count(r, 4, "symbol")?;
    let symbols = (0..n).map(|_| r.string("a symbol name")).collect::<Result<_, _>>()?;
    let n = count(r, 4, "input")?;
    let mut inputs = Vec::with_capacity(n);
    for _ in 0..n {
        let rank = count(r, 4, "input dim")?;
        inputs.push(
            (0..rank).map(|_| Ok(r.u32("an input dim")?.checked_sub(1))).collect::<Result<_, LoadError>>()?,
        );
    }
    let n = count(r, 4, "temporary")?;
    let temps = (0..n).map(|_| opt_expr(r)).collect::<Result<_, _>>()?;
    let n = count(r, 4, "output")?;
    let mut outputs = Vec::with_capacity(n);
    for _ in 0..n {
        let rank = count(r, 4, "output dim")?;
        outputs.push((0..rank).map(|_| opt_expr(r)).collect::<Result<_, _>>()?);
    }
    let n = count(r, 4, "launch")?;
    let mut launches = Vec::with_capacity(n);
    for _ in 0..n {
        let params = count(r, 8, "launch parameter")?;
        launches.push((0..params).map(|_| expr(r)).collect::<Result<_, _>>()?);
    }
    let n = count(r, 8, "kernel")?;
    let mut kernels = Vec::with_capacity(n);
    for _ in 0..n {
        let params = count(r, 16, "kernel parameter")?;
        let params = (0..params)
            .map(|_| {
                Ok(ParamRange {
                    min: r.u64("a parameter range")? as i64,
                    max: r.u64("a parameter range")? as i64,
                })
            })
            .collect::<Result<_, LoadError>>()?;
        let extents = count(r, 12, "extent")?;
        let extents = (0..extents)
            .map(|_| {
                Ok(Extent {
                    inst: r.u32("an extent")?,
                    dim: byte(r, "an extent's dim")?,
                    reg: Reg(byte(r, "an extent's register")?),
                })
            })
            .collect::<Result<_, LoadError>>()?;
        kernels.push(KernelClass { params, extents });
    }
    Ok(ShapeClass { symbols, inputs, temps, outputs, launches, kernels })
}
