//! Programs drawn to cover the back end's space on purpose, for the VM differential.
//!
//! [`random_program`](super::random_program) draws realistic chains over `[r, c]` tensors. Bugs
//! hide where such chains rarely go, so the programs here are drawn case by case over what the
//! back end tells apart (each case is a [`FEATURES`] entry that a program reports when it
//! exercises it):
//! - **shapes**: ranks 0 to 8 (layout ops reach ranks 6 to 8), size-1 dims in every position,
//!   rows longer than a small target's UB;
//! - **element types**: f32, f16, bf16, i32, i8 and i1 programs, casts between them;
//! - **broadcasting**: every pattern of binary and ternary ops: an operand of lower rank, size-1
//!   dims stretched on either side or both, rank-0 operands, and the operand that sets the
//!   result's shape being a splat or dense constant or a later argument;
//! - **constants**: splat and dense constants as any operand, NaN and infinities, values made
//!   by folding (ops on constants only);
//! - **index ops**: argmax and argmin along any axis, gather_elements by constant indices;
//! - **reductions**: sum, max, min, mean and prod over one axis, several, all, or only
//!   size-1 axes, negative axes, with and without `keep_dims`, chained over the same or other
//!   axes through elementwise ops (the stitched softmax pattern) and broadcast back;
//! - **layout**: transpose, reshape, slice (strided), broadcast_to, expand_dims, squeeze, concat
//!   and pad, of any rank;
//! - **results**: several, an argument or a constant returned as it is.
//!
//! How the coverage is checked: [`coverage_program`] reports the features of each program, and
//! the test `every_feature_is_drawn` requires every feature in at least 1% of 2,000 programs.
//! `cargo test -p kiln-dialects --release coverage_histogram -- --ignored --nocapture` prints
//! the histogram over 10,000 programs (the figures are in `docs/testing.md`).

use std::collections::BTreeSet;
use std::fmt::Write;

mod layout;
mod ops;
#[cfg(test)]
mod tests;

use super::super::random::SplitMix64;

/// Every feature a program can report, in the order the histogram prints them.
pub const FEATURES: &[&str] = &[
    "dtype f32",
    "dtype f16",
    "dtype bf16",
    "dtype i32",
    "dtype i64",
    "dtype i8",
    "dtype i1",
    "rank 0",
    "rank 1",
    "rank 2",
    "rank 3",
    "rank 4",
    "rank 5+",
    "rank 6+ layout",
    "long row",
    "size-1 dim kept",
    "size-1 dim stretched",
    "broadcast rank extension",
    "broadcast both sides stretched",
    "broadcast rank-0 operand",
    "broadcast ternary",
    "splat operand",
    "dense operand",
    "splat sets the result shape",
    "dense sets the result shape",
    "argument sets the result shape",
    "nan or inf constant",
    "folded constant",
    "splat condition",
    "unary",
    "binary",
    "cmp",
    "select",
    "cast",
    "reduce_sum",
    "reduce_max",
    "reduce_min",
    "reduce_mean",
    "reduce_prod",
    "reduction keep_dims",
    "reduction drops dims",
    "reduction of a size-1 axis",
    "reduction of size-1 axes only",
    "reduction of all axes",
    "reduction negative axis",
    "reductions chained, same axes",
    "reductions chained, other axes",
    "reduction broadcast back",
    "argmax / argmin",
    "gather_elements",
    "transpose",
    "reshape",
    "slice",
    "strided slice",
    "broadcast_to",
    "expand_dims",
    "squeeze",
    "concat",
    "pad",
    "softmax",
    "layer_norm",
    "gelu",
    "matmul",
    "batch_matmul",
    "several results",
    "returns an argument",
    "returns a constant",
];

/// A generated program: MLIR text of one `func.func @f` and the features it exercises.
#[derive(Clone, Debug)]
pub struct Program {
    /// The module text.
    pub text: String,
    /// The [`FEATURES`] the program exercises.
    pub features: BTreeSet<&'static str>,
}

/// The program of `seed` (see the module docs for the space it is drawn from).
pub fn coverage_program(seed: u64) -> Program {
    let mut g = Gen::new(seed);
    let steps = 2 + g.rng.below(9);
    for _ in 0..steps {
        g.step();
    }
    g.finish()
}

/// Element count above which a drawn shape is shrunk.
const MAX_ELEMS: usize = 1 << 14;
/// The same, for shapes with a long row.
const MAX_LONG_ELEMS: usize = 1 << 15;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dt {
    F32,
    F16,
    BF16,
    I32,
    I64,
    I8,
    I1,
}

impl Dt {
    fn name(self) -> &'static str {
        match self {
            Dt::F32 => "f32",
            Dt::F16 => "f16",
            Dt::BF16 => "bf16",
            Dt::I32 => "i32",
            Dt::I64 => "i64",
            Dt::I8 => "i8",
            Dt::I1 => "i1",
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Dt::F32 | Dt::F16 | Dt::BF16)
    }

    fn feature(self) -> &'static str {
        match self {
            Dt::F32 => "dtype f32",
            Dt::F16 => "dtype f16",
            Dt::BF16 => "dtype bf16",
            Dt::I32 => "dtype i32",
            Dt::I64 => "dtype i64",
            Dt::I8 => "dtype i8",
            Dt::I1 => "dtype i1",
        }
    }

    /// NaN, +inf and -inf as MLIR hex literals.
    fn specials(self) -> [&'static str; 3] {
        match self {
            Dt::F16 => ["0x7E00", "0x7C00", "0xFC00"],
            Dt::BF16 => ["0x7FC0", "0x7F80", "0xFF80"],
            _ => ["0x7FC00000", "0x7F800000", "0xFF800000"],
        }
    }
}

/// What kind of value a pool entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Arg,
    Splat,
    Dense,
    /// Computed from constants only (the clean-up folds it).
    Folded,
    Computed,
}

impl Kind {
    fn is_const(self) -> bool {
        matches!(self, Kind::Splat | Kind::Dense | Kind::Folded)
    }
}

#[derive(Clone, Debug)]
struct Val {
    name: String,
    shape: Vec<usize>,
    dt: Dt,
    kind: Kind,
}

fn ty(shape: &[usize], dt: Dt) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        let _ = write!(s, "{d}x");
    }
    s.push_str(dt.name());
    s.push('>');
    s
}

fn list(xs: &[i64]) -> String {
    let items: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

fn count(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// numpy's broadcast of two shapes, or `None`.
fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let n = a.len().max(b.len());
    let dim = |s: &[usize], j: usize| if j + s.len() < n { 1 } else { s[j + s.len() - n] };
    (0..n)
        .map(|j| match (dim(a, j), dim(b, j)) {
            (x, y) if x == y || y == 1 => Some(x),
            (1, y) => Some(y),
            _ => None,
        })
        .collect()
}

struct Gen {
    rng: SplitMix64,
    dt: Dt,
    base: Vec<usize>,
    args: Vec<Val>,
    pool: Vec<Val>,
    body: String,
    next: usize,
    features: BTreeSet<&'static str>,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        let mut rng = SplitMix64(seed ^ 0x5EED_C0DE);
        let dt = [Dt::F32, Dt::F32, Dt::F32, Dt::F16, Dt::BF16, Dt::I32, Dt::I32, Dt::I64, Dt::I8, Dt::I1]
            [rng.below(10)];
        let mut g = Gen {
            rng,
            dt,
            base: Vec::new(),
            args: Vec::new(),
            pool: Vec::new(),
            body: String::new(),
            next: 0,
            features: BTreeSet::new(),
        };
        g.base = g.shape();
        let base = g.base.clone();
        g.arg(base, dt);
        for _ in 0..g.rng.below(3) {
            let shape = g.variant(&g.base.clone());
            g.arg(shape, dt);
        }
        g
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.rng.below(100) < percent
    }

    fn pick_of<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.rng.below(xs.len())]
    }

    /// A random shape: rank 0 to 8 (mostly 1 to 4), a size-1 dim a quarter of the time, at
    /// times a long last dim.
    fn shape(&mut self) -> Vec<usize> {
        let rank = self.pick_of(&[0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 6, 7, 8]);
        let small: &[usize] = if rank >= 5 { &[2, 3, 2, 3, 4] } else { &[2, 3, 4, 5, 7, 8, 13, 16, 33, 64] };
        let mut shape: Vec<usize> =
            (0..rank).map(|_| if self.chance(25) { 1 } else { self.pick_of(small) }).collect();
        let mut limit = MAX_ELEMS;
        if (1..=2).contains(&rank) && self.chance(8) {
            shape[rank - 1] = self.pick_of(&[1500, 4099]);
            limit = MAX_LONG_ELEMS;
        }
        self.shrink(&mut shape, limit);
        shape
    }

    /// Halves the largest dims of `shape` (all but a long last one) until it has at most
    /// `limit` elements.
    fn shrink(&mut self, shape: &mut [usize], limit: usize) {
        while count(shape) > limit {
            let j = (0..shape.len()).max_by_key(|&j| (shape[j] * usize::from(shape[j] < 1500), j));
            match j {
                Some(j) if shape[j] > 1 && shape[j] < 1500 => shape[j] = shape[j].div_ceil(2),
                _ => break,
            }
        }
    }

    /// A shape that broadcasts to `shape`: some dims 1, some leading dims dropped.
    fn variant(&mut self, shape: &[usize]) -> Vec<usize> {
        let drop = if self.chance(30) { self.rng.below(shape.len() + 1) } else { 0 };
        shape[drop..].iter().map(|&d| if self.chance(35) { 1 } else { d }).collect()
    }

    /// A shape that `shape` broadcasts to: its size-1 dims (some) stretched, leading dims added.
    fn expansion(&mut self, shape: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        if shape.len() < 8 && self.chance(40) {
            for _ in 0..1 + self.rng.below(2.min(8 - shape.len())) {
                out.push(self.pick_of(&[2, 3, 5]));
            }
        }
        for &d in shape {
            out.push(if d == 1 && self.chance(70) { self.pick_of(&[2, 3, 4, 7]) } else { d });
        }
        out
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next - 1)
    }

    fn arg(&mut self, shape: Vec<usize>, dt: Dt) -> Val {
        let v = Val { name: format!("%a{}", self.args.len()), shape, dt, kind: Kind::Arg };
        self.args.push(v.clone());
        self.pool.push(v.clone());
        v
    }

    /// Appends `%r = "op"(operands) <{attrs}> : (types) -> result` and pools the result.
    fn emit(
        &mut self,
        op: &str,
        operands: &[&Val],
        attrs: &str,
        shape: Vec<usize>,
        dt: Dt,
        kind: Kind,
    ) -> Val {
        let name = self.fresh();
        let names: Vec<&str> = operands.iter().map(|v| v.name.as_str()).collect();
        let types: Vec<String> = operands.iter().map(|v| ty(&v.shape, v.dt)).collect();
        let attrs = if attrs.is_empty() { String::new() } else { format!(" <{{{attrs}}}>") };
        let _ = writeln!(
            self.body,
            "  {name} = \"{op}\"({}){attrs} : ({}) -> {}",
            names.join(", "),
            types.join(", "),
            ty(&shape, dt)
        );
        if kind == Kind::Folded {
            self.features.insert("folded constant");
        }
        let v = Val { name, shape, dt, kind };
        self.pool.push(v.clone());
        v
    }

    /// A literal element of `dt`.
    fn literal(&mut self, dt: Dt) -> String {
        match dt {
            Dt::I1 => self.pick_of(&["true", "false"]).to_string(),
            Dt::I8 => self.rng.range(-5, 6).to_string(),
            Dt::I32 => self.pick_of(&[-100i64, -3, -1, 0, 1, 2, 7, 100, 2_147_483_647]).to_string(),
            Dt::I64 => {
                self.pick_of(&[-100i64, -1, 0, 1, 7, 1 << 40, (1 << 53) + 1, i64::MAX, i64::MIN]).to_string()
            }
            _ => format!(
                "{:?}",
                self.pick_of(&[-2.0f64, -1.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 0.001])
            ),
        }
    }

    /// A splat or (for at most 64 elements) dense constant of `shape`.
    fn constant(&mut self, shape: Vec<usize>, dt: Dt) -> Val {
        let n = count(&shape);
        let dense = !shape.is_empty() && n <= 64 && self.chance(40);
        let text = if dense {
            self.features.insert("dense operand");
            let flat: Vec<String> = (0..n).map(|_| self.literal(dt)).collect();
            nest(&flat, &shape)
        } else {
            self.features.insert("splat operand");
            if dt.is_float() && self.chance(8) {
                self.features.insert("nan or inf constant");
                self.pick_of(&dt.specials()).to_string()
            } else {
                self.literal(dt)
            }
        };
        let attrs = format!("value = dense<{text}> : {}", ty(&shape, dt));
        let kind = if dense { Kind::Dense } else { Kind::Splat };
        self.emit("hl.constant", &[], &attrs, shape, dt, kind)
    }

    /// A pooled value (recent ones more often) that satisfies `ok`.
    fn pick(&mut self, ok: impl Fn(&Val) -> bool) -> Option<Val> {
        let fits: Vec<usize> = (0..self.pool.len()).filter(|&i| ok(&self.pool[i])).collect();
        if fits.is_empty() {
            return None;
        }
        let j = if self.chance(70) {
            fits.len() - 1 - self.rng.below(fits.len().min(4))
        } else {
            self.rng.below(fits.len())
        };
        Some(self.pool[fits[j]].clone())
    }

    /// A value of `dt`: pooled, or a cast of a pooled value, or a new argument.
    fn value_of(&mut self, dt: Dt) -> Val {
        if let Some(v) = self.pick(|v| v.dt == dt) {
            return v;
        }
        if let Some(v) = self.pick(|v| v.dt != Dt::I1 || dt != Dt::I1) {
            return self.cast(&v, dt);
        }
        let shape = self.base.clone();
        self.arg(shape, dt)
    }

    fn cast(&mut self, v: &Val, dt: Dt) -> Val {
        self.features.insert("cast");
        self.emit("hl.cast", &[v], "", v.shape.clone(), dt, Kind::Computed)
    }

    /// A partner for `a` in a binary op of element type `dt`: pooled, or a constant or an
    /// argument of a broadcast variant or expansion of `a`'s shape.
    fn partner(&mut self, a: &Val, dt: Dt) -> Val {
        let ashape = a.shape.clone();
        match self.rng.below(10) {
            0..=2 => {
                let fits = |v: &Val| {
                    v.dt == dt && broadcast(&v.shape, &ashape).is_some_and(|s| count(&s) <= MAX_LONG_ELEMS)
                };
                match self.pick(fits) {
                    Some(v) => v,
                    None => {
                        let shape = self.variant(&ashape);
                        self.constant(shape, dt)
                    }
                }
            }
            3..=5 => {
                let shape = self.variant(&ashape);
                self.constant(shape, dt)
            }
            6..=8 => {
                let mut shape = self.expansion(&ashape);
                self.shrink(&mut shape, MAX_LONG_ELEMS);
                if broadcast(&shape, &ashape).is_none() {
                    shape = ashape.clone();
                }
                if self.chance(65) {
                    self.constant(shape, dt)
                } else {
                    self.arg(shape, dt)
                }
            }
            _ => self.constant(Vec::new(), dt),
        }
    }

    /// Records the broadcast features of operands `xs` with result shape `out`.
    fn note_broadcast(&mut self, xs: &[&Val], out: &[usize]) {
        for x in xs {
            if x.shape.len() < out.len() {
                self.features.insert(if x.shape.is_empty() {
                    "broadcast rank-0 operand"
                } else {
                    "broadcast rank extension"
                });
            }
            let off = out.len() - x.shape.len();
            if x.shape.iter().enumerate().any(|(j, &d)| d == 1 && out[off + j] != 1) {
                self.features.insert("size-1 dim stretched");
            }
        }
        let stretched = |x: &Val| {
            let off = out.len() - x.shape.len();
            x.shape.len() < out.len() || x.shape.iter().enumerate().any(|(j, &d)| d != out[off + j])
        };
        if xs.len() == 2 && stretched(xs[0]) && stretched(xs[1]) {
            self.features.insert("broadcast both sides stretched");
        }
        if xs.len() == 3 && xs.iter().any(|x| x.shape != out) {
            self.features.insert("broadcast ternary");
        }
        // The operand alone of the result's shape sets it.
        let setters: Vec<&&Val> = xs.iter().filter(|x| !stretched(x)).collect();
        if setters.len() == 1 && xs.len() > 1 {
            let feature = match setters[0].kind {
                Kind::Dense => "dense sets the result shape",
                Kind::Splat | Kind::Folded => "splat sets the result shape",
                Kind::Arg => "argument sets the result shape",
                Kind::Computed => return,
            };
            self.features.insert(feature);
        }
    }

    fn finish(mut self) -> Program {
        let last = self.pool.len() - 1;
        let mut rets = vec![last];
        for _ in 0..self.rng.below(3) {
            let j = self.rng.below(self.pool.len());
            if !rets.contains(&j) {
                rets.push(j);
            }
        }
        if rets.len() > 1 {
            self.features.insert("several results");
        }
        for &j in &rets {
            match self.pool[j].kind {
                Kind::Arg => drop(self.features.insert("returns an argument")),
                k if k.is_const() => drop(self.features.insert("returns a constant")),
                _ => {}
            }
        }
        for v in &self.pool {
            self.features.insert(v.dt.feature());
            let has_one = v.shape.contains(&1);
            if has_one && v.shape.len() >= 2 {
                self.features.insert("size-1 dim kept");
            }
            if v.shape.iter().any(|&d| d >= 1500) {
                self.features.insert("long row");
            }
            self.features.insert(match v.shape.len() {
                0 => "rank 0",
                1 => "rank 1",
                2 => "rank 2",
                3 => "rank 3",
                4 => "rank 4",
                _ => "rank 5+",
            });
        }
        let params: Vec<String> =
            self.args.iter().map(|v| format!("{}: {}", v.name, ty(&v.shape, v.dt))).collect();
        let names: Vec<&str> = rets.iter().map(|&j| self.pool[j].name.as_str()).collect();
        let types: Vec<String> = rets.iter().map(|&j| ty(&self.pool[j].shape, self.pool[j].dt)).collect();
        let text = format!(
            "func.func @f({}) -> ({}) {{\n{}  return {} : {}\n}}\n",
            params.join(", "),
            types.join(", "),
            self.body,
            names.join(", "),
            types.join(", ")
        );
        Program { text, features: self.features }
    }
}

/// `flat` (row-major) nested into brackets of `shape`.
fn nest(flat: &[String], shape: &[usize]) -> String {
    match shape.split_first() {
        None => flat[0].clone(),
        Some((&d, rest)) => {
            let step = count(rest);
            let parts: Vec<String> = (0..d).map(|i| nest(&flat[i * step..(i + 1) * step], rest)).collect();
            format!("[{}]", parts.join(", "))
        }
    }
}
