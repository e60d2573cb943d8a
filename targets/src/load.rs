//! Finding and reading target files: by name (`$KILN_TARGET_DIR`, then `./targets`, then this
//! crate's own folder, then the descriptions built into the binary) or by path.

use std::path::{Path, PathBuf};

use crate::schema::Target;
use crate::validate::validate;

/// The target passes use when none is given.
pub const DEFAULT_TARGET: &str = "ascend910b";

/// Descriptions built into the binary, so that named targets work from any directory.
const BUILTIN: &[(&str, &str)] = &[("ascend910b", include_str!("../ascend910b.toml"))];

/// A target that could not be loaded: which file, where in it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetError {
    /// The file (or `<builtin NAME.toml>`), when one was found.
    pub file: Option<String>,
    /// The 1-based line of the offending field, when the TOML reader knows it.
    pub line: Option<usize>,
    /// What is wrong, naming the field (lowercase, no trailing period).
    pub message: String,
}

impl std::fmt::Display for TargetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "target file '{file}': ")?;
        }
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for TargetError {}

impl Target {
    /// Loads a target by name (`ascend910b`) or from a path to a TOML file.
    pub fn load(spec: &str) -> Result<Target, TargetError> {
        let looks_like_path = spec.contains('/') || spec.contains('\\') || spec.ends_with(".toml");
        if looks_like_path {
            let text = std::fs::read_to_string(spec).map_err(|e| TargetError {
                file: None,
                line: None,
                message: format!("cannot read target file '{spec}': {e}"),
            })?;
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
                Err(TargetError {
                    file: None,
                    line: None,
                    message: format!(
                        "unknown target '{spec}': no file '{spec}.toml' in the target directories; \
                         built-in targets: {}; a path to a .toml file is accepted too",
                        known.join(", ")
                    ),
                })
            }
        }
    }

    /// Parses and validates the TOML text of a target; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Target, TargetError> {
        let error = |line, message| TargetError { file: Some(file.to_string()), line, message };
        let target: Target = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            error(line, e.message().trim_end().to_string())
        })?;
        validate(&target).map_err(|m| error(None, m))?;
        Ok(target)
    }
}

/// Where named targets are looked up: `$KILN_TARGET_DIR`, `./targets`, this crate's folder
/// (the workspace's `targets/`).
fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("KILN_TARGET_DIR") {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(PathBuf::from("targets"));
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    dirs
}
