//! Commands the shell runs in-process, as lit's internal shell does (lit
//! runs `cat` and `diff` as Python scripts; here they are plain functions):
//! `echo`, `cat`, `diff`, `mkdir`, `rm`, `true`, `false` and `:`.
//!
//! `cd`, `export`, `env` and `not` change how other commands run, and live
//! in the executor.

use super::diff;
use std::io::{Read, Write};
use std::path::Path;

/// The standard streams of a builtin.
pub struct Io {
    /// Standard input.
    pub stdin: Box<dyn Read + Send>,
    /// Standard output.
    pub stdout: Box<dyn Write + Send>,
    /// Standard error.
    pub stderr: Box<dyn Write + Send>,
}

/// A builtin: arguments (without the command name), the working directory
/// and the streams; returns the exit code.
pub type Builtin = fn(&[String], &Path, &mut Io) -> i32;

/// The builtin called `name`, if there is one.
pub fn lookup(name: &str) -> Option<Builtin> {
    Some(match name {
        "echo" => echo,
        "cat" => cat,
        "diff" => diff::diff,
        "mkdir" => mkdir,
        "rm" => rm,
        "true" | ":" => |_, _, _| 0,
        "false" => |_, _, _| 1,
        _ => return None,
    })
}

/// Writes `message` to stderr and returns `code`: the failure path of every
/// builtin.
pub fn fail(io: &mut Io, code: i32, message: impl std::fmt::Display) -> i32 {
    // Nothing sensible is left to do when stderr itself is gone.
    let _ = writeln!(io.stderr, "{message}");
    code
}

fn echo(args: &[String], _: &Path, io: &mut Io) -> i32 {
    let mut escapes = false;
    let mut newline = true;
    let mut rest = args;
    while let Some((flag, tail)) = rest.split_first() {
        match flag.as_str() {
            "-e" => escapes = true,
            "-n" => newline = false,
            _ => break,
        }
        rest = tail;
    }
    let mut text =
        rest.iter().map(|a| if escapes { unescape(a) } else { a.clone() }).collect::<Vec<_>>().join(" ");
    if newline {
        text.push('\n');
    }
    match io.stdout.write_all(text.as_bytes()) {
        Ok(()) => 0,
        Err(e) => fail(io, 1, format!("echo: {e}")),
    }
}

/// Interprets backslash escapes the way Python's `unicode_escape` (lit's
/// `echo -e`) does for the common cases.
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let simple = match chars.peek() {
            Some('n') => Some('\n'),
            Some('t') => Some('\t'),
            Some('r') => Some('\r'),
            Some('a') => Some('\x07'),
            Some('b') => Some('\x08'),
            Some('f') => Some('\x0c'),
            Some('v') => Some('\x0b'),
            Some('\\') => Some('\\'),
            Some('\'') => Some('\''),
            Some('"') => Some('"'),
            _ => None,
        };
        if let Some(s) = simple {
            chars.next();
            out.push(s);
            continue;
        }
        let (radix, max) = match chars.peek() {
            Some('x') => (16, 2),
            Some('0'..='7') => (8, 3),
            _ => {
                out.push('\\');
                continue;
            }
        };
        if radix == 16 {
            chars.next();
        }
        let mut digits = String::new();
        while digits.len() < max {
            match chars.next_if(|c| c.is_digit(radix)) {
                Some(d) => digits.push(d),
                None => break,
            }
        }
        match u32::from_str_radix(&digits, radix).ok().and_then(char::from_u32) {
            Some(c) => out.push(c),
            None => out.push_str(if radix == 16 { "\\x" } else { "\\" }),
        }
    }
    out
}

fn cat(args: &[String], cwd: &Path, io: &mut Io) -> i32 {
    let mut show_nonprinting = false;
    let mut files = Vec::new();
    for arg in args {
        match arg.as_str() {
            "-v" | "--show-nonprinting" => show_nonprinting = true,
            _ => files.push(arg.as_str()),
        }
    }
    if files.is_empty() {
        files.push("-");
    }
    let mut code = 0;
    for file in files {
        let data = if file == "-" {
            let mut data = Vec::new();
            io.stdin.read_to_end(&mut data).map(|_| data)
        } else {
            std::fs::read(cwd.join(file))
        };
        let data = match data {
            Ok(data) if show_nonprinting => nonprinting(&data),
            Ok(data) => data,
            Err(e) => {
                code = fail(io, 1, format!("cat: {file}: {}", os_message(&e)));
                continue;
            }
        };
        if let Err(e) = io.stdout.write_all(&data) {
            return fail(io, 1, format!("cat: {e}"));
        }
    }
    code
}

/// `cat -v`: control characters as `^X`, high bytes as `M-`.
fn nonprinting(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    for &byte in data {
        let mut b = byte;
        if b >= 128 {
            out.extend_from_slice(b"M-");
            b -= 128;
        }
        match b {
            b'\n' | b'\t' if byte < 128 => out.push(b),
            0..=31 => out.extend_from_slice(&[b'^', b + 64]),
            127 => out.extend_from_slice(b"^?"),
            _ => out.push(b),
        }
    }
    out
}

/// `mkdir [-p] DIR...` as lit's: an existing directory is no error, with or
/// without `-p`; no operand is lit's internal shell error (status 127).
fn mkdir(args: &[String], cwd: &Path, io: &mut Io) -> i32 {
    let parents = args.iter().any(|a| a == "-p");
    let dirs: Vec<&String> = args.iter().filter(|a| *a != "-p").collect();
    if dirs.is_empty() {
        return fail(io, 127, "Error: 'mkdir' is missing an operand");
    }
    let mut code = 0;
    for dir in dirs {
        if dir.starts_with('-') {
            return fail(io, 1, format!("Unsupported: 'mkdir': option {dir} not recognized"));
        }
        let path = cwd.join(dir);
        let result = if parents {
            std::fs::create_dir_all(&path)
        } else {
            std::fs::create_dir(&path).or_else(|e| if path.is_dir() { Ok(()) } else { Err(e) })
        };
        if let Err(e) = result {
            code = fail(io, 1, format!("Error: 'mkdir' command failed, {}", os_message(&e)));
        }
    }
    code
}

fn rm(args: &[String], cwd: &Path, io: &mut Io) -> i32 {
    let (mut force, mut recursive) = (false, false);
    let mut paths = Vec::new();
    for arg in args {
        match arg.strip_prefix('-') {
            Some(flags) if !flags.is_empty() && paths.is_empty() => {
                for flag in flags.chars() {
                    match flag {
                        'f' => force = true,
                        'r' | 'R' => recursive = true,
                        _ => return fail(io, 1, format!("Unsupported: 'rm': option -{flag} not recognized")),
                    }
                }
            }
            _ => paths.push(arg),
        }
    }
    let mut code = 0;
    for path in paths {
        let full = cwd.join(path);
        let result = match full.symlink_metadata() {
            Err(_) if force => continue,
            Err(e) => Err(e),
            Ok(meta) if meta.is_dir() && !recursive => {
                code = fail(io, 1, format!("Error: '{path}' is a directory"));
                continue;
            }
            Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(&full),
            Ok(_) => std::fs::remove_file(&full),
        };
        if let Err(e) = result {
            code = fail(io, 1, format!("Error: 'rm' command failed, {}", os_message(&e)));
        }
    }
    code
}

/// An OS error's message without Rust's " (os error N)" suffix.
pub fn os_message(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_escapes() {
        assert_eq!(unescape(r"a\tb\n\x41\101\\\q"), "a\tb\nAA\\\\q");
    }

    #[test]
    fn cat_shows_nonprinting() {
        assert_eq!(nonprinting(b"a\x01\x7f\xc3\n"), b"a^A^?M-C\n");
    }
}
