//! The `diff` builtin, as lit 22's `builtin_commands/diff.py`: compares two files (`-` is
//! stdin) and prints Python difflib's context diff, or its unified diff with `-u` / `-U N`
//! (see [`super::difflib`]), under the files' absolute normalized paths; exit status 0 when
//! equal, 1 when different and 1 on trouble (as lit's script). Options are read as Python's
//! `getopt.gnu_getopt(args, "wbuI:U:r", ["strip-trailing-cr"])` reads them: `-w` and `-b`
//! compare (and print) lines with whitespace removed or collapsed, `--strip-trailing-cr`
//! turns `\r\n` into `\n`, `-I RE` drops the lines that `RE` matches at their start, and `-r`
//! compares two directory trees (names in sorted order; "Only in", "File ... is a directory
//! while file ... is a regular file", and a diff per pair of differing files). Files that are
//! not UTF-8 are compared as bytes and always printed as a unified diff, with the bytes that
//! are not UTF-8 written as `\xNN`.

use super::builtins::{fail, os_message, Io};
use super::difflib::{context_diff, unified_diff};
use std::io::{Read, Write};
use std::path::Path;

struct Flags {
    context: usize,
    unified: bool,
    ignore_space_change: bool,
    ignore_all_space: bool,
    strip_trailing_cr: bool,
    ignore_matching: Option<regex::Regex>,
    recursive: bool,
}

/// Runs `diff` with `args`.
pub fn diff(args: &[String], cwd: &Path, io: &mut Io) -> i32 {
    let (opts, files) = match getopt(args) {
        Ok(parsed) => parsed,
        Err(e) => return fail(io, 1, format!("Unsupported: 'diff': {e}")),
    };
    let mut flags = Flags {
        context: 3,
        unified: false,
        ignore_space_change: false,
        ignore_all_space: false,
        strip_trailing_cr: false,
        ignore_matching: None,
        recursive: false,
    };
    for (opt, value) in opts {
        match opt {
            'w' => flags.ignore_all_space = true,
            'b' => flags.ignore_space_change = true,
            'u' => flags.unified = true,
            'U' => {
                flags.unified = true;
                match python_int(&value) {
                    Some(n) => flags.context = n,
                    None => return fail(io, 1, format!("Error: invalid '-U' argument: {value}")),
                }
            }
            'I' => match regex::Regex::new(&format!("^(?:{value})")) {
                Ok(re) => flags.ignore_matching = Some(re),
                Err(e) => return fail(io, 1, format!("Error: invalid '-I' regular expression: {e}")),
            },
            'r' => flags.recursive = true,
            _ => flags.strip_trailing_cr = true,
        }
    }
    let [old_name, new_name] = files[..] else {
        return fail(io, 1, "Error: missing or extra operand");
    };
    let path = |name: &str| if name == "-" { name.to_string() } else { abs_path(cwd, name) };
    let (old, new) = (path(old_name), path(new_name));
    let result = if flags.recursive {
        if old_name == "-" || new_name == "-" {
            return fail(io, 1, "Error: cannot recursively compare '-'");
        }
        compare_trees(&old, &new, &flags, io)
    } else {
        compare_files(&old, &new, &flags, io)
    };
    match result {
        Ok(code) => code,
        Err(e) => fail(io, 1, format!("Error: 'diff' command failed, {e}")),
    }
}

/// Options as getopt returns them: the letter (`'s'` for `--strip-trailing-cr`) and the value.
type Opts = Vec<(char, String)>;

/// `getopt.gnu_getopt(args, "wbuI:U:r", ["strip-trailing-cr"])`: the options and the
/// operands, or getopt's message.
fn getopt(args: &[String]) -> Result<(Opts, Vec<&str>), String> {
    let (mut opts, mut operands) = (Vec::new(), Vec::new());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--" {
            operands.extend(args.by_ref().map(String::as_str));
        } else if let Some(long) = arg.strip_prefix("--") {
            let (name, value) = long.split_once('=').map_or((long, None), |(n, v)| (n, Some(v)));
            if !"strip-trailing-cr".starts_with(name) {
                return Err(format!("option --{name} not recognized"));
            }
            if value.is_some() {
                return Err("option --strip-trailing-cr must not have an argument".into());
            }
            opts.push(('s', String::new()));
        } else if let Some(shorts) = arg.strip_prefix('-').filter(|s| !s.is_empty()) {
            for (at, c) in shorts.char_indices() {
                match c {
                    'w' | 'b' | 'u' | 'r' => opts.push((c, String::new())),
                    'I' | 'U' => {
                        let rest = &shorts[at + 1..];
                        let value = if rest.is_empty() {
                            args.next().ok_or(format!("option -{c} requires argument"))?.clone()
                        } else {
                            rest.to_string()
                        };
                        opts.push((c, value));
                        break;
                    }
                    _ => return Err(format!("option -{c} not recognized")),
                }
            }
        } else {
            operands.push(arg.as_str());
        }
    }
    Ok((opts, operands))
}

/// Python's `int(text)` for a count: spaces around, an optional sign, digits with single `_`
/// between them; `None` for anything else and for negative numbers.
fn python_int(text: &str) -> Option<usize> {
    let t = text.trim();
    let digits = t.strip_prefix('+').unwrap_or(t);
    let (negative, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, digits),
    };
    let ok = !digits.is_empty()
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__")
        && digits.chars().all(|c| c.is_ascii_digit() || c == '_');
    let value: usize = digits.replace('_', "").parse().ok().filter(|_| ok)?;
    (!negative || value == 0).then_some(value)
}

/// `os.path.abspath(name)` from `cwd`: joined and lexically normalized (`.`, `..` and
/// repeated slashes removed; a leading `//` kept, as POSIX allows).
fn abs_path(cwd: &Path, name: &str) -> String {
    let joined =
        if name.starts_with('/') { name.to_string() } else { format!("{}/{name}", cwd.to_string_lossy()) };
    let lead = if joined.starts_with("//") && !joined.starts_with("///") { "//" } else { "/" };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    format!("{lead}{}", parts.join("/"))
}

/// Python's `str(OSError)` for a file: `[Errno 2] No such file or directory: '/a/b'`.
fn os_error(e: &std::io::Error, path: &str) -> String {
    let quoted = if path.contains('\'') && !path.contains('"') {
        format!("\"{path}\"")
    } else {
        format!("'{}'", path.replace('\\', "\\\\").replace('\'', "\\'"))
    };
    match e.raw_os_error() {
        Some(code) => format!("[Errno {code}] {}: {quoted}", os_message(e)),
        None => format!("{}: {quoted}", os_message(e)),
    }
}

/// Compares two trees (files or directories) as lit's `compareDirTrees`.
fn compare_trees(old: &str, new: &str, flags: &Flags, io: &mut Io) -> Result<i32, String> {
    let (old_dir, new_dir) = (Path::new(old).is_dir(), Path::new(new).is_dir());
    if !old_dir && !new_dir {
        return compare_files(old, new, flags, io);
    }
    let out = |io: &mut Io, line: String| writeln!(io.stdout, "{line}").map_err(|e| e.to_string());
    if old_dir != new_dir {
        let file = if old_dir { new } else { old };
        let len = std::fs::metadata(file).map_err(|e| os_error(&e, file))?.len();
        let kind = if len == 0 { "a regular empty file" } else { "a regular file" };
        let (old_kind, new_kind) = if old_dir { ("a directory", kind) } else { (kind, "a directory") };
        out(io, format!("File {old} is {old_kind} while file {new} is {new_kind}"))?;
        return Ok(1);
    }
    let (old_names, new_names) = (sorted_names(old)?, sorted_names(new)?);
    let (mut i, mut j, mut code) = (0, 0, 0);
    while i < old_names.len() || j < new_names.len() {
        let order = match (old_names.get(i), new_names.get(j)) {
            (Some(a), Some(b)) => a.cmp(b),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match order {
            std::cmp::Ordering::Less => {
                out(io, format!("Only in {old}: {}", old_names[i]))?;
                (i, code) = (i + 1, 1);
            }
            std::cmp::Ordering::Greater => {
                out(io, format!("Only in {new}: {}", new_names[j]))?;
                (j, code) = (j + 1, 1);
            }
            std::cmp::Ordering::Equal => {
                let (a, b) = (format!("{old}/{}", old_names[i]), format!("{new}/{}", new_names[j]));
                code |= compare_trees(&a, &b, flags, io)?;
                (i, j) = (i + 1, j + 1);
            }
        }
    }
    Ok(code)
}

fn sorted_names(dir: &str) -> Result<Vec<String>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| os_error(&e, dir))?;
    let mut names = entries
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| os_error(&e, dir))?;
    names.sort();
    Ok(names)
}

/// Compares two files (`-` is stdin) and prints their diff; 1 when they differ.
fn compare_files(old_name: &str, new_name: &str, flags: &Flags, io: &mut Io) -> Result<i32, String> {
    let old = read(old_name, io)?;
    let new = read(new_name, io)?;
    let text = match (String::from_utf8(old), String::from_utf8(new)) {
        (Ok(old), Ok(new)) => {
            let (old, new) = (text_lines(&old, flags), text_lines(&new, flags));
            if flags.unified {
                unified_diff(&old, &new, old_name, new_name, flags.context)
            } else {
                context_diff(&old, &new, old_name, new_name, flags.context)
            }
        }
        (old, new) => {
            let bytes = |r: Result<String, std::string::FromUtf8Error>| {
                r.map_or_else(|e| e.into_bytes(), String::into_bytes)
            };
            let (old, new) = (bytes(old), bytes(new));
            let lines =
                |data: &[u8]| data.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec).collect::<Vec<_>>();
            backslash_replace(&unified_diff(&lines(&old), &lines(&new), old_name, new_name, flags.context))
        }
    };
    if text.is_empty() {
        return Ok(0);
    }
    io.stdout.write_all(&text).map_err(|e| e.to_string())?;
    Ok(1)
}

fn read(name: &str, io: &mut Io) -> Result<Vec<u8>, String> {
    let mut data = Vec::new();
    let result = if name == "-" {
        io.stdin.read_to_end(&mut data)
    } else {
        std::fs::File::open(name).and_then(|mut f| f.read_to_end(&mut data))
    };
    result.map_err(|e| os_error(&e, name))?;
    Ok(data)
}

/// The lines of a text file as lit compares and prints them: `-I` lines dropped, then `\r\n`
/// made `\n` (`--strip-trailing-cr`), then whitespace removed (`-w`) or runs of it made one
/// space (`-b`), with `\n` ending every such line.
fn text_lines(text: &str, flags: &Flags) -> Vec<String> {
    let ignored = |line: &str| {
        flags.ignore_matching.as_ref().is_some_and(|re| {
            // Python's `$` also matches before a final newline.
            re.is_match(line) || line.strip_suffix('\n').is_some_and(|l| re.is_match(l))
        })
    };
    text.split_inclusive('\n')
        .filter(|line| !ignored(line))
        .map(|line| {
            let line = if flags.strip_trailing_cr { line.replace("\r\n", "\n") } else { line.to_string() };
            if !(flags.ignore_all_space || flags.ignore_space_change) {
                return line;
            }
            // Python's `str.split()` also splits at the separators U+001C..U+001F.
            let words = line.split(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c));
            let words: Vec<&str> = words.filter(|w| !w.is_empty()).collect();
            words.join(if flags.ignore_all_space { "" } else { " " }) + "\n"
        })
        .collect()
}

/// Python's `bytes.decode(errors="backslashreplace")`: bytes that are not UTF-8 become `\xNN`.
fn backslash_replace(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    loop {
        match std::str::from_utf8(data) {
            Ok(s) => {
                out.extend_from_slice(s.as_bytes());
                return out;
            }
            Err(e) => {
                let (good, rest) = data.split_at(e.valid_up_to());
                out.extend_from_slice(good);
                let bad = e.error_len().unwrap_or(rest.len());
                for b in &rest[..bad] {
                    out.extend_from_slice(format!("\\x{b:02x}").as_bytes());
                }
                data = &rest[bad..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_as_gnu_getopt_reads_them() {
        let args = strings(&["-wU1", "a", "--strip", "-I", "x", "b", "--", "-u"]);
        let (opts, files) = getopt(&args).unwrap();
        let names: Vec<char> = opts.iter().map(|o| o.0).collect();
        assert_eq!(names, ['w', 'U', 's', 'I']);
        assert_eq!((opts[1].1.as_str(), opts[3].1.as_str()), ("1", "x"));
        assert_eq!(files, ["a", "b", "-u"]);
        assert_eq!(getopt(&strings(&["-q"])).unwrap_err(), "option -q not recognized");
        assert_eq!(getopt(&strings(&["-U"])).unwrap_err(), "option -U requires argument");
        assert_eq!(getopt(&strings(&["--strip-x"])).unwrap_err(), "option --strip-x not recognized");
        assert_eq!(python_int(" +1_0 "), Some(10));
        assert_eq!(python_int("-1"), None);
        assert_eq!(python_int("1__0"), None);
    }

    #[test]
    fn paths_are_made_absolute_as_os_path_abspath() {
        assert_eq!(abs_path(Path::new("/t/x"), "../a/./b"), "/t/a/b");
        assert_eq!(abs_path(Path::new("/t"), "//a//b/"), "//a/b");
        assert_eq!(abs_path(Path::new("/t"), "/../a"), "/a");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_escaped() {
        assert_eq!(backslash_replace(b"a\xff\xe2\x82b\xc3\xa9"), "a\\xff\\xe2\\x82bé".as_bytes());
    }
}
