//! Hardware descriptions: `targets/<name>.toml` files loaded into a [`Target`].
//!
//! Every size or limit a pass or the VM uses (core counts, UB / L1 / L0 capacities, alignment,
//! vector repeat, per-pipe rates, event ids, clock, HBM, launch and DMA costs) comes from a
//! target, never from a literal in code. A target is named (`ascend910b`: looked up in
//! `$KILN_TARGET_DIR`, then in `./targets`, then in this crate's folder, then among the
//! descriptions built into the binary) or given as a path to a TOML file. Unknown fields,
//! missing fields and impossible values are errors that name the file and the field.
//!
//! This is a leaf crate: it depends on no IR crate, so the VM and the runtime can read a
//! target without linking the compiler (a test checks it with `cargo tree`).
#![deny(missing_docs)]

mod load;
mod schema;
mod validate;

pub use load::{TargetError, DEFAULT_TARGET};
pub use schema::{Clock, Cores, Costs, Cube, Hbm, Memory, Pipes, Synchronization, Target, Vector};

impl Target {
    /// Rounds `bytes` up to the target's alignment.
    pub fn align(&self, bytes: u64) -> u64 {
        bytes.div_ceil(self.memory.alignment_bytes) * self.memory.alignment_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASCEND: &str = include_str!("../ascend910b.toml");

    fn error_of(from: &str, to: &str) -> String {
        assert!(ASCEND.contains(from), "{from:?} is not in ascend910b.toml");
        Target::parse(&ASCEND.replacen(from, to, 1), "x.toml").unwrap_err().to_string()
    }

    #[test]
    fn the_default_target_loads() {
        let t = Target::load(DEFAULT_TARGET).unwrap();
        assert_eq!(t.memory.ub_usable_bytes, 196_352);
        assert_eq!(t.cores.vector, 48);
        assert_eq!(t.sync.event_ids, 8);
        assert_eq!(t.align(33), 64);
    }

    #[test]
    fn the_tiny_target_loads() {
        let t = Target::load("tiny-npu").unwrap();
        assert_eq!((t.memory.ub_bytes, t.cores.vector, t.cores.cube), (16384, 2, 1));
        assert!(!t.vector.transpose_in_ub);
    }

    #[test]
    fn reader_errors_name_the_file_line_and_field() {
        let e = error_of("ub_bytes = 196608\n", "");
        assert!(e.starts_with("target file 'x.toml': ") && e.contains("missing field `ub_bytes`"), "{e}");
        let e = error_of("mhz = 1800", "mhz = 1800\nghz = 2");
        assert!(e.contains("unknown field `ghz`"), "{e}");
        let e = error_of("event_ids = 8", "event_ids = -1");
        assert!(e.contains("line ") && e.contains("-1"), "{e}");
        let e = Target::load("nosuchchip").unwrap_err().to_string();
        assert!(e.starts_with("unknown target 'nosuchchip'"), "{e}");
        let e = Target::load("/nonexistent/t.toml").unwrap_err().to_string();
        assert!(e.starts_with("cannot read target file '/nonexistent/t.toml'"), "{e}");
    }

    #[test]
    fn impossible_values_name_the_field() {
        let cases = [
            ("vector = 48", "vector = 0", "field `cores.vector` must be positive"),
            ("cube = 24", "cube = 0", "field `cores.cube` must be positive"),
            ("event_ids = 8", "event_ids = 0", "field `sync.event_ids` must be positive"),
            ("cube_macs_per_cycle = 4096", "cube_macs_per_cycle = 0", "`pipes.cube_macs_per_cycle` must be"),
            (
                "alignment_bytes = 32",
                "alignment_bytes = 24",
                "`memory.alignment_bytes` (24) must be a power of two",
            ),
            ("repeat_bytes = 256", "repeat_bytes = 48", "`vector.repeat_bytes` (48) must be a multiple of"),
            (
                "ub_usable_bytes = 196352",
                "ub_usable_bytes = 200000",
                "`memory.ub_usable_bytes` (200000) exceeds",
            ),
            (
                "ub_usable_bytes = 196352",
                "ub_usable_bytes = 128",
                "`memory.ub_usable_bytes` (128) cannot hold one",
            ),
            (
                "l0c_bytes = 131072",
                "l0c_bytes = 512",
                "`memory.l0c_bytes` (512) cannot hold an f32 16x16 fractal",
            ),
            (
                "l1_bytes = 524288",
                "l1_bytes = 600",
                "`memory.l1_bytes` (600) cannot hold two f16 16x16 fractals",
            ),
        ];
        for (from, to, want) in cases {
            let e = error_of(from, to);
            assert!(e.starts_with("target file 'x.toml': ") && e.contains(want), "{to}: {e}");
        }
    }
}
