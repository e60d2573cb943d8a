//! [`Attention::program`]: the MLIR text of one attention program.

use std::fmt::Write;

use super::{Attention, Causal, Heads, KeyT, Mask, MaskShape, Scale, Softmax};

/// `tensor<AxBx..xdt>`.
fn ty(shape: &[usize], dt: &str) -> String {
    let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
    format!("tensor<{dims}{dt}>")
}

/// A float literal of `dt` as MLIR reads it: infinities as hex, the rest in decimal.
fn literal(v: f64, dt: &str) -> String {
    if v == f64::NEG_INFINITY {
        match dt {
            "f16" => "0xFC00".into(),
            "bf16" => "0xFF80".into(),
            _ => "0xFF800000".into(),
        }
    } else {
        format!("{v:?}")
    }
}

/// The lowest finite value of `dt` (`torch.finfo(dt).min`).
pub(super) fn lowest(dt: &str) -> f64 {
    match dt {
        "f16" => -65504.0,
        "bf16" => -3.3895313892515355e38,
        _ => f32::MIN as f64,
    }
}

/// A function body under construction.
struct Body {
    text: String,
    next: usize,
}

impl Body {
    /// Appends `%vN = <rhs>` and returns `%vN`.
    fn op(&mut self, rhs: String) -> String {
        let name = format!("%v{}", self.next);
        self.next += 1;
        let _ = writeln!(self.text, "  {name} = {rhs}");
        name
    }

    /// A splat constant `v` of `shape`.
    fn splat(&mut self, v: f64, shape: &[usize], dt: &str) -> String {
        self.op(format!("hl.constant dense<{}> : {}", literal(v, dt), ty(shape, dt)))
    }

    /// `x` of `shape` viewed as `to`.
    fn reshape(&mut self, x: &str, shape: &[usize], to: &[usize], dt: &str) -> String {
        self.op(format!("hl.reshape {x} : {} -> {}", ty(shape, dt), ty(to, dt)))
    }

    /// `x` of `shape` permuted by `perm`; its new shape.
    fn transpose(&mut self, x: &str, shape: &[usize], perm: [usize; 4], dt: &str) -> (String, Vec<usize>) {
        let to: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
        let name =
            self.op(format!("hl.transpose {x} {{perm = {perm:?}}} : {} -> {}", ty(shape, dt), ty(&to, dt)));
        (name, to)
    }

    /// `op` of `a` (of `shape`) and `b` (of `b_shape`), of `shape`.
    fn binary(&mut self, op: &str, a: &str, shape: &[usize], b: &str, b_shape: &[usize], dt: &str) -> String {
        let t = ty(shape, dt);
        self.op(format!("hl.{op} {a}, {b} : {t}, {} -> {t}", ty(b_shape, dt)))
    }
}

impl Attention {
    /// The MLIR text of one `func.func @attention`.
    pub fn program(&self) -> String {
        let (dt, b, h, kvh, d) = (self.dtype, self.batch, self.heads, self.kv_heads, self.head_dim);
        let (sq, skv) = (self.q_len, self.kv_len);
        let mut body = Body { text: String::new(), next: 0 };
        let mut params = Vec::new();
        // Q, K, V as [B, heads, S, D].
        let mut input = |name: &str, heads: usize, s: usize, body: &mut Body| -> String {
            let split = [b, heads, s, d];
            match self.layout {
                Heads::Split => {
                    params.push(format!("%{name}: {}", ty(&split, dt)));
                    format!("%{name}")
                }
                Heads::Merged => {
                    let merged = [b, s, heads * d];
                    params.push(format!("%{name}: {}", ty(&merged, dt)));
                    let r = body.reshape(&format!("%{name}"), &merged, &[b, s, heads, d], dt);
                    body.transpose(&r, &[b, s, heads, d], [0, 2, 1, 3], dt).0
                }
            }
        };
        let mut q = input("q", h, sq, &mut body);
        let mut k = input("k", kvh, skv, &mut body);
        let mut v = input("v", kvh, skv, &mut body);
        let mask_arg = match self.mask {
            Mask::Input(shape) => {
                let shape = match shape {
                    MaskShape::Padding => vec![b, 1, 1, skv],
                    MaskShape::Square4 => vec![1, 1, sq, skv],
                    MaskShape::Square2 => vec![sq, skv],
                    MaskShape::Full => vec![b, h, sq, skv],
                };
                params.push(format!("%mask: {}", ty(&shape, dt)));
                Some(shape)
            }
            Mask::Bool { .. } => {
                params.push(format!("%mask: {}", ty(&[b, 1, sq, skv], "i1")));
                None
            }
            _ => None,
        };
        // Grouped-query heads: [B, kvh, S, D] -> [B, kvh, 1, S, D] -> [B, kvh, g, S, D] -> [B, h, S, D].
        if kvh != h {
            let g = h / kvh;
            for x in [&mut k, &mut v] {
                let (from, one, wide) = ([b, kvh, skv, d], [b, kvh, 1, skv, d], [b, kvh, g, skv, d]);
                let e = body.op(format!(
                    "hl.expand_dims {x} {{axis = 2 : i64}} : {} -> {}",
                    ty(&from, dt),
                    ty(&one, dt)
                ));
                let w = body.op(format!("hl.broadcast_to {e} : {} -> {}", ty(&one, dt), ty(&wide, dt)));
                *x = body.reshape(&w, &wide, &[b, h, skv, d], dt);
            }
        }
        let scores = [b, h, sq, skv];
        if let Scale::Query(c) = self.scale {
            let c = body.splat(c, &[], dt);
            q = body.binary("mul", &q, &[b, h, sq, d], &c, &[], dt);
        }
        let (qt, kt) = (ty(&[b, h, sq, d], dt), ty(&[b, h, skv, d], dt));
        let mut s = match self.key {
            KeyT::Transpose => {
                let (t, tshape) = body.transpose(&k, &[b, h, skv, d], [0, 1, 3, 2], dt);
                body.op(format!(
                    "hl.batch_matmul {q}, {t} : {qt}, {} -> {}",
                    ty(&tshape, dt),
                    ty(&scores, dt)
                ))
            }
            KeyT::Flag => body.op(format!(
                "hl.batch_matmul {q}, {k} {{transpose_b = true}} : {qt}, {kt} -> {}",
                ty(&scores, dt)
            )),
        };
        match self.scale {
            Scale::Mul(c) | Scale::Div(c) => {
                let op = if matches!(self.scale, Scale::Mul(_)) { "mul" } else { "div" };
                let c = body.splat(c, &[], dt);
                s = body.binary(op, &s, &scores, &c, &[], dt);
            }
            Scale::None | Scale::Query(_) => {}
        }
        s = self.mask(&mut body, s, mask_arg);
        let mut sdt = dt;
        if self.softmax_f32 && dt != "f32" {
            sdt = "f32";
            s = body.op(format!("hl.cast {s} : {} -> {}", ty(&scores, dt), ty(&scores, sdt)));
        }
        let t = ty(&scores, sdt);
        let mut p = match self.softmax {
            Softmax::Composite => body.op(format!("hl.softmax {s} {{axis = -1 : i64}} : {t}")),
            Softmax::Decomposed => {
                let row = [b, h, sq, 1];
                let rt = ty(&row, sdt);
                let m = body.op(format!("hl.reduce_max {s} {{axes = [3], keep_dims = true}} : {t} -> {rt}"));
                let x = body.binary("sub", &s, &scores, &m, &row, sdt);
                let e = body.op(format!("hl.exp {x} : {t}"));
                let z = body.op(format!("hl.reduce_sum {e} {{axes = [3], keep_dims = true}} : {t} -> {rt}"));
                body.binary("div", &e, &scores, &z, &row, sdt)
            }
        };
        if sdt != dt {
            p = body.op(format!("hl.cast {p} : {t} -> {}", ty(&scores, dt)));
        }
        let out = [b, h, sq, d];
        let mut o =
            body.op(format!("hl.batch_matmul {p}, {v} : {}, {kt} -> {}", ty(&scores, dt), ty(&out, dt)));
        let mut result = out.to_vec();
        if self.layout == Heads::Merged {
            let (t, tshape) = body.transpose(&o, &out, [0, 2, 1, 3], dt);
            result = vec![b, sq, h * d];
            o = body.reshape(&t, &tshape, &result, dt);
        }
        let rt = ty(&result, dt);
        format!(
            "func.func @attention({}) -> {rt} {{\n{}  return {o} : {rt}\n}}\n",
            params.join(", "),
            body.text
        )
    }

    /// The scores `s` after the mask (`arg`: the shape of an additive mask argument).
    fn mask(&self, body: &mut Body, s: String, arg: Option<Vec<usize>>) -> String {
        let (dt, sq, skv) = (self.dtype, self.q_len, self.kv_len);
        let scores = [self.batch, self.heads, sq, skv];
        let square = [sq, skv];
        match self.mask {
            Mask::None => s,
            Mask::Input(_) => body.binary("add", &s, &scores, "%mask", &arg.unwrap_or_default(), dt),
            Mask::Bool { fill } => {
                let f = body.splat(fill, &[], dt);
                let (t, mt) = (ty(&scores, dt), ty(&[self.batch, 1, sq, skv], "i1"));
                body.op(format!("hl.select %mask, {s}, {f} : {mt}, {t}, {} -> {t}", ty(&[], dt)))
            }
            Mask::Causal { how, shift, fill } => {
                // Query i sees key j when j <= i + offset.
                let offset = skv as i64 - sq as i64 - shift as i64;
                let banned = match how {
                    Causal::Dense => {
                        let rows: Vec<String> = (0..sq as i64)
                            .map(|i| {
                                let row: Vec<String> = (0..skv as i64)
                                    .map(|j| literal(if j <= i + offset { 0.0 } else { fill }, dt))
                                    .collect();
                                format!("[{}]", row.join(", "))
                            })
                            .collect();
                        let m = body.op(format!(
                            "hl.constant dense<[{}]> : {}",
                            rows.join(", "),
                            ty(&square, dt)
                        ));
                        return body.binary("add", &s, &scores, &m, &square, dt);
                    }
                    Causal::Iota => {
                        let it = ty(&square, "i32");
                        let i = body.op(format!("hl.iota {{dimension = 0 : i64}} : {it}"));
                        let j = body.op(format!("hl.iota {{dimension = 1 : i64}} : {it}"));
                        let off = body.op(format!("hl.constant dense<{offset}> : tensor<i32>"));
                        let last = body.op(format!("hl.add {i}, {off} : {it}, tensor<i32> -> {it}"));
                        let bt = ty(&square, "i1");
                        body.op(format!(
                            "hl.cmp {j}, {last} {{predicate = #hl.cmp<gt>}} : {it}, {it} -> {bt}"
                        ))
                    }
                    Causal::Trilu => {
                        let t = ty(&square, dt);
                        let ones = body.splat(1.0, &square, dt);
                        let tri =
                            body.op(format!("hl.trilu {ones} {{k = {offset} : i64, upper = false}} : {t}"));
                        let zero = body.splat(0.0, &[], dt);
                        let bt = ty(&square, "i1");
                        body.op(format!(
                            "hl.cmp {tri}, {zero} {{predicate = #hl.cmp<eq>}} : {t}, {} -> {bt}",
                            ty(&[], dt)
                        ))
                    }
                };
                let f = body.splat(fill, &[], dt);
                let t = ty(&scores, dt);
                body.op(format!(
                    "hl.select {banned}, {f}, {s} : {}, {}, {t} -> {t}",
                    ty(&square, "i1"),
                    ty(&[], dt)
                ))
            }
        }
    }
}
