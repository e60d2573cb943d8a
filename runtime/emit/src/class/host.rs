//! The host program's part of a shape class: the host function's `npuvec.symbols`,
//! `npuvec.input_symbols` and `npuvec.output_sizes`, a temporary's `npuvec.size` and a
//! launch's `npuvec.params` (size expressions as text, read by [`Expr::parse`]).
//!
//! A `?` in a GM type and a class attribute go together: an input dim is `?` exactly when
//! `npuvec.input_symbols` gives it a symbol, an output dim when `npuvec.output_sizes` gives
//! it an expression, a temporary when it has `npuvec.size`. A launch gives as many
//! parameters as its kernel declares.

use kiln_bytecode::module::Host;
use kiln_bytecode::shape::{Expr, KernelClass, ShapeClass};
use kiln_compiler::{Diagnostic, Ir, OpId};
use kiln_dialects::npuvec::{
    string_list as strings, symbols, text, INPUT_SYMBOLS_ATTR, LAUNCH_PARAMS_ATTR, OUTPUT_SIZES_ATTR,
    SIZE_ATTR,
};

use crate::host::Sites;
use crate::read::{array_attr, Res};

/// Parses expression `text` (`what` names it in an error) over `symbols`.
fn expr<'c>(ir: &Ir<'c>, op: OpId, what: &str, text: &str, symbols: &[String]) -> Res<'c, Expr> {
    Expr::parse(text, symbols).map_err(|e| Diagnostic::op_error(ir, op, format!("{what}: `{text}`: {e}")))
}

/// Reads the shape class of host function `func`, whose program is `host` with the sites
/// `sites`, its kernels' classes `kernels`.
pub fn read_class<'c>(
    ir: &Ir<'c>,
    func: OpId,
    host: &Host,
    sites: &Sites,
    kernels: Vec<KernelClass>,
) -> Res<'c, ShapeClass> {
    let err = |op: OpId, msg: String| Err(Diagnostic::op_error(ir, op, msg));
    let symbols = symbols(ir, func)?;
    let mut class = ShapeClass { symbols, kernels, ..ShapeClass::default() };
    let dims: usize = sites.inputs.iter().map(Vec::len).sum();
    let flat = match ir.attr(func, INPUT_SYMBOLS_ATTR) {
        Some(_) => array_attr(ir, func, INPUT_SYMBOLS_ATTR)?,
        None => vec![-1; dims],
    };
    if flat.len() != dims {
        let msg = format!("`{INPUT_SYMBOLS_ATTR}` has {} entries, the inputs have {dims} dims", flat.len());
        return err(func, msg);
    }
    let mut flat = flat.into_iter();
    for (i, dynamic) in sites.inputs.iter().enumerate() {
        let mut per_dim = Vec::with_capacity(dynamic.len());
        for (d, &dynamic) in dynamic.iter().enumerate() {
            let s = flat.next().unwrap_or(-1);
            let sym = match u32::try_from(s) {
                Ok(k) if (k as usize) < class.symbols.len() => Some(k),
                _ if s == -1 => None,
                _ => {
                    let msg = format!(
                        "`{INPUT_SYMBOLS_ATTR}`: input {i} dim {d} names symbol {s}, the class has {}",
                        class.symbols.len()
                    );
                    return err(func, msg);
                }
            };
            if sym.is_some() != dynamic {
                let msg = if dynamic {
                    format!("input {i} dim {d} is `?` but `{INPUT_SYMBOLS_ATTR}` gives it no symbol")
                } else {
                    format!("input {i} dim {d} is static but `{INPUT_SYMBOLS_ATTR}` gives it symbol {s}")
                };
                return err(func, msg);
            }
            per_dim.push(sym);
        }
        class.inputs.push(per_dim);
    }
    if let Some(k) =
        (0..class.symbols.len() as u32).find(|&k| !class.inputs.iter().flatten().any(|&s| s == Some(k)))
    {
        let msg = format!(
            "symbol {k} ('{}') is bound by no input dim (`{INPUT_SYMBOLS_ATTR}`)",
            class.symbol_name(k)
        );
        return err(func, msg);
    }
    outputs(ir, func, sites, &mut class)?;
    for (t, &(op, dynamic)) in sites.temps.iter().enumerate() {
        let size = match ir.attr(op, SIZE_ATTR) {
            None => None,
            Some(a) => {
                let Some(s) = text(a) else {
                    return err(op, format!("needs attribute `{SIZE_ATTR}` = \"...\""));
                };
                Some(expr(ir, op, &format!("`{SIZE_ATTR}` of temporary {t}"), &s, &class.symbols)?)
            }
        };
        if size.is_some() != dynamic {
            let msg = if dynamic {
                format!("allocates a `?` temporary without `{SIZE_ATTR}` (its byte size)")
            } else {
                format!("has `{SIZE_ATTR}` but allocates a static temporary ('?' where the size is computed)")
            };
            return err(op, msg);
        }
        class.temps.push(size);
    }
    for (l, (launch, &op)) in host.launches.iter().zip(&sites.launches).enumerate() {
        let want = class.kernels.get(launch.kernel as usize).map_or(0, |k| k.params.len());
        let texts = strings(ir, op, LAUNCH_PARAMS_ATTR)?.unwrap_or_default();
        if texts.len() != want {
            let msg = format!(
                "gives {} launch parameters (`{LAUNCH_PARAMS_ATTR}`), its kernel takes {want}",
                texts.len()
            );
            return err(op, msg);
        }
        let what = |k| format!("`{LAUNCH_PARAMS_ATTR}` of launch {l}, parameter {k}");
        let params = texts.iter().enumerate().map(|(k, t)| expr(ir, op, &what(k), t, &class.symbols));
        class.launches.push(params.collect::<Res<'c, Vec<_>>>()?);
    }
    Ok(class)
}

/// Reads `npuvec.output_sizes` into `class`: one entry per output dim, `""` where static.
fn outputs<'c>(ir: &Ir<'c>, func: OpId, sites: &Sites, class: &mut ShapeClass) -> Res<'c, ()> {
    let dims: usize = sites.outputs.iter().map(Vec::len).sum();
    let texts = strings(ir, func, OUTPUT_SIZES_ATTR)?.unwrap_or_else(|| vec![String::new(); dims]);
    if texts.len() != dims {
        let msg = format!("`{OUTPUT_SIZES_ATTR}` has {} entries, the outputs have {dims} dims", texts.len());
        return Err(Diagnostic::op_error(ir, func, msg));
    }
    let mut texts = texts.into_iter();
    for (o, dynamic) in sites.outputs.iter().enumerate() {
        let mut per_dim = Vec::with_capacity(dynamic.len());
        for (d, &dynamic) in dynamic.iter().enumerate() {
            let t = texts.next().unwrap_or_default();
            let what = format!("`{OUTPUT_SIZES_ATTR}` of output {o} dim {d}");
            let size = if t.is_empty() { None } else { Some(expr(ir, func, &what, &t, &class.symbols)?) };
            if size.is_some() != dynamic {
                let msg = if dynamic {
                    format!("output {o} dim {d} is `?` but `{OUTPUT_SIZES_ATTR}` gives it no size")
                } else {
                    format!("output {o} dim {d} is static but `{OUTPUT_SIZES_ATTR}` gives it the size `{t}`")
                };
                return Err(Diagnostic::op_error(ir, sites.ret.unwrap_or(func), msg));
            }
            per_dim.push(size);
        }
        class.outputs.push(per_dim);
    }
    Ok(())
}
