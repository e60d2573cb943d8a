//! The layout steps of a coverage program: transpose, reshape (to rank 8), slice, broadcast_to,
//! expand_dims, squeeze, concat and pad.

use std::fmt::Write;

use super::{broadcast, count, list, Dt, Gen, Kind, Val, MAX_LONG_ELEMS};

impl Gen {
    pub(super) fn layout(&mut self) {
        let dt = self.dt;
        let a = self.value_of(dt);
        let rank = a.shape.len();
        match self.rng.below(10) {
            0 if rank <= 5 && count(&a.shape) <= 4096 => self.high_rank(&a),
            1 | 2 if rank >= 2 => {
                let mut perm: Vec<usize> = (0..rank).collect();
                for j in (1..rank).rev() {
                    perm.swap(j, self.rng.below(j + 1));
                }
                self.transpose(&a, &perm);
            }
            3 => {
                let shape = self.regroup(&a.shape);
                self.features.insert("reshape");
                self.emit("hl.reshape", &[&a], "", shape, dt, Kind::Computed);
            }
            4 if rank >= 1 => self.slice(&a),
            5 => {
                let mut shape = self.expansion(&a.shape);
                self.shrink(&mut shape, MAX_LONG_ELEMS);
                if broadcast(&shape, &a.shape).as_deref() == Some(&shape[..]) {
                    self.features.insert("broadcast_to");
                    self.emit("hl.broadcast_to", &[&a], "", shape, dt, Kind::Computed);
                }
            }
            6 if rank < 8 => {
                let axis = self.rng.below(rank + 1);
                let mut shape = a.shape.clone();
                shape.insert(axis, 1);
                self.features.insert("expand_dims");
                self.emit(
                    "hl.expand_dims",
                    &[&a],
                    &format!("axis = {axis} : i64"),
                    shape,
                    dt,
                    Kind::Computed,
                );
            }
            7 if a.shape.contains(&1) => {
                let axes: Vec<i64> =
                    (0..rank).filter(|&j| a.shape[j] == 1 && self.chance(70)).map(|j| j as i64).collect();
                let shape: Vec<usize> =
                    (0..rank).filter(|&j| !axes.contains(&(j as i64))).map(|j| a.shape[j]).collect();
                self.features.insert("squeeze");
                self.emit("hl.squeeze", &[&a], &format!("axes = {}", list(&axes)), shape, dt, Kind::Computed);
            }
            8 if rank >= 1 => self.concat(&a),
            9 if rank >= 1 && dt != Dt::I1 => self.pad(&a),
            _ => {
                let shape = self.regroup(&a.shape);
                self.features.insert("reshape");
                self.emit("hl.reshape", &[&a], "", shape, dt, Kind::Computed);
            }
        }
    }

    fn transpose(&mut self, a: &Val, perm: &[usize]) -> Val {
        self.features.insert("transpose");
        let shape: Vec<usize> = perm.iter().map(|&p| a.shape[p]).collect();
        let p: Vec<i64> = perm.iter().map(|&p| p as i64).collect();
        self.emit("hl.transpose", &[a], &format!("perm = {}", list(&p)), shape, a.dt, Kind::Computed)
    }

    /// A value reshaped to rank 6 to 8 and transposed, then brought back.
    fn high_rank(&mut self, a: &Val) {
        self.features.insert("rank 6+ layout");
        let target = 6 + self.rng.below(3);
        let mut shape = self.regroup(&a.shape);
        while shape.len() < target {
            shape.insert(self.rng.below(shape.len() + 1), 1);
        }
        self.features.insert("reshape");
        let r = self.emit("hl.reshape", &[a], "", shape, a.dt, Kind::Computed);
        let mut perm: Vec<usize> = (0..r.shape.len()).collect();
        for j in (1..perm.len()).rev() {
            perm.swap(j, self.rng.below(j + 1));
        }
        let t = self.transpose(&r, &perm);
        if self.chance(50) {
            let back = self.regroup(&t.shape);
            self.emit("hl.reshape", &[&t], "", back, a.dt, Kind::Computed);
        }
    }

    /// A shape of the same element count, the factors regrouped (rank 0 to 8).
    fn regroup(&mut self, shape: &[usize]) -> Vec<usize> {
        let mut factors = Vec::new();
        for &d in shape {
            let mut d = d;
            let mut p = 2;
            while d > 1 {
                while d % p == 0 {
                    factors.push(p);
                    d /= p;
                }
                p += 1;
            }
        }
        for j in (1..factors.len()).rev() {
            factors.swap(j, self.rng.below(j + 1));
        }
        let rank = self.rng.below(factors.len().min(8) + 1).max(usize::from(!factors.is_empty()));
        let mut out = vec![1usize; rank];
        for (i, f) in factors.into_iter().enumerate() {
            if rank == 0 {
                break;
            }
            let j = if i < rank { i } else { self.rng.below(rank) };
            out[j] *= f;
        }
        if rank < 8 && self.chance(25) {
            out.insert(self.rng.below(rank + 1), 1);
        }
        out
    }

    fn slice(&mut self, a: &Val) {
        self.features.insert("slice");
        let rank = a.shape.len();
        let (mut starts, mut limits, mut strides, mut shape) = (vec![], vec![], vec![], vec![]);
        let strided = self.chance(30);
        for j in 0..rank {
            let d = a.shape[j] as i64;
            let s = if d > 1 && self.chance(50) { self.rng.range(0, d) } else { 0 };
            let l = if self.chance(50) { self.rng.range(s + 1, d + 1) } else { d };
            let st = if strided && l - s > 1 { self.rng.range(1, 4) } else { 1 };
            starts.push(s);
            limits.push(l);
            strides.push(st);
            shape.push(((l - s + st - 1) / st) as usize);
        }
        let mut attrs = format!("limits = {}, starts = {}", list(&limits), list(&starts));
        if strided {
            self.features.insert("strided slice");
            let _ = write!(attrs, ", strides = {}", list(&strides));
        }
        self.emit("hl.slice", &[a], &attrs, shape, a.dt, Kind::Computed);
    }

    fn concat(&mut self, a: &Val) {
        self.features.insert("concat");
        let axis = self.rng.below(a.shape.len());
        let mut other = a.shape.clone();
        other[axis] = self.pick_of(&[1, 2, 3]);
        let partner = if self.chance(30) {
            a.clone()
        } else {
            let shape = other.clone();
            match self.pick(|v| v.dt == a.dt && v.shape == shape) {
                Some(v) => v,
                None if self.chance(50) => self.constant(other, a.dt),
                None => self.arg(other, a.dt),
            }
        };
        let mut shape = a.shape.clone();
        shape[axis] += partner.shape[axis];
        let (x, y) = if self.chance(50) { (a, &partner) } else { (&partner, a) };
        self.emit("hl.concat", &[x, y], &format!("axis = {axis} : i64"), shape, a.dt, Kind::Computed);
    }

    fn pad(&mut self, a: &Val) {
        self.features.insert("pad");
        let rank = a.shape.len();
        let (mut low, mut high, mut shape) = (vec![], vec![], vec![]);
        for j in 0..rank {
            let (l, h) = if self.chance(50) { (self.rng.range(0, 3), self.rng.range(0, 3)) } else { (0, 0) };
            low.push(l);
            high.push(h);
            shape.push(a.shape[j] + (l + h) as usize);
        }
        let value = match a.dt {
            Dt::I32 | Dt::I64 | Dt::I8 => format!("{} : {}", self.rng.range(-2, 3), a.dt.name()),
            dt => format!("{} : {}", self.pick_of(&["0.0", "1.0", "-2.5"]), dt.name()),
        };
        let attrs = format!("high = {}, low = {}, value = {value}", list(&high), list(&low));
        self.emit("hl.pad", &[a], &attrs, shape, a.dt, Kind::Computed);
    }
}
