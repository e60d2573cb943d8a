//! Hardware descriptions: `targets/<name>.toml` files loaded into a [`Target`].
//!
//! Every size or limit a pass uses (UB capacity, alignment, vector width, core counts,
//! bandwidth, launch costs) comes from a target, never from a literal in code. A target is
//! named (`ascend910b`: looked up in `$KILN_TARGET_DIR`, then in the workspace's `targets/`
//! directory, then among the descriptions built into the binary) or given as a path to a TOML
//! file. Unknown fields, missing fields and impossible values are errors that name the file and
//! the field.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The target passes use when none is given.
pub const DEFAULT_TARGET: &str = "ascend910b";

/// Descriptions built into the binary, so that named targets work from any directory.
const BUILTIN: &[(&str, &str)] = &[("ascend910b", include_str!("../../../targets/ascend910b.toml"))];

/// A hardware description.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// The target's name.
    pub name: String,
    /// Core counts.
    pub cores: Cores,
    /// On-chip memories.
    pub memory: Memory,
    /// The vector unit.
    pub vector: Vector,
    /// The clock.
    pub clock: Clock,
    /// Off-chip memory.
    pub hbm: Hbm,
    /// Fixed costs.
    pub costs: Costs,
}

/// Core counts.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cores {
    /// Vector (AIV) cores.
    pub vector: u32,
    /// Cube (AIC) cores.
    pub cube: u32,
}

/// On-chip memory sizes, in bytes.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// Unified Buffer per vector core.
    pub ub_bytes: u64,
    /// The part of the UB a kernel may use.
    pub ub_usable_bytes: u64,
    /// Alignment of UB buffers and DMA transfers.
    pub alignment_bytes: u64,
    /// L1 buffer per cube core.
    pub l1_bytes: u64,
    /// L0A (left matrix operand) buffer.
    pub l0a_bytes: u64,
    /// L0B (right matrix operand) buffer.
    pub l0b_bytes: u64,
    /// L0C (accumulator) buffer.
    pub l0c_bytes: u64,
}

/// The vector unit.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    /// Bytes processed by one vector repeat.
    pub repeat_bytes: u64,
    /// Whether a transpose can be done in UB (and so sit inside a fused region).
    pub transpose_in_ub: bool,
}

/// The clock.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Core clock in MHz.
    pub mhz: u32,
}

/// Off-chip memory.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hbm {
    /// Bandwidth in GB/s.
    pub bandwidth_gb_per_s: u32,
}

/// Fixed costs, in nanoseconds.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// Launching one kernel.
    pub kernel_launch_ns: u32,
    /// Setting up one DMA transfer.
    pub dma_setup_ns: u32,
}

impl Target {
    /// Loads a target by name (`ascend910b`) or from a path to a TOML file.
    pub fn load(spec: &str) -> Result<Target, String> {
        let looks_like_path = spec.contains('/') || spec.contains('\\') || spec.ends_with(".toml");
        if looks_like_path {
            let text = std::fs::read_to_string(spec)
                .map_err(|e| format!("cannot read target file '{spec}': {e}"))?;
            return Target::parse(&text, spec);
        }
        for dir in search_dirs() {
            let path = dir.join(format!("{spec}.toml"));
            if let Ok(text) = std::fs::read_to_string(&path) {
                return Target::parse(&text, &path.display().to_string());
            }
        }
        match BUILTIN.iter().find(|(name, _)| *name == spec) {
            Some((name, text)) => Target::parse(text, &format!("<builtin {name}.toml>")),
            None => {
                let known: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
                Err(format!(
                    "unknown target '{spec}': no file '{spec}.toml' in the target directories; \
                     built-in targets: {}; a path to a .toml file is accepted too",
                    known.join(", ")
                ))
            }
        }
    }

    /// Parses the TOML text of a target; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Target, String> {
        let target: Target = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            let at = line.map_or(String::new(), |l| format!("line {l}: "));
            format!("target file '{file}': {at}{}", e.message().trim_end())
        })?;
        target.validate().map_err(|m| format!("target file '{file}': {m}"))?;
        Ok(target)
    }

    fn validate(&self) -> Result<(), String> {
        let m = &self.memory;
        let positive: [(&str, u64); 9] = [
            ("cores.vector", u64::from(self.cores.vector)),
            ("cores.cube", u64::from(self.cores.cube)),
            ("memory.ub_bytes", m.ub_bytes),
            ("memory.ub_usable_bytes", m.ub_usable_bytes),
            ("memory.alignment_bytes", m.alignment_bytes),
            ("vector.repeat_bytes", self.vector.repeat_bytes),
            ("clock.mhz", u64::from(self.clock.mhz)),
            ("hbm.bandwidth_gb_per_s", u64::from(self.hbm.bandwidth_gb_per_s)),
            ("memory.l0c_bytes", m.l0c_bytes),
        ];
        if let Some((field, _)) = positive.iter().find(|(_, v)| *v == 0) {
            return Err(format!("field `{field}` must be positive"));
        }
        if m.ub_usable_bytes > m.ub_bytes {
            return Err(format!(
                "field `memory.ub_usable_bytes` ({}) exceeds `memory.ub_bytes` ({})",
                m.ub_usable_bytes, m.ub_bytes
            ));
        }
        if !m.alignment_bytes.is_power_of_two() {
            return Err(format!(
                "field `memory.alignment_bytes` ({}) must be a power of two",
                m.alignment_bytes
            ));
        }
        if !self.vector.repeat_bytes.is_multiple_of(m.alignment_bytes) {
            return Err(format!(
                "field `vector.repeat_bytes` ({}) must be a multiple of `memory.alignment_bytes` ({})",
                self.vector.repeat_bytes, m.alignment_bytes
            ));
        }
        Ok(())
    }

    /// Rounds `bytes` up to the target's alignment.
    pub fn align(&self, bytes: u64) -> u64 {
        bytes.div_ceil(self.memory.alignment_bytes) * self.memory.alignment_bytes
    }
}

/// Where named targets are looked up: `$KILN_TARGET_DIR`, `./targets`, the workspace's
/// `targets/`.
fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("KILN_TARGET_DIR") {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(PathBuf::from("targets"));
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../targets"));
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_target_loads() {
        let t = Target::load(DEFAULT_TARGET).unwrap();
        assert_eq!(t.memory.ub_usable_bytes, 196_352);
        assert_eq!(t.cores.vector, 48);
        assert_eq!(t.align(33), 64);
    }

    #[test]
    fn errors_name_the_file_and_field() {
        let text = include_str!("../../../targets/ascend910b.toml").replace("ub_bytes = 196608\n", "");
        let e = Target::parse(&text, "x.toml").unwrap_err();
        assert!(e.contains("x.toml") && e.contains("missing field `ub_bytes`"), "{e}");
        let text =
            include_str!("../../../targets/ascend910b.toml").replace("mhz = 1800", "mhz = 1800\nghz = 2");
        let e = Target::parse(&text, "x.toml").unwrap_err();
        assert!(e.contains("unknown field `ghz`"), "{e}");
        let text = include_str!("../../../targets/ascend910b.toml")
            .replace("alignment_bytes = 32", "alignment_bytes = 24");
        assert!(Target::parse(&text, "x.toml").unwrap_err().contains("power of two"));
        assert!(Target::load("nosuchchip").unwrap_err().contains("unknown target 'nosuchchip'"));
        assert!(Target::load("/nonexistent/t.toml").unwrap_err().contains("cannot read target file"));
    }
}
