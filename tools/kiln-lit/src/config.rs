//! The test tree's configuration: `kiln-lit.toml` at the root of a suite,
//! `kiln-lit.local.toml` overrides in any directory below it.
//!
//! A suite's root is found by walking up from a test path to the first
//! directory holding `kiln-lit.toml`. LLVM's lit reads the same files
//! through `lit-tests/lit.cfg.py`, so both runners see one configuration.

use crate::subst::Substitution;
use crate::tools::{which, ToolPaths};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file marking a suite's root.
pub const SUITE_FILE: &str = "kiln-lit.toml";
/// The file overriding settings for one directory and those below it.
pub const LOCAL_FILE: &str = "kiln-lit.local.toml";

/// Variables passed from kiln-lit's environment to every test, as lit does.
const PASSED_ENV: &[&str] = &[
    "HOME",
    "TERM",
    "TMPDIR",
    "TMP",
    "TEMP",
    "TEMPDIR",
    "LIBRARY_PATH",
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "FILECHECK_OPTS",
    "SOURCE_DATE_EPOCH",
];

/// A configuration file that could not be read or is malformed.
#[derive(Debug)]
pub struct ConfigError {
    /// The offending file.
    pub file: PathBuf,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

impl std::error::Error for ConfigError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct SuiteToml {
    name: String,
    #[serde(default)]
    suffixes: Vec<String>,
    excludes: Option<Vec<String>>,
    #[serde(default)]
    standalone_tests: bool,
    #[serde(default)]
    pass_env: Vec<String>,
    #[serde(default)]
    environment: BTreeMap<String, String>,
    /// Checked by [`expansion_limit`], with lit's messages.
    #[serde(default)]
    recursive_expansion_limit: Option<toml::Value>,
    #[serde(default)]
    substitutions: Vec<SubstitutionToml>,
    #[serde(default)]
    features: Vec<FeatureToml>,
    #[serde(default)]
    preamble_commands: Vec<String>,
}

fn default_excludes() -> Vec<String> {
    vec!["Inputs".to_string(), "Output".to_string()]
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct LocalToml {
    suffixes: Option<Vec<String>>,
    #[serde(default)]
    excludes: Vec<String>,
    #[serde(default)]
    substitutions: Vec<SubstitutionToml>,
    #[serde(default)]
    unsupported: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct SubstitutionToml {
    key: String,
    tool: Option<String>,
    value: Option<String>,
    choose_by_env: Option<String>,
    #[serde(default)]
    choices: BTreeMap<String, String>,
    param: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FeatureToml {
    name: String,
    program: Option<String>,
    param: Option<String>,
    #[serde(default)]
    search_dirs: Vec<PathBuf>,
}

/// A test suite: the tree below a `kiln-lit.toml`.
#[derive(Debug)]
pub struct Suite {
    /// The suite's name, as printed before ` :: ` in results.
    pub name: String,
    /// The directory holding `kiln-lit.toml`.
    pub root: PathBuf,
    /// The available features.
    pub features: BTreeSet<String>,
    /// The environment tests run in.
    pub env: BTreeMap<String, String>,
    /// How many times substitutions are applied again while they change a
    /// RUN line (lit's `config.recursiveExpansionLimit`); `None`: once.
    pub recursive_expansion_limit: Option<usize>,
    /// Commands run before every test's RUN lines (lit's
    /// `ShTest(preamble_commands=...)`); with them, a test needs no RUN line.
    pub preamble_commands: Vec<String>,
}

/// Settings in force in one directory of a suite.
#[derive(Debug, Clone)]
pub struct DirConfig {
    /// File name suffixes of tests.
    pub suffixes: Vec<String>,
    /// File and directory names never searched for tests.
    pub excludes: Vec<String>,
    /// The configured substitutions, in order.
    pub substitutions: Vec<Substitution>,
    /// Whether every test here is unsupported.
    pub unsupported: bool,
    /// Whether directories are never searched for tests, only tests named
    /// on the command line run (lit's `config.standalone_tests`).
    pub standalone: bool,
}

/// The directory of the nearest `kiln-lit.toml` at or above `path`.
pub fn find_suite_root(path: &Path) -> Option<PathBuf> {
    let start = if path.is_dir() { path } else { path.parent()? };
    start.ancestors().find(|dir| dir.join(SUITE_FILE).is_file()).map(Path::to_path_buf)
}

/// Loads the suite rooted at `root`, with tools from `tools`.
pub fn load_suite(root: &Path, tools: &ToolPaths) -> Result<(Suite, DirConfig), ConfigError> {
    let file = root.join(SUITE_FILE);
    let toml: SuiteToml = read_toml(&file)?;
    let substitutions = substitutions(&toml.substitutions, tools, &file)?;
    let features = toml
        .features
        .iter()
        .filter(|f| {
            let found = |program: &String| {
                which(program, tools.search_dirs().chain(f.search_dirs.iter().map(PathBuf::as_path)))
                    .is_some()
            };
            f.program.as_ref().is_none_or(found) && f.param.as_ref().is_none_or(|p| tools.param(p).is_some())
        })
        .map(|f| f.name.clone())
        .collect();
    let recursive_expansion_limit = expansion_limit(toml.recursive_expansion_limit.as_ref())
        .map_err(|message| ConfigError { file: file.clone(), message })?;
    let mut env = test_env(&toml.pass_env, tools);
    env.extend(toml.environment);
    let suite = Suite {
        name: toml.name,
        root: root.to_path_buf(),
        features,
        env,
        recursive_expansion_limit,
        preamble_commands: toml.preamble_commands,
    };
    if toml.standalone_tests && (!toml.suffixes.is_empty() || toml.excludes.is_some()) {
        // As lit, which warns and then discovers nothing; a closed stderr loses only the warning.
        let _ = writeln!(
            std::io::stderr(),
            "kiln-lit: {}: warning: standalone-tests set but suffixes or excludes are also set",
            file.display()
        );
    }
    let config = DirConfig {
        suffixes: toml.suffixes,
        excludes: toml.excludes.unwrap_or_else(default_excludes),
        substitutions,
        unsupported: false,
        standalone: toml.standalone_tests,
    };
    Ok((suite, config))
}

impl DirConfig {
    /// The settings for `dir`, a subdirectory of the one `self` is for:
    /// `self` with `dir`'s `kiln-lit.local.toml` applied, if there is one.
    /// Suffixes are replaced, excludes and substitutions appended.
    pub fn for_subdir(&self, dir: &Path, tools: &ToolPaths) -> Result<DirConfig, ConfigError> {
        let file = dir.join(LOCAL_FILE);
        if !file.is_file() {
            return Ok(self.clone());
        }
        let local: LocalToml = read_toml(&file)?;
        let mut config = self.clone();
        if let Some(suffixes) = local.suffixes {
            config.suffixes = suffixes;
        }
        config.excludes.extend(local.excludes);
        config.substitutions.extend(substitutions(&local.substitutions, tools, &file)?);
        config.unsupported |= local.unsupported;
        Ok(config)
    }
}

/// The `recursive-expansion-limit` setting checked as lit checks
/// `config.recursiveExpansionLimit`: absent (lit's `None`) or a
/// non-negative integer, else lit's error.
fn expansion_limit(value: Option<&toml::Value>) -> Result<Option<usize>, String> {
    match value {
        None => Ok(None),
        Some(toml::Value::Integer(n)) => usize::try_from(*n)
            .map(Some)
            .map_err(|_| format!("recursiveExpansionLimit must be a non-negative integer (got <{n}>)")),
        Some(other) => {
            let shown = match other {
                toml::Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            Err(format!("recursiveExpansionLimit must be either None or an integer (got <{shown}>)"))
        }
    }
}

fn read_toml<T: for<'de> Deserialize<'de>>(file: &Path) -> Result<T, ConfigError> {
    let error = |message: String| ConfigError { file: file.to_path_buf(), message };
    let text = std::fs::read_to_string(file).map_err(|e| error(e.to_string()))?;
    toml::from_str(&text).map_err(|e| error(e.to_string().trim_end().to_string()))
}

fn substitutions(
    entries: &[SubstitutionToml],
    tools: &ToolPaths,
    file: &Path,
) -> Result<Vec<Substitution>, ConfigError> {
    entries
        .iter()
        .map(|entry| match (&entry.tool, &entry.value, entry.param.as_deref().and_then(|p| tools.param(p))) {
            (_, _, Some(value)) => Ok(Substitution::literal(&entry.key, value)),
            (Some(tool), None, None) => {
                let chosen = entry
                    .choose_by_env
                    .as_ref()
                    .and_then(|var| std::env::var(var).ok())
                    .and_then(|choice| entry.choices.get(&choice));
                let program = chosen.unwrap_or(tool);
                Ok(Substitution::word(&entry.key, tools.command(program)))
            }
            (None, Some(value), None) => Ok(Substitution::literal(&entry.key, value)),
            _ => Err(ConfigError {
                file: file.to_path_buf(),
                message: format!("substitution `{}` needs exactly one of `tool` and `value`", entry.key),
            }),
        })
        .collect()
}

/// The environment of tests: lit's passed variables, the suite's
/// `pass-env`, `KILN_BIN_DIR`, and `PATH` with the bin dir first.
fn test_env(pass_env: &[String], tools: &ToolPaths) -> BTreeMap<String, String> {
    let mut env: BTreeMap<String, String> = PASSED_ENV
        .iter()
        .copied()
        .chain(pass_env.iter().map(String::as_str))
        .filter_map(|var| Some((var.to_string(), std::env::var(var).ok()?)))
        .collect();
    let path = std::env::join_paths(tools.search_dirs()).unwrap_or_default();
    env.insert("PATH".to_string(), path.to_string_lossy().into_owned());
    if let Some(bin_dir) = tools.bin_dir() {
        env.insert("KILN_BIN_DIR".to_string(), bin_dir.to_string_lossy().into_owned());
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_limits_are_checked_as_lit_checks_them() {
        let limit = |text: &str| expansion_limit(Some(&text.parse::<toml::Value>().unwrap()["x"]));
        assert_eq!(expansion_limit(None), Ok(None));
        assert_eq!(limit("x = 0"), Ok(Some(0)));
        assert_eq!(limit("x = 5"), Ok(Some(5)));
        assert_eq!(
            limit("x = -4").unwrap_err(),
            "recursiveExpansionLimit must be a non-negative integer (got <-4>)"
        );
        assert_eq!(
            limit("x = \"not-an-integer\"").unwrap_err(),
            "recursiveExpansionLimit must be either None or an integer (got <not-an-integer>)"
        );
        assert_eq!(
            limit("x = 2.5").unwrap_err(),
            "recursiveExpansionLimit must be either None or an integer (got <2.5>)"
        );
    }
}
