//! The shape class's checks ([`validate_class`](fn@crate::validate_class)), after its module's:
//!
//! - symbols have distinct names that are not empty, and each is named by some input dim (so
//!   that the inputs bind every symbol);
//! - the class runs parallel to the skeleton: one entry per input (of its rank), temporary,
//!   output (of its rank), launch and kernel; the skeleton holds 0 wherever the class gives a
//!   symbol or an expression;
//! - expressions are well formed over the class's symbols ([`Expr::check`]);
//! - a launch gives as many parameters as its kernel declares; a kernel declares at most
//!   [`NUM_REGS`] parameters (they take registers `r0..`), each range `min <= max`;
//! - extents are sorted by instruction and dim, at most one per dim, each on the view of a
//!   `Load` or `Store` (its dim exists; its static size is the maximum), from a register that
//!   exists.

use crate::error::LoadError;
use crate::isa::{Inst, NUM_REGS};
use crate::module::Module;
use crate::shape::{Expr, ShapeClass};

/// A violation: where (kernel and instruction, when in a kernel) and why.
pub(super) struct Issue {
    at: Option<(usize, Option<usize>)>,
    reason: String,
}

impl Issue {
    fn host(reason: String) -> Issue {
        Issue { at: None, reason }
    }

    /// The loader's error, placed in its kernel and instruction (with the byte offset).
    pub(super) fn locate(self, module: &Module, class: &ShapeClass) -> LoadError {
        match self.at {
            None => LoadError::unplaced(format!("shape class: {}", self.reason)),
            Some((k, inst)) => {
                let mut e = LoadError::place(self.reason, k, &module.kernels[k], inst);
                e.offset = inst.and_then(|i| super::inst_offset(module, Some(class), k, i));
                e
            }
        }
    }
}

fn exprs<'a>(class: &ShapeClass, items: impl IntoIterator<Item = (String, &'a Expr)>) -> Result<(), Issue> {
    for (what, e) in items {
        e.check(class.symbols.len()).map_err(|m| Issue::host(format!("{what}: {m}")))?;
    }
    Ok(())
}

fn parallel(what: &str, class: usize, module: usize) -> Result<(), Issue> {
    if class != module {
        return Err(Issue::host(format!("{class} {what} entries for the program's {module}")));
    }
    Ok(())
}

/// Checks `class` against its (validated) skeleton `module`.
pub(super) fn check(module: &Module, class: &ShapeClass) -> Result<(), Issue> {
    let host = &module.host;
    for (k, name) in class.symbols.iter().enumerate() {
        if name.is_empty() || class.symbols[..k].contains(name) {
            return Err(Issue::host(format!("symbol {k} has the name '{name}', which is empty or taken")));
        }
    }
    parallel("input", class.inputs.len(), host.inputs.len())?;
    let mut named = vec![false; class.symbols.len()];
    for (i, (dims, spec)) in class.inputs.iter().zip(&host.inputs).enumerate() {
        parallel(&format!("input #{i} dim"), dims.len(), spec.shape.len())?;
        for (d, (sym, &skeleton)) in dims.iter().zip(&spec.shape).enumerate() {
            let Some(k) = *sym else { continue };
            let slot = named.get_mut(k as usize).ok_or_else(|| {
                Issue::host(format!(
                    "input #{i} dim {d} names symbol {k}, the class has {}",
                    class.symbols.len()
                ))
            })?;
            *slot = true;
            if skeleton != 0 {
                return Err(Issue::host(format!(
                    "input #{i} dim {d} is symbolic but the program holds {skeleton}, not 0"
                )));
            }
        }
    }
    if let Some(k) = named.iter().position(|&n| !n) {
        return Err(Issue::host(format!(
            "symbol `{}` is named by no input dim",
            class.symbol_name(k as u32)
        )));
    }
    parallel("temporary", class.temps.len(), host.temps.len())?;
    for (t, (e, &skeleton)) in class.temps.iter().zip(&host.temps).enumerate() {
        if e.is_some() && skeleton != 0 {
            return Err(Issue::host(format!(
                "temporary #{t} has a size expression but the program holds {skeleton}, not 0"
            )));
        }
    }
    exprs(
        class,
        class.temps.iter().enumerate().filter_map(|(t, e)| Some((format!("temporary #{t}"), e.as_ref()?))),
    )?;
    parallel("output", class.outputs.len(), host.outputs.len())?;
    for (o, (dims, (spec, _))) in class.outputs.iter().zip(&host.outputs).enumerate() {
        parallel(&format!("output #{o} dim"), dims.len(), spec.shape.len())?;
        for (d, (e, &skeleton)) in dims.iter().zip(&spec.shape).enumerate() {
            if e.is_some() && skeleton != 0 {
                return Err(Issue::host(format!(
                    "output #{o} dim {d} is an expression but the program holds {skeleton}, not 0"
                )));
            }
        }
        exprs(
            class,
            dims.iter().enumerate().filter_map(|(d, e)| Some((format!("output #{o} dim {d}"), e.as_ref()?))),
        )?;
    }
    parallel("kernel", class.kernels.len(), module.kernels.len())?;
    parallel("launch", class.launches.len(), host.launches.len())?;
    for (l, (params, launch)) in class.launches.iter().zip(&host.launches).enumerate() {
        let kernel = &module.kernels[launch.kernel as usize];
        let want = class.kernels[launch.kernel as usize].params.len();
        if params.len() != want {
            return Err(Issue::host(format!(
                "launch #{l} of kernel '{}' gives {} parameters, the kernel takes {want}",
                kernel.name,
                params.len()
            )));
        }
        exprs(class, params.iter().enumerate().map(|(p, e)| (format!("launch #{l} parameter {p}"), e)))?;
    }
    for (k, (kc, kernel)) in class.kernels.iter().zip(&module.kernels).enumerate() {
        let at = |inst: Option<usize>, reason: String| Issue { at: Some((k, inst)), reason };
        if kc.params.len() > NUM_REGS {
            return Err(at(
                None,
                format!("{} parameters, at most {NUM_REGS} (one register each)", kc.params.len()),
            ));
        }
        if let Some(p) = kc.params.iter().position(|r| r.min > r.max) {
            let r = kc.params[p];
            return Err(at(None, format!("parameter {p} has the empty range {}..={}", r.min, r.max)));
        }
        for (j, e) in kc.extents.iter().enumerate() {
            let i = e.inst as usize;
            if j > 0 && kc.extents[j - 1] >= *e {
                return Err(at(
                    None,
                    format!("extent {j} (instruction {i} dim {}) is out of order or repeated", e.dim),
                ));
            }
            let view = match kernel.code.get(i) {
                Some(Inst::Load { src: v, .. } | Inst::Store { dst: v, .. }) => v,
                Some(other) => {
                    return Err(at(
                        Some(i),
                        format!(
                            "has an extent, but only a load's or a store's view takes one (this is a `{}`)",
                            other.mnemonic()
                        ),
                    ))
                }
                None => {
                    return Err(at(
                        None,
                        format!("extent {j} names instruction {i}, the kernel has {}", kernel.code.len()),
                    ))
                }
            };
            if e.dim as usize >= view.dims.len() {
                return Err(at(
                    Some(i),
                    format!("an extent names view dim {}, the view has {}", e.dim, view.dims.len()),
                ));
            }
            if e.reg.0 as usize >= NUM_REGS {
                return Err(at(
                    Some(i),
                    format!("an extent reads register r{}, which does not exist", e.reg.0),
                ));
            }
        }
    }
    Ok(())
}
