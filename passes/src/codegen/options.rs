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

/// `target=<name or path> double-buffer=<bool> ub-budget=<bytes>`.
pub const TILE_SPECS: &[PassOptionSpec] = &[
    TARGET_SPECS[0],
    PassOptionSpec {
        name: "double-buffer",
        help: "Double-buffer vector tile loops when every core gets two tiles or more",
        kind: OptionKind::Bool,
        default: "true",
    },
    PassOptionSpec {
        name: "ub-budget",
        help: "Bytes of UB the tiles are sized for (0: the target's usable UB)",
        kind: OptionKind::UInt,
        default: "0",
    },
];

/// `flash-attention=<bool>`: an attention region may be one flash-attention kernel.
pub const FLASH_SPEC: PassOptionSpec = PassOptionSpec {
    name: "flash-attention",
    help: "Lower an attention region as one flash-attention kernel when its tiles fit (else as its parts)",
    kind: OptionKind::Bool,
    default: "true",
};

/// `target=<name or path> flash-attention=<bool>` (`kiln-codegen-outline`).
pub const OUTLINE_SPECS: &[PassOptionSpec] = &[TARGET_SPECS[0], FLASH_SPEC];

/// The options of the named pipeline `kiln-codegen`: [`TILE_SPECS`] and `flash-attention`.
pub const CODEGEN_SPECS: &[PassOptionSpec] = &[TILE_SPECS[0], TILE_SPECS[1], TILE_SPECS[2], FLASH_SPEC];

/// Loads the target an instance of pass `pass` was given.
pub fn load_target(pass: &str, options: &PassOptions) -> Result<Target, String> {
    Target::load(options.get_str("target")).map_err(|e| format!("{pass}: {e}"))
}

/// The target the tiles are sized for: `target` with `ub-budget` (when not 0) as its usable
/// UB. Only the tile step sees it; the UB plan is checked against the real target.
pub fn tile_target(target: &Target, options: &PassOptions) -> Target {
    let mut t = target.clone();
    let budget = options.get_int("ub-budget");
    if budget > 0 {
        t.memory.ub_usable_bytes = budget as u64;
    }
    t
}
