//! Binding a shape class to one launch's inputs: the symbols from the input shapes, then the
//! concrete host program (temporary sizes, output shapes) and every launch's parameters, all
//! with checked arithmetic, before anything runs.

use std::fmt;

use super::{ClassModule, Expr, ShapeClass};
use crate::module::{Host, TensorSpec};

/// Inputs that do not conform to a shape class, or sizes and parameters that do not work out
/// for them: what and where, before anything ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindError(pub String);

impl fmt::Display for BindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BindError {}

/// A shape class bound to one launch's input shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// Each symbol's value.
    pub symbols: Vec<i64>,
    /// The host program for these shapes: the skeleton's with every size filled in.
    pub host: Host,
    /// Each launch's parameters.
    pub params: Vec<Vec<i64>>,
}

fn fail<T>(message: String) -> Result<T, BindError> {
    Err(BindError(message))
}

/// `tensor<?x64xf32>`: `spec` with `?` where `dims` names a symbol.
fn spec_text(spec: &TensorSpec, dims: &[Option<u32>]) -> String {
    let dims: String = spec
        .shape
        .iter()
        .enumerate()
        .map(|(d, n)| match dims.get(d).copied().flatten() {
            Some(_) => "?x".to_string(),
            None => format!("{n}x"),
        })
        .collect();
    format!("tensor<{dims}{}>", spec.dtype.name())
}

/// Where each symbol was bound: its value and the input and dim that gave it.
type Bound = Vec<Option<(i64, usize, usize)>>;

/// Binds the symbols that input `i`'s dims name (its element type, rank and static dims
/// checked against the program's `want`).
fn bind_input(
    class: &ShapeClass,
    i: usize,
    got: &TensorSpec,
    want: &TensorSpec,
    dims: &[Option<u32>],
    bound: &mut Bound,
) -> Result<(), BindError> {
    let declared = spec_text(want, dims);
    if got.dtype != want.dtype || got.shape.len() != want.shape.len() || dims.len() != want.shape.len() {
        let what = if got.dtype != want.dtype { "element type" } else { "rank" };
        return fail(format!(
            "input #{i}: expected {declared}, got {} (the {what} differs)",
            spec_text(got, &[])
        ));
    }
    for (d, (&n, &sym)) in got.shape.iter().zip(dims).enumerate() {
        let Some(k) = sym else {
            if n != want.shape[d] {
                return fail(format!(
                    "input #{i} dim {d}: expected {}, got {n} (the input is {}, the program takes {declared})",
                    want.shape[d],
                    spec_text(got, &[])
                ));
            }
            continue;
        };
        let name = class.symbol_name(k);
        let Some(v) = i64::try_from(n).ok().filter(|&v| v >= 1) else {
            return fail(format!("input #{i} dim {d} is {n}; symbol `{name}` must be in 1..={}", i64::MAX));
        };
        let Some(slot) = bound.get_mut(k as usize) else {
            return fail(format!(
                "input #{i} dim {d} names symbol {k}, the class has {}",
                class.symbols.len()
            ));
        };
        match *slot {
            Some((b, bi, bd)) if b != v => {
                return fail(format!(
                    "input #{i} dim {d} is {v}, but symbol `{name}` is {b} (from input #{bi} dim {bd})"
                ));
            }
            Some(_) => {}
            None => *slot = Some((v, i, d)),
        }
    }
    Ok(())
}

/// The symbols' values, for evaluating expressions with messages that name them.
struct Values<'a> {
    class: &'a ShapeClass,
    symbols: Vec<i64>,
}

impl Values<'_> {
    /// `n = 7, m = 3`.
    fn show(&self) -> String {
        let parts: Vec<String> = (0..self.symbols.len())
            .map(|k| format!("{} = {}", self.class.symbol_name(k as u32), self.symbols[k]))
            .collect();
        if parts.is_empty() {
            "no symbols".into()
        } else {
            parts.join(", ")
        }
    }

    /// The value of `e`; an error names `what` and the expression.
    fn eval(&self, e: &Expr, what: &dyn Fn() -> String) -> Result<i64, BindError> {
        e.eval(&self.symbols).or_else(|m| {
            fail(format!("{}: `{}` fails for {}: {m}", what(), e.render(&self.class.symbols), self.show()))
        })
    }

    /// The value of `e` as a size (not negative).
    fn size(&self, e: &Expr, what: &dyn Fn() -> String) -> Result<u64, BindError> {
        let v = self.eval(e, what)?;
        u64::try_from(v).or_else(|_| {
            fail(format!(
                "{}: `{}` is {v} for {}, not a size",
                what(),
                e.render(&self.class.symbols),
                self.show()
            ))
        })
    }
}

impl ClassModule {
    /// Binds the class to inputs of shapes `inputs`: checks each against the program's
    /// (element type, rank, static dims, one value per symbol, at least 1), then computes the
    /// host program's sizes and each launch's parameters and checks them against the ranges
    /// their kernels declare. Every error names the input and dim, or the temporary, output
    /// or launch, and the expression.
    pub fn bind(&self, inputs: &[TensorSpec]) -> Result<Binding, BindError> {
        let (host, class) = (&self.module.host, &self.class);
        if inputs.len() != host.inputs.len() {
            return fail(format!("expected {} inputs, got {}", host.inputs.len(), inputs.len()));
        }
        let parallel = class.inputs.len() == host.inputs.len()
            && class.temps.len() == host.temps.len()
            && class.outputs.len() == host.outputs.len();
        if !parallel {
            return fail("the shape class does not match the program's buffers".into());
        }
        let mut bound: Bound = vec![None; class.symbols.len()];
        for (i, ((got, want), dims)) in inputs.iter().zip(&host.inputs).zip(&class.inputs).enumerate() {
            bind_input(class, i, got, want, dims, &mut bound)?;
        }
        let mut symbols = Vec::with_capacity(bound.len());
        for (k, b) in bound.iter().enumerate() {
            match b {
                Some((v, _, _)) => symbols.push(*v),
                None => {
                    return fail(format!("symbol `{}` is named by no input dim", class.symbol_name(k as u32)))
                }
            }
        }
        let values = Values { class, symbols };
        let host = self.sizes(&values, inputs)?;
        let params = self.params(&values)?;
        Ok(Binding { symbols: values.symbols, host, params })
    }

    /// The host program with the inputs' shapes and the class's sizes.
    fn sizes(&self, values: &Values, inputs: &[TensorSpec]) -> Result<Host, BindError> {
        let mut host = self.module.host.clone();
        host.inputs = inputs.to_vec();
        for (t, e) in self.class.temps.iter().enumerate() {
            if let Some(e) = e {
                host.temps[t] = values.size(e, &|| format!("temporary #{t}'s byte size"))?;
            }
        }
        for (o, dims) in self.class.outputs.iter().enumerate() {
            for (d, e) in dims.iter().enumerate() {
                if let (Some(e), Some(slot)) = (e, host.outputs[o].0.shape.get_mut(d)) {
                    *slot = values.size(e, &|| format!("output #{o} dim {d}"))?;
                }
            }
            let spec = &host.outputs[o].0;
            if spec.checked_bytes().is_none() {
                return fail(format!(
                    "output #{o}: the byte size of {} overflows for {}",
                    spec_text(spec, &[]),
                    values.show()
                ));
            }
        }
        Ok(host)
    }

    /// Each launch's parameters, each in its kernel's range.
    fn params(&self, values: &Values) -> Result<Vec<Vec<i64>>, BindError> {
        let (host, class) = (&self.module.host, &self.class);
        let mut params = Vec::with_capacity(host.launches.len());
        for (l, launch) in host.launches.iter().enumerate() {
            let exprs = class.launches.get(l).map_or(&[][..], Vec::as_slice);
            let ranges = class.kernels.get(launch.kernel as usize).map_or(&[][..], |k| k.params.as_slice());
            let name = self.module.kernels.get(launch.kernel as usize).map_or("?", |k| k.name.as_str());
            if exprs.len() != ranges.len() {
                return fail(format!(
                    "launch #{l} of kernel '{name}' gives {} parameters, the kernel takes {}",
                    exprs.len(),
                    ranges.len()
                ));
            }
            let mut launch_params = Vec::with_capacity(exprs.len());
            for (p, (e, r)) in exprs.iter().zip(ranges).enumerate() {
                let what = || format!("launch #{l} of kernel '{name}' parameter {p}");
                let v = values.eval(e, &what)?;
                if v < r.min || v > r.max {
                    return fail(format!(
                        "{}: `{}` is {v} for {}, outside the kernel's {}..={}",
                        what(),
                        e.render(&class.symbols),
                        values.show(),
                        r.min,
                        r.max
                    ));
                }
                launch_params.push(v);
            }
            params.push(launch_params);
        }
        Ok(params)
    }
}
