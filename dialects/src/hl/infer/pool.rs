//! Result type inference of the pooling ops, and the reading of their window attributes
//! (shared with their evaluation).

use kiln_compiler::{Attribute, Context, Type, DYNAMIC};

use super::{operand, InferInput};
use crate::hl::accessors::{bool_attr, int_list};
use crate::hl::interp::Pool2dParams;

/// The window attributes of `max_pool2d`/`avg_pool2d`: `kernel` (two positive integers),
/// `strides` and `dilation` (two positive integers each, default 1), `padding`
/// (`[top, left, bottom, right]`, non-negative, default 0) and `ceil_mode`.
pub fn pool_params<'c>(attr: &dyn Fn(&str) -> Option<Attribute<'c>>) -> Result<Pool2dParams, String> {
    let list = |name: &str, len: usize, min: i64, default: Option<i64>| -> Result<Vec<usize>, String> {
        let values = int_list(attr(name))?;
        match (values.is_empty(), default) {
            (true, Some(d)) => return Ok(vec![d as usize; len]),
            (true, None) => return Err(format!("requires attribute '{name}'")),
            _ => {}
        }
        if values.len() != len || values.iter().any(|&v| v < min) {
            let what = if min == 0 { "non-negative" } else { "positive" };
            return Err(format!("attribute '{name}' must be {len} {what} integers, but got {values:?}"));
        }
        Ok(values.into_iter().map(|v| v as usize).collect())
    };
    let pair = |v: Vec<usize>| [v[0], v[1]];
    Ok(Pool2dParams {
        kernel: pair(list("kernel", 2, 1, None)?),
        strides: pair(list("strides", 2, 1, Some(1))?),
        padding: {
            let p = list("padding", 4, 0, Some(0))?;
            [p[0], p[1], p[2], p[3]]
        },
        dilation: pair(list("dilation", 2, 1, Some(1))?),
        ceil_mode: bool_attr(attr("ceil_mode")),
    })
}

/// `max_pool2d`/`avg_pool2d`: NCHW in, `[N, C, OH, OW]` out, the output sizes as ONNX
/// computes them (see [`Pool2dParams::output_size`]).
pub fn pool2d<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (x, elem) = operand(input, 0)?;
    if x.len() != 4 {
        return Err(format!("operand must have rank 4 (NCHW), but got '{}'", input.operands[0]));
    }
    let params = pool_params(input.attr)?;
    let out = |a: usize| -> Result<i64, String> {
        let size = x[2 + a];
        if size == DYNAMIC {
            return Ok(DYNAMIC);
        }
        let size = usize::try_from(size).map_err(|_| "negative dim".to_string())?;
        let out = params.output_size(a, size).map_err(|e| e.message().to_string())?;
        i64::try_from(out).map_err(|_| "pooling sizes overflow".to_string())
    };
    Ok(ctx.tensor_type(&[x[0], x[1], out(0)?, out(1)?], elem))
}

/// `global_avg_pool2d`: every dim after the first two becomes 1 (rank 3 or more).
pub fn global_pool<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (x, elem) = operand(input, 0)?;
    if x.len() < 3 {
        return Err(format!("operand must have rank 3 or more, but got '{}'", input.operands[0]));
    }
    let mut out = x.to_vec();
    out[2..].fill(1);
    Ok(ctx.tensor_type(&out, elem))
}
