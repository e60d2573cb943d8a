//! `kiln-fuse`: groups `hl` ops into `fused.region`s, one region per kernel.
//!
//! Rewrites: in every block under the anchor (not inside existing regions), clusters of
//! fusable `hl` ops become `fused.region`s of kind `vector`, `cube` or `mix`, built by
//! `kiln_dialects::fused::build_region` at the position of the cluster's last op, each with its
//! number as `id` (`attributes {id = 3 : i64}`), the number its remark, its `report=` entry and
//! its DOT cluster carry (numbers continue after the ids already in the IR). The rules
//! (elementwise chains, reduce-forward, stitching, CV/mix epilogues, horizontal/multi-output,
//! layout ops), the legality checks (convexity/no cycles, HBM traffic must drop, UB budget from
//! the target, `max-ops`, `max-depth`) and the cost model are documented in
//! `fusion/cluster.rs` and `fusion/model.rs`; the options in `fusion/options.rs`; rules files
//! in `fusion/rules.rs`. At opt-level 2 (option `attention`, on by default) each attention
//! (QK^T, scale, mask, softmax, PV, as exporters write it) becomes one region of kind
//! `attention` when the block then needs no more kernels, its `parts` the kernels the
//! clustering would have made of it (`fusion/attention.rs`); a remark says why each candidate
//! that does not form one does not.
//!
//! Assumes: verified IR; composites decomposed (`hl-decompose`) for best results (composites
//! are opaque and stay alone); a block whose ops use values defined after them (a graph
//! region, such as one of an unregistered op) is left as it is. Guarantees: verified IR
//! computing bit-identical results (the ops are moved, never changed); deterministic output;
//! one remark per decision with `remarks=true`; progress lines on stderr with `progress=true`
//! (`fusion/progress.rs`); time linear in the ops and uses of each block (each merge attempt
//! costs O(`max-ops`)); a block holding attention candidates is planned again once per
//! candidate variant (with and without its prologue) and once per variant for its fallback
//! parts. Nested under `func.func`, one pipeline run numbers regions across all
//! functions and its `report=`/`dot=` files cover all of them (see `fusion::FuseRun`).

use crate::fusion::options::{FusionOptions, SPECS};
use crate::fusion::FuseRun;

kiln_compiler::declare_pass! {
    struct KilnFuse {
        opts: FusionOptions,
        run: FuseRun,
    }
    name: "kiln-fuse",
    summary: "Fuse elementwise, reduce and matmul-epilogue chains into fused.region kernels",
    description: "Clusters hl ops into fused.region ops (vector / cube / mix) under the target's UB budget, \
                  with opt-level, enable/disable lists, rules files and remarks for every decision.",
    options: SPECS,
    create(o) {
        Ok(KilnFuse { opts: FusionOptions::from_pass_options(o)?, run: FuseRun::default() })
    }

    fn run(&mut self, cx, root) {
        crate::fusion::fuse(cx, root, &self.opts, &mut self.run)
    }

    fn begin_run(&mut self) {
        self.run = FuseRun::default();
    }
}
