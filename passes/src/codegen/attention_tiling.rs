//! An attention kernel's tile (`lower_attention.rs`): `q` query rows stay resident while the
//! keys stream `k` at a time, both multiples of the cube's fractal. [`AttentionTiling::fit`]
//! takes the largest tiles (up to 128 query rows and 256 keys) whose buffers fit the UB, L1,
//! L0A, L0B and L0C; `kiln-codegen-outline` asks it whether a region lowers as one kernel
//! (else as its parts, with [`AttentionTiling::misfit`]'s reason in a remark) and
//! `kiln-codegen-tile` records its choice in `npuvec.tile`. The UB footprint comes from the
//! buffer list the lowering allocates ([`AttentionShape::ub`]), rows padded as [`row_bytes`]
//! pads them for every other tile.

use kiln_compiler::{Attribute, Context, NamedAttr};
use kiln_targets::Target;

use super::build::i64_attr;
use super::tiling::{cdiv, row_bytes};

/// The extent of a dim of an attention kernel's UB buffer at its tiles (`lower_attention.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttentionExtent {
    /// One element.
    One,
    /// The query rows of a tile.
    Queries,
    /// The keys of a tile.
    Keys,
    /// The head dim of V (the output's columns).
    Values,
}

/// What an attention kernel's tile choice reads: the sizes and the UB buffers of one tile
/// (`lower_attention.rs` lists them, [`AttentionTiling::ub_bytes`] sizes them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttentionShape {
    /// Product of the batch and head dims.
    pub batch: i64,
    /// Query length.
    pub sq: i64,
    /// Key length.
    pub skv: i64,
    /// Head dim of Q and K.
    pub d: i64,
    /// Head dim of V.
    pub dv: i64,
    /// Bytes of a Q / K element.
    pub qk_bytes: u64,
    /// Bytes of a P / V element.
    pub pv_bytes: u64,
    /// The UB buffers of one tile: (rows, cols, element bytes).
    pub ub: Vec<(AttentionExtent, AttentionExtent, u64)>,
}

/// An attention kernel's tiling: `q` query rows per work item, keys streamed `k` at a time,
/// both multiples of the cube's fractal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttentionTiling {
    /// Query rows per tile.
    pub q: i64,
    /// Keys per tile.
    pub k: i64,
    /// Cores the kernel runs on.
    pub block_dim: i64,
}

impl AttentionTiling {
    /// The UB bytes of `s`'s buffers at `q x k` tiles: every buffer live at once (an upper
    /// bound of `kiln-codegen-plan-ub`'s placement, rows padded to the alignment).
    pub fn ub_bytes(s: &AttentionShape, target: &Target, q: i64, k: i64) -> u64 {
        let extent = |e: AttentionExtent| match e {
            AttentionExtent::One => 1,
            AttentionExtent::Queries => q.min(s.sq),
            AttentionExtent::Keys => k.min(s.skv),
            AttentionExtent::Values => s.dv,
        };
        s.ub.iter().map(|&(r, c, bytes)| extent(r) as u64 * row_bytes(target, extent(c), bytes)).sum()
    }

    /// Why `q x k` tiles of `s` do not fit `target` (UB within its usable bytes divided by
    /// `shrink`; L1, L0A, L0B, L0C), or `None` when they fit.
    pub fn misfit(s: &AttentionShape, target: &Target, shrink: u64, q: i64, k: i64) -> Option<String> {
        let f = i64::from(target.cube.fractal.max(1));
        let up = |x: i64| (cdiv(x.max(1), f) * f) as u64;
        let (q, k, d, dv) = (q as u64, k as u64, up(s.d), up(s.dv));
        let mem = &target.memory;
        let ub = mem.ub_usable_bytes / shrink.max(1);
        let need = [
            ("UB", Self::ub_bytes(s, target, q as i64, k as i64), ub),
            ("L1", (q * d + d * k) * s.qk_bytes + (q * k + k * dv) * s.pv_bytes, mem.l1_bytes),
            ("L0A", q * d * s.qk_bytes + q * k * s.pv_bytes, mem.l0a_bytes),
            ("L0B", d * k * s.qk_bytes + k * dv * s.pv_bytes, mem.l0b_bytes),
            ("L0C", (q * k + q * dv) * 4, mem.l0c_bytes),
        ];
        need.iter().find(|(_, n, cap)| n > cap).map(|(mem, n, cap)| {
            format!("a {q}x{k} tile of queries and keys needs {n} bytes of {mem}, {cap} available")
        })
    }

    /// The largest tiles of `s` (up to 128 query rows and 256 keys, halving the larger) that
    /// fit `target` ([`AttentionTiling::misfit`]); `Err`: why a fractal tile does not.
    pub fn fit(s: &AttentionShape, target: &Target, shrink: u64) -> Result<AttentionTiling, String> {
        let f = i64::from(target.cube.fractal.max(1));
        let up = |x: i64| cdiv(x.max(1), f) * f;
        let (mut q, mut k) = (up(s.sq).min(128), up(s.skv).min(256));
        while let Some(why) = Self::misfit(s, target, shrink, q, k) {
            if k > f && k >= q {
                k = (k / 2 / f).max(1) * f;
            } else if q > f {
                q = (q / 2 / f).max(1) * f;
            } else {
                return Err(why);
            }
        }
        let tiles = s.batch * cdiv(s.sq, q);
        Ok(AttentionTiling { q, k, block_dim: tiles.clamp(1, i64::from(target.cores.cube.max(1))) })
    }

    /// The `npuvec.tile` attribute: `{block_dim = N, k = K, q = Q}`.
    pub fn attr<'c>(&self, ctx: &Context<'c>) -> Attribute<'c> {
        let e = |n: &str, v: i64| NamedAttr { name: ctx.intern_str(n), value: i64_attr(ctx, v) };
        ctx.dict_attr(&[e("q", self.q), e("k", self.k), e("block_dim", self.block_dim)])
    }

    /// Reads an `npuvec.tile` attribute of an attention kernel.
    pub fn from_attr(attr: Attribute<'_>) -> Option<AttentionTiling> {
        let get = |n: &str| attr.dict_get(n).and_then(|a| a.as_int()).map(|v| v as i64).filter(|&v| v >= 1);
        Some(AttentionTiling { q: get("q")?, k: get("k")?, block_dim: get("block_dim")? })
    }
}
