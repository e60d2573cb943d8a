//! `--import-mlir` and `--export-tosa` end to end through the binary. With the `mlir` feature:
//! a hand-written TOSA file in custom form imports to `hl`, bad TOSA is refused with MLIR's or
//! Kiln's located errors and no output file, and the examples export to TOSA that MLIR
//! verified. Without it: the flags say how to get the feature.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kiln_translate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kiln-translate")).args(args).output().unwrap()
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path).display().to_string()
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiln-translate-mlir-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(feature = "mlir")]
mod with_mlir {
    use super::*;

    #[test]
    fn custom_form_tosa_imports_to_hl() {
        let dir = scratch("import");
        let out = dir.join("block.mlir");
        let input = repo("lit-tests/tools/kiln-translate/Inputs/tosa-block.mlir");
        let run = kiln_translate(&["--import-mlir", &input, "-o", out.to_str().unwrap()]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(!text.contains("tosa."), "{text}");
        for op in ["hl.batch_matmul", "hl.gather", "hl.conv2d", "hl.max_pool2d", "hl.avg_pool2d", "hl.pad"] {
            assert!(text.contains(op), "no {op} in\n{text}");
        }
    }

    #[test]
    fn unsupported_and_invalid_tosa_are_located_errors_without_output() {
        let dir = scratch("bad");
        let out = dir.join("out.mlir");
        let cases = [
            (
                "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = tosa.sin %a : (tensor<4xf32>) -> tensor<4xf32>\n  \
                 %1 = tosa.cos %0 : (tensor<4xf32>) -> tensor<4xf32>\n  return %1 : tensor<4xf32>\n}\n",
                vec![
                    "unsupported.mlir:2:8: error: 'tosa.sin' op is not supported by tosa-to-hl",
                    "unsupported.mlir:3:8: error: 'tosa.cos' op is not supported by tosa-to-hl",
                ],
            ),
            (
                "func.func @f(%a: tensor<4xf32>) -> tensor<3xf32> {\n  %0 = tosa.tanh %a : (tensor<4xf32>) -> tensor<3xf32>\n  \
                 return %0 : tensor<3xf32>\n}\n",
                vec!["invalid.mlir:2:8: error: 'tosa.tanh' op"],
            ),
        ];
        for (i, (source, expected)) in cases.iter().enumerate() {
            let name = if i == 0 { "unsupported.mlir" } else { "invalid.mlir" };
            let input = dir.join(name);
            std::fs::write(&input, source).unwrap();
            let run =
                kiln_translate(&["--import-mlir", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert_eq!(run.status.code(), Some(1), "{stderr}");
            for e in expected {
                assert!(stderr.contains(e), "expected {e:?} in\n{stderr}");
            }
            assert!(!out.exists(), "a partial output was written");
        }
    }

    #[test]
    fn examples_export_to_tosa_that_mlir_verifies() {
        for example in ["mlp", "transformer_encoder", "llama_block", "resnet_block"] {
            let run = kiln_translate(&["--export-tosa", &repo(&format!("examples/{example}.mlir"))]);
            let text = String::from_utf8_lossy(&run.stdout);
            assert!(run.status.success(), "{example}: {}", String::from_utf8_lossy(&run.stderr));
            // MLIR's custom form (`tosa.const` prints generic even there).
            assert!(
                text.contains("= tosa.") && !text.contains("\"tosa.reshape\"") && !text.contains("hl."),
                "{text}"
            );
        }
    }
}

#[cfg(not(feature = "mlir"))]
#[test]
fn the_flags_need_the_feature() {
    let dir = scratch("nofeature");
    let out = dir.join("out.mlir");
    for flag in ["--import-mlir", "--export-tosa"] {
        let run = kiln_translate(&[flag, &repo("examples/mlp.mlir"), "-o", out.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("{flag} needs kiln-translate built with the `mlir` feature")),
            "{stderr}"
        );
        assert!(!out.exists());
    }
}
