//! The options of the `kiln-codegen-*` passes: the target (every one), and whether vector tile
//! loops may be double-buffered (`kiln-codegen-tile` and the named pipeline).

use kiln_compiler::pass::{OptionKind, PassOptionSpec, PassOptions};
use kiln_targets::{Target, DEFAULT_TARGET};

/// `target=<name or path>`.
pub const TARGET_SPECS: &[PassOptionSpec] = &[PassOptionSpec {
    name: "target",
    help: "Target name or path to a target TOML file",
    kind: OptionKind::String,
    default: DEFAULT_TARGET,
}];

/// `target=<name or path> double-buffer=<bool>`.
pub const TILE_SPECS: &[PassOptionSpec] = &[
    TARGET_SPECS[0],
    PassOptionSpec {
        name: "double-buffer",
        help: "Double-buffer vector tile loops when every core gets two tiles or more",
        kind: OptionKind::Bool,
        default: "true",
    },
];

/// Loads the target an instance of pass `pass` was given.
pub fn load_target(pass: &str, options: &PassOptions) -> Result<Target, String> {
    Target::load(options.get_str("target")).map_err(|e| format!("{pass}: {e}"))
}
