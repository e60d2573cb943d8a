//! `-o` writes a file whole, leaving no temporary beside it, and writes a special file (a
//! FIFO here, standing for `/dev/null`) in place: renaming a temporary over it, as for a
//! regular file, would put a regular file where the FIFO was (and, run as root, over
//! `/dev/null`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kiln_translate(args: &[&str]) -> Output {
    let out =
        Command::new(env!("CARGO_BIN_EXE_kiln-translate")).args(args).output().expect("kiln-translate runs");
    assert!(out.status.success(), "kiln-translate {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn example() -> String {
    format!("{}/../../examples/mlp.mlir", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory for case `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiln-translate-output-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// How many entries `dir` has.
fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).expect("readable").count()
}

#[test]
fn a_file_is_written_whole_and_a_fifo_in_place() {
    let bytes = kiln_translate(&["--emit-bytecode", &example(), "-o", "-"]).stdout;
    assert!(bytes.starts_with(b"KILN"), "bytecode on standard output");
    let dir = scratch("file");
    let file = dir.join("mlp.kbc");
    for _ in 0..2 {
        kiln_translate(&["--emit-bytecode", &example(), "-o", file.to_str().expect("UTF-8")]);
        assert_eq!(std::fs::read(&file).expect("written"), bytes);
    }
    assert_eq!(entries(&dir), 1, "no temporary left beside the output");
    std::fs::remove_dir_all(&dir).expect("removed");

    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        match Command::new("mkfifo").arg(&fifo).status() {
            Ok(s) if s.success() => {}
            _ => {
                eprintln!("FIFO case skipped: no mkfifo");
                return;
            }
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(&fifo).expect("the FIFO reads"))
        };
        kiln_translate(&["--emit-bytecode", &example(), "-o", fifo.to_str().expect("UTF-8")]);
        // Checked before joining: a reader that opened a FIFO since renamed over would wait
        // for a writer forever.
        assert!(std::fs::metadata(&fifo).expect("exists").file_type().is_fifo(), "still a FIFO");
        assert_eq!(reader.join().expect("the reader finishes"), bytes);
        assert_eq!(entries(&dir), 1);
        std::fs::remove_dir_all(&dir).expect("removed");
    }
}
