//! The `diff` builtin: compares two files (`-` is stdin) line by line and
//! prints a unified diff; exit code 0 when equal, 1 when different, 2 on
//! trouble. Options as lit's: `-u`, `-U N`, `-b`, `-w`,
//! `--strip-trailing-cr`, and `-r`, which compares two directory trees as
//! lit's does (names in sorted order; "Only in", "File ... is a directory
//! while file ... is a regular file", and a diff per pair of differing files,
//! all with absolute paths).

use super::builtins::{fail, os_message, Io};
use std::io::{Read, Write};
use std::path::Path;

/// Inputs larger than this many line pairs are reported as one hunk
/// rather than aligned line by line.
const MAX_TABLE: usize = 1 << 24;

struct Flags {
    context: usize,
    ignore_space_change: bool,
    ignore_all_space: bool,
    strip_trailing_cr: bool,
    recursive: bool,
}

/// One step of an alignment of the old lines with the new ones, with the
/// positions in both reached before it.
#[derive(Clone, Copy, PartialEq)]
struct Edit {
    kind: EditKind,
    old: usize,
    new: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum EditKind {
    Keep,
    Delete,
    Insert,
}

/// Runs `diff` with `args`.
pub fn diff(args: &[String], cwd: &Path, io: &mut Io) -> i32 {
    let mut flags = Flags {
        context: 3,
        ignore_space_change: false,
        ignore_all_space: false,
        strip_trailing_cr: false,
        recursive: false,
    };
    let mut files = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-u" => {}
            "-b" => flags.ignore_space_change = true,
            "-w" => flags.ignore_all_space = true,
            "--strip-trailing-cr" => flags.strip_trailing_cr = true,
            "-r" => flags.recursive = true,
            "-U" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => flags.context = n,
                None => return fail(io, 2, "Unsupported: 'diff': bad -U argument"),
            },
            a if a.starts_with("-U") => match a[2..].parse() {
                Ok(n) => flags.context = n,
                Err(_) => return fail(io, 2, "Unsupported: 'diff': bad -U argument"),
            },
            a if a.starts_with('-') && a != "-" => {
                return fail(io, 2, format!("Unsupported: 'diff': option {a} not recognized"))
            }
            _ => files.push(arg.as_str()),
        }
    }
    let [old_name, new_name] = files[..] else {
        return fail(io, 2, "Error: missing or extra operand");
    };
    if !flags.recursive {
        return compare_files(old_name, new_name, cwd, &flags, io);
    }
    if old_name == "-" || new_name == "-" {
        return fail(io, 2, "Error: cannot recursively compare '-'");
    }
    match compare_trees(&cwd.join(old_name), &cwd.join(new_name), &flags, io) {
        Ok(code) => code,
        Err(e) => fail(io, 2, format!("Error: 'diff' command failed, {}", os_message(&e))),
    }
}

/// Compares two trees (files or directories) as lit's `compareDirTrees`.
fn compare_trees(old: &Path, new: &Path, flags: &Flags, io: &mut Io) -> std::io::Result<i32> {
    let (old_dir, new_dir) = (old.is_dir(), new.is_dir());
    if !old_dir && !new_dir {
        let name = |p: &Path| p.to_string_lossy().into_owned();
        return Ok(compare_files(&name(old), &name(new), Path::new("/"), flags, io));
    }
    if old_dir != new_dir {
        let file = if old_dir { new } else { old };
        let empty = if std::fs::metadata(file)?.len() == 0 { "empty " } else { "" };
        let (old_kind, new_kind) = if old_dir {
            ("a directory".to_string(), format!("a regular {empty}file"))
        } else {
            (format!("a regular {empty}file"), "a directory".to_string())
        };
        writeln!(
            io.stdout,
            "File {} is {old_kind} while file {} is {new_kind}",
            old.display(),
            new.display()
        )?;
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
                writeln!(io.stdout, "Only in {}: {}", old.display(), old_names[i].to_string_lossy())?;
                (i, code) = (i + 1, 1);
            }
            std::cmp::Ordering::Greater => {
                writeln!(io.stdout, "Only in {}: {}", new.display(), new_names[j].to_string_lossy())?;
                (j, code) = (j + 1, 1);
            }
            std::cmp::Ordering::Equal => {
                code |= compare_trees(&old.join(&old_names[i]), &new.join(&new_names[j]), flags, io)?;
                (i, j) = (i + 1, j + 1);
            }
        }
    }
    Ok(code)
}

fn sorted_names(dir: &Path) -> std::io::Result<Vec<std::ffi::OsString>> {
    let mut names =
        std::fs::read_dir(dir)?.map(|e| e.map(|e| e.file_name())).collect::<Result<Vec<_>, _>>()?;
    names.sort();
    Ok(names)
}

/// Compares two files (`-` is stdin) and prints their unified diff.
fn compare_files(old_name: &str, new_name: &str, cwd: &Path, flags: &Flags, io: &mut Io) -> i32 {
    let (old, new) = match (read(old_name, cwd, io), read(new_name, cwd, io)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(e), _) | (_, Err(e)) => return fail(io, 2, e),
    };
    let old: Vec<&str> = old.split_inclusive('\n').collect();
    let new: Vec<&str> = new.split_inclusive('\n').collect();
    let key = |line: &str| normalize(line, flags);
    let old_keys: Vec<String> = old.iter().map(|l| key(l)).collect();
    let new_keys: Vec<String> = new.iter().map(|l| key(l)).collect();
    if old_keys == new_keys {
        return 0;
    }
    let edits = align(&old_keys, &new_keys);
    let mut text = format!("--- {old_name}\n+++ {new_name}\n");
    for hunk in hunks(&edits, flags.context) {
        write_hunk(&mut text, hunk, &old, &new);
    }
    match io.stdout.write_all(text.as_bytes()) {
        Ok(()) => 1,
        Err(e) => fail(io, 2, format!("diff: {e}")),
    }
}

fn read(name: &str, cwd: &Path, io: &mut Io) -> Result<String, String> {
    let mut data = Vec::new();
    let result = if name == "-" {
        io.stdin.read_to_end(&mut data).map(|_| ())
    } else {
        std::fs::File::open(cwd.join(name)).and_then(|mut f| f.read_to_end(&mut data).map(|_| ()))
    };
    result.map_err(|e| format!("Error: '{name}': {}", os_message(&e)))?;
    Ok(String::from_utf8_lossy(&data).into_owned())
}

fn normalize(line: &str, flags: &Flags) -> String {
    let mut line = line.strip_suffix('\n').unwrap_or(line);
    if flags.strip_trailing_cr {
        line = line.strip_suffix('\r').unwrap_or(line);
    }
    if flags.ignore_all_space {
        line.split_whitespace().collect()
    } else if flags.ignore_space_change {
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        line.to_string()
    }
}

/// A shortest edit script turning `old` into `new` (longest common
/// subsequence over the part between the common prefix and suffix).
fn align(old: &[String], new: &[String]) -> Vec<Edit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix =
        old[prefix..].iter().rev().zip(new[prefix..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (a, b) = (&old[prefix..old.len() - suffix], &new[prefix..new.len() - suffix]);
    let mut kinds = vec![EditKind::Keep; prefix];
    if (a.len() + 1) * (b.len() + 1) > MAX_TABLE {
        kinds.extend(std::iter::repeat_n(EditKind::Delete, a.len()));
        kinds.extend(std::iter::repeat_n(EditKind::Insert, b.len()));
    } else {
        // lcs[i * width + j]: the LCS length of a[i..] and b[j..].
        let width = b.len() + 1;
        let mut lcs = vec![0u32; (a.len() + 1) * width];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                lcs[i * width + j] = if a[i] == b[j] {
                    lcs[(i + 1) * width + j + 1] + 1
                } else {
                    lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                kinds.push(EditKind::Keep);
                (i, j) = (i + 1, j + 1);
            } else if j == b.len() || (i < a.len() && lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
                kinds.push(EditKind::Delete);
                i += 1;
            } else {
                kinds.push(EditKind::Insert);
                j += 1;
            }
        }
    }
    kinds.extend(std::iter::repeat_n(EditKind::Keep, suffix));
    let (mut old_pos, mut new_pos) = (0, 0);
    kinds
        .into_iter()
        .map(|kind| {
            let edit = Edit { kind, old: old_pos, new: new_pos };
            old_pos += usize::from(kind != EditKind::Insert);
            new_pos += usize::from(kind != EditKind::Delete);
            edit
        })
        .collect()
}

/// Groups the edits into hunks with `context` kept lines around changes.
fn hunks(edits: &[Edit], context: usize) -> Vec<&[Edit]> {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for k in (0..edits.len()).filter(|&k| edits[k].kind != EditKind::Keep) {
        let (start, end) = (k.saturating_sub(context), (k + context + 1).min(edits.len()));
        match ranges.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => ranges.push((start, end)),
        }
    }
    ranges.into_iter().map(|(s, e)| &edits[s..e]).collect()
}

/// `start,len` as difflib writes it: 1-based, `,len` left out when 1.
fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{len}", start + 1),
    }
}

fn write_hunk(out: &mut String, hunk: &[Edit], old: &[&str], new: &[&str]) {
    let old_len = hunk.iter().filter(|e| e.kind != EditKind::Insert).count();
    let new_len = hunk.iter().filter(|e| e.kind != EditKind::Delete).count();
    out.push_str(&format!("@@ -{} +{} @@\n", range(hunk[0].old, old_len), range(hunk[0].new, new_len)));
    for edit in hunk {
        let (mark, line) = match edit.kind {
            EditKind::Keep => (' ', old[edit.old]),
            EditKind::Delete => ('-', old[edit.old]),
            EditKind::Insert => ('+', new[edit.new]),
        };
        out.push(mark);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<String> {
        text.lines().map(String::from).collect()
    }

    #[test]
    fn unified_hunks() {
        let old = ["a\n", "b\n", "c\n", "d\n", "e\n", "f\n", "g\n", "h\n", "i\n"];
        let new = ["a\n", "B\n", "c\n", "d\n", "e\n", "f\n", "g\n", "h\n", "i\n", "j\n"];
        let edits = align(&keys(&old.concat()), &keys(&new.concat()));
        let mut out = String::new();
        for hunk in hunks(&edits, 1) {
            write_hunk(&mut out, hunk, &old, &new);
        }
        assert_eq!(out, "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -9 +9,2 @@\n i\n+j\n");
    }
}
