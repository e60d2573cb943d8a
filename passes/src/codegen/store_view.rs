//! The layout a matmul kernel stores its result in: the result `C[batch.., M, N]` followed by
//! a chain of views and transposes (`reshape`, `expand_dims`, `squeeze`, `transpose`) up to
//! the kernel's output, composed into GM strides of `C`'s dims, so that the matmul and the
//! head split or merge of attention (`[S, H*D] -> [S, H, D] -> [H, S, D]` and back) are one
//! kernel whose stores write the permuted layout directly.
//!
//! Composition runs backwards from the output's dense strides: a transpose permutes the dims'
//! strides; a reshape regroups them, row-major, splitting a dim's stride into an outer and an
//! inner part where a dim of the source spans part of it. Each dim of `C` ends as a list of
//! `(size, stride)` factors, outer first (adjacent factors that compose are merged). Batch dims
//! and `M` must come out as one factor each and `N` as one or two (`H` heads of `D`): a result
//! tile of `n` columns is then one strided store when it covers whole heads (`n % D == 0`) or
//! lies inside one (`D % n == 0`); the tile pass picks such an `n`.

use kiln_compiler::{BlockId, Ir, OpId, ValueId};
use kiln_dialects::hl::accessors::int_list;
use kiln_dialects::{bufferization, hl};

use super::model::dense_strides;

/// How the result's columns map to GM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cols {
    /// Column `j` at `j * stride`.
    One(i64),
    /// Column `h * d + i` (`h < heads`, `i < d`) at `h * head_stride + i * stride`.
    Heads {
        /// Columns per head.
        d: i64,
        /// The GM stride of a head.
        head_stride: i64,
        /// The GM stride of a column inside a head.
        stride: i64,
    },
}

/// The GM strides of a matmul result's dims in the kernel output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreView {
    /// The stride of each batch dim.
    pub batch: Vec<i64>,
    /// The stride of a row.
    pub m: i64,
    /// The columns.
    pub n: Cols,
}

/// One dim as `(size, stride)` factors, outer first (none for a dim of size 1).
pub type Factors = Vec<(i64, i64)>;

/// Whether `op` is a view or transpose a store can absorb.
pub fn is_chain_op(ir: &Ir<'_>, op: OpId) -> bool {
    ir.is_any(op, &[&hl::RESHAPE, &hl::EXPAND_DIMS, &hl::SQUEEZE, &hl::TRANSPOSE])
}

impl StoreView {
    /// The view of a kernel body that is one matmul followed only by a chain of views and
    /// transposes, each the single user of the one before, the last the kernel's only output
    /// (returned, or after bufferization written to the output buffer): the chain and its view.
    /// `None` when the body is anything else.
    pub fn of_body(ir: &Ir<'_>, body: BlockId) -> Option<(Vec<OpId>, StoreView)> {
        let hl: Vec<OpId> =
            ir.block_ops(body).filter(|&o| hl::HL.owns(ir.op(o).def) && !ir.is(o, &hl::CONSTANT)).collect();
        let (&mm, chain) = hl.split_first()?;
        let mut outputs: Vec<ValueId> = ir.operands(ir.last_op(body)?).to_vec();
        outputs.extend(
            ir.block_ops(body)
                .filter(|&o| ir.is(o, &bufferization::MATERIALIZE_IN_DESTINATION_OP))
                .map(|o| ir.operands(o)[0]),
        );
        Self::of_ops(ir, mm, chain, &outputs)
    }

    /// The view of `chain` after `mm` when it is a linear chain ending in the only value of
    /// `outputs`.
    pub fn of_ops(
        ir: &Ir<'_>,
        mm: OpId,
        chain: &[OpId],
        outputs: &[ValueId],
    ) -> Option<(Vec<OpId>, StoreView)> {
        if chain.is_empty() || !ir.is_any(mm, &[&hl::MATMUL, &hl::BATCH_MATMUL]) {
            return None;
        }
        let mut prev = ir.results(mm)[0];
        for &op in chain {
            let single_use = ir.uses(prev).len() == 1;
            if !is_chain_op(ir, op) || ir.operands(op).first() != Some(&prev) || !single_use {
                return None;
            }
            prev = ir.results(op)[0];
        }
        if outputs != [prev] {
            return None;
        }
        let shape = |v| ir.value_type(v).shape().map(<[i64]>::to_vec);
        let out_shape = shape(prev)?;
        let mut dims: Vec<Factors> = out_shape
            .iter()
            .zip(dense_strides(&out_shape))
            .map(|(&d, s)| if d == 1 { vec![] } else { vec![(d, s)] })
            .collect();
        for &op in chain.iter().rev() {
            let x_shape = shape(ir.operands(op)[0])?;
            dims = if ir.is(op, &hl::TRANSPOSE) {
                let perm = int_list(ir.attr(op, "perm")).ok()?;
                let mut x = vec![Factors::new(); x_shape.len()];
                for (j, &p) in perm.iter().enumerate() {
                    *x.get_mut(usize::try_from(p).ok()?)? = dims.get(j)?.clone();
                }
                x
            } else {
                regroup(&dims, &x_shape)?
            };
        }
        let c = shape(ir.results(mm)[0])?;
        let r = c.len();
        let one = |f: &Factors| match f.as_slice() {
            [] => Some(0),
            [(_, s)] => Some(*s),
            _ => None,
        };
        let batch = dims[..r - 2].iter().map(one).collect::<Option<Vec<_>>>()?;
        let m = one(&dims[r - 2])?;
        let n = match dims[r - 1].as_slice() {
            [] => Cols::One(0),
            [(_, s)] => Cols::One(*s),
            [_, (d, stride)] => Cols::Heads { d: *d, head_stride: dims[r - 1][0].1, stride: *stride },
            _ => return None,
        };
        Some((chain.to_vec(), StoreView { batch, m, n }))
    }

    /// Whether result tiles of `tn` columns (of `n` in all) each store as one strided block.
    pub fn n_tile_ok(&self, n: i64, tn: i64) -> bool {
        match self.n {
            Cols::One(_) => true,
            Cols::Heads { d, .. } => tn >= n || tn % d == 0 || d % tn == 0,
        }
    }
}

/// The factors of a reshape's source dims (`x_shape`) from its result's `dims`: both walk the
/// same row-major order, so the result's factors are consumed outer first, a factor split where
/// a source dim takes only its outer part.
pub fn regroup(dims: &[Factors], x_shape: &[i64]) -> Option<Vec<Factors>> {
    let mut flat: std::collections::VecDeque<(i64, i64)> = dims.iter().flatten().copied().collect();
    let mut out = Vec::with_capacity(x_shape.len());
    for &dx in x_shape {
        let mut need = dx;
        let mut f = Factors::new();
        while need > 1 {
            let (size, stride) = flat.pop_front()?;
            if size <= need {
                if need % size != 0 {
                    return None;
                }
                f.push((size, stride));
                need /= size;
            } else {
                if size % need != 0 {
                    return None;
                }
                let inner = size / need;
                f.push((need, stride * inner));
                flat.push_front((inner, stride));
                need = 1;
            }
        }
        // Merge adjacent factors that compose into one.
        let mut merged: Factors = Vec::with_capacity(f.len());
        for (size, stride) in f {
            match merged.last_mut() {
                Some(last) if last.1 == size * stride => *last = (last.0 * size, stride),
                _ => merged.push((size, stride)),
            }
        }
        out.push(merged);
    }
    flat.is_empty().then_some(out)
}
