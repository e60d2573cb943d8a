//! Every Kiln transformation, one file per pass, each opening with its contract. The one
//! registry of passes is [`registry`].
#![deny(missing_docs)]

pub mod canonicalize;
pub mod codegen;
pub mod cse;
pub mod dce;
pub mod fused_inline;
pub mod fused_outline;
pub mod fusion;
pub mod hl_canonicalize;
pub mod hl_decompose;
pub mod hl_infer_shapes;
pub mod hl_to_tosa;
pub mod kiln_codegen;
pub mod kiln_codegen_bufferize;
pub mod kiln_codegen_insert_sync;
pub mod kiln_codegen_lower;
pub mod kiln_codegen_outline;
pub mod kiln_codegen_plan_ub;
pub mod kiln_codegen_tile;
pub mod kiln_fuse;
pub mod npuvec_lower_memory_spaces;
pub mod symbol_dce;
pub mod test_dialect_conversion;
mod tosa;
pub mod tosa_to_hl;

use kiln_compiler::pass::{PassInfo, PassRegistry};

/// Every pass Kiln defines, in one list (a test checks each is registered exactly once).
pub const ALL_PASSES: &[&PassInfo] = &[
    &canonicalize::INFO,
    &cse::INFO,
    &dce::INFO,
    &fused_inline::INFO,
    &fused_outline::INFO,
    &hl_canonicalize::INFO,
    &hl_decompose::INFO,
    &hl_infer_shapes::INFO,
    &hl_to_tosa::INFO,
    &kiln_codegen::INFO,
    &kiln_codegen_bufferize::INFO,
    &kiln_codegen_insert_sync::INFO,
    &kiln_codegen_lower::INFO,
    &kiln_codegen_outline::INFO,
    &kiln_codegen_plan_ub::INFO,
    &kiln_codegen_tile::INFO,
    &kiln_fuse::INFO,
    &npuvec_lower_memory_spaces::INFO,
    &symbol_dce::INFO,
    &test_dialect_conversion::INFO,
    &tosa_to_hl::INFO,
];

/// The registry of all passes.
pub fn registry() -> PassRegistry {
    let mut registry = PassRegistry::new();
    for info in ALL_PASSES {
        registry.register(info).expect("pass names in ALL_PASSES are unique");
    }
    registry
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_pass_file_is_registered_once() {
        let src = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src")).unwrap();
        let files: Vec<String> = src
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|f| f.ends_with(".rs") && f != "lib.rs")
            .collect();
        let registry = super::registry();
        assert_eq!(registry.iter().count(), files.len(), "pass files: {files:?}");
        for f in files {
            let name = f.trim_end_matches(".rs").replace('_', "-");
            assert!(registry.get(&name).is_some(), "{f} defines no registered pass named {name}");
        }
    }
}
