//! The evaluations that `hl` op declarations name in their
//! [`HlOp::eval`](crate::hl::interfaces::HlOp::eval): what an evaluation receives
//! ([`EvalInput`]: the operand tensors, the op's attributes and result type) and one function
//! per op (or per family, parameterized by the kernel's operator) that reads the attributes
//! and calls the kernel. The interpreter and the folder call an op's evaluation through its
//! declaration; nothing here dispatches on op names.

use kiln_compiler::{Attribute, Ir, OpId, Type, DYNAMIC};

use super::program::{dense_to_tensor, dtype_of};
use super::{
    self as k, BinaryOp, CmpOp, GeluApprox, InterpError, LogicOp, ReduceOp, Result, Tensor, UnaryOp,
};
use crate::hl::accessors::{bool_attr, float_value, int_list, tensor_parts};
use crate::hl::infer::ReshapeError;

/// The evaluation of an `hl` op: its result from its operands and attributes.
pub type EvalFn = fn(&EvalInput<'_, '_>) -> Result<Tensor>;

/// The evaluation of an `hl` op of several results: every result.
pub type EvalManyFn = fn(&EvalInput<'_, '_>) -> Result<Vec<Tensor>>;

/// What an evaluation sees of one op: its operand values, attributes and result type.
#[derive(Clone, Copy)]
pub struct EvalInput<'a, 'c> {
    ir: &'a Ir<'c>,
    op: OpId,
    operands: &'a [Tensor],
}

impl<'a, 'c> EvalInput<'a, 'c> {
    /// The input of `op` (of `ir`) applied to `operands`.
    pub fn new(ir: &'a Ir<'c>, op: OpId, operands: &'a [Tensor]) -> Self {
        EvalInput { ir, op, operands }
    }

    /// Operand `i`.
    pub fn operand(&self, i: usize) -> Result<&'a Tensor> {
        self.operands.get(i).ok_or_else(|| {
            InterpError::new(format!("expects at least {} operands, but got {}", i + 1, self.operands.len()))
        })
    }

    /// Every operand.
    pub fn operands(&self) -> &'a [Tensor] {
        self.operands
    }

    /// Attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<Attribute<'c>> {
        self.ir.attr(self.op, name)
    }

    /// The type of the (single) result.
    pub fn result_type(&self) -> Result<Type<'c>> {
        let r = self.ir.results(self.op).first().ok_or_else(|| InterpError::new("has no result"))?;
        Ok(self.ir.value_type(*r))
    }

    /// A bool attribute (absent: false).
    fn flag(&self, name: &str) -> bool {
        bool_attr(self.attr(name))
    }

    /// An integer list attribute (absent: empty).
    fn ints(&self, name: &str) -> Result<Vec<i64>> {
        int_list(self.attr(name)).map_err(InterpError::new)
    }

    /// A non-negative integer list attribute (absent: empty).
    fn sizes(&self, name: &str) -> Result<Vec<usize>> {
        self.ints(name)?
            .into_iter()
            .map(|v| usize::try_from(v).map_err(|_| InterpError::new(format!("negative value {v}"))))
            .collect()
    }

    /// An optional pair of sizes (`strides`, `dilation`).
    fn pair(&self, name: &str) -> Result<Option<[usize; 2]>> {
        match self.sizes(name)?.as_slice() {
            [] => Ok(None),
            [a, b] => Ok(Some([*a, *b])),
            other => Err(InterpError::new(format!(
                "attribute '{name}' must have two entries, but has {}",
                other.len()
            ))),
        }
    }

    /// The `axis` attribute (absent: `default`).
    fn axis(&self, default: i64) -> i64 {
        self.attr("axis").and_then(|a| a.as_int()).map_or(default, |v| v as i64)
    }

    /// A float attribute (absent: `default`).
    fn float(&self, name: &str, default: f64) -> f64 {
        self.attr(name).and_then(float_value).unwrap_or(default)
    }

    /// The static result shape (a dynamic dim is an error).
    fn result_shape(&self) -> Result<Vec<usize>> {
        let ty = self.result_type()?;
        let (shape, _) = tensor_parts(ty).ok_or_else(|| InterpError::new("result is not a ranked tensor"))?;
        static_dims(shape, ty)
    }
}

/// `shape` as sizes; a dynamic dim is an error naming `ty`.
fn static_dims(shape: &[i64], ty: Type<'_>) -> Result<Vec<usize>> {
    if shape.contains(&DYNAMIC) {
        return Err(InterpError::new(format!("result type '{ty}' leaves its shape undetermined")));
    }
    Ok(shape.iter().map(|&d| d as usize).collect())
}

/// A binary arithmetic op.
pub(crate) fn binary(op: BinaryOp, x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::binary(op, x.operand(0)?, x.operand(1)?)
}

/// A unary math op.
pub(crate) fn unary(op: UnaryOp, x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::unary(op, x.operand(0)?)
}

/// A binary logical op on `i1`.
pub(crate) fn logical(op: LogicOp, x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::logical(op, x.operand(0)?, x.operand(1)?)
}

/// `hl.not`.
pub(crate) fn logical_not(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::logical_not(x.operand(0)?)
}

/// `hl.gelu`: `approximate = #hl.approx<tanh>` or the exact form.
pub(crate) fn gelu(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let approx = x.attr("approximate").and_then(GeluApprox::of).unwrap_or(GeluApprox::None);
    unary(UnaryOp::Gelu(approx), x)
}

/// `hl.cast` to the result's element type.
pub(crate) fn cast(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let elem = tensor_parts(x.result_type()?).map(|(_, e)| e);
    let to = elem.and_then(dtype_of).ok_or_else(|| InterpError::new("unsupported result element type"))?;
    Ok(k::cast(x.operand(0)?, to))
}

/// The comparison named by `hl.cmp`'s `predicate` attribute (a `#hl.cmp<...>`).
fn predicate(x: &EvalInput<'_, '_>) -> Result<CmpOp> {
    x.attr("predicate")
        .and_then(CmpOp::of)
        .ok_or_else(|| InterpError::new("expected a #hl.cmp<...> predicate"))
}

/// `hl.cmp`.
pub(crate) fn compare(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::compare(predicate(x)?, x.operand(0)?, x.operand(1)?)
}

/// `hl.select`.
pub(crate) fn select(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::select(x.operand(0)?, x.operand(1)?, x.operand(2)?)
}

/// `hl.clamp` with optional `min` and `max`.
pub(crate) fn clamp(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let v = x.operand(0)?;
    let lo = Tensor::scalar(v.dtype(), x.float("min", f64::NEG_INFINITY));
    let hi = Tensor::scalar(v.dtype(), x.float("max", f64::INFINITY));
    k::clamp(v, &lo, &hi)
}

/// `hl.constant`: its `value`.
pub(crate) fn constant(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let value = x.attr("value").ok_or_else(|| InterpError::new("requires attribute 'value'"))?;
    dense_to_tensor(value).map_err(InterpError::new)
}

/// `hl.broadcast_to` the result's shape.
pub(crate) fn broadcast_to(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::broadcast_to(x.operand(0)?, &x.result_shape()?)
}

/// A reduction over `axes`.
pub(crate) fn reduce(op: ReduceOp, x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::reduce(op, x.operand(0)?, &x.ints("axes")?, x.flag("keep_dims"))
}

/// `hl.argmax`.
pub(crate) fn argmax(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::argmax(x.operand(0)?, x.axis(0), x.flag("keep_dims"))
}

/// `hl.argmin`.
pub(crate) fn argmin(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::argmin(x.operand(0)?, x.axis(0), x.flag("keep_dims"))
}

/// `hl.matmul`.
pub(crate) fn matmul(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::matmul(x.operand(0)?, x.operand(1)?, x.flag("transpose_a"), x.flag("transpose_b"), None)
}

/// `hl.batch_matmul`.
pub(crate) fn batch_matmul(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::batch_matmul(x.operand(0)?, x.operand(1)?, x.flag("transpose_a"), x.flag("transpose_b"), None)
}

/// `hl.conv2d` with its `strides`, `dilation`, `padding` and `groups`; the optional bias is
/// added to the rounded convolution (as `hl.bias_add` along the channels adds it).
pub(crate) fn conv2d(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let mut p = k::Conv2dParams::default();
    if let Some(s) = x.pair("strides")? {
        p.strides = s;
    }
    if let Some(d) = x.pair("dilation")? {
        p.dilation = d;
    }
    match x.sizes("padding")?.as_slice() {
        [] => {}
        [t, l, b, r] => p.padding = [*t, *l, *b, *r],
        _ => return Err(InterpError::new("attribute 'padding' must have four entries")),
    }
    p.groups = x.attr("groups").and_then(|g| g.as_int()).map_or(1, |g| g.max(0) as usize);
    let conv = k::conv2d(x.operand(0)?, x.operand(1)?, None, &p)?;
    match x.operands().get(2) {
        Some(bias) => k::bias_add(&conv, bias, 1),
        None => Ok(conv),
    }
}

/// `hl.reshape` to the result's shape.
pub(crate) fn reshape(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let v = x.operand(0)?;
    let ty = x.result_type()?;
    let (declared, _) = tensor_parts(ty).ok_or_else(|| InterpError::new("result is not a ranked tensor"))?;
    let operand: Vec<i64> = v.shape().iter().map(|&d| d as i64).collect();
    let sources = int_list(x.attr("source_dims")).map_err(InterpError::new)?;
    let dims = crate::hl::infer::reshape_dims(&operand, declared, &sources).map_err(|e| match e {
        ReshapeError::Attr(m) => InterpError::new(m),
        ReshapeError::Count(..) | ReshapeError::Overflow { .. } => InterpError::new(format!(
            "`reshape` cannot turn shape {:?} ({} elements) into '{ty}'",
            v.shape(),
            v.numel()
        )),
    })?;
    k::reshape(v, &static_dims(&dims, ty)?)
}

/// `hl.transpose` by `perm`.
pub(crate) fn transpose(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::transpose(x.operand(0)?, &x.sizes("perm")?)
}

/// `hl.slice` with `starts`, `limits` and optional `strides`.
pub(crate) fn slice(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let starts = x.sizes("starts")?;
    let limits = x.sizes("limits")?;
    let mut steps = x.sizes("strides")?;
    if steps.is_empty() {
        steps = vec![1; starts.len()];
    }
    k::slice(x.operand(0)?, &starts, &limits, &steps)
}

/// `hl.concat` along `axis`.
pub(crate) fn concat(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::concat(&x.operands().iter().collect::<Vec<_>>(), x.axis(0))
}

/// `hl.expand_dims` at `axis`.
pub(crate) fn expand_dims(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::expand_dims(x.operand(0)?, x.axis(0))
}

/// `hl.squeeze` of `axes`.
pub(crate) fn squeeze(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::squeeze(x.operand(0)?, &x.ints("axes")?)
}

/// `hl.softmax` along `axis` (default -1).
pub(crate) fn softmax(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::softmax(x.operand(0)?, x.axis(-1))
}

/// `hl.log_softmax` along `axis` (default -1).
pub(crate) fn log_softmax(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::log_softmax(x.operand(0)?, x.axis(-1))
}

/// The `epsilon` of a normalization (default 1e-5).
fn epsilon(x: &EvalInput<'_, '_>) -> f64 {
    x.float("epsilon", 1e-5)
}

/// The last dim of operand 0, over which normalizations work.
fn last_dim(x: &EvalInput<'_, '_>) -> i64 {
    x.operands().first().map_or(0, |t| t.rank() as i64 - 1)
}

/// `hl.layer_norm` over the last dim.
pub(crate) fn layer_norm(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::layer_norm(x.operand(0)?, Some(x.operand(1)?), Some(x.operand(2)?), last_dim(x), epsilon(x))
}

/// `hl.rms_norm` over the last dim.
pub(crate) fn rms_norm(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::rms_norm(x.operand(0)?, Some(x.operand(1)?), last_dim(x), epsilon(x))
}

/// `hl.batch_norm`: the statistics are declared `[C, 1, 1]` (to broadcast against NCHW); the
/// kernel takes `[C]`.
pub(crate) fn batch_norm(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let flat = |i: usize| x.operand(i).and_then(|t| k::reshape(t, &[t.numel()]));
    k::batch_norm(x.operand(0)?, &flat(1)?, &flat(2)?, &flat(3)?, &flat(4)?, epsilon(x))
}

/// `hl.bias_add` along `axis` (default -1).
pub(crate) fn bias_add(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::bias_add(x.operand(0)?, x.operand(1)?, x.axis(-1))
}

/// `hl.dropout` (the identity at inference).
pub(crate) fn dropout(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    Ok(k::dropout(x.operand(0)?))
}

/// `hl.swiglu` along `axis` (default -1).
pub(crate) fn swiglu(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::swiglu(x.operand(0)?, x.axis(-1))
}

/// `hl.gather` along `axis` (default 0).
pub(crate) fn gather(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::gather(x.operand(0)?, x.operand(1)?, x.axis(0))
}

/// `hl.split` along `axis` (default 0) into `sizes`.
pub(crate) fn split(x: &EvalInput<'_, '_>) -> Result<Vec<Tensor>> {
    k::split(x.operand(0)?, x.axis(0), &x.sizes("sizes")?)
}

/// `hl.pad` by `low` and `high` with `value` (default 0).
pub(crate) fn pad(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::pad(x.operand(0)?, &x.sizes("low")?, &x.sizes("high")?, x.float("value", 0.0))
}

/// `hl.iota` along `dimension`, of the result's type.
pub(crate) fn iota(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let elem = tensor_parts(x.result_type()?).map(|(_, e)| e);
    let dtype = elem.and_then(dtype_of).ok_or_else(|| InterpError::new("unsupported result element type"))?;
    let dimension = x.attr("dimension").and_then(|a| a.as_int()).unwrap_or(0);
    let dimension = usize::try_from(dimension)
        .map_err(|_| InterpError::new(format!("negative dimension {dimension}")))?;
    k::iota(dtype, &x.result_shape()?, dimension)
}

/// `hl.trilu` with `upper` (default false) and `k` (default 0).
pub(crate) fn trilu(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let diagonal = x.attr("k").and_then(|a| a.as_int()).unwrap_or(0);
    let diagonal = i64::try_from(diagonal).map_err(|_| InterpError::new("attribute 'k' is out of range"))?;
    k::trilu(x.operand(0)?, x.flag("upper"), diagonal)
}

/// The window attributes of a pooling op.
fn pool_params(x: &EvalInput<'_, '_>) -> Result<k::Pool2dParams> {
    crate::hl::infer::pool_params(&|n| x.attr(n)).map_err(InterpError::new)
}

/// `hl.max_pool2d`.
pub(crate) fn max_pool2d(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::max_pool2d(x.operand(0)?, &pool_params(x)?)
}

/// `hl.avg_pool2d` with `count_include_pad` (default false).
pub(crate) fn avg_pool2d(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::avg_pool2d(x.operand(0)?, &pool_params(x)?, x.flag("count_include_pad"))
}

/// `hl.global_avg_pool2d`.
pub(crate) fn global_avg_pool2d(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::global_avg_pool2d(x.operand(0)?)
}

/// The `reduction` attribute of a scatter (absent: none).
fn reduction(x: &EvalInput<'_, '_>) -> Result<k::ScatterReduction> {
    let Some(a) = x.attr("reduction") else { return Ok(k::ScatterReduction::None) };
    let name = a.as_str().map(String::from_utf8_lossy).unwrap_or_default();
    k::ScatterReduction::of(&name).ok_or_else(|| InterpError::new(format!("unknown reduction '{name}'")))
}

/// `hl.gather_elements` along `axis` (default 0).
pub(crate) fn gather_elements(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::gather_elements(x.operand(0)?, x.operand(1)?, x.axis(0))
}

/// `hl.gather_nd` with `batch_dims` (default 0).
pub(crate) fn gather_nd(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    let b = x.attr("batch_dims").and_then(|a| a.as_int()).unwrap_or(0);
    let b = usize::try_from(b).map_err(|_| InterpError::new("negative batch_dims"))?;
    k::gather_nd(x.operand(0)?, x.operand(1)?, b)
}

/// `hl.scatter_elements` along `axis` (default 0) with `reduction`.
pub(crate) fn scatter_elements(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::scatter_elements(x.operand(0)?, x.operand(1)?, x.operand(2)?, x.axis(0), reduction(x)?)
}

/// `hl.scatter_nd` with `reduction`.
pub(crate) fn scatter_nd(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::scatter_nd(x.operand(0)?, x.operand(1)?, x.operand(2)?, reduction(x)?)
}

/// `hl.cumsum` along `axis` with `exclusive` and `reverse`.
pub(crate) fn cumsum(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::cumulative(x.operand(0)?, x.axis(0), false, x.flag("exclusive"), x.flag("reverse"))
}

/// `hl.cumprod` along `axis` with `exclusive` and `reverse`.
pub(crate) fn cumprod(x: &EvalInput<'_, '_>) -> Result<Tensor> {
    k::cumulative(x.operand(0)?, x.axis(0), true, x.flag("exclusive"), x.flag("reverse"))
}

/// `hl.topk`: `k` along `axis` (default -1), `largest` (default true).
pub(crate) fn topk(x: &EvalInput<'_, '_>) -> Result<Vec<Tensor>> {
    let k = x.attr("k").and_then(|a| a.as_int()).unwrap_or(0);
    let k = usize::try_from(k).map_err(|_| InterpError::new("negative k"))?;
    let largest = x.attr("largest").is_none() || x.flag("largest");
    k::topk(x.operand(0)?, k, x.axis(-1), largest)
}
