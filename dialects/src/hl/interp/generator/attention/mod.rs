//! Random attention programs in primitive `hl`, written as exporters emit them, for the VM
//! differential of attention (issue 42) and as the oracle of a fused attention kernel.
//!
//! A program is drawn as an [`Attention`] (every choice explicit) and written out by
//! [`Attention::program`]:
//! - **heads**: Q, K and V `[B, H, S, D]`, or `[B, S, H * D]` split into heads by a reshape and
//!   a transpose (the result merged back the same way), as the ONNX exporters write them;
//! - **grouped-query attention**: K and V with `H / g` heads, repeated `g` times by
//!   `expand_dims`, `broadcast_to` and `reshape` (Hugging Face's `repeat_kv`);
//! - **QK^T**: `hl.batch_matmul` of Q and K transposed by `hl.transpose` or by the matmul's
//!   `transpose_b` flag;
//! - **scale**: a `hl.mul` by `1/sqrt(D)` or `hl.div` by `sqrt(D)` of the scores, a `hl.mul`
//!   of Q before the matmul, none, or a large one (logits in the hundreds);
//! - **mask**: none; an additive tensor argument (padding `[B, 1, 1, Skv]`, `[1, 1, Sq, Skv]`,
//!   `[Sq, Skv]` or full); a causal mask as a dense constant, from `hl.iota` and `hl.cmp`, or
//!   from `hl.trilu` of ones (GPT-2's export), applied by `hl.add` or `hl.select`; a boolean
//!   argument applied by `hl.select`. The fill is -inf, the dtype's lowest value, -1e4 or (f32)
//!   -1e9; a causal frontier shifted past the diagonal masks whole rows;
//! - **softmax**: decomposed (reduce_max, sub, exp, reduce_sum, div) or `hl.softmax`, on f16 /
//!   bf16 at times in f32 between two casts;
//! - **PV**: `hl.batch_matmul` of the probabilities and V;
//! - **sizes**: sequence lengths 1, odd and even, decoder steps (`Sq` < `Skv`), at times a key
//!   row of 1500 or 4099 (longer than the tiny target's 16 KiB UB holds beside its other
//!   buffers); head dims 1 to 64; f32, f16 and bf16.
//!
//! A fully masked row of scores (every key at -inf) gives NaN in the interpreter, as
//! `torch.softmax` does: `max = -inf` and `-inf - -inf` is NaN. Under a finite fill the row
//! is uniform. Each program reports the [`ATTENTION_FEATURES`] it exercises.

mod draw;
#[cfg(test)]
mod tests;
mod write;

pub use draw::attention_program;

/// Every feature an attention program can report.
pub const ATTENTION_FEATURES: &[&str] = &[
    "dtype f32",
    "dtype f16",
    "dtype bf16",
    "heads split by reshape and transpose",
    "grouped-query heads",
    "batch > 1",
    "query length 1",
    "decoder step (Sq < Skv)",
    "long key row",
    "K transposed by hl.transpose",
    "K transposed by transpose_b",
    "scale by mul",
    "scale by div",
    "scale of Q",
    "no scale",
    "large logits",
    "mask argument",
    "mask broadcast",
    "causal dense constant",
    "causal from iota and cmp",
    "causal from trilu",
    "boolean mask argument",
    "fill -inf",
    "fill finite",
    "fully masked rows",
    "softmax decomposed",
    "softmax composite",
    "softmax in f32 between casts",
];

/// How Q, K, V come in and the result goes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heads {
    /// `[B, H, S, D]` arguments and result.
    Split,
    /// `[B, S, H * D]` arguments and result, split into heads and merged back in the program.
    Merged,
}

/// How K reaches the first matmul transposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyT {
    /// `hl.transpose` of its last two dims.
    Transpose,
    /// The matmul's `transpose_b` flag.
    Flag,
}

/// The scale of the scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// None.
    None,
    /// `scores * c`.
    Mul(f64),
    /// `scores / c`.
    Div(f64),
    /// `Q * c` before the matmul.
    Query(f64),
}

/// The shape of an additive mask argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskShape {
    /// `[B, 1, 1, Skv]` (key padding, BERT).
    Padding,
    /// `[1, 1, Sq, Skv]`.
    Square4,
    /// `[Sq, Skv]`.
    Square2,
    /// `[B, H, Sq, Skv]`.
    Full,
}

/// How a causal mask is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causal {
    /// A dense `[Sq, Skv]` constant of 0 and the fill, added.
    Dense,
    /// `iota` of both dims, `cmp gt`, `select` of the fill.
    Iota,
    /// `trilu` of ones, `cmp eq 0`, `select` of the fill (GPT-2's export).
    Trilu,
}

/// The mask.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mask {
    /// None.
    None,
    /// An additive argument of a [`MaskShape`].
    Input(MaskShape),
    /// Query `i` sees key `j` when `j <= i + Skv - Sq - shift`, masked with `fill`.
    Causal {
        /// How the mask is built.
        how: Causal,
        /// How far the frontier moves left of the diagonal (rows `i < shift` see no key).
        shift: usize,
        /// The masked scores' value.
        fill: f64,
    },
    /// A `[B, 1, Sq, Skv]` boolean argument (true: attend), applied by `select` with `fill`.
    Bool {
        /// The masked scores' value.
        fill: f64,
    },
}

/// How the softmax is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Softmax {
    /// reduce_max, sub, exp, reduce_sum, div.
    Decomposed,
    /// `hl.softmax` (decomposed by `hl-decompose`).
    Composite,
}

/// One attention program, every choice explicit.
#[derive(Clone, Debug, PartialEq)]
pub struct Attention {
    /// Element type: `f32`, `f16` or `bf16`.
    pub dtype: &'static str,
    /// Batch.
    pub batch: usize,
    /// Query heads (a multiple of `kv_heads`).
    pub heads: usize,
    /// Key and value heads.
    pub kv_heads: usize,
    /// Query length.
    pub q_len: usize,
    /// Key length.
    pub kv_len: usize,
    /// Head dim.
    pub head_dim: usize,
    /// How Q, K, V come in.
    pub layout: Heads,
    /// How K is transposed.
    pub key: KeyT,
    /// The scale.
    pub scale: Scale,
    /// The mask.
    pub mask: Mask,
    /// The softmax.
    pub softmax: Softmax,
    /// Whether an f16 / bf16 softmax runs in f32 between two casts.
    pub softmax_f32: bool,
}

impl Attention {
    /// The attention of issue 42's baseline at sequence length `s`: `heads` heads of 64 as
    /// `[1, heads, s, 64]` arguments, f32, K by `hl.transpose`, scores divided by 8, a key
    /// padding mask, the softmax as exporters decompose it.
    pub fn baseline(s: usize, heads: usize) -> Attention {
        Attention {
            dtype: "f32",
            batch: 1,
            heads,
            kv_heads: heads,
            q_len: s,
            kv_len: s,
            head_dim: 64,
            layout: Heads::Split,
            key: KeyT::Transpose,
            scale: Scale::Div(8.0),
            mask: Mask::Input(MaskShape::Padding),
            softmax: Softmax::Decomposed,
            softmax_f32: false,
        }
    }

    /// Whether some row of the scores has every key masked by construction (a boolean mask
    /// argument may mask rows too, depending on its values).
    pub fn masks_whole_rows(&self) -> bool {
        matches!(self.mask, Mask::Causal { shift, .. } if shift + self.q_len > self.kv_len)
    }
}
