//! Golden tests of the `hl` reference interpreter's kernels against numpy.
//!
//! `goldens/gen_goldens.py` writes `goldens/manifest.txt` and the `.npy` files in
//! `goldens/data/`; this test needs no Python. Each manifest line names an op, its
//! parameters, its inputs and the expected output, and how to compare: `exact` (bits, with
//! any NaN equal to any NaN), `ulp:N` (floats within N units in the last place of the result
//! type) or `close:RTOL:ATOL` (`|got - want| <= ATOL + RTOL * |want|`, for sums whose order
//! differs from numpy's). Every mismatch is reported with its case, index and values.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kiln_dialects::hl::interp::{
    argmax, argmin, batch_matmul, batch_norm, bias_add, binary, broadcast_to, cast, clamp, compare, concat,
    conv2d, dropout, expand_dims, layer_norm, log_softmax, logical, logical_not, matmul, read_npy, reduce,
    reshape, rms_norm, select, slice, softmax, squeeze, swiglu, transpose, unary, BinaryOp, CmpOp,
    Conv2dParams, DType, GeluApprox, LogicOp, ReduceOp, Tensor, TensorData, UnaryOp,
};

fn goldens() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens")
}

/// One manifest line.
struct Case {
    name: String,
    op: String,
    cmp: String,
    inputs: Vec<Option<Tensor>>,
    expected: Tensor,
    params: HashMap<String, String>,
}

/// `dtype:file` -> the tensor in `data/file`.
fn load(spec: &str) -> Result<Tensor, String> {
    let (dtype, file) = spec.split_once(':').ok_or(format!("bad tensor spec `{spec}`"))?;
    let dtype = DType::from_name(dtype).ok_or(format!("bad dtype in `{spec}`"))?;
    read_npy(&goldens().join("data").join(file), Some(dtype)).map_err(|e| e.to_string())
}

fn parse_case(line: &str) -> Result<Case, String> {
    let mut words = line.split_whitespace();
    let name = words.next().ok_or("empty line")?.to_string();
    let mut params: HashMap<String, String> = HashMap::new();
    for word in words {
        let (k, v) = word.split_once('=').ok_or(format!("bad word `{word}`"))?;
        params.insert(k.to_string(), v.to_string());
    }
    let mut take = |k: &str| params.remove(k).ok_or(format!("missing `{k}`"));
    let (op, cmp, ins, out) = (take("op")?, take("cmp")?, take("in")?, take("out")?);
    let inputs = ins
        .split(',')
        .map(|s| if s == "-" { Ok(None) } else { load(s).map(Some) })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Case { name, op, cmp, inputs, expected: load(&out)?, params })
}

impl Case {
    fn param(&self, key: &str) -> Result<&str, String> {
        self.params.get(key).map(String::as_str).ok_or(format!("missing parameter `{key}`"))
    }

    fn ints(&self, key: &str) -> Result<Vec<i64>, String> {
        let text = self.param(key)?;
        if text.is_empty() {
            return Ok(vec![]);
        }
        text.split(',').map(|v| v.parse().map_err(|e| format!("`{key}`: {e}"))).collect()
    }

    fn usizes(&self, key: &str) -> Result<Vec<usize>, String> {
        Ok(self.ints(key)?.into_iter().map(|v| v as usize).collect())
    }

    fn int(&self, key: &str) -> Result<i64, String> {
        self.param(key)?.parse().map_err(|e| format!("`{key}`: {e}"))
    }

    fn flag(&self, key: &str) -> Result<bool, String> {
        Ok(self.int(key)? != 0)
    }

    fn float(&self, key: &str) -> Result<f64, String> {
        self.param(key)?.parse().map_err(|e| format!("`{key}`: {e}"))
    }

    fn input(&self, i: usize) -> Result<&Tensor, String> {
        self.inputs.get(i).and_then(Option::as_ref).ok_or(format!("missing input #{i}"))
    }

    fn optional(&self, i: usize) -> Option<&Tensor> {
        self.inputs.get(i).and_then(Option::as_ref)
    }

    /// Runs the case's op through the interpreter kernels.
    fn run(&self) -> Result<Tensor, String> {
        let x = self.input(0)?;
        let binary_op = |op| binary(op, x, self.input(1)?).map_err(|e| e.to_string());
        let unary_op = |op| unary(op, x).map_err(|e| e.to_string());
        let reduce_op =
            |op| reduce(op, x, &self.ints("axes")?, self.flag("keep_dims")?).map_err(|e| e.to_string());
        let result = match self.op.as_str() {
            "add" => return binary_op(BinaryOp::Add),
            "sub" => return binary_op(BinaryOp::Sub),
            "mul" => return binary_op(BinaryOp::Mul),
            "div" => return binary_op(BinaryOp::Div),
            "pow" => return binary_op(BinaryOp::Pow),
            "maximum" => return binary_op(BinaryOp::Maximum),
            "minimum" => return binary_op(BinaryOp::Minimum),
            "neg" => return unary_op(UnaryOp::Neg),
            "abs" => return unary_op(UnaryOp::Abs),
            "exp" => return unary_op(UnaryOp::Exp),
            "log" => return unary_op(UnaryOp::Log),
            "sqrt" => return unary_op(UnaryOp::Sqrt),
            "rsqrt" => return unary_op(UnaryOp::Rsqrt),
            "reciprocal" => return unary_op(UnaryOp::Reciprocal),
            "tanh" => return unary_op(UnaryOp::Tanh),
            "sigmoid" => return unary_op(UnaryOp::Sigmoid),
            "relu" => return unary_op(UnaryOp::Relu),
            "silu" => return unary_op(UnaryOp::Silu),
            "erf" => return unary_op(UnaryOp::Erf),
            "floor" => return unary_op(UnaryOp::Floor),
            "ceil" => return unary_op(UnaryOp::Ceil),
            "round" => return unary_op(UnaryOp::Round),
            "sign" => return unary_op(UnaryOp::Sign),
            "gelu" => {
                let approx =
                    if self.param("approx")? == "tanh" { GeluApprox::Tanh } else { GeluApprox::None };
                return unary_op(UnaryOp::Gelu(approx));
            }
            "reduce_sum" => return reduce_op(ReduceOp::Sum),
            "reduce_max" => return reduce_op(ReduceOp::Max),
            "reduce_min" => return reduce_op(ReduceOp::Min),
            "reduce_prod" => return reduce_op(ReduceOp::Prod),
            "reduce_mean" => return reduce_op(ReduceOp::Mean),
            "cmp" => {
                let pred = match self.param("pred")? {
                    "eq" => CmpOp::Eq,
                    "ne" => CmpOp::Ne,
                    "lt" => CmpOp::Lt,
                    "le" => CmpOp::Le,
                    "gt" => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                compare(pred, x, self.input(1)?)
            }
            "select" => select(x, self.input(1)?, self.input(2)?),
            "and" => logical(LogicOp::And, x, self.input(1)?),
            "or" => logical(LogicOp::Or, x, self.input(1)?),
            "not" => logical_not(x),
            "cast" => Ok(cast(x, DType::from_name(self.param("to")?).ok_or("bad `to`")?)),
            "clamp" => clamp(x, self.input(1)?, self.input(2)?),
            "broadcast_to" => broadcast_to(x, &self.usizes("shape")?),
            "argmax" => argmax(x, self.int("axis")?, self.flag("keep_dims")?),
            "argmin" => argmin(x, self.int("axis")?, self.flag("keep_dims")?),
            "matmul" | "batch_matmul" => {
                let kernel = if self.op == "matmul" { matmul } else { batch_matmul };
                let (ta, tb) = (self.flag("transpose_a")?, self.flag("transpose_b")?);
                kernel(x, self.input(1)?, ta, tb, self.optional(2))
            }
            "conv2d" => {
                let [s, p, d] = [self.usizes("strides")?, self.usizes("padding")?, self.usizes("dilation")?];
                let params = Conv2dParams {
                    strides: [s[0], s[1]],
                    padding: [p[0], p[1], p[2], p[3]],
                    dilation: [d[0], d[1]],
                    groups: self.int("groups")? as usize,
                };
                conv2d(x, self.input(1)?, self.optional(2), &params)
            }
            "reshape" => reshape(x, &self.usizes("shape")?),
            "transpose" => transpose(x, &self.usizes("perm")?),
            "slice" => slice(x, &self.usizes("starts")?, &self.usizes("limits")?, &self.usizes("strides")?),
            "concat" => {
                let all: Vec<&Tensor> = self.inputs.iter().flatten().collect();
                concat(&all, self.int("axis")?)
            }
            "expand_dims" => expand_dims(x, self.int("axis")?),
            "squeeze" => squeeze(x, &self.ints("axes")?),
            "softmax" => softmax(x, self.int("axis")?),
            "log_softmax" => log_softmax(x, self.int("axis")?),
            "layer_norm" => {
                layer_norm(x, self.optional(1), self.optional(2), self.int("axis")?, self.float("epsilon")?)
            }
            "rms_norm" => rms_norm(x, self.optional(1), self.int("axis")?, self.float("epsilon")?),
            "batch_norm" => batch_norm(
                x,
                self.input(1)?,
                self.input(2)?,
                self.input(3)?,
                self.input(4)?,
                self.float("epsilon")?,
            ),
            "bias_add" => bias_add(x, self.input(1)?, self.int("axis")?),
            "dropout" => Ok(dropout(x)),
            "swiglu" => swiglu(x, self.int("axis")?),
            other => return Err(format!("unknown op `{other}`")),
        };
        result.map_err(|e| e.to_string())
    }
}

/// Float bits mapped to integers that order like the values (so ulps are differences).
fn ordered_bits(t: &Tensor) -> Option<Vec<i64>> {
    let order = |bits: u64, sign: u64| if bits & sign != 0 { -((bits & !sign) as i64) } else { bits as i64 };
    Some(match t.data() {
        TensorData::F16(v) => v.iter().map(|x| order(x.to_bits().into(), 0x8000)).collect(),
        TensorData::BF16(v) => v.iter().map(|x| order(x.to_bits().into(), 0x8000)).collect(),
        TensorData::F32(v) => v.iter().map(|x| order(x.to_bits().into(), 0x8000_0000)).collect(),
        _ => return None,
    })
}

/// `Ok` when `got` matches `want` under `cmp`, else a readable diff.
fn check(got: &Tensor, want: &Tensor, cmp: &str) -> Result<(), String> {
    if got.dtype() != want.dtype() || got.shape() != want.shape() {
        return Err(format!(
            "got {} {:?}, expected {} {:?}",
            got.dtype(),
            got.shape(),
            want.dtype(),
            want.shape()
        ));
    }
    let (g, w) = (got.to_f64s(), want.to_f64s());
    let (gb, wb) = (ordered_bits(got), ordered_bits(want));
    let mut parts = cmp.split(':');
    let mode = parts.next().unwrap_or("");
    let nums: Vec<f64> = parts.filter_map(|p| p.parse().ok()).collect();
    let mut bad = vec![];
    for i in 0..g.len() {
        let both_nan = g[i].is_nan() && w[i].is_nan();
        let ok = both_nan
            || match (mode, &gb, &wb) {
                ("exact", Some(gb), Some(wb)) => gb[i] == wb[i],
                ("exact", _, _) => g[i] == w[i],
                ("ulp", Some(gb), Some(wb)) => {
                    (gb[i] - wb[i]).unsigned_abs() <= nums.first().copied().unwrap_or(0.0) as u64
                }
                ("close", _, _) if nums.len() == 2 => {
                    g[i] == w[i] || (g[i] - w[i]).abs() <= nums[1] + nums[0] * w[i].abs()
                }
                _ => return Err(format!("bad comparison `{cmp}` for {}", got.dtype())),
            };
        if !ok {
            bad.push(i);
        }
    }
    if bad.is_empty() {
        return Ok(());
    }
    let mut report = format!("{} of {} elements differ ({cmp}):", bad.len(), g.len());
    for &i in bad.iter().take(5) {
        let ulps = match (&gb, &wb) {
            (Some(gb), Some(wb)) => format!(" ({} ulp)", gb[i] - wb[i]),
            _ => String::new(),
        };
        report.push_str(&format!("\n      [{i}] got {:e}, expected {:e}{ulps}", g[i], w[i]));
    }
    Err(report)
}

#[test]
fn goldens_match_numpy() {
    let manifest = std::fs::read_to_string(goldens().join("manifest.txt")).expect("read manifest.txt");
    let mut failures = vec![];
    let mut count = 0;
    for line in manifest.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        count += 1;
        let outcome = parse_case(line).and_then(|case| {
            let got = case.run()?;
            check(&got, &case.expected, &case.cmp).map_err(|e| format!("{} ({}): {e}", case.name, case.op))
        });
        if let Err(e) = outcome {
            failures.push(if e.contains(" elements differ") || e.starts_with("got") {
                e
            } else {
                format!("{line}\n    {e}")
            });
        }
    }
    assert!(count > 700, "manifest has only {count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} golden cases failed:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

#[test]
fn manifest_covers_every_op() {
    let manifest = std::fs::read_to_string(goldens().join("manifest.txt")).expect("read manifest.txt");
    let ops: Vec<&str> = manifest.split_whitespace().filter_map(|w| w.strip_prefix("op=")).collect();
    let expected = "add sub mul div pow maximum minimum neg abs exp log sqrt rsqrt reciprocal tanh sigmoid relu \
        gelu silu erf floor ceil round sign cmp select and or not cast clamp broadcast_to reduce_sum reduce_max \
        reduce_min reduce_prod reduce_mean argmax argmin matmul batch_matmul conv2d reshape transpose slice \
        concat expand_dims squeeze softmax log_softmax layer_norm rms_norm batch_norm bias_add dropout swiglu";
    let missing: Vec<&str> = expected.split_whitespace().filter(|op| !ops.contains(op)).collect();
    assert!(missing.is_empty(), "no golden case for {missing:?}");
}
