//! Command-line conventions that Kiln's tools share with LLVM's (`mlir-opt`, `FileCheck`):
//! the message for an unknown argument with the nearest known option, and one exit status for
//! usage errors, and [`parse`], which gives a clap command line both; and [`write_file`], how
//! every tool writes an output file. A leaf crate: the tools depend on it, it depends on clap
//! only.
#![deny(missing_docs)]

mod output;

pub use output::write_file;

/// The exit status of a usage error (an unknown or malformed argument), as LLVM's
/// `cl::ParseCommandLineOptions` exits.
pub const USAGE_ERROR: u8 = 1;

/// Levenshtein distance with replacements (LLVM's `StringRef::edit_distance`).
pub fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let old = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(old + 1);
            prev = old;
        }
    }
    row[b.len()]
}

/// The known option nearest to `arg` (`--cs`, `-frobnicate=3`) by edit distance of the names
/// (dashes and any `=value` dropped), the first of equals in `options` order; `None` when
/// there are no options. LLVM suggests the nearest option whatever its distance.
pub fn nearest_option<'a>(arg: &str, options: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name = arg.trim_start_matches('-');
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    let mut best: Option<(usize, &str)> = None;
    for option in options {
        let d = edit_distance(name.as_bytes(), option.as_bytes());
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, option));
        }
    }
    best.map(|(_, o)| o)
}

/// LLVM's two lines for an unknown argument:
/// `prog: Unknown command line argument '--cs'.  Try: 'argv0 --help'` and
/// `prog: Did you mean '--cse'?` (a one-letter option is spelled with one dash).
pub fn unknown_argument<'a>(argv0: &str, arg: &str, options: impl IntoIterator<Item = &'a str>) -> String {
    let prog = program_name(argv0);
    let mut out = format!("{prog}: Unknown command line argument '{arg}'.  Try: '{argv0} --help'\n");
    if let Some(near) = nearest_option(arg, options) {
        let dashes = if near.len() == 1 { "-" } else { "--" };
        out.push_str(&format!("{prog}: Did you mean '{dashes}{near}'?\n"));
    }
    out
}

/// Parses `args` (program name first) into `C`: an unknown argument prints
/// [`unknown_argument`] with `C`'s long options and gives [`USAGE_ERROR`]; `--help` and
/// `--version` print and give success; other clap errors print and give [`USAGE_ERROR`].
pub fn parse<C: clap::Parser>(
    args: &[std::ffi::OsString],
    default_name: &str,
) -> Result<C, std::process::ExitCode> {
    use std::process::ExitCode;
    match C::try_parse_from(args) {
        Ok(cli) => Ok(cli),
        Err(e) if e.kind() == clap::error::ErrorKind::UnknownArgument => {
            let argv0 =
                args.first().map_or_else(|| default_name.into(), |a| a.to_string_lossy().into_owned());
            let arg = match e.get(clap::error::ContextKind::InvalidArg) {
                Some(clap::error::ContextValue::String(a)) => a.clone(),
                _ => String::new(),
            };
            let command = C::command();
            let known: Vec<&str> = command.get_arguments().filter_map(|a| a.get_long()).collect();
            eprint!("{}", unknown_argument(&argv0, &arg, known));
            Err(ExitCode::from(USAGE_ERROR))
        }
        Err(e) => {
            let _ = e.print();
            Err(if e.use_stderr() { ExitCode::from(USAGE_ERROR) } else { ExitCode::SUCCESS })
        }
    }
}

/// The program name LLVM prints before its messages: the file name of `argv0`.
pub fn program_name(argv0: &str) -> &str {
    argv0.rsplit('/').next().unwrap_or(argv0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance(b"kitten", b"sitting"), 3);
        assert_eq!(edit_distance(b"", b"ab"), 2);
        assert_eq!(edit_distance(b"cse", b"cse"), 0);
    }

    #[test]
    fn suggests_the_nearest_option_as_llvm_prints_it() {
        let options = ["canonicalize", "cse", "o", "split-input-file"];
        assert_eq!(
            unknown_argument("/usr/bin/kiln-opt", "--cs", options),
            "kiln-opt: Unknown command line argument '--cs'.  Try: '/usr/bin/kiln-opt --help'\n\
             kiln-opt: Did you mean '--cse'?\n"
        );
        assert_eq!(nearest_option("-split-input-files=x", options), Some("split-input-file"));
        assert!(unknown_argument("kiln-opt", "-p", ["o"]).ends_with("Did you mean '-o'?\n"));
        assert_eq!(nearest_option("--x", []), None);
    }
}
