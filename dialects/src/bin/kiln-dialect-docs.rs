//! Writes the generated dialect reference (one Markdown page per registered dialect) into the
//! directory given as the only argument: `kiln-dialect-docs docs/dialects`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir] = args.as_slice() else {
        eprintln!("usage: kiln-dialect-docs <output-dir>");
        return ExitCode::from(2);
    };
    let dir = PathBuf::from(dir);
    match kiln_dialects::docs::write_pages(&kiln_dialects::all_dialects(), &dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kiln-dialect-docs: error: cannot write '{}': {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}
