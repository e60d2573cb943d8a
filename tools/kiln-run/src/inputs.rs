//! The entry function's arguments: read from `--input` files or drawn from `--seed` (at the
//! shape `--input-shape` gives an argument with `?` dims), each checked against the signature
//! before anything runs, and the module specialized to the inputs' shapes.
//!
//! An argument conforms when its rank, every static dim and its element type are the
//! signature's; a `?` dim takes any size. When the function has `?` dims (in its signature or
//! inside), it is then specialized to the concrete shapes ([`specialize`]): its arguments take
//! them, shape inference makes every `?` static, and the module is verified again, so the
//! interpreter and the back end see a static program. Each launch compiles for its own shapes; one kernel per
//! shape class, with tiling computed at launch, is not done here.

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{AttrKind, Context, Diagnostic, Ir, OpId, Type, DYNAMIC};
use kiln_dialects::hl::accessors::{checked_bytes, tensor_parts};
use kiln_dialects::hl::interp::program::dtype_of;
use kiln_dialects::hl::interp::{random_tensor, read_npy, Budget, Tensor};

use crate::Cli;

/// `--input-shape NAME=DIMS`: the argument (its number or its name) and its dims.
#[derive(Clone, Debug)]
pub struct InputShape {
    /// The argument: its number (`0`) or the name its location gives it (`x` for `loc("x")`).
    pub arg: String,
    /// The dims, each at least 1.
    pub dims: Vec<u64>,
}

/// Parses `NAME=DIMS` (`x=2x128`; a rank-0 shape is `x=`); every dim an integer from 1 to
/// 2^63 - 1.
pub fn parse_input_shape(spec: &str) -> Result<InputShape, String> {
    let (arg, dims) =
        spec.rsplit_once('=').ok_or_else(|| format!("expected 'NAME=DIMS' (x=2x128), but got '{spec}'"))?;
    if arg.is_empty() {
        return Err(format!("'{spec}' names no argument (NAME=DIMS: an argument number or name)"));
    }
    let dims = if dims.is_empty() {
        Vec::new()
    } else {
        dims.split('x')
            .map(|d| match d.parse::<u64>() {
                Ok(0) => Err(format!("dims must be at least 1, but '{spec}' has a 0")),
                Ok(n) if n <= i64::MAX as u64 => Ok(n),
                _ if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => {
                    Err(format!("dim {d} of '{spec}' is past the largest dim, {}", i64::MAX))
                }
                _ => Err(format!("dims must be integers from 1 joined by 'x', but '{spec}' has '{d}'")),
            })
            .collect::<Result<_, _>>()?
    };
    Ok(InputShape { arg: arg.to_string(), dims })
}

/// The name a block argument's location gives it (`loc("x")`).
fn arg_name(ir: &Ir<'_>, v: kiln_compiler::ValueId) -> Option<String> {
    match *ir.value(v).loc?.kind() {
        AttrKind::NameLoc { name, .. } => Some(String::from_utf8_lossy(name).into_owned()),
        _ => None,
    }
}

/// `argument #i` with its name when it has one: ``argument #0 (`x`)``.
fn describe(i: usize, name: Option<&str>) -> String {
    match name {
        Some(n) => format!("argument #{i} (`{n}`)"),
        None => format!("argument #{i}"),
    }
}

/// The argument tensors: from `--input` files, then seeded random ones (of the `--input-shape`
/// shape for an argument with `?` dims), each checked against its type.
pub fn inputs(ir: &Ir<'_>, func: OpId, cli: &Cli, budget: &Budget) -> Result<Vec<Tensor>, String> {
    let Some(entry) = ir.regions(func).first().and_then(|&r| ir.entry_block(r)) else {
        return Err("kiln-run: error: the function has no body\n".into());
    };
    let params = ir.block_args(entry);
    if cli.inputs.len() > params.len() {
        return Err(format!(
            "kiln-run: error: {} inputs given, but the function takes {}\n",
            cli.inputs.len(),
            params.len()
        ));
    }
    let names: Vec<Option<String>> = params.iter().map(|&p| arg_name(ir, p)).collect();
    let mut shapes: Vec<Option<&[u64]>> = vec![None; params.len()];
    for s in &cli.input_shapes {
        let i = s
            .arg
            .parse::<usize>()
            .ok()
            .filter(|&i| i < params.len())
            .or_else(|| names.iter().position(|n| n.as_deref() == Some(s.arg.as_str())))
            .ok_or_else(|| {
                let known: Vec<String> = names.iter().enumerate().map(|(i, n)| describe(i, n.as_deref())).collect();
                format!(
                    "kiln-run: error: --input-shape names '{}', which is not an argument of the function ({})\n",
                    s.arg,
                    if known.is_empty() { "it takes none".to_string() } else { known.join(", ") }
                )
            })?;
        if i < cli.inputs.len() {
            return Err(format!(
                "kiln-run: error: {} is given both by --input and by --input-shape\n",
                describe(i, names[i].as_deref())
            ));
        }
        shapes[i] = Some(&s.dims);
    }
    let mut args = Vec::with_capacity(params.len());
    for (i, &p) in params.iter().enumerate() {
        let who = describe(i, names[i].as_deref());
        let ty = ir.value_type(p);
        let (shape, elem) =
            tensor_parts(ty).ok_or_else(|| format!("kiln-run: error: {who} has non-tensor type '{ty}'\n"))?;
        let dtype = dtype_of(elem)
            .ok_or_else(|| format!("kiln-run: error: {who} has unsupported element type '{elem}'\n"))?;
        let t = if let Some(path) = cli.inputs.get(i) {
            read_npy(path, Some(dtype)).map_err(|e| format!("kiln-run: error: {who}: {}\n", e.message()))?
        } else {
            let dims: Vec<i64> = match shapes[i] {
                Some(given) => given.iter().map(|&d| d as i64).collect(),
                None if shape.contains(&DYNAMIC) => {
                    let name = names[i].as_deref().map_or(String::new(), |n| format!(" (or {n}=DIMS)"));
                    return Err(format!(
                        "kiln-run: error: {who} has dynamic type '{ty}': give its shape with \
                         --input-shape {i}=DIMS{name} or its values with --input\n"
                    ));
                }
                None => shape.to_vec(),
            };
            let bytes = checked_bytes(&dims, dtype.byte_size() as u64);
            budget.check(bytes).map_err(|m| {
                let hint = if bytes.is_some() { "; raise --max-memory" } else { "" };
                let sizes: String = dims.iter().map(|d| format!("{d}x")).collect();
                format!("kiln-run: error: {who} of type 'tensor<{sizes}{elem}>' {m}{hint}\n")
            })?;
            let dims: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
            random_tensor(dtype, dims, cli.seed.wrapping_add(i as u64))
        };
        let dims: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
        conform(&who, ty, shape, &dims)?;
        args.push(t);
    }
    Ok(args)
}

/// Checks an input of shape `dims` against the argument's type `ty` (of shape `shape`): the
/// same rank and every static dim.
fn conform(who: &str, ty: Type<'_>, shape: &[i64], dims: &[i64]) -> Result<(), String> {
    if dims.len() != shape.len() {
        return Err(format!(
            "kiln-run: error: {who} has type '{ty}' of rank {}, but the input has rank {} (shape {dims:?})\n",
            shape.len(),
            dims.len()
        ));
    }
    match shape.iter().zip(dims).position(|(&s, &d)| s != DYNAMIC && s != d) {
        Some(k) => Err(format!(
            "kiln-run: error: {who} has type '{ty}', whose dim #{k} is {}, but the input's is {} (shape {dims:?})\n",
            shape[k], dims[k]
        )),
        None => Ok(()),
    }
}

/// Specializes `func` to the shapes of `args` when it has `?` dims (in its arguments or in
/// any value; see the module doc); a static function is left as it is.
pub fn specialize<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    func: OpId,
    args: &[Tensor],
) -> Result<(), Vec<Diagnostic<'c>>> {
    let Some(entry) = ir.regions(func).first().and_then(|&r| ir.entry_block(r)) else { return Ok(()) };
    let types: Vec<Type<'c>> = ir.block_args(entry).iter().map(|&p| ir.value_type(p)).collect();
    let dynamic = |t: Type<'_>| tensor_parts(t).is_some_and(|(s, _)| s.contains(&DYNAMIC));
    let inside = |op: OpId| ir.results(op).iter().any(|&r| dynamic(ir.value_type(r)));
    if !types.iter().any(|&t| dynamic(t)) && !ir.walk(func, WalkOrder::PreOrder).any(inside) {
        return Ok(());
    }
    let concrete: Vec<Type<'c>> = types
        .iter()
        .zip(args)
        .map(|(&t, a)| {
            let elem = tensor_parts(t).map_or(t, |(_, e)| e);
            ctx.tensor_type(&a.shape().iter().map(|&d| d as i64).collect::<Vec<_>>(), elem)
        })
        .collect();
    kiln_passes::hl_infer_shapes::specialize(ctx, ir, func, &concrete).map_err(|d| vec![d])
}
