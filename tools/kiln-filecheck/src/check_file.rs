//! Reading the check file into a list of [`CheckString`]s: finding prefixed
//! directives, classifying them (`-NEXT`, `-COUNT-n`, `{LITERAL}`, ...),
//! diagnosing malformed ones, and grouping CHECK-DAG/CHECK-NOT directives
//! with the positive directive that follows them (LLVM `readCheckFile`).

use std::collections::BTreeSet;

use crate::pattern::{CheckKind, CheckType, Pattern, PatternOptions};
use crate::source::{BufferId, Loc, Report, SourceManager, SpanError};
use crate::vars::Variables;

/// A CHECK-DAG or CHECK-NOT directive waiting for the next positive check.
#[derive(Clone, Debug)]
pub struct DagNot {
    /// The pattern.
    pub pattern: Pattern,
    /// The prefix it was written with.
    pub prefix: String,
}

/// A positive directive with the DAG/NOT directives preceding it.
#[derive(Clone, Debug)]
pub struct CheckString {
    /// The pattern to match.
    pub pattern: Pattern,
    /// The prefix it was written with.
    pub prefix: String,
    /// CHECK-DAG/CHECK-NOT directives (and implicit NOTs) to handle first.
    pub dag_not: Vec<DagNot>,
}

/// What `find_check_type` recognized after a prefix.
enum Found {
    /// Not a directive; skip the word.
    None,
    /// A comment directive; the pattern text starts at the offset.
    Comment(usize),
    /// A directive whose text starts at the offset.
    Check(CheckType, usize),
    /// `CHECK_NEXT:`-style spelling ending at the offset.
    Misspelled(usize),
    /// `CHECK-NOT-DAG:`-style combination; offset of the suffix.
    BadNot(usize),
    /// Invalid `-COUNT-n`; offset after what was parsed.
    BadCount(usize),
}

fn is_part_of_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// Classifies the text at `at`, which starts with `prefix` (LLVM
/// `FindCheckType`). Offsets are absolute in `buf`.
fn find_check_type(buf: &[u8], at: usize, prefix: &str, is_comment: bool) -> Found {
    let mut i = at + prefix.len();
    if buf.len() <= i {
        return Found::None;
    }
    let eat = |i: &mut usize, s: &[u8]| {
        if buf[*i..].starts_with(s) {
            *i += s.len();
            true
        } else {
            false
        }
    };
    if is_comment {
        return if eat(&mut i, b":") { Found::Comment(i) } else { Found::None };
    }
    let modifiers = |mut i: usize, mut ty: CheckType| -> Found {
        if eat(&mut i, b":") {
            return Found::Check(ty, i);
        }
        if !eat(&mut i, b"{") {
            return Found::None;
        }
        loop {
            while buf.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
                i += 1;
            }
            if !eat(&mut i, b"LITERAL") {
                return Found::None;
            }
            ty.literal = true;
            while buf.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
                i += 1;
            }
            if !eat(&mut i, b",") {
                break;
            }
        }
        if eat(&mut i, b"}:") {
            Found::Check(ty, i)
        } else {
            Found::None
        }
    };
    if eat(&mut i, b":") {
        return Found::Check(CheckType::new(CheckKind::Plain), i);
    }
    if buf[i] == b'{' {
        return modifiers(i, CheckType::new(CheckKind::Plain));
    }
    let misspelled = eat(&mut i, b"_");
    if !misspelled && !eat(&mut i, b"-") {
        return Found::None;
    }
    let result = if eat(&mut i, b"COUNT-") {
        let neg = eat(&mut i, b"-");
        let digits = buf[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let count = std::str::from_utf8(&buf[i..i + digits]).ok().and_then(|d| d.parse::<u64>().ok());
        i += digits;
        match count {
            Some(n) if !neg && n > 0 && n <= i32::MAX as u64 && matches!(buf.get(i), Some(b':' | b'{')) => {
                modifiers(i, CheckType { count: n as usize, ..CheckType::new(CheckKind::Plain) })
            }
            _ => return Found::BadCount(i),
        }
    } else {
        let rest = &buf[i..];
        let bad_not: [&[u8]; 8] = [
            b"DAG-NOT:",
            b"NOT-DAG:",
            b"NEXT-NOT:",
            b"NOT-NEXT:",
            b"SAME-NOT:",
            b"NOT-SAME:",
            b"EMPTY-NOT:",
            b"NOT-EMPTY:",
        ];
        if bad_not.iter().any(|b| rest.starts_with(b)) {
            return Found::BadNot(i);
        }
        let kinds: [(&[u8], CheckKind); 6] = [
            (b"NEXT", CheckKind::Next),
            (b"SAME", CheckKind::Same),
            (b"NOT", CheckKind::Not),
            (b"DAG", CheckKind::Dag),
            (b"LABEL", CheckKind::Label),
            (b"EMPTY", CheckKind::Empty),
        ];
        match kinds.iter().find(|(name, _)| rest.starts_with(name)) {
            Some((name, kind)) => modifiers(i + name.len(), CheckType::new(*kind)),
            None => Found::None,
        }
    };
    match result {
        Found::Check(_, end) if misspelled => Found::Misspelled(end),
        other => other,
    }
}

/// Finds the earliest (then longest) occurrence of any prefix at or after
/// a position, caching each prefix's next occurrence.
struct PrefixFinder<'a> {
    buf: &'a [u8],
    prefixes: Vec<&'a str>,
    next: Vec<Option<usize>>,
}

impl<'a> PrefixFinder<'a> {
    fn new(buf: &'a [u8], prefixes: Vec<&'a str>) -> Self {
        let next = prefixes.iter().map(|p| Self::search(buf, p, 0)).collect();
        PrefixFinder { buf, prefixes, next }
    }

    fn search(buf: &[u8], prefix: &str, from: usize) -> Option<usize> {
        buf.get(from..)?.windows(prefix.len()).position(|w| w == prefix.as_bytes()).map(|x| x + from)
    }

    fn find(&mut self, from: usize) -> Option<(usize, &'a str)> {
        let mut best: Option<(usize, &'a str)> = None;
        for (p, next) in self.prefixes.iter().zip(self.next.iter_mut()) {
            if next.is_some_and(|n| n < from) {
                *next = Self::search(self.buf, p, from);
            }
            if let Some(n) = *next {
                if best.is_none_or(|(b, bp)| n < b || (n == b && p.len() > bp.len())) {
                    best = Some((n, p));
                }
            }
        }
        best
    }
}

/// Which prefixes a check file uses.
pub struct Prefixes<'a> {
    /// Check prefixes (never empty: `CHECK` by default).
    pub check: &'a [String],
    /// Comment prefixes.
    pub comment: &'a [String],
    /// Whether `check` is the default `CHECK` rather than user-given.
    pub defaulted: bool,
    /// `--allow-unused-prefixes`
    pub allow_unused: bool,
}

/// Reads the check file in `check_id`. `implicit` holds the parsed
/// `--implicit-check-not` patterns.
pub fn read_check_file(
    sm: &SourceManager,
    check_id: BufferId,
    prefixes: &Prefixes,
    implicit: &[DagNot],
    opts: PatternOptions,
    vars: &mut Variables,
) -> Result<Vec<CheckString>, Report> {
    let (check_prefixes, comment_prefixes) = (prefixes.check, prefixes.comment);
    let buf = sm.text(check_id);
    let loc = |offset| Loc { buffer: check_id, offset };
    let all: Vec<&str> = check_prefixes.iter().chain(comment_prefixes).map(String::as_str).collect();
    let mut finder = PrefixFinder::new(buf, all);
    let mut unused: BTreeSet<&str> = check_prefixes.iter().map(String::as_str).collect();
    let distinct = unused.len();
    let mut checks: Vec<CheckString> = Vec::new();
    let mut dag_not: Vec<DagNot> = implicit.to_vec();
    let (mut line, mut counted_to) = (1usize, 0usize);
    let mut pos = 0;
    while let Some((at, prefix)) = finder.find(pos) {
        line += buf[counted_to..at].iter().filter(|&&c| c == b'\n').count();
        counted_to = at;
        let is_comment = comment_prefixes.iter().any(|c| c == prefix);
        let starts_word = at == pos || !is_part_of_word(buf[at - 1]);
        let found = if starts_word { find_check_type(buf, at, prefix, is_comment) } else { Found::None };
        let (ty, mut start) = match found {
            Found::None => {
                let mut end = at + prefix.len();
                while end < buf.len() && is_part_of_word(buf[end]) {
                    end += 1;
                }
                pos = end;
                continue;
            }
            Found::Misspelled(end) => {
                let spelled = String::from_utf8_lossy(&buf[at..end]);
                return Err(SpanError::new(loc(at), format!("misspelled directive '{spelled}'")).into());
            }
            Found::BadNot(i) => {
                return Err(
                    SpanError::new(loc(i), format!("unsupported -NOT combo on prefix '{prefix}'")).into()
                )
            }
            Found::BadCount(i) => {
                return Err(SpanError::new(
                    loc(i),
                    format!("invalid count in -COUNT specification on prefix '{prefix}'"),
                )
                .into())
            }
            Found::Comment(start) => (None, start),
            Found::Check(ty, start) => {
                unused.remove(prefix);
                (Some(ty), start)
            }
        };
        // LLVM quirk: a directive ending the file takes its own suffix as the
        // pattern (it resumes right after the prefix when nothing follows).
        if start == buf.len() {
            start = at + prefix.len();
        }
        if !(opts.strict_whitespace && opts.match_full_lines) {
            while start < buf.len() && (buf[start] == b' ' || buf[start] == b'\t') {
                start += 1;
            }
        }
        let eol =
            buf[start..].iter().position(|&c| c == b'\n' || c == b'\r').map_or(buf.len(), |p| start + p);
        pos = eol;
        let Some(ty) = ty else { continue };
        let pattern = Pattern::parse(&buf[start..eol], loc(start), ty, prefix, Some(line), opts, vars)?;
        if ty.kind == CheckKind::Label && pattern.has_variable() {
            return Err(SpanError::new(
                loc(at),
                format!("found '{prefix}-LABEL:' with variable definition or use"),
            )
            .into());
        }
        if matches!(ty.kind, CheckKind::Next | CheckKind::Same | CheckKind::Empty) && checks.is_empty() {
            let name = match ty.kind {
                CheckKind::Next => "NEXT",
                CheckKind::Empty => "EMPTY",
                _ => "SAME",
            };
            return Err(SpanError::new(
                loc(at),
                format!("found '{prefix}-{name}' without previous '{prefix}: line"),
            )
            .into());
        }
        let prefix = prefix.to_string();
        if matches!(ty.kind, CheckKind::Dag | CheckKind::Not) {
            dag_not.push(DagNot { pattern, prefix });
            continue;
        }
        let pending = std::mem::replace(&mut dag_not, implicit.to_vec());
        checks.push(CheckString { pattern, prefix, dag_not: pending });
    }
    let none_found = unused.len() == distinct;
    let some_unused = !prefixes.allow_unused && !unused.is_empty();
    if (none_found || some_unused) && (implicit.is_empty() || !prefixes.defaulted) {
        let names: Vec<String> = unused.iter().map(|p| format!("'{p}:'")).collect();
        let plural = if unused.len() > 1 { "es" } else { "" };
        return Err(Report::Plain(format!(
            "error: no check strings found with prefix{plural} {}",
            names.join(", ")
        )));
    }
    if !dag_not.is_empty() {
        let prefix = check_prefixes.first().cloned().unwrap_or_default();
        let eof = Pattern::eof(loc(pos));
        checks.push(CheckString { pattern: eof, prefix, dag_not });
    }
    Ok(checks)
}
