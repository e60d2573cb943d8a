//! Running a bytecode file of a shape class: inputs of any shape the class admits (`--input`
//! files, or seeded random ones of the `--input-shape` dims), bound by the class before the
//! run (`ClassModule::bind`, whose error names the input and the dim), then run on the VM
//! (`Vm::run_class`, with `--stats`, `--trace` and `--repeat` as for a static file).

use kiln_bytecode::module::TensorSpec;
use kiln_bytecode::shape::ClassModule;
use kiln_dialects::hl::interp::{random_tensor, read_npy, Tensor};
use kiln_targets::Target;
use kiln_vm::HostTensor;

use crate::convert::{interp_type, to_host};
use crate::Cli;

fn fail(msg: impl std::fmt::Display) -> String {
    format!("kiln-run: error: {msg}\n")
}

/// The dims `--input-shape` gives input `i` (named by its number: bytecode keeps no names).
fn given_shape(cli: &Cli, i: usize) -> Option<&[u64]> {
    cli.input_shapes.iter().find(|s| s.arg == i.to_string()).map(|s| &s.dims[..])
}

/// The input tensors of `program`: `--input` files first, then `--input-shape`, then (for an
/// input with no symbolic dim) random ones of the skeleton's shape.
fn inputs(cli: &Cli, program: &ClassModule) -> Result<Vec<Tensor>, String> {
    let host = &program.module.host;
    for s in &cli.input_shapes {
        let i = s.arg.parse::<usize>().ok().filter(|&i| i < host.inputs.len()).ok_or_else(|| {
            fail(format!(
                "--input-shape names '{}': a class file's inputs are named by their numbers, 0 to {}",
                s.arg,
                host.inputs.len().saturating_sub(1)
            ))
        })?;
        if i < cli.inputs.len() {
            return Err(fail(format!("input #{i} is given both by --input and by --input-shape")));
        }
    }
    let mut args = Vec::with_capacity(host.inputs.len());
    for (i, spec) in host.inputs.iter().enumerate() {
        let dtype = interp_type(spec.dtype);
        let symbols = program.class.inputs.get(i).map(|dims| dims.iter().flatten().collect::<Vec<_>>());
        let t = if let Some(path) = cli.inputs.get(i) {
            read_npy(path, Some(dtype)).map_err(|e| fail(format!("{}: {}", path.display(), e.message())))?
        } else {
            let dims: Vec<u64> = match (given_shape(cli, i), symbols) {
                (Some(dims), _) => dims.to_vec(),
                (None, Some(s)) if !s.is_empty() => {
                    let names: Vec<String> = s.iter().map(|&&k| program.class.symbol_name(k)).collect();
                    return Err(fail(format!(
                        "input #{i} has symbolic dims ({}): give its shape with --input-shape {i}=DIMS or its values with --input",
                        names.join(", ")
                    )));
                }
                (None, _) => spec.shape.clone(),
            };
            let bytes = dims.iter().try_fold(spec.dtype.bytes() as u64, |b, &d| b.checked_mul(d));
            if bytes.is_none_or(|b| b > cli.max_memory) {
                return Err(fail(format!("input #{i} does not fit --max-memory={}", cli.max_memory)));
            }
            random_tensor(dtype, dims.iter().map(|&d| d as usize).collect(), cli.seed.wrapping_add(i as u64))
        };
        args.push(t);
    }
    Ok(args)
}

/// Loads nothing (the caller did), binds `program` to the inputs and runs it; returns what to
/// print.
pub fn run_class_file(cli: &Cli, target: &Target, program: &ClassModule) -> Result<String, String> {
    let args = inputs(cli, program)?;
    let host: Vec<HostTensor> = args.iter().map(to_host).collect::<Result<_, _>>().map_err(fail)?;
    let specs: Vec<TensorSpec> = host.iter().map(|h| h.spec.clone()).collect();
    program.bind(&specs).map_err(|e| fail(format!("the inputs do not fit the shape class: {e}")))?;
    let (results, stats) = crate::vm::run_program(cli, target, program, &args)?;
    let mut out = crate::print_results(cli, &results)?;
    out.push_str(&stats);
    Ok(out)
}
