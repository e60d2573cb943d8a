//! The elementwise, select, reduction, composite and folding steps of a coverage program.

use super::{broadcast, count, list, Dt, Gen, Kind, Val, MAX_ELEMS, MAX_LONG_ELEMS};

impl Gen {
    pub(super) fn step(&mut self) {
        match self.rng.below(22) {
            0..=2 => self.unary(),
            3..=7 => self.binary(),
            8..=9 => self.select(),
            10 => {
                let to = self.pick_of(&[Dt::F32, Dt::F16, Dt::BF16, Dt::I32, Dt::I64, Dt::I8]);
                let v = self.value_of(self.dt);
                if v.dt != to {
                    self.cast(&v, to);
                }
            }
            11..=13 => self.reduce(),
            14 => self.stitch(),
            15..=17 => self.layout(),
            18..=19 if self.dt.is_float() => self.composite(),
            _ => self.fold(),
        }
    }

    fn unary(&mut self) {
        self.features.insert("unary");
        let a = self.value_of(self.dt);
        let ops: &[&str] = match a.dt {
            Dt::I1 => &["hl.not"],
            Dt::I32 | Dt::I64 | Dt::I8 => &["hl.neg", "hl.abs", "hl.relu", "hl.sign", "hl.bitwise_not"],
            _ => &[
                "hl.exp",
                "hl.tanh",
                "hl.sigmoid",
                "hl.relu",
                "hl.abs",
                "hl.neg",
                "hl.sqrt",
                "hl.log",
                "hl.floor",
                "hl.ceil",
                "hl.round",
                "hl.sign",
                "hl.reciprocal",
                "hl.rsqrt",
                "hl.erf",
                "hl.silu",
                "hl.clamp",
                "hl.sin",
                "hl.cos",
                "hl.tan",
                "hl.asin",
                "hl.acos",
                "hl.atan",
                "hl.sinh",
                "hl.cosh",
                "hl.asinh",
                "hl.acosh",
                "hl.atanh",
            ],
        };
        let op = self.pick_of(ops);
        let attrs = if op == "hl.clamp" {
            format!("max = 1.5 : {0}, min = -0.5 : {0}", a.dt.name())
        } else {
            String::new()
        };
        self.emit(op, &[&a], &attrs, a.shape.clone(), a.dt, Kind::Computed);
    }

    fn binary_op(&mut self, dt: Dt) -> &'static str {
        const COMMON: [&str; 7] =
            ["hl.add", "hl.sub", "hl.mul", "hl.div", "hl.maximum", "hl.minimum", "hl.rem"];
        const INT: [&str; 5] =
            ["hl.bitwise_and", "hl.bitwise_or", "hl.bitwise_xor", "hl.shift_left", "hl.shift_right"];
        match dt {
            Dt::I1 => self.pick_of(&["hl.and", "hl.or"]),
            Dt::I32 | Dt::I64 | Dt::I8 => {
                let i = self.rng.below(COMMON.len() + INT.len());
                COMMON.get(i).copied().unwrap_or_else(|| INT[i - COMMON.len()])
            }
            _ => {
                let i = self.rng.below(COMMON.len() + 1);
                COMMON.get(i).copied().unwrap_or("hl.pow")
            }
        }
    }

    fn binary(&mut self) {
        self.features.insert("binary");
        let a = self.value_of(self.dt);
        let b = self.partner(&a, a.dt);
        let (x, y) = if self.chance(50) { (a, b) } else { (b, a) };
        let Some(out) = broadcast(&x.shape, &y.shape) else { return };
        let op = self.binary_op(x.dt);
        self.note_broadcast(&[&x, &y], &out);
        self.emit(op, &[&x, &y], "", out, x.dt, Kind::Computed);
    }

    /// A condition: a compare of a value with a partner, a pooled `i1` value, or a splat.
    fn condition(&mut self) -> Val {
        match self.rng.below(6) {
            0 => {
                self.features.insert("splat condition");
                let shape = if self.chance(50) { Vec::new() } else { self.base.clone() };
                self.constant(shape, Dt::I1)
            }
            1 => self.value_of(Dt::I1),
            _ => {
                self.features.insert("cmp");
                let dt = if self.dt == Dt::I1 { Dt::F32 } else { self.dt };
                let a = self.value_of(dt);
                let b = self.partner(&a, a.dt);
                let Some(out) = broadcast(&a.shape, &b.shape) else { return self.value_of(Dt::I1) };
                self.note_broadcast(&[&a, &b], &out);
                let pred = self.pick_of(&["eq", "ne", "lt", "le", "gt", "ge"]);
                self.emit(
                    "hl.cmp",
                    &[&a, &b],
                    &format!("predicate = #hl.cmp<{pred}>"),
                    out,
                    Dt::I1,
                    Kind::Computed,
                )
            }
        }
    }

    fn select(&mut self) {
        let c = self.condition();
        if self.chance(25) {
            return;
        }
        self.features.insert("select");
        let dt = if self.dt == Dt::I1 && self.chance(50) { Dt::F32 } else { self.dt };
        let a = self.value_of(dt);
        let b = self.partner(&a, dt);
        let Some(ab) = broadcast(&a.shape, &b.shape) else { return };
        let Some(out) = broadcast(&c.shape, &ab).filter(|s| count(s) <= MAX_LONG_ELEMS) else { return };
        self.note_broadcast(&[&c, &a, &b], &out);
        self.emit("hl.select", &[&c, &a, &b], "", out, dt, Kind::Computed);
    }

    /// Reduces `a` over `axes` (normalized) with `keep_dims`, the op drawn for its type.
    fn reduce_over(&mut self, a: &Val, axes: &[usize], keep: bool) -> Val {
        let ops: &[&str] = match a.dt {
            Dt::I1 => unreachable!("i1 values are not reduced"),
            Dt::I32 | Dt::I64 | Dt::I8 => {
                &["hl.reduce_sum", "hl.reduce_max", "hl.reduce_min", "hl.reduce_prod"]
            }
            _ => &["hl.reduce_sum", "hl.reduce_max", "hl.reduce_min", "hl.reduce_mean", "hl.reduce_prod"],
        };
        let op = self.pick_of(ops);
        self.features.insert(&op[3..]);
        let rank = a.shape.len();
        if axes.len() == rank {
            self.features.insert("reduction of all axes");
        }
        if axes.iter().any(|&j| a.shape[j] == 1) {
            self.features.insert("reduction of a size-1 axis");
            if axes.iter().all(|&j| a.shape[j] == 1) {
                self.features.insert("reduction of size-1 axes only");
            }
        }
        let shown: Vec<i64> = axes
            .iter()
            .map(|&j| {
                if self.chance(20) {
                    self.features.insert("reduction negative axis");
                    j as i64 - rank as i64
                } else {
                    j as i64
                }
            })
            .collect();
        self.features.insert(if keep { "reduction keep_dims" } else { "reduction drops dims" });
        let shape: Vec<usize> = (0..rank)
            .filter_map(|j| match (axes.contains(&j), keep) {
                (false, _) => Some(a.shape[j]),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect();
        let attrs = format!("axes = {}, keep_dims = {keep}", list(&shown));
        self.emit(op, &[a], &attrs, shape, a.dt, Kind::Computed)
    }

    /// Axes of `shape` to reduce: one, a size-1 one, a subset, all or none.
    fn axes(&mut self, shape: &[usize]) -> Vec<usize> {
        let rank = shape.len();
        let ones: Vec<usize> = (0..rank).filter(|&j| shape[j] == 1).collect();
        match self.rng.below(10) {
            0..=2 => vec![self.rng.below(rank)],
            3..=4 if !ones.is_empty() => vec![self.pick_of(&ones)],
            5..=6 => {
                let some: Vec<usize> = (0..rank).filter(|_| self.chance(50)).collect();
                if some.is_empty() {
                    vec![rank - 1]
                } else {
                    some
                }
            }
            7 => (0..rank).collect(),
            _ => vec![rank - 1],
        }
    }

    fn reduce(&mut self) {
        let dt = self.dt;
        let Some(a) = self.pick(|v| !v.shape.is_empty() && v.dt == dt && dt != Dt::I1) else {
            return self.unary();
        };
        if self.chance(15) {
            return self.index_op(&a);
        }
        let axes = self.axes(&a.shape);
        let keep = self.chance(50);
        let r = self.reduce_over(&a, &axes, keep);
        if self.chance(40) && !r.shape.is_empty() {
            // Chained: the result reduced again.
            let again = self.axes(&r.shape);
            self.features.insert(if keep && again == axes {
                "reductions chained, same axes"
            } else {
                "reductions chained, other axes"
            });
            let keep2 = self.chance(50);
            self.reduce_over(&r, &again, keep2);
        }
    }

    /// An index op of `a`: `argmax` / `argmin` along an axis, or `gather_elements` along it by a
    /// dense constant of in-range indices (negative ones among them).
    fn index_op(&mut self, a: &Val) {
        let rank = a.shape.len();
        let axis = self.rng.below(rank);
        if self.chance(60) || count(&a.shape) > 64 {
            self.features.insert("argmax / argmin");
            let op = self.pick_of(&["hl.argmax", "hl.argmin"]);
            let keep = self.chance(50);
            let shape: Vec<usize> = (0..rank)
                .filter_map(|j| if j != axis { Some(a.shape[j]) } else { keep.then_some(1) })
                .collect();
            let attrs = format!("axis = {axis} : i64, keep_dims = {keep}");
            self.emit(op, &[a], &attrs, shape, Dt::I64, Kind::Computed);
            return;
        }
        self.features.insert("gather_elements");
        let mut shape = a.shape.clone();
        shape[axis] = 1 + self.rng.below(3);
        let n = a.shape[axis] as i64;
        let flat: Vec<String> = (0..count(&shape)).map(|_| self.rng.range(-n, n).to_string()).collect();
        let attrs = format!("value = dense<{}> : {}", super::nest(&flat, &shape), super::ty(&shape, Dt::I64));
        let idx = self.emit("hl.constant", &[], &attrs, shape.clone(), Dt::I64, Kind::Dense);
        self.emit(
            "hl.gather_elements",
            &[a, &idx],
            &format!("axis = {axis} : i64"),
            shape,
            a.dt,
            Kind::Computed,
        );
    }

    /// The stitched pattern: `x op reduce(x)` broadcast back, then reduced over the same or
    /// other axes (softmax's max-sub-exp-sum is one instance).
    fn stitch(&mut self) {
        let dt = if self.dt == Dt::I1 { Dt::F32 } else { self.dt };
        let Some(x) = self.pick(|v| !v.shape.is_empty() && v.dt == dt) else { return self.binary() };
        let axes = self.axes(&x.shape);
        let keep = self.rng.below(3) > 0;
        let m = self.reduce_over(&x, &axes, keep);
        let Some(out) = broadcast(&x.shape, &m.shape) else { return };
        self.features.insert("reduction broadcast back");
        self.note_broadcast(&[&x, &m], &out);
        let op = self.binary_op(dt);
        let (a, b) = if self.chance(70) { (&x, &m) } else { (&m, &x) };
        let d = self.emit(op, &[a, b], "", out, dt, Kind::Computed);
        if self.chance(30) && dt.is_float() {
            self.emit("hl.exp", &[&d], "", d.shape.clone(), dt, Kind::Computed);
        }
        let last = self.pool.last().cloned().expect("just pushed");
        let again = if self.chance(50) { axes.clone() } else { self.axes(&last.shape) };
        self.features.insert(if again == axes {
            "reductions chained, same axes"
        } else {
            "reductions chained, other axes"
        });
        let keep = self.chance(50);
        self.reduce_over(&last, &again, keep);
    }

    /// A composite the clean-up decomposes (softmax over any axis, layer norm, GELU) or a
    /// matmul of the value with a new argument.
    fn composite(&mut self) {
        let dt = self.dt;
        let Some(a) = self.pick(|v| !v.shape.is_empty() && v.dt == dt) else { return self.unary() };
        let rank = a.shape.len();
        match self.rng.below(5) {
            0 => {
                self.features.insert("softmax");
                let axis = self.rng.below(rank) as i64 - if self.chance(50) { rank as i64 } else { 0 };
                let op = self.pick_of(&["hl.softmax", "hl.log_softmax"]);
                self.emit(op, &[&a], &format!("axis = {axis} : i64"), a.shape.clone(), dt, Kind::Computed);
            }
            1 => {
                self.features.insert("layer_norm");
                let last = vec![a.shape[rank - 1]];
                let gamma = self.partner_of_shape(last.clone(), dt);
                let beta = self.partner_of_shape(last, dt);
                let attrs = format!("epsilon = 1.0e-05 : {}", Dt::F32.name());
                self.emit("hl.layer_norm", &[&a, &gamma, &beta], &attrs, a.shape.clone(), dt, Kind::Computed);
            }
            2 => {
                self.features.insert("gelu");
                let approx = self.pick_of(&["none", "tanh"]);
                let attrs = format!("approximate = #hl.approx<{approx}>");
                self.emit("hl.gelu", &[&a], &attrs, a.shape.clone(), dt, Kind::Computed);
            }
            _ if rank == 2 || rank == 3 => {
                // [.., m, k] times a new [.., k, n] argument (or its transpose).
                let (m, k) = (a.shape[rank - 2], a.shape[rank - 1]);
                if m * k > 4096 || k > 512 {
                    return;
                }
                let n = self.pick_of(&[1, 3, 16, 33]);
                let batch = &a.shape[..rank - 2];
                let tb = self.chance(40);
                let mut w = batch.to_vec();
                w.extend(if tb { [n, k] } else { [k, n] });
                let w = if self.chance(50) { self.arg(w, dt) } else { self.constant(w, dt) };
                let mut out = batch.to_vec();
                out.extend([m, n]);
                let (op, feature) =
                    if rank == 2 { ("hl.matmul", "matmul") } else { ("hl.batch_matmul", "batch_matmul") };
                self.features.insert(feature);
                let attrs = if tb { "transpose_b = true" } else { "" };
                self.emit(op, &[&a, &w], attrs, out, dt, Kind::Computed);
            }
            _ => self.unary(),
        }
    }

    /// A pooled value of `shape` and `dt`, else a constant or an argument of it.
    fn partner_of_shape(&mut self, shape: Vec<usize>, dt: Dt) -> Val {
        if let Some(v) = self.pick(|v| v.shape == shape && v.dt == dt) {
            return v;
        }
        if self.chance(50) {
            self.constant(shape, dt)
        } else {
            self.arg(shape, dt)
        }
    }

    /// Ops on constants only (folded by the clean-up), whose result then meets a value.
    fn fold(&mut self) {
        let dt = if self.dt == Dt::I1 { Dt::F32 } else { self.dt };
        let shape = if self.chance(50) { self.base.clone() } else { self.variant(&self.base.clone()) };
        let c = self.constant(shape, dt);
        let folded = match self.rng.below(3) {
            0 => {
                let d = self.partner(&c, dt);
                let d = if d.kind.is_const() { d } else { self.constant(c.shape.clone(), dt) };
                let Some(out) = broadcast(&c.shape, &d.shape) else { return };
                let op = self.binary_op(dt);
                self.emit(op, &[&c, &d], "", out, dt, Kind::Folded)
            }
            1 => {
                let mut shape = self.expansion(&c.shape);
                self.shrink(&mut shape, MAX_ELEMS);
                if broadcast(&shape, &c.shape).as_deref() != Some(&shape[..]) {
                    return;
                }
                self.features.insert("broadcast_to");
                self.emit("hl.broadcast_to", &[&c], "", shape, dt, Kind::Folded)
            }
            _ => {
                let op = if dt.is_float() { "hl.exp" } else { "hl.neg" };
                self.emit(op, &[&c], "", c.shape.clone(), dt, Kind::Folded)
            }
        };
        let a = self.value_of(dt);
        let Some(out) = broadcast(&a.shape, &folded.shape).filter(|s| count(s) <= MAX_LONG_ELEMS) else {
            return;
        };
        self.note_broadcast(&[&a, &folded], &out);
        let op = self.binary_op(dt);
        self.emit(op, &[&folded, &a], "", out, dt, Kind::Computed);
    }
}
