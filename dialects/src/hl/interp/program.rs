//! Running `func.func`s of `hl` ops on host tensors: the glue between the IR and the numeric
//! kernels of this module's siblings. This is the oracle for every correctness test.
//!
//! A function's entry block is executed op by op: an `hl` op runs the evaluation its
//! declaration names ([`HlOp::eval`]); `func.call` runs the callee (to a bounded depth); a
//! `fused.region` runs its body on its operands (the same block loop); a `ReturnLike` op
//! (`func.return`, `fused.yield`) yields the results, so fused and unfused programs compute
//! bit-identical results. Every tensor produced is checked against the static dims of its
//! declared type, so a dynamic dim that conflicts at run time is a located error.

use kiln_compiler::symbol_table::resolve;
use kiln_compiler::{
    AttrKind, Attribute, Context, DenseData, Diagnostic, FloatKind, Ir, OpDef, OpId, Trait, Type, TypeKind,
};
use kiln_compiler::{BlockId, ValueId, DYNAMIC};

use super::budget::Budget;
use super::eval::EvalInput;
use super::{DType, Tensor, TensorData};
use crate::func::CALL_OP;
use crate::fused::REGION_OP;
use crate::hl::accessors::{checked_bytes, checked_numel, tensor_parts};
use crate::hl::interfaces::HlOp;

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
    run_function_within(ctx, ir, func, args, &mut Budget::default())
}

/// Runs function `func` on `args` with live tensors bounded by `budget` (see [`Budget`]).
pub fn run_function_within<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    func: OpId,
    args: &[Tensor],
    budget: &mut Budget,
) -> Result<Vec<Tensor>, Diagnostic<'c>> {
    let mark = budget.used();
    let results = run(ctx, ir, func, args, budget, 0);
    budget.release_to(mark);
    results
}

/// The bytes of a value of type `ty`, when its type is static (`Some(None)`: past `u64`).
fn type_bytes(ty: Type<'_>) -> Option<Option<u64>> {
    let (shape, elem) = tensor_parts(ty)?;
    if shape.contains(&DYNAMIC) {
        return None;
    }
    Some(checked_bytes(shape, dtype_of(elem).map_or(8, |d| d.byte_size() as u64)))
}

/// The bytes `t` holds.
fn tensor_bytes(t: &Tensor) -> u64 {
    t.numel() as u64 * t.dtype().byte_size() as u64
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
    budget: &mut Budget,
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
    run_block(ctx, ir, func, entry, args, budget, depth)
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
    budget: &mut Budget,
    depth: usize,
) -> Result<Vec<Tensor>, Diagnostic<'c>> {
    let mark = budget.used();
    let results = run_body(ctx, ir, owner, entry, args, budget, depth);
    budget.release_to(mark);
    if let Ok(results) = &results {
        let bytes = results.iter().map(tensor_bytes).sum();
        budget.charge(Some(bytes)).map_err(|m| err(ir, owner, format!("results: {m}")))?;
    }
    results
}

/// [`run_block`] without the release of its values.
fn run_body<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    owner: OpId,
    entry: BlockId,
    args: &[Tensor],
    budget: &mut Budget,
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
        budget.charge(Some(tensor_bytes(a))).map_err(|m| err(ir, owner, format!("input #{i}: {m}")))?;
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
        for (i, &r) in ir.results(op).iter().enumerate() {
            let ty = ir.value_type(r);
            if let Some(bytes) = type_bytes(ty) {
                budget.charge(bytes).map_err(|m| err(ir, op, format!("result #{i} of type '{ty}' {m}")))?;
            }
        }
        let def = ir.op(op).def;
        let is = |d: &OpDef| def.is_some_and(|def| std::ptr::eq(def, d));
        let outputs = if def.is_some_and(|d| d.has_trait(Trait::ReturnLike)) {
            return Ok(inputs);
        } else if is(&CALL_OP) {
            let callee = ir.attr(op, "callee").and_then(|c| resolve(ir, op, c));
            let callee = callee.ok_or_else(|| err(ir, op, "callee cannot be found"))?;
            run(ctx, ir, callee, &inputs, budget, depth + 1)?
        } else if is(&REGION_OP) {
            let body = ir.regions(op).first().and_then(|&r| ir.entry_block(r));
            let body = body.ok_or_else(|| err(ir, op, "has no body to interpret"))?;
            run_block(ctx, ir, op, body, &inputs, budget, depth)?
        } else {
            eval_op(ir, op, &inputs).map_err(|m| err(ir, op, m))?
        };
        for (&r, t) in ir.results(op).iter().zip(outputs) {
            let ty = ir.value_type(r);
            check_type(ty, &t).map_err(|m| err(ir, op, format!("result: {m}")))?;
            if type_bytes(ty).is_none() {
                budget.charge(Some(tensor_bytes(&t))).map_err(|m| err(ir, op, format!("result: {m}")))?;
            }
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
    let count = checked_numel(shape)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("dense attribute of type '{ty}' has more elements than fit in memory"))?;
    let shape: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let stored = if splat { 1 } else { count };
    let size = dtype.byte_size();
    let bit_packed = dtype == DType::I1 && bytes.len() != stored && bytes.len() == stored.div_ceil(8);
    if !bit_packed && Some(bytes.len()) != stored.checked_mul(size) {
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

/// Evaluates one `hl` op on its operand values, through the evaluation its declaration names:
/// the value of every result.
pub fn eval_op(ir: &Ir<'_>, op: OpId, operands: &[Tensor]) -> Result<Vec<Tensor>, String> {
    let data = ir.op(op);
    let hl = data.def.and_then(|d| d.interface::<HlOp>());
    let hl = hl.ok_or_else(|| format!("cannot interpret '{}'", data.name))?;
    hl.eval.results(&EvalInput::new(ir, op, operands)).map_err(|e| e.message().to_string())
}
