//! Binding a shape class to one launch's inputs: the symbols from the input shapes, then the
//! concrete host program (temporary sizes, output shapes) and every launch's parameters, all
//! with checked arithmetic, before anything runs.

use std::fmt;

use super::{ClassModule, ShapeClass};
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

/// `tensor<?x64xf32>` of an input as the class declares it (`?` for a symbol).
fn class_spec(spec: &TensorSpec, dims: &[Option<u32>]) -> String {
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

fn plain_spec(spec: &TensorSpec) -> String {
    class_spec(spec, &[])
}

impl ClassModule {
    /// Binds the class to inputs of shapes `inputs`: checks each against the program's
    /// (element type, rank, static dims, one value per symbol, at least 1), then computes the
    /// host program's sizes and each launch's parameters and checks them against the ranges
    /// their kernels declare. Every error names the input and dim, or the temporary, output
    /// or launch, and the expression.
    pub fn bind(&self, inputs: &[TensorSpec]) -> Result<Binding, BindError> {
        let (host, class) = (&self.module.host, &self.class);
        let err = |m: String| BindError(m);
        if inputs.len() != host.inputs.len() {
            return Err(err(format!("expected {} inputs, got {}", host.inputs.len(), inputs.len())));
        }
        if class.inputs.len() != host.inputs.len() {
            return Err(err("the shape class does not match the program's inputs".into()));
        }
        let mut symbols: Vec<Option<(i64, usize, usize)>> = vec![None; class.symbols.len()];
        for (i, ((got, want), dims)) in inputs.iter().zip(&host.inputs).zip(&class.inputs).enumerate() {
            let declared = class_spec(want, dims);
            if got.dtype != want.dtype || got.shape.len() != want.shape.len() {
                let what = if got.dtype != want.dtype { "element type" } else { "rank" };
                return Err(err(format!(
                    "input #{i}: expected {declared}, got {} (the {what} differs)",
                    plain_spec(got)
                )));
            }
            for (d, &n) in got.shape.iter().enumerate() {
                let Some(k) = dims.get(d).copied().flatten() else {
                    if n != want.shape[d] {
                        return Err(err(format!(
                            "input #{i} dim {d}: expected {}, got {n} (the input is {}, the program takes \
                             {declared})",
                            want.shape[d],
                            plain_spec(got)
                        )));
                    }
                    continue;
                };
                let name = class.symbol_name(k);
                let v = i64::try_from(n).ok().filter(|&v| v >= 1).ok_or_else(|| {
                    err(format!("input #{i} dim {d} is {n}; symbol `{name}` must be in 1..={}", i64::MAX))
                })?;
                let slot = symbols.get_mut(k as usize).ok_or_else(|| {
                    err(format!("input #{i} dim {d} names symbol {k}, the class has {}", class.symbols.len()))
                })?;
                match *slot {
                    Some((bound, bi, bd)) if bound != v => {
                        return Err(err(format!(
                            "input #{i} dim {d} is {v}, but symbol `{name}` is {bound} (from input #{bi} dim {bd})"
                        )));
                    }
                    Some(_) => {}
                    None => *slot = Some((v, i, d)),
                }
            }
        }
        let symbols: Vec<i64> = symbols
            .iter()
            .enumerate()
            .map(|(k, s)| {
                s.map(|(v, _, _)| v).ok_or_else(|| {
                    err(format!("symbol `{}` is named by no input dim", class.symbol_name(k as u32)))
                })
            })
            .collect::<Result<_, _>>()?;
        let eval = |e: &super::Expr, what: &dyn Fn() -> String| -> Result<i64, BindError> {
            e.eval(&symbols).map_err(|m| {
                err(format!(
                    "{}: `{}` fails for {}: {m}",
                    what(),
                    e.render(&class.symbols),
                    show(class, &symbols)
                ))
            })
        };
        let size = |e: &super::Expr, what: &dyn Fn() -> String| -> Result<u64, BindError> {
            let v = eval(e, what)?;
            u64::try_from(v).map_err(|_| {
                err(format!(
                    "{}: `{}` is {v} for {}, not a size",
                    what(),
                    e.render(&class.symbols),
                    show(class, &symbols)
                ))
            })
        };
        let mut bound = host.clone();
        bound.inputs = inputs.to_vec();
        if class.temps.len() != host.temps.len() || class.outputs.len() != host.outputs.len() {
            return Err(err("the shape class does not match the program's buffers".into()));
        }
        for (t, e) in class.temps.iter().enumerate() {
            if let Some(e) = e {
                bound.temps[t] = size(e, &|| format!("temporary #{t}'s byte size"))?;
            }
        }
        for (o, dims) in class.outputs.iter().enumerate() {
            for (d, e) in dims.iter().enumerate() {
                if let (Some(e), Some(slot)) = (e, bound.outputs[o].0.shape.get_mut(d)) {
                    *slot = size(e, &|| format!("output #{o} dim {d}"))?;
                }
            }
            let spec = &bound.outputs[o].0;
            if spec.checked_bytes().is_none() {
                return Err(err(format!(
                    "output #{o}: the byte size of {} overflows for {}",
                    plain_spec(spec),
                    show(class, &symbols)
                )));
            }
        }
        let mut params = Vec::with_capacity(host.launches.len());
        for (l, launch) in host.launches.iter().enumerate() {
            let exprs = class.launches.get(l).map_or(&[][..], Vec::as_slice);
            let ranges = class.kernels.get(launch.kernel as usize).map_or(&[][..], |k| k.params.as_slice());
            let name = self.module.kernels.get(launch.kernel as usize).map_or("?", |k| k.name.as_str());
            if exprs.len() != ranges.len() {
                return Err(err(format!(
                    "launch #{l} of kernel '{name}' gives {} parameters, the kernel takes {}",
                    exprs.len(),
                    ranges.len()
                )));
            }
            let mut values = Vec::with_capacity(exprs.len());
            for (p, (e, r)) in exprs.iter().zip(ranges).enumerate() {
                let what = || format!("launch #{l} of kernel '{name}' parameter {p}");
                let v = eval(e, &what)?;
                if v < r.min || v > r.max {
                    return Err(err(format!(
                        "{}: `{}` is {v} for {}, outside the kernel's {}..={}",
                        what(),
                        e.render(&class.symbols),
                        show(class, &symbols),
                        r.min,
                        r.max
                    )));
                }
                values.push(v);
            }
            params.push(values);
        }
        Ok(Binding { symbols, host: bound, params })
    }
}

/// `n = 7, m = 3`: the symbols' values, for messages.
fn show(class: &ShapeClass, values: &[i64]) -> String {
    let parts: Vec<String> =
        values.iter().enumerate().map(|(k, v)| format!("{} = {v}", class.symbol_name(k as u32))).collect();
    if parts.is_empty() {
        "no symbols".into()
    } else {
        parts.join(", ")
    }
}
