//! Running `func.func`s of `hl` ops on host tensors: the glue between the IR and the numeric
//! kernels of this module's siblings. This is the oracle for every correctness test.
//!
//! A function's entry block is executed op by op; `func.call` runs the callee (to a bounded
//! depth); a `fused.region` runs its body on its operands (the same block loop); `func.return`
//! and `fused.yield` yield the results, so fused and unfused programs compute bit-identical
//! results. Every tensor produced is checked against the static
//! dims of its declared type, so a dynamic dim that conflicts at run time is a located error.

use kiln_compiler::symbol_table::resolve;
use kiln_compiler::{
    AttrKind, Attribute, Context, DenseData, Diagnostic, FloatKind, Ir, OpId, Type, TypeKind,
};
use kiln_compiler::{BlockId, ValueId, DYNAMIC};

use super::{self as k, BinaryOp, CmpOp, DType, GeluApprox, LogicOp, ReduceOp, Tensor, TensorData, UnaryOp};
use crate::hl::accessors::{bool_attr, float_value, int_list, tensor_parts};

/// How deep `func.call`s may nest.
const MAX_CALL_DEPTH: usize = 64;

/// The interpreter's element type of an MLIR element type.
pub fn dtype_of(elem: Type<'_>) -> Option<DType> {
    Some(match *elem.kind() {
        TypeKind::Float(FloatKind::F16) => DType::F16,
        TypeKind::Float(FloatKind::BF16) => DType::BF16,
        TypeKind::Float(FloatKind::F32) => DType::F32,
        TypeKind::Integer { width: 1, .. } => DType::I1,
        TypeKind::Integer { width: 8, .. } => DType::I8,
        TypeKind::Integer { width: 32, .. } => DType::I32,
        TypeKind::Integer { width: 64, .. } => DType::I64,
        _ => return None,
    })
}

/// Runs function `func` on `args`, returning its results.
pub fn run_function<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    func: OpId,
    args: &[Tensor],
) -> Result<Vec<Tensor>, Diagnostic<'c>> {
    run(ctx, ir, func, args, 0)
}

fn err<'c>(ir: &Ir<'c>, op: OpId, message: impl Into<String>) -> Diagnostic<'c> {
    let data = ir.op(op);
    Diagnostic::error(data.loc, format!("'{}' op {}", data.name, message.into()))
}

fn run<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    func: OpId,
    args: &[Tensor],
    depth: usize,
) -> Result<Vec<Tensor>, Diagnostic<'c>> {
    if depth > MAX_CALL_DEPTH {
        return Err(err(ir, func, format!("calls nest deeper than {MAX_CALL_DEPTH}")));
    }
    let Some(entry) = ir.regions(func).first().and_then(|&r| ir.entry_block(r)) else {
        return Err(err(ir, func, "has no body to interpret"));
    };
    if ir.next_block(entry).is_some() {
        return Err(err(ir, func, "has several blocks; only single-block functions can be interpreted"));
    }
    run_block(ctx, ir, func, entry, args, depth)
}

/// Runs the single block `entry` of `owner` (a `func.func` or a `fused.region`) on `args`
/// until its terminator (`func.return` or `fused.yield`), whose operands it returns. A
/// `fused.region` inside runs its body on its operands, exactly as the unfused ops would.
fn run_block<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    owner: OpId,
    entry: BlockId,
    args: &[Tensor],
    depth: usize,
) -> Result<Vec<Tensor>, Diagnostic<'c>> {
    let params = ir.block_args(entry);
    if params.len() != args.len() {
        return Err(err(
            ir,
            owner,
            format!("expects {} inputs, but {} were given", params.len(), args.len()),
        ));
    }
    let mut env: Vec<(ValueId, Tensor)> = Vec::new();
    for (i, (&p, a)) in params.iter().zip(args).enumerate() {
        check_type(ir.value_type(p), a).map_err(|m| err(ir, owner, format!("input #{i}: {m}")))?;
        env.push((p, a.clone()));
    }
    let lookup = |env: &[(ValueId, Tensor)], v: ValueId| {
        env.iter().rev().find(|(k, _)| *k == v).map(|(_, t)| t.clone())
    };
    for op in ir.block_ops(entry) {
        let inputs: Vec<Tensor> = ir
            .operands(op)
            .iter()
            .map(|&v| {
                lookup(&env, v).ok_or_else(|| err(ir, op, "uses a value the interpreter has not computed"))
            })
            .collect::<Result<_, _>>()?;
        let outputs = match ir.op(op).name {
            "func.return" | "fused.yield" => return Ok(inputs),
            "func.call" => {
                let callee = ir.attr(op, "callee").and_then(|c| resolve(ir, op, c));
                let callee = callee.ok_or_else(|| err(ir, op, "callee cannot be found"))?;
                run(ctx, ir, callee, &inputs, depth + 1)?
            }
            "fused.region" => {
                let body = ir.regions(op).first().and_then(|&r| ir.entry_block(r));
                let body = body.ok_or_else(|| err(ir, op, "has no body to interpret"))?;
                run_block(ctx, ir, op, body, &inputs, depth)?
            }
            _ => vec![eval_op(ir, op, &inputs).map_err(|m| err(ir, op, m))?],
        };
        for (&r, t) in ir.results(op).iter().zip(outputs) {
            check_type(ir.value_type(r), &t).map_err(|m| err(ir, op, format!("result: {m}")))?;
            env.push((r, t));
        }
    }
    Err(err(ir, owner, "body does not end in a terminator ('func.return' or 'fused.yield')"))
}

/// Checks a tensor against a type: element type and every static dim.
fn check_type(ty: Type<'_>, t: &Tensor) -> Result<(), String> {
    let (shape, elem) = tensor_parts(ty).ok_or_else(|| format!("type '{ty}' is not a ranked tensor"))?;
    let ok_dtype = dtype_of(elem) == Some(t.dtype());
    let ok_shape = shape.len() == t.rank()
        && shape.iter().zip(t.shape()).all(|(&d, &n)| d == DYNAMIC || d as usize == n);
    if ok_dtype && ok_shape {
        Ok(())
    } else {
        Err(format!("a {} tensor of shape {:?} does not have type '{ty}'", t.dtype().name(), t.shape()))
    }
}

/// The tensor held by a dense elements attribute.
pub fn dense_to_tensor(attr: Attribute<'_>) -> Result<Tensor, String> {
    let AttrKind::DenseElements { ty, data: DenseData::Raw { bytes, splat } } = *attr.kind() else {
        return Err(format!("cannot interpret attribute {attr} as a tensor"));
    };
    let (shape, elem) = tensor_parts(ty).ok_or("dense attribute of a non-tensor type")?;
    let dtype = dtype_of(elem).ok_or_else(|| format!("unsupported element type '{elem}'"))?;
    let shape: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let count: usize = shape.iter().product();
    let stored = if splat { 1 } else { count };
    let size = dtype.byte_size();
    let bit_packed = dtype == DType::I1 && bytes.len() != stored && bytes.len() == stored.div_ceil(8);
    if !bit_packed && bytes.len() != stored * size {
        return Err(format!("dense attribute holds {} bytes for {stored} elements", bytes.len()));
    }
    let at = |i: usize| if splat { 0 } else { i };
    let chunk = |i: usize| &bytes[at(i) * size..at(i) * size + size];
    let data = match dtype {
        DType::F16 => TensorData::F16(
            (0..count).map(|i| half::f16::from_le_bytes([chunk(i)[0], chunk(i)[1]])).collect(),
        ),
        DType::BF16 => TensorData::BF16(
            (0..count).map(|i| half::bf16::from_le_bytes([chunk(i)[0], chunk(i)[1]])).collect(),
        ),
        DType::F32 => TensorData::F32(
            (0..count).map(|i| f32::from_le_bytes(chunk(i).try_into().unwrap_or([0; 4]))).collect(),
        ),
        DType::I1 if bit_packed => {
            TensorData::I1((0..count).map(|i| bytes[at(i) / 8] >> (at(i) % 8) & 1 == 1).collect())
        }
        DType::I1 => TensorData::I1((0..count).map(|i| chunk(i)[0] != 0).collect()),
        DType::I8 => TensorData::I8((0..count).map(|i| chunk(i)[0] as i8).collect()),
        DType::I32 => TensorData::I32(
            (0..count).map(|i| i32::from_le_bytes(chunk(i).try_into().unwrap_or([0; 4]))).collect(),
        ),
        DType::I64 => TensorData::I64(
            (0..count).map(|i| i64::from_le_bytes(chunk(i).try_into().unwrap_or([0; 8]))).collect(),
        ),
    };
    Tensor::new(shape, data).map_err(|e| e.message().to_string())
}

/// The dense elements attribute of type `ty` holding `t` (a splat when all elements are equal).
pub fn tensor_to_dense<'c>(ctx: &Context<'c>, ty: Type<'c>, t: &Tensor) -> Attribute<'c> {
    let mut bytes = Vec::with_capacity(t.numel() * t.dtype().byte_size());
    match t.data() {
        TensorData::F16(v) => v.iter().for_each(|x| bytes.extend(x.to_le_bytes())),
        TensorData::BF16(v) => v.iter().for_each(|x| bytes.extend(x.to_le_bytes())),
        TensorData::F32(v) => v.iter().for_each(|x| bytes.extend(x.to_le_bytes())),
        TensorData::I1(v) => v.iter().for_each(|&x| bytes.push(u8::from(x))),
        TensorData::I8(v) => v.iter().for_each(|x| bytes.extend(x.to_le_bytes())),
        TensorData::I32(v) => v.iter().for_each(|x| bytes.extend(x.to_le_bytes())),
        TensorData::I64(v) => v.iter().for_each(|x| bytes.extend(x.to_le_bytes())),
    }
    let size = t.dtype().byte_size();
    let splat = !bytes.is_empty() && bytes.chunks(size).all(|c| c == &bytes[..size]);
    if splat {
        bytes.truncate(size);
    }
    let bytes = ctx.alloc_bytes(&bytes);
    ctx.attr(AttrKind::DenseElements { ty, data: DenseData::Raw { bytes, splat } })
}

fn axis(ir: &Ir<'_>, op: OpId, default: i64) -> i64 {
    ir.attr(op, "axis").and_then(|a| a.as_int()).map_or(default, |v| v as i64)
}

fn usizes(values: Vec<i64>) -> Result<Vec<usize>, String> {
    values.into_iter().map(|v| usize::try_from(v).map_err(|_| format!("negative value {v}"))).collect()
}

fn pair(ir: &Ir<'_>, op: OpId, name: &str) -> Result<Option<[usize; 2]>, String> {
    match usizes(int_list(ir.attr(op, name))?)?.as_slice() {
        [] => Ok(None),
        [a, b] => Ok(Some([*a, *b])),
        other => Err(format!("attribute '{name}' must have two entries, but has {}", other.len())),
    }
}

/// The static result shape of `op`, with a single dynamic dim solved from `numel`.
fn result_shape(ir: &Ir<'_>, op: OpId, numel: Option<usize>) -> Result<Vec<usize>, String> {
    let ty = ir.value_type(ir.results(op)[0]);
    let (shape, _) = tensor_parts(ty).ok_or("result is not a ranked tensor")?;
    let known: usize = shape.iter().filter(|&&d| d != DYNAMIC).map(|&d| d as usize).product();
    let dynamic = shape.iter().filter(|&&d| d == DYNAMIC).count();
    let solved = match (dynamic, numel) {
        (0, _) => 0,
        (1, Some(n)) if known > 0 && n % known == 0 => n / known,
        _ => return Err(format!("result type '{ty}' leaves its shape undetermined")),
    };
    Ok(shape.iter().map(|&d| if d == DYNAMIC { solved } else { d as usize }).collect())
}

/// Evaluates one `hl` op on its operand values.
pub fn eval_op(ir: &Ir<'_>, op: OpId, x: &[Tensor]) -> Result<Tensor, String> {
    let name = ir.op(op).name;
    let short = name.strip_prefix("hl.").ok_or_else(|| format!("cannot interpret '{name}'"))?;
    let result_elem = tensor_parts(ir.value_type(ir.results(op)[0])).map(|(_, e)| e);
    let e = |r: k::Result<Tensor>| r.map_err(|e| e.message().to_string());
    let binary = |b: BinaryOp| e(k::binary(b, &x[0], &x[1]));
    let unary = |u: UnaryOp| e(k::unary(u, &x[0]));
    let reduce = |r: ReduceOp| {
        let axes = int_list(ir.attr(op, "axes"))?;
        e(k::reduce(r, &x[0], &axes, bool_attr(ir.attr(op, "keep_dims"))))
    };
    let eps = || ir.attr(op, "epsilon").and_then(float_value).unwrap_or(1e-5);
    // Normalizations work over the last dim (operand counts are verified by the declarations).
    let last = || x.first().map_or(0, |t| t.rank() as i64 - 1);
    match short {
        "add" => binary(BinaryOp::Add),
        "sub" => binary(BinaryOp::Sub),
        "mul" => binary(BinaryOp::Mul),
        "div" => binary(BinaryOp::Div),
        "pow" => binary(BinaryOp::Pow),
        "maximum" => binary(BinaryOp::Maximum),
        "minimum" => binary(BinaryOp::Minimum),
        "and" => e(k::logical(LogicOp::And, &x[0], &x[1])),
        "or" => e(k::logical(LogicOp::Or, &x[0], &x[1])),
        "not" => e(k::logical_not(&x[0])),
        "neg" => unary(UnaryOp::Neg),
        "abs" => unary(UnaryOp::Abs),
        "exp" => unary(UnaryOp::Exp),
        "log" => unary(UnaryOp::Log),
        "sqrt" => unary(UnaryOp::Sqrt),
        "rsqrt" => unary(UnaryOp::Rsqrt),
        "reciprocal" => unary(UnaryOp::Reciprocal),
        "tanh" => unary(UnaryOp::Tanh),
        "sigmoid" => unary(UnaryOp::Sigmoid),
        "relu" => unary(UnaryOp::Relu),
        "silu" => unary(UnaryOp::Silu),
        "erf" => unary(UnaryOp::Erf),
        "floor" => unary(UnaryOp::Floor),
        "ceil" => unary(UnaryOp::Ceil),
        "round" => unary(UnaryOp::Round),
        "sign" => unary(UnaryOp::Sign),
        "gelu" => {
            let approx = ir.attr(op, "approximate").and_then(GeluApprox::of).unwrap_or(GeluApprox::None);
            unary(UnaryOp::Gelu(approx))
        }
        "cast" => {
            let to = result_elem.and_then(dtype_of).ok_or("unsupported result element type")?;
            Ok(k::cast(&x[0], to))
        }
        "cmp" => {
            let pred =
                ir.attr(op, "predicate").and_then(CmpOp::of).ok_or("expected a #hl.cmp<...> predicate")?;
            e(k::compare(pred, &x[0], &x[1]))
        }
        "select" => e(k::select(&x[0], &x[1], &x[2])),
        "clamp" => {
            let bound = |n: &str, default: f64| ir.attr(op, n).and_then(float_value).unwrap_or(default);
            let lo = Tensor::scalar(x[0].dtype(), bound("min", f64::NEG_INFINITY));
            let hi = Tensor::scalar(x[0].dtype(), bound("max", f64::INFINITY));
            e(k::clamp(&x[0], &lo, &hi))
        }
        "constant" => dense_to_tensor(ir.attr(op, "value").ok_or("requires attribute 'value'")?),
        "broadcast_to" => e(k::broadcast_to(&x[0], &result_shape(ir, op, None)?)),
        "reduce_sum" => reduce(ReduceOp::Sum),
        "reduce_max" => reduce(ReduceOp::Max),
        "reduce_min" => reduce(ReduceOp::Min),
        "reduce_prod" => reduce(ReduceOp::Prod),
        "reduce_mean" => reduce(ReduceOp::Mean),
        "argmax" => e(k::argmax(&x[0], axis(ir, op, 0), bool_attr(ir.attr(op, "keep_dims")))),
        "argmin" => e(k::argmin(&x[0], axis(ir, op, 0), bool_attr(ir.attr(op, "keep_dims")))),
        "matmul" | "batch_matmul" => {
            let (ta, tb) = (bool_attr(ir.attr(op, "transpose_a")), bool_attr(ir.attr(op, "transpose_b")));
            if short == "matmul" {
                e(k::matmul(&x[0], &x[1], ta, tb, None))
            } else {
                e(k::batch_matmul(&x[0], &x[1], ta, tb, None))
            }
        }
        "conv2d" => {
            let mut p = k::Conv2dParams::default();
            if let Some(s) = pair(ir, op, "strides")? {
                p.strides = s;
            }
            if let Some(d) = pair(ir, op, "dilation")? {
                p.dilation = d;
            }
            match usizes(int_list(ir.attr(op, "padding"))?)?.as_slice() {
                [] => {}
                [t, l, b, r] => p.padding = [*t, *l, *b, *r],
                _ => return Err("attribute 'padding' must have four entries".into()),
            }
            p.groups = ir.attr(op, "groups").and_then(|g| g.as_int()).map_or(1, |g| g.max(0) as usize);
            e(k::conv2d(&x[0], &x[1], None, &p))
        }
        "reshape" => e(k::reshape(&x[0], &result_shape(ir, op, Some(x[0].numel()))?)),
        "transpose" => e(k::transpose(&x[0], &usizes(int_list(ir.attr(op, "perm"))?)?)),
        "slice" => {
            let starts = usizes(int_list(ir.attr(op, "starts"))?)?;
            let limits = usizes(int_list(ir.attr(op, "limits"))?)?;
            let mut steps = usizes(int_list(ir.attr(op, "strides"))?)?;
            if steps.is_empty() {
                steps = vec![1; starts.len()];
            }
            e(k::slice(&x[0], &starts, &limits, &steps))
        }
        "concat" => e(k::concat(&x.iter().collect::<Vec<_>>(), axis(ir, op, 0))),
        "expand_dims" => e(k::expand_dims(&x[0], axis(ir, op, 0))),
        "squeeze" => e(k::squeeze(&x[0], &int_list(ir.attr(op, "axes"))?)),
        "softmax" => e(k::softmax(&x[0], axis(ir, op, -1))),
        "log_softmax" => e(k::log_softmax(&x[0], axis(ir, op, -1))),
        "layer_norm" => e(k::layer_norm(&x[0], Some(&x[1]), Some(&x[2]), last(), eps())),
        "rms_norm" => e(k::rms_norm(&x[0], Some(&x[1]), last(), eps())),
        "batch_norm" => {
            // Statistics are declared [C, 1, 1] (to broadcast against NCHW); the kernel takes [C].
            let flat = |t: &Tensor| e(k::reshape(t, &[t.numel()]));
            e(k::batch_norm(&x[0], &flat(&x[1])?, &flat(&x[2])?, &flat(&x[3])?, &flat(&x[4])?, eps()))
        }
        "bias_add" => e(k::bias_add(&x[0], &x[1], axis(ir, op, -1))),
        "dropout" => Ok(k::dropout(&x[0])),
        "swiglu" => e(k::swiglu(&x[0], axis(ir, op, -1))),
        other => Err(format!("cannot interpret 'hl.{other}'")),
    }
}
