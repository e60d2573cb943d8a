//! The option every `kiln-codegen-*` pass takes: the target.

use kiln_compiler::pass::{OptionKind, PassOptionSpec, PassOptions};
use kiln_targets::{Target, DEFAULT_TARGET};

/// `target=<name or path>`.
pub const TARGET_SPECS: &[PassOptionSpec] = &[PassOptionSpec {
    name: "target",
    help: "Target name or path to a target TOML file",
    kind: OptionKind::String,
    default: DEFAULT_TARGET,
}];

/// Loads the target an instance of pass `pass` was given.
pub fn load_target(pass: &str, options: &PassOptions) -> Result<Target, String> {
    Target::load(options.get_str("target")).map_err(|e| format!("{pass}: {e}"))
}
