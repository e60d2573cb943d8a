//! The session's flags, in the eager frameworks' syntax:
//! `--opt_level=0|1|2 --enable_ops=MatMul,BatchMatMul --disable_ops=... --enable_ops_only=...
//! --flush_threshold=N --cache_size=N --dump_as_text --dump_dir=D --direct_emit=true|false
//! --device_time --dynamic_shape=true|false`,
//! given through the API or the `KILN_FUSION_FLAGS` environment variable.
//!
//! A bool flag may stand alone (`--dump_as_text` is `--dump_as_text=true`). An unknown or
//! repeated key is a warning that lists the valid keys (the last value of a repeated key
//! wins); a word without `--`, a value of the wrong kind or an unknown op name is an error.
//! Op names are `hl` op names in CamelCase (`MatMul` = `hl.matmul`), as `kiln-fuse` reads
//! them.

use std::path::PathBuf;

use kiln_compiler::OpDef;
use kiln_passes::fusion::options::op_def;

use crate::error::{EagerError, ErrorKind, Result};

/// The environment variable read by [`Flags::from_env`].
pub const ENV_VAR: &str = "KILN_FUSION_FLAGS";

/// The keys, in the order the warnings list them.
pub const KEYS: &[&str] = &[
    "opt_level",
    "enable_ops",
    "disable_ops",
    "enable_ops_only",
    "flush_threshold",
    "cache_size",
    "dump_as_text",
    "dump_dir",
    "direct_emit",
    "device_time",
    "dynamic_shape",
];

/// The session's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flags {
    /// `kiln-fuse`'s opt-level: 0 (every op its own kernel), 1 (elementwise chains and
    /// reduce-forward), 2 (also stitches reduce -> broadcast, so a reduction does not end a
    /// segment).
    pub opt_level: u32,
    /// Ops fused although off by default; `hl.matmul` and `hl.batch_matmul` join segments
    /// only when listed here.
    pub enable_ops: Vec<&'static OpDef>,
    /// Ops never fused.
    pub disable_ops: Vec<&'static OpDef>,
    /// When non-empty, only these ops fuse.
    pub enable_ops_only: Vec<&'static OpDef>,
    /// Ops in a segment at which it flushes (at least 1).
    pub flush_threshold: usize,
    /// Compiled segments the cache keeps (at least 1).
    pub cache_size: usize,
    /// Write each flushed segment's IR (hl, fused, npuvec) to [`dump_dir`](Self::dump_dir).
    pub dump_as_text: bool,
    /// Where `--dump_as_text` writes.
    pub dump_dir: PathBuf,
    /// Emit plain elementwise segments as bytecode directly, without IR or passes (see
    /// `docs/eager.md`); off, or with `--dump_as_text`, every segment takes the pipeline.
    pub direct_emit: bool,
    /// Replay every run through the target's cost model and add its simulated device time to
    /// [`Stats::device_time_ns`](crate::Stats::device_time_ns) (slower: the run reports each
    /// instruction, and its inputs are copied).
    pub device_time: bool,
    /// Compile a segment once per shape class, not per shape: a segment whose exact shapes
    /// miss the cache is looked up by its class key (row dims erased to `?`) and a new shape in
    /// a compiled class costs a binding, not a compile (`crate::class`). Off, every shape
    /// compiles (the static path).
    pub dynamic_shape: bool,
}

impl Default for Flags {
    fn default() -> Flags {
        Flags {
            opt_level: 1,
            enable_ops: Vec::new(),
            disable_ops: Vec::new(),
            enable_ops_only: Vec::new(),
            flush_threshold: 64,
            cache_size: 256,
            dump_as_text: false,
            dump_dir: PathBuf::from("kiln_dump"),
            direct_emit: true,
            device_time: false,
            dynamic_shape: true,
        }
    }
}

/// Flags read from a string, with the warnings the string deserved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedFlags {
    /// The flags.
    pub flags: Flags,
    /// One message per unknown or repeated key.
    pub warnings: Vec<String>,
}

fn flag_error(message: String) -> EagerError {
    EagerError::new(ErrorKind::Flags, message)
}

fn valid_keys() -> String {
    KEYS.iter().map(|k| format!("--{k}")).collect::<Vec<_>>().join(", ")
}

impl Flags {
    /// The defaults with `text` applied.
    pub fn parse(text: &str) -> Result<ParsedFlags> {
        let mut flags = Flags::default();
        let warnings = flags.apply(text)?;
        Ok(ParsedFlags { flags, warnings })
    }

    /// The defaults with `KILN_FUSION_FLAGS` applied (when set).
    pub fn from_env() -> Result<ParsedFlags> {
        Flags::parse(&std::env::var(ENV_VAR).unwrap_or_default())
    }

    /// Applies `text` on top of these flags; returns the warnings. On an error the flags are
    /// unchanged.
    pub fn apply(&mut self, text: &str) -> Result<Vec<String>> {
        let mut next = self.clone();
        let mut warnings = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for word in text.split_whitespace() {
            let Some(body) = word.strip_prefix("--") else {
                return Err(flag_error(format!("fusion flag '{word}' must start with '--'")));
            };
            let (key, value) = match body.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (body, None),
            };
            let Some(&known) = KEYS.iter().find(|&&k| k == key) else {
                warnings
                    .push(format!("unknown fusion flag '--{key}' ignored; valid flags: {}", valid_keys()));
                continue;
            };
            if seen.contains(&known) {
                warnings.push(format!(
                    "fusion flag '--{key}' given more than once, the last value is used; valid flags: {}",
                    valid_keys()
                ));
            }
            seen.push(known);
            next.set(known, value)?;
        }
        *self = next;
        Ok(warnings)
    }

    fn set(&mut self, key: &str, value: Option<&str>) -> Result<()> {
        let needs = || flag_error(format!("fusion flag '--{key}' needs a value (--{key}=...)"));
        let uint = |v: Option<&str>, min: u64, max: u64| -> Result<u64> {
            let v = v.ok_or_else(needs)?;
            v.parse::<u64>().ok().filter(|n| (min..=max).contains(n)).ok_or_else(|| {
                flag_error(format!(
                    "invalid value '{v}' for fusion flag '--{key}': expected an integer in {min}..={max}"
                ))
            })
        };
        let ops = |v: Option<&str>| -> Result<Vec<&'static OpDef>> {
            let v = v.ok_or_else(needs)?;
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| op_def(s).map_err(|e| flag_error(format!("{e} in fusion flag '--{key}'"))))
                .collect()
        };
        let boolean = |v: Option<&str>| -> Result<bool> {
            match v {
                None | Some("true" | "1") => Ok(true),
                Some("false" | "0") => Ok(false),
                Some(v) => Err(flag_error(format!(
                    "invalid value '{v}' for fusion flag '--{key}': expected true or false"
                ))),
            }
        };
        match key {
            "opt_level" => self.opt_level = uint(value, 0, 2)? as u32,
            "enable_ops" => self.enable_ops = ops(value)?,
            "disable_ops" => self.disable_ops = ops(value)?,
            "enable_ops_only" => self.enable_ops_only = ops(value)?,
            "flush_threshold" => self.flush_threshold = uint(value, 1, u32::MAX.into())? as usize,
            "cache_size" => self.cache_size = uint(value, 1, u32::MAX.into())? as usize,
            "dump_as_text" => self.dump_as_text = boolean(value)?,
            "direct_emit" => self.direct_emit = boolean(value)?,
            "device_time" => self.device_time = boolean(value)?,
            "dynamic_shape" => self.dynamic_shape = boolean(value)?,
            _ => {
                let v = value.filter(|v| !v.is_empty()).ok_or_else(needs)?;
                self.dump_dir = PathBuf::from(v);
            }
        }
        Ok(())
    }

    /// Whether cube op `def` (`hl.matmul`, `hl.batch_matmul`) joins segments: it is enabled
    /// (`--enable_ops`, or listed by `--enable_ops_only`) and not disabled.
    pub fn cube_joins(&self, def: &'static OpDef) -> bool {
        (self.enable_ops.contains(&def) || self.enable_ops_only.contains(&def))
            && !self.disable_ops.contains(&def)
    }

    /// The part of the flags that changes compiled code (a cache key component).
    pub(crate) fn fusion_key(&self) -> FusionKey {
        FusionKey {
            opt_level: self.opt_level,
            enable_ops: self.enable_ops.clone(),
            disable_ops: self.disable_ops.clone(),
            enable_ops_only: self.enable_ops_only.clone(),
            direct_emit: self.direct_emit && !self.dump_as_text,
        }
    }
}

/// The flags that change compiled code, as they enter the compile cache's key and the
/// `kiln-fuse` options.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FusionKey {
    pub(crate) opt_level: u32,
    pub(crate) enable_ops: Vec<&'static OpDef>,
    pub(crate) disable_ops: Vec<&'static OpDef>,
    pub(crate) enable_ops_only: Vec<&'static OpDef>,
    /// Whether plain elementwise segments take the direct path (`--direct_emit`, and no
    /// `--dump_as_text`, which needs the pipeline's IR).
    pub(crate) direct_emit: bool,
}

impl FusionKey {
    /// The `kiln-fuse` pass with these options for `target`.
    pub(crate) fn fuse_pass(&self, target: &str) -> String {
        let mut opts = format!("opt-level={} target={target}", self.opt_level);
        for (name, list) in [
            ("enable-ops", &self.enable_ops),
            ("disable-ops", &self.disable_ops),
            ("enable-ops-only", &self.enable_ops_only),
        ] {
            if !list.is_empty() {
                let names: Vec<&str> = list.iter().map(|d| d.name).collect();
                opts.push_str(&format!(" {name}={}", names.join(",")));
            }
        }
        format!("kiln-fuse{{{opts}}}")
    }
}
