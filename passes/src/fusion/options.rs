//! The options of `kiln-fuse`, with one parser for both spellings users know:
//! the pipeline option syntax (`kiln-fuse{opt-level=2 max-ops=32}`) and a flags string in the
//! style of the runtime fusion switches (`fusion-flags="--opt_level=1
//! --enable_ops=MatMul,BatchMatMul"`). Both end in one key-by-key parser
//! (`RawOptions::apply`): keys are normalized (leading dashes dropped, `_` read as `-`, an
//! optional `kiln-fusion-` prefix dropped), so `--kiln-fusion-remarks` in a flags string is `remarks=true`.
//!
//! Op names in lists are the CamelCase of `hl` op names (`MatMul` = `hl.matmul`,
//! `BatchMatMul`, `Add`, `ReduceSum`, `Gelu`); `hl.add` and `add` are accepted too.

use kiln_compiler::pass::{OptionKind, PassOptionSpec, PassOptions};
use kiln_compiler::OpDef;

use super::rules::{load_rules, Rule};
use kiln_targets::{Target, DEFAULT_TARGET};

/// How eagerly regions grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Never emits an intermediate as an extra output; no horizontal fusion.
    Conservative,
    /// What the opt-level enables.
    Balanced,
    /// Stitching, multi-output and horizontal fusion even at opt-level 1.
    Aggressive,
}

/// The declared options (pipeline syntax); the flags string accepts the same keys.
pub const SPECS: &[PassOptionSpec] = &[
    spec(
        "opt-level",
        "0: off; 1: elementwise + reduce-forward; 2: adds stitch, CV and horizontal",
        OptionKind::UInt,
        "1",
    ),
    spec(
        "enable-ops",
        "Ops fused although off by default (CamelCase: MatMul,BatchMatMul)",
        OptionKind::List,
        "",
    ),
    spec("disable-ops", "Ops never fused", OptionKind::List, ""),
    spec("enable-ops-only", "When given, only these ops are fused", OptionKind::List, ""),
    spec("max-ops", "At most this many ops in one region", OptionKind::UInt, "64"),
    spec("max-depth", "At most this long a chain of ops in one region (0: unlimited)", OptionKind::UInt, "0"),
    spec("ub-budget", "Percent of the target's UB a region's tile may use", OptionKind::UInt, "80"),
    spec(
        "strategy",
        "conservative, balanced or aggressive",
        OptionKind::Enum(&["conservative", "balanced", "aggressive"]),
        "balanced",
    ),
    spec(
        "attention",
        "Form attention regions (opt-level 2; lowered as today's kernels until a flash-attention kernel exists)",
        OptionKind::Bool,
        "true",
    ),
    spec("rules", "A TOML or JSON file of force/forbid rules", OptionKind::String, ""),
    spec("precision-guard", "Ops not fused in f16/bf16 unless a rule forces them", OptionKind::List, ""),
    spec("target", "Target name or path to a target TOML file", OptionKind::String, DEFAULT_TARGET),
    spec("remarks", "One remark per fusion decision", OptionKind::Bool, "false"),
    spec("progress", "Report progress on stderr while fusing (for large graphs)", OptionKind::Bool, "false"),
    spec("report", "Write a JSON report of the regions to this file", OptionKind::String, ""),
    spec("dot", "Write a DOT graph with regions as clusters to this file", OptionKind::String, ""),
    spec(
        "fusion-flags",
        "Flags in the runtime style: \"--opt_level=2 --enable_ops=MatMul\"",
        OptionKind::String,
        "",
    ),
];

const fn spec(
    name: &'static str,
    help: &'static str,
    kind: OptionKind,
    default: &'static str,
) -> PassOptionSpec {
    PassOptionSpec { name, help, kind, default }
}

/// The parsed options of one `kiln-fuse` instance.
#[derive(Clone, Debug)]
pub struct FusionOptions {
    /// 0 (off), 1 or 2.
    pub opt_level: u32,
    /// Ops fused although off by default.
    pub enable_ops: Vec<&'static OpDef>,
    /// Ops never fused.
    pub disable_ops: Vec<&'static OpDef>,
    /// When non-empty, only these ops fuse.
    pub enable_ops_only: Vec<&'static OpDef>,
    /// Size cap of a region.
    pub max_ops: usize,
    /// Longest chain in a region (0: unlimited).
    pub max_depth: usize,
    /// Percent of the UB a region may use.
    pub ub_budget: u64,
    /// Strategy.
    pub strategy: Strategy,
    /// Form attention regions (at opt-level 2).
    pub attention: bool,
    /// Force/forbid rules.
    pub rules: Vec<Rule>,
    /// Ops not fused in f16/bf16 unless forced.
    pub precision_guard: Vec<&'static OpDef>,
    /// The hardware.
    pub target: Target,
    /// Emit remarks.
    pub remarks: bool,
    /// Report progress on stderr.
    pub progress: bool,
    /// JSON report path.
    pub report: Option<String>,
    /// DOT output path.
    pub dot: Option<String>,
}

impl FusionOptions {
    /// The options of a pass's parsed pipeline options: the defaults, then the `fusion-flags`
    /// string, then every option given by name, so that `kiln-fuse{opt-level=1}` keeps
    /// opt-level 1 whatever `fusion-flags` (or `--kiln-fusion-flags`) says.
    pub fn from_pass_options(o: &PassOptions) -> Result<FusionOptions, String> {
        let mut raw = RawOptions::default();
        let named = || SPECS.iter().filter(|s| s.name != "fusion-flags");
        for s in named() {
            raw.apply(s.name, o.get_str(s.name))?;
        }
        for (key, value) in split_flags(o.get_str("fusion-flags"))? {
            raw.apply(&key, &value)?;
        }
        for s in named().filter(|s| o.is_given(s.name)) {
            raw.apply(s.name, o.get_str(s.name))?;
        }
        raw.finish()
    }

    /// The options given only by a flags string (defaults for the rest).
    pub fn from_flags(flags: &str) -> Result<FusionOptions, String> {
        let mut raw = RawOptions::default();
        for s in SPECS.iter().filter(|s| s.name != "fusion-flags") {
            raw.apply(s.name, s.default)?;
        }
        for (key, value) in split_flags(flags)? {
            raw.apply(&key, &value)?;
        }
        raw.finish()
    }

    /// Whether stitching (a reduce's result consumed in its region) is on.
    pub fn stitch(&self) -> bool {
        self.opt_level >= 2 || self.strategy == Strategy::Aggressive
    }

    /// Whether a region may emit an intermediate that is also used inside it.
    pub fn multi_output(&self) -> bool {
        self.strategy != Strategy::Conservative
            && (self.opt_level >= 2 || self.strategy == Strategy::Aggressive)
    }

    /// Whether independent regions reading the same input may merge.
    pub fn horizontal(&self) -> bool {
        self.multi_output()
    }

    /// The UB bytes a region may use: `ub-budget` percent of the UB, at most the usable part.
    pub fn ub_limit(&self) -> u64 {
        let m = &self.target.memory;
        (m.ub_bytes * self.ub_budget / 100).min(m.ub_usable_bytes)
    }
}

/// Options as they are applied one key at a time.
#[derive(Default)]
struct RawOptions {
    values: Vec<(&'static str, String)>,
}

impl RawOptions {
    /// Applies one `key=value` (the single parser behind both spellings).
    fn apply(&mut self, key: &str, value: &str) -> Result<(), String> {
        let norm = key.trim_start_matches('-').replace('_', "-");
        let norm = norm.strip_prefix("kiln-fusion-").unwrap_or(&norm);
        let Some(spec) = SPECS.iter().find(|s| s.name == norm && s.name != "fusion-flags") else {
            let valid: Vec<&str> =
                SPECS.iter().filter(|s| s.name != "fusion-flags").map(|s| s.name).collect();
            return Err(format!("kiln-fuse: unknown fusion flag '{key}'; valid flags: {}", valid.join(", ")));
        };
        let value = if value.is_empty() && spec.kind == OptionKind::Bool { "true" } else { value };
        let ok = match spec.kind {
            OptionKind::Bool => matches!(value, "true" | "false" | "1" | "0"),
            OptionKind::UInt => value.parse::<u64>().is_ok(),
            OptionKind::Enum(words) => words.contains(&value),
            _ => true,
        };
        if !ok {
            return Err(format!("kiln-fuse: invalid value '{value}' for '{}'", spec.name));
        }
        self.values.retain(|(k, _)| *k != spec.name);
        self.values.push((spec.name, value.to_string()));
        Ok(())
    }

    fn get(&self, name: &str) -> &str {
        self.values.iter().find(|(k, _)| *k == name).map_or("", |(_, v)| v.as_str())
    }

    fn uint(&self, name: &str) -> u64 {
        self.get(name).parse().unwrap_or(0)
    }

    fn ops(&self, name: &str) -> Result<Vec<&'static OpDef>, String> {
        self.get(name)
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| op_def(s).map_err(|e| format!("kiln-fuse: {e} in '{name}'")))
            .collect()
    }

    fn finish(self) -> Result<FusionOptions, String> {
        let opt_level = self.uint("opt-level");
        if opt_level > 2 {
            return Err(format!("kiln-fuse: opt-level must be 0, 1 or 2, not {opt_level}"));
        }
        let ub_budget = self.uint("ub-budget");
        if !(1..=100).contains(&ub_budget) {
            return Err(format!("kiln-fuse: ub-budget is a percent in 1..=100, not {ub_budget}"));
        }
        let max_ops = self.uint("max-ops") as usize;
        if max_ops < 2 {
            return Err(format!("kiln-fuse: max-ops must be at least 2, not {max_ops}"));
        }
        let strategy = match self.get("strategy") {
            "conservative" => Strategy::Conservative,
            "aggressive" => Strategy::Aggressive,
            _ => Strategy::Balanced,
        };
        let target = Target::load(self.get("target")).map_err(|e| format!("kiln-fuse: {e}"))?;
        let rules = match self.get("rules") {
            "" => Vec::new(),
            path => load_rules(path).map_err(|e| format!("kiln-fuse: {e}"))?,
        };
        let path = |k: &str| Some(self.get(k).to_string()).filter(|s| !s.is_empty());
        Ok(FusionOptions {
            opt_level: opt_level as u32,
            enable_ops: self.ops("enable-ops")?,
            disable_ops: self.ops("disable-ops")?,
            enable_ops_only: self.ops("enable-ops-only")?,
            max_ops,
            max_depth: self.uint("max-depth") as usize,
            ub_budget,
            strategy,
            attention: matches!(self.get("attention"), "true" | "1"),
            rules,
            precision_guard: self.ops("precision-guard")?,
            target,
            remarks: matches!(self.get("remarks"), "true" | "1"),
            progress: matches!(self.get("progress"), "true" | "1"),
            report: path("report"),
            dot: path("dot"),
        })
    }
}

/// Splits `--opt_level=1 --enable_ops=MatMul,BatchMatMul --remarks` into key/value pairs
/// (a bare flag has an empty value).
fn split_flags(flags: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for word in flags.split_whitespace() {
        if !word.starts_with('-') {
            return Err(format!("kiln-fuse: fusion flag '{word}' must start with '--'"));
        }
        let (k, v) = word.split_once('=').unwrap_or((word, ""));
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

/// The CamelCase spelling of an op (`hl.batch_matmul` -> `BatchMatMul`).
pub fn camel_name(def: &OpDef) -> String {
    def.short_name()
        .split('_')
        .map(|w| match w {
            "matmul" => "MatMul".to_string(),
            _ => {
                let mut c = w.chars();
                c.next().map_or(String::new(), |f| f.to_ascii_uppercase().to_string() + c.as_str())
            }
        })
        .collect()
}

/// The `hl` op named `MatMul`, `matmul` or `hl.matmul`.
pub fn op_def(name: &str) -> Result<&'static OpDef, String> {
    kiln_dialects::hl::ALL
        .iter()
        .copied()
        .find(|d| d.name == name || d.short_name() == name || camel_name(d) == name)
        .ok_or_else(|| {
            format!("unknown op '{name}'; ops are named as hl ops in CamelCase (MatMul, BatchMatMul, Add, ReduceSum, ...)")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(camel_name(&kiln_dialects::hl::BATCH_MATMUL), "BatchMatMul");
        assert_eq!(camel_name(&kiln_dialects::hl::REDUCE_SUM), "ReduceSum");
        assert_eq!(op_def("MatMul").unwrap(), &kiln_dialects::hl::MATMUL);
        assert_eq!(op_def("hl.gelu").unwrap(), &kiln_dialects::hl::GELU);
        assert!(op_def("Sort").unwrap_err().contains("unknown op 'Sort'"));
    }

    #[test]
    fn flags_and_pipeline_syntax_share_one_parser() {
        let o =
            FusionOptions::from_flags("--opt_level=2 --enable_ops=MatMul,BatchMatMul --kiln-fusion-remarks")
                .unwrap();
        assert_eq!(o.opt_level, 2);
        assert_eq!(
            o.enable_ops.iter().map(|d| d.name).collect::<Vec<_>>(),
            vec![kiln_dialects::hl::MATMUL.name, kiln_dialects::hl::BATCH_MATMUL.name]
        );
        assert!(o.remarks);
        let e = FusionOptions::from_flags("--opt_levle=2").unwrap_err();
        assert!(e.contains("unknown fusion flag '--opt_levle'"), "{e}");
        assert!(FusionOptions::from_flags("--opt_level=3").unwrap_err().contains("0, 1 or 2"));
        assert!(FusionOptions::from_flags("--strategy=wild").unwrap_err().contains("invalid value"));
        assert!(FusionOptions::from_flags("opt_level=1").unwrap_err().contains("must start with '--'"));
        assert!(FusionOptions::from_flags("--enable_ops=Sort").unwrap_err().contains("unknown op 'Sort'"));
        let o = FusionOptions::from_flags("--ub_budget=50").unwrap();
        assert_eq!(o.ub_limit(), 98304);
    }
}
