//! `RNN`, `GRU` and `LSTM` unrolled over the (static) sequence into `hl` ops, as ONNX's
//! reference computes them: the input projection of every step at once (`X W^T + Wb`, one
//! `hl.matmul`), then per step the recurrent projection (`H R^T + Rb`), the gates with their
//! activations (`activations`, default Sigmoid / Tanh; `clip` bounds their inputs), and the new
//! state; `reverse` runs the steps from the end, `bidirectional` both ways. `layout = 1`
//! (batch first) is transposed at the boundary. `sequence_lens`, when given, must be a
//! constant equal to the sequence length everywhere (shorter sequences are not supported).

use kiln_compiler::OpDef;
use kiln_dialects::hl;

use super::arith::{bin, bin_c, un};
use super::layout::slice_dims;
use super::{attr_float, attr_int, attr_str, attr_strs};
use crate::graph::{Importer, Val};

/// The cell of one op type.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Rnn,
    Gru { linear_before_reset: bool },
    Lstm,
}

impl Cell {
    fn gates(self) -> i64 {
        match self {
            Cell::Rnn => 1,
            Cell::Gru { .. } => 3,
            Cell::Lstm => 4,
        }
    }

    fn default_activations(self) -> &'static [&'static str] {
        match self {
            Cell::Rnn => &["Tanh"],
            Cell::Gru { .. } => &["Sigmoid", "Tanh"],
            Cell::Lstm => &["Sigmoid", "Tanh", "Tanh"],
        }
    }
}

/// One direction's weights: `W^T`-applied input projections per step, `R` and its bias, the
/// peepholes, the initial state(s).
struct Direction {
    /// `[seq, batch, G * H]`: `x_t W^T + Wb` for every step.
    xw: Val,
    /// `[G * H, H]`.
    r: Val,
    /// `[G * H]`.
    rb: Val,
    /// `[3 * H]` (LSTM only).
    p: Option<Val>,
    h0: Val,
    c0: Option<Val>,
}

/// The activation `name` (`Sigmoid`, `Tanh`, `Relu`) of `x`, its input bounded by `clip`.
fn activate(
    imp: &mut Importer<'_, '_, '_, '_>,
    name: &str,
    x: &Val,
    clip: Option<f64>,
) -> Result<Val, String> {
    let mut x = x.clone();
    if let Some(c) = clip {
        x = bin_c(imp, &hl::MINIMUM, &x, c)?;
        x = bin_c(imp, &hl::MAXIMUM, &x, -c)?;
    }
    let def: &'static OpDef = match name {
        "Sigmoid" => &hl::SIGMOID,
        "Tanh" => &hl::TANH,
        "Relu" => &hl::RELU,
        other => return Err(format!("activation `{other}` is not supported (Sigmoid, Tanh, Relu)")),
    };
    un(imp, def, &x)
}

/// Columns `[k * h, (k + n) * h)` of a `[rows, G * H]` value.
fn gate(imp: &mut Importer<'_, '_, '_, '_>, v: &Val, k: i64, n: i64, h: i64) -> Result<Val, String> {
    let d = imp.shape(v)?;
    let last = d.len() - 1;
    let (mut lo, mut hi) = (vec![0; d.len()], d.clone());
    lo[last] = k * h;
    hi[last] = (k + n) * h;
    slice_dims(imp, v, &lo, &hi, &vec![1; d.len()])
}

/// `a [rows, K] x b^T` for `b [N, K]`.
fn matmul_t(imp: &mut Importer<'_, '_, '_, '_>, a: &Val, b: &Val) -> Result<Val, String> {
    let t = imp.bool_attr(true);
    imp.op(&hl::MATMUL, &[a, b], &[("transpose_b", t)], None)
}

/// Runs one direction over `steps` (in that order); the states after every step, and the last
/// hidden and cell state.
fn run(
    imp: &mut Importer<'_, '_, '_, '_>,
    cell: Cell,
    acts: &[String],
    clip: Option<f64>,
    d: &Direction,
    steps: &[i64],
) -> Result<(Vec<Val>, Val, Option<Val>), String> {
    let hsz = imp.shape(&d.r)?[1];
    let xs = imp.shape(&d.xw)?;
    let (batch, width) = (xs[1], xs[2]);
    let (mut h, mut c) = (d.h0.clone(), d.c0.clone());
    let mut outs = Vec::with_capacity(steps.len());
    for &t in steps {
        let x = slice_dims(imp, &d.xw, &[t, 0, 0], &[t + 1, batch, width], &[1, 1, 1])?;
        let x = imp.reshape(&x, &[batch, width])?;
        match cell {
            Cell::Rnn => {
                let hr = matmul_t(imp, &h, &d.r)?;
                let s = bin(imp, &hl::ADD, &x, &hr)?;
                let s = bin(imp, &hl::ADD, &s, &d.rb)?;
                h = activate(imp, &acts[0], &s, clip)?;
            }
            Cell::Lstm => {
                let hr = matmul_t(imp, &h, &d.r)?;
                let g = bin(imp, &hl::ADD, &x, &hr)?;
                let g = bin(imp, &hl::ADD, &g, &d.rb)?;
                let cprev = c.clone().ok_or("no cell state")?;
                let peep = |imp: &mut Importer<'_, '_, '_, '_>, pre: Val, k: i64, state: &Val| match &d.p {
                    Some(p) => {
                        let pk = gate(imp, p, k, 1, hsz)?;
                        let m = bin(imp, &hl::MUL, &pk, state)?;
                        bin(imp, &hl::ADD, &pre, &m)
                    }
                    None => Ok(pre),
                };
                let i = gate(imp, &g, 0, 1, hsz)?;
                let i = peep(imp, i, 0, &cprev)?;
                let i = activate(imp, &acts[0], &i, clip)?;
                let f = gate(imp, &g, 2, 1, hsz)?;
                let f = peep(imp, f, 2, &cprev)?;
                let f = activate(imp, &acts[0], &f, clip)?;
                let cc = gate(imp, &g, 3, 1, hsz)?;
                let cc = activate(imp, &acts[1], &cc, clip)?;
                let fc = bin(imp, &hl::MUL, &f, &cprev)?;
                let ic = bin(imp, &hl::MUL, &i, &cc)?;
                let cnew = bin(imp, &hl::ADD, &fc, &ic)?;
                let o = gate(imp, &g, 1, 1, hsz)?;
                let o = peep(imp, o, 1, &cnew)?;
                let o = activate(imp, &acts[0], &o, clip)?;
                let hc = activate(imp, &acts[2], &cnew, None)?;
                h = bin(imp, &hl::MUL, &o, &hc)?;
                c = Some(cnew);
            }
            Cell::Gru { linear_before_reset } => {
                let r_zr = slice_dims(imp, &d.r, &[0, 0], &[2 * hsz, hsz], &[1, 1])?;
                let hr = matmul_t(imp, &h, &r_zr)?;
                let xzr = gate(imp, &x, 0, 2, hsz)?;
                let rb_zr = gate(imp, &d.rb, 0, 2, hsz)?;
                let g = bin(imp, &hl::ADD, &xzr, &hr)?;
                let g = bin(imp, &hl::ADD, &g, &rb_zr)?;
                let z = gate(imp, &g, 0, 1, hsz)?;
                let z = activate(imp, &acts[0], &z, clip)?;
                let r = gate(imp, &g, 1, 1, hsz)?;
                let r = activate(imp, &acts[0], &r, clip)?;
                let r_h = slice_dims(imp, &d.r, &[2 * hsz, 0], &[3 * hsz, hsz], &[1, 1])?;
                let rb_h = gate(imp, &d.rb, 2, 1, hsz)?;
                let xh = gate(imp, &x, 2, 1, hsz)?;
                let pre = if linear_before_reset {
                    let hh = matmul_t(imp, &h, &r_h)?;
                    let hh = bin(imp, &hl::ADD, &hh, &rb_h)?;
                    let rh = bin(imp, &hl::MUL, &r, &hh)?;
                    bin(imp, &hl::ADD, &xh, &rh)?
                } else {
                    let rh = bin(imp, &hl::MUL, &r, &h)?;
                    let hh = matmul_t(imp, &rh, &r_h)?;
                    let s = bin(imp, &hl::ADD, &xh, &hh)?;
                    bin(imp, &hl::ADD, &s, &rb_h)?
                };
                let cand = activate(imp, &acts[1], &pre, clip)?;
                // (1 - z) * cand + z * h
                let one_minus = {
                    let one = imp.scalar_like(&z, 1.0)?;
                    bin(imp, &hl::SUB, &one, &z)?
                };
                let a = bin(imp, &hl::MUL, &one_minus, &cand)?;
                let b = bin(imp, &hl::MUL, &z, &h)?;
                h = bin(imp, &hl::ADD, &a, &b)?;
            }
        }
        outs.push(h.clone());
    }
    Ok((outs, h, c))
}

/// `v[i]` of a `[num_directions, ...]` value, the first dim dropped.
fn pick(imp: &mut Importer<'_, '_, '_, '_>, v: &Val, i: i64) -> Result<Val, String> {
    let d = imp.shape(v)?;
    let mut lo = vec![0; d.len()];
    let mut hi = d.clone();
    lo[0] = i;
    hi[0] = i + 1;
    let s = slice_dims(imp, v, &lo, &hi, &vec![1; d.len()])?;
    imp.reshape(&s, &d[1..])
}

/// `v` with dims 0 and 1 swapped.
fn swap01(imp: &mut Importer<'_, '_, '_, '_>, v: &Val) -> Result<Val, String> {
    let rank = imp.rank(v) as i64;
    let perm: Vec<i64> = [1, 0].into_iter().chain(2..rank).collect();
    let attr = imp.ints_attr(&perm);
    imp.op(&hl::TRANSPOSE, &[v], &[("perm", attr)], None)
}

fn concat(imp: &mut Importer<'_, '_, '_, '_>, parts: &[Val], axis: i64) -> Result<Val, String> {
    if parts.len() == 1 {
        return Ok(parts[0].clone());
    }
    let refs: Vec<&Val> = parts.iter().collect();
    let attr = imp.int_attr(axis);
    imp.op(&hl::CONCAT, &refs, &[("axis", attr)], None)
}

/// `RNN` / `GRU` / `LSTM(X, W, R, B?, sequence_lens?, initial_h?, initial_c?, P?)`: `Y`, `Y_h`
/// and (LSTM) `Y_c` (see the module docs).
pub(super) fn recurrent(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let cell = match node.op_type.as_str() {
        "RNN" => Cell::Rnn,
        "GRU" => Cell::Gru { linear_before_reset: attr_int(node, "linear_before_reset", 0)? != 0 },
        _ => Cell::Lstm,
    };
    if attr_int(node, "input_forget", 0)? != 0 {
        return Err("`input_forget` is not supported".into());
    }
    let layout = attr_int(node, "layout", 0)?;
    let mut x = imp.input(node, 0)?;
    if layout != 0 {
        x = swap01(imp, &x)?;
    }
    let (w, r) = (imp.input(node, 1)?, imp.input(node, 2)?);
    let (xs, ws, rs) = (imp.shape(&x)?, imp.shape(&w)?, imp.shape(&r)?);
    if xs.len() != 3 || ws.len() != 3 || rs.len() != 3 {
        return Err("X, W and R must have rank 3".into());
    }
    let (seq, batch, hsz, dirs) = (xs[0], xs[1], rs[2], ws[0]);
    let g = cell.gates();
    let direction = attr_str(node, "direction", "forward")?;
    let expected = if direction == "bidirectional" { 2 } else { 1 };
    if !["forward", "reverse", "bidirectional"].contains(&direction.as_str()) || dirs != expected {
        return Err(format!("direction '{direction}' with {dirs} weight directions"));
    }
    if ws[1] != g * hsz || rs[1] != g * hsz {
        return Err(format!("W {ws:?} and R {rs:?} must have {g} gates of {hsz}"));
    }
    if let Some(lens) = imp.opt_input(node, 4)? {
        let lens = imp.const_ints(&lens, "input `sequence_lens`")?;
        if lens.iter().any(|&l| l != seq) {
            return Err(format!(
                "`sequence_lens` {lens:?} shorter than the sequence ({seq}) are not supported"
            ));
        }
    }
    let acts: Vec<String> = match attr_strs(node, "activations")? {
        Some(a) => a,
        None => cell.default_activations().iter().map(|s| s.to_string()).collect(),
    };
    let per_dir = cell.default_activations().len();
    let acts = match acts.len() {
        n if n == per_dir * dirs as usize => acts,
        // One direction's list serves both.
        n if n == per_dir => (0..dirs).flat_map(|_| acts.iter().cloned()).collect(),
        n => return Err(format!("{n} activations: {per_dir} per direction expected")),
    };
    let clip = match attr_float(node, "clip", f64::NAN)? {
        c if c.is_nan() => None,
        c => Some(c),
    };
    let state = |imp: &mut Importer<'_, '_, '_, '_>, i: usize| -> Result<Option<Val>, String> {
        match imp.opt_input(node, i)? {
            Some(v) if layout != 0 => swap01(imp, &v).map(Some),
            other => Ok(other),
        }
    };
    let (h0, c0) = (state(imp, 5)?, state(imp, 6)?);
    let (bias, peep) = (imp.opt_input(node, 3)?, imp.opt_input(node, 7)?);
    let zeros = |imp: &mut Importer<'_, '_, '_, '_>, shape: &[i64]| -> Result<Val, String> {
        let dtype = imp.dtype(&x)?;
        let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
        imp.constant(kiln_dialects::hl::interp::Tensor::zeros(dtype, dims), "rnn_zeros")
    };
    let xflat = imp.reshape(&x, &[seq * batch, xs[2]])?;
    let (mut ys, mut hs, mut cs) = (Vec::new(), Vec::new(), Vec::new());
    for dir in 0..dirs {
        let wd = pick(imp, &w, dir)?;
        let rd = pick(imp, &r, dir)?;
        let (wb, rb) = match &bias {
            Some(b) => {
                let bd = pick(imp, b, dir)?;
                (gate(imp, &bd, 0, g, hsz)?, gate(imp, &bd, g, g, hsz)?)
            }
            None => (zeros(imp, &[g * hsz])?, zeros(imp, &[g * hsz])?),
        };
        let xw = matmul_t(imp, &xflat, &wd)?;
        let xw = bin(imp, &hl::ADD, &xw, &wb)?;
        let xw = imp.reshape(&xw, &[seq, batch, g * hsz])?;
        let h0d = match &h0 {
            Some(h) => pick(imp, h, dir)?,
            None => zeros(imp, &[batch, hsz])?,
        };
        let c0d = match (cell, &c0) {
            (Cell::Lstm, Some(c)) => Some(pick(imp, c, dir)?),
            (Cell::Lstm, None) => Some(zeros(imp, &[batch, hsz])?),
            _ => None,
        };
        let p = match (cell, &peep) {
            (Cell::Lstm, Some(p)) => Some(pick(imp, p, dir)?),
            _ => None,
        };
        let d = Direction { xw, r: rd, rb, p, h0: h0d, c0: c0d };
        let backward = direction == "reverse" || dir == 1;
        let steps: Vec<i64> = if backward { (0..seq).rev().collect() } else { (0..seq).collect() };
        let a = &acts[dir as usize * per_dir..(dir as usize + 1) * per_dir];
        let (mut outs, h, c) = run(imp, cell, a, clip, &d, &steps)?;
        if backward {
            outs.reverse();
        }
        ys.push(outs);
        hs.push(imp.reshape(&h, &[1, batch, hsz])?);
        if let Some(c) = c {
            cs.push(imp.reshape(&c, &[1, batch, hsz])?);
        }
    }
    let y_h = concat(imp, &hs, 0)?;
    let wants_y = node.output.first().is_some_and(|o| !o.is_empty());
    let mut y = y_h.clone(); // stands for an unused `Y`, which is not built
    if wants_y {
        let mut steps = Vec::with_capacity(seq as usize);
        for t in 0..seq as usize {
            let per_dir: Vec<Val> =
                ys.iter().map(|o| imp.reshape(&o[t], &[1, 1, batch, hsz])).collect::<Result<_, _>>()?;
            steps.push(concat(imp, &per_dir, 1)?);
        }
        y = concat(imp, &steps, 0)?;
        if layout != 0 {
            let attr = imp.ints_attr(&[2, 0, 1, 3]);
            y = imp.op(&hl::TRANSPOSE, &[&y], &[("perm", attr)], None)?;
        }
    }
    let mut outputs = vec![y, if layout != 0 { swap01(imp, &y_h)? } else { y_h }];
    if cell == Cell::Lstm {
        let y_c = concat(imp, &cs, 0)?;
        outputs.push(if layout != 0 { swap01(imp, &y_c)? } else { y_c });
    }
    Ok(outputs)
}
