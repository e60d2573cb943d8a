//! Drawing an [`Attention`] from a seed, and the features it exercises.

use std::collections::BTreeSet;

use super::super::super::random::SplitMix64;
use super::super::Program;
use super::write::lowest;
use super::{Attention, Causal, Heads, KeyT, Mask, MaskShape, Scale, Softmax};

/// Elements of the scores above which the lengths are halved (all but a long key row).
const MAX_SCORES: usize = 4096;
/// Elements of Q, K or V above which the head dim is halved.
const MAX_QKV: usize = 8192;

/// The attention program of `seed`: [`Attention::draw`] written by [`Attention::program`].
pub fn attention_program(seed: u64) -> Program {
    let a = Attention::draw(seed);
    Program { text: a.program(), features: a.features() }
}

fn pick<T: Copy>(rng: &mut SplitMix64, xs: &[T]) -> T {
    xs[rng.below(xs.len())]
}

impl Attention {
    /// The attention of `seed`: every choice of [`Attention`] drawn, small shapes (at most 4096
    /// scores, 8192 elements of Q, K or V), at times one or two query rows of 1500 or 4099 keys.
    pub fn draw(seed: u64) -> Attention {
        let mut rng = SplitMix64(seed ^ 0xA77E_4710);
        let dtype = pick(&mut rng, &["f32", "f32", "f16", "bf16"]);
        let mut kv_heads = pick(&mut rng, &[1, 1, 2, 3]);
        let ratio = pick(&mut rng, &[1, 1, 2, 4]);
        let mut batch = pick(&mut rng, &[1, 1, 2]);
        let mut head_dim = pick(&mut rng, &[1, 3, 8, 16, 16, 33, 64]);
        let long = rng.below(100) < 6;
        let (mut q_len, mut kv_len) = if long {
            // One or two query rows of 1500 or 4099 keys, few heads and a small head dim.
            (batch, kv_heads, head_dim) = (1, 1, head_dim.min(8));
            (pick(&mut rng, &[1, 2]), pick(&mut rng, &[1500, 4099]))
        } else {
            let q = pick(&mut rng, &[1, 3, 5, 8, 16, 33]);
            let kv = if rng.below(4) == 0 { pick(&mut rng, &[1, 7, 16, 33, 64]).max(q) } else { q };
            (q, kv)
        };
        let heads = kv_heads * ratio.min(if long { 2 } else { 4 });
        while !long && batch * heads * q_len * kv_len > MAX_SCORES {
            q_len = q_len.div_ceil(2);
            kv_len = kv_len.div_ceil(2);
        }
        let longest = q_len.max(kv_len) * batch * heads;
        while !long && head_dim > 1 && longest * head_dim > MAX_QKV {
            head_dim = head_dim.div_ceil(2);
        }
        let root = (head_dim as f64).sqrt();
        let scale = match rng.below(10) {
            0..=3 => Scale::Mul(1.0 / root),
            4..=6 => Scale::Div(root),
            7 => Scale::Query(1.0 / root),
            8 => Scale::None,
            _ => Scale::Mul(pick(&mut rng, &[8.0, 32.0])),
        };
        let fill = match rng.below(4) {
            0 => f64::NEG_INFINITY,
            1 => lowest(dtype),
            2 if dtype == "f32" => -1e9,
            _ => -1e4,
        };
        let mask = match rng.below(10) {
            0 | 1 => Mask::None,
            2..=4 => Mask::Input(pick(
                &mut rng,
                &[
                    MaskShape::Padding,
                    MaskShape::Padding,
                    MaskShape::Square4,
                    MaskShape::Square2,
                    MaskShape::Full,
                ],
            )),
            5..=8 => {
                let how = if q_len * kv_len > 1024 {
                    pick(&mut rng, &[Causal::Iota, Causal::Trilu])
                } else {
                    pick(&mut rng, &[Causal::Dense, Causal::Iota, Causal::Trilu])
                };
                // A third of the frontiers leave the first row(s) with no key.
                let diagonal = kv_len - q_len;
                let shift =
                    if rng.below(3) == 0 { diagonal + 1 + rng.below(2) } else { rng.below(2).min(diagonal) };
                Mask::Causal { how, shift, fill }
            }
            _ => Mask::Bool { fill },
        };
        Attention {
            dtype,
            batch,
            heads,
            kv_heads,
            q_len,
            kv_len,
            head_dim,
            layout: if rng.below(2) == 0 { Heads::Split } else { Heads::Merged },
            key: if rng.below(2) == 0 { KeyT::Transpose } else { KeyT::Flag },
            scale,
            mask,
            softmax: if rng.below(3) == 0 { Softmax::Composite } else { Softmax::Decomposed },
            softmax_f32: dtype != "f32" && rng.below(2) == 0,
        }
    }

    /// The [`super::ATTENTION_FEATURES`] this attention exercises.
    pub fn features(&self) -> BTreeSet<&'static str> {
        let mut f = BTreeSet::new();
        f.insert(match self.dtype {
            "f16" => "dtype f16",
            "bf16" => "dtype bf16",
            _ => "dtype f32",
        });
        let mut add = |yes: bool, name: &'static str| {
            if yes {
                f.insert(name);
            }
        };
        add(self.layout == Heads::Merged, "heads split by reshape and transpose");
        add(self.kv_heads != self.heads, "grouped-query heads");
        add(self.batch > 1, "batch > 1");
        add(self.q_len == 1, "query length 1");
        add(self.q_len < self.kv_len, "decoder step (Sq < Skv)");
        add(self.kv_len >= 1500, "long key row");
        add(self.key == KeyT::Transpose, "K transposed by hl.transpose");
        add(self.key == KeyT::Flag, "K transposed by transpose_b");
        add(matches!(self.scale, Scale::Mul(_)), "scale by mul");
        add(matches!(self.scale, Scale::Div(_)), "scale by div");
        add(matches!(self.scale, Scale::Query(_)), "scale of Q");
        add(self.scale == Scale::None, "no scale");
        add(matches!(self.scale, Scale::Mul(c) if c > 1.0), "large logits");
        add(matches!(self.mask, Mask::Input(_)), "mask argument");
        add(matches!(self.mask, Mask::Input(s) if s != MaskShape::Full), "mask broadcast");
        let causal = |how| matches!(self.mask, Mask::Causal { how: h, .. } if h == how);
        add(causal(Causal::Dense), "causal dense constant");
        add(causal(Causal::Iota), "causal from iota and cmp");
        add(causal(Causal::Trilu), "causal from trilu");
        add(matches!(self.mask, Mask::Bool { .. }), "boolean mask argument");
        if let Mask::Causal { fill, .. } | Mask::Bool { fill } = self.mask {
            add(fill == f64::NEG_INFINITY, "fill -inf");
            add(fill.is_finite(), "fill finite");
        }
        add(self.masks_whole_rows(), "fully masked rows");
        add(self.softmax == Softmax::Decomposed, "softmax decomposed");
        add(self.softmax == Softmax::Composite, "softmax composite");
        add(self.softmax_f32 && self.dtype != "f32", "softmax in f32 between casts");
        f
    }
}
