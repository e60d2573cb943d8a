//! The annotated input dump printed by `--dump-input` (LLVM's
//! `DumpAnnotatedInput`): each input line is numbered, the newline shown as a
//! trailing space, and followed by annotation lines such as
//!
//! ```text
//! check:3'0     X~~~ error: no match found
//! ```
//!
//! whose label names the directive type and check-file line (`'N` numbers
//! several results of one directive, `imp1` is the first implicit pattern).
//!
//! With colours, the escapes are those FileCheck 22 writes: line numbers in
//! bold black, input in bold (under `-v`, unmatched input on a cyan
//! background), each annotation line in its marker's colour.

use std::collections::HashMap;
use std::fmt::Write;

use crate::cli::DumpFilter;
use crate::matcher::{Diag, MatchType};
use crate::pattern::{CheckKind, CheckType};
use crate::source::ansi::{BLACK, BOLD, CYAN, CYAN_BACKGROUND, GREEN, MAGENTA, RED, RESET};
use crate::source::{BufferId, Loc, SourceManager};

/// The explanation printed by `--dump-input=help`, with LLVM's colours
/// when `color`.
pub fn help(color: bool) -> String {
    if !color {
        return HELP.to_string();
    }
    const MARKS: [&str; 8] = ["L:", "T:L", "T:L'N", "^~~", "!~~", "X~~", "?", "..."];
    let mut text = String::new();
    for line in HELP.lines() {
        let mark =
            MARKS.iter().find(|m| line.strip_prefix("  - ").is_some_and(|l| l.starts_with(&format!("{m} "))));
        match mark {
            Some(m) => text.push_str(&format!("  - {BOLD}{m}{RESET}{}", &line[4 + m.len()..])),
            None if line.starts_with("  - colors ") => {
                text.push_str("  - colors ");
                let colors = [GREEN, RED, MAGENTA, CYAN, CYAN_BACKGROUND];
                let names = ["success", "error", "fuzzy match", "discarded match", "unmatched input"];
                let parts: Vec<String> =
                    colors.iter().zip(names).map(|(c, n)| format!("{c}{n}{RESET}")).collect();
                text.push_str(&parts.join(", "));
            }
            None => text.push_str(line),
        }
        text.push('\n');
    }
    text
}

const HELP: &str = "\
The following description was requested by -dump-input=help to
explain the input dump printed by FileCheck.

Related command-line options:

  - -dump-input=<value> enables or disables the input dump
  - -dump-input-filter=<value> filters the input lines
  - -dump-input-context=<N> adjusts the context of filtered lines
  - -v and -vv add more annotations
  - -color forces colors to be enabled both in the dump and below
  - -help documents the above options in more detail

These options can also be set via FILECHECK_OPTS.  For example, for
maximum debugging output on failures:

  $ FILECHECK_OPTS='-dump-input-filter=all -vv -color' ninja check

Input dump annotation format:

  - L:     labels line number L of the input file
           An extra space is added after each input line to represent the
           newline character
  - T:L    labels the only match result for either (1) a pattern of type T from
           line L of the check file if L is an integer or (2) the I-th implicit
           pattern if L is \"imp\" followed by an integer I (index origin one)
  - T:L'N  labels the Nth match result for such a pattern
  - ^~~    marks good match (reported if -v)
  - !~~    marks bad match, such as:
           - CHECK-NEXT on same line as previous match (error)
           - CHECK-NOT found (error)
           - CHECK-DAG overlapping match (discarded, reported if -vv)
  - X~~    marks search range when no match is found, such as:
           - CHECK-NEXT not found (error)
           - CHECK-NOT not found (success, reported if -vv)
           - CHECK-DAG not found after discarded matches (error)
  - ?      marks fuzzy match when no match is found
  - ...    indicates elided input lines and annotations, as specified by
           -dump-input-filter and -dump-input-context
  - colors success, error, fuzzy match, discarded match, unmatched input
";

/// Where the check patterns come from, for labels.
pub struct LabelSources {
    /// The check file buffer.
    pub check_file: BufferId,
    /// The `--implicit-check-not` buffers, in order.
    pub implicit: Vec<BufferId>,
}

/// How the dump is filtered and drawn.
#[derive(Clone, Copy, Debug)]
pub struct DumpOptions {
    /// `--dump-input-filter`.
    pub filter: DumpFilter,
    /// `--dump-input-context`.
    pub context: usize,
    /// `--dump-input-label-width`.
    pub min_label_width: usize,
    /// Colours (`--color`, or stderr is a terminal).
    pub color: bool,
    /// `-v`/`-vv`: with colours, input outside good matches is highlighted.
    pub verbose: bool,
}

struct Marker {
    lead: u8,
    note: String,
    filters_as_error: bool,
    color: &'static str,
}

fn marker(ty: MatchType) -> Marker {
    let (lead, color, note, filters_as_error) = match ty {
        MatchType::FoundAndExpected => (b'^', GREEN, "", false),
        MatchType::FoundButExcluded => (b'!', RED, "error: no match expected", true),
        MatchType::FoundButWrongLine => (b'!', RED, "error: match on wrong line", true),
        MatchType::FoundButDiscarded => (b'!', CYAN, "discard: overlaps earlier match", false),
        MatchType::NoneAndExcluded => (b'X', GREEN, "", false),
        MatchType::NoneButExpected => (b'X', RED, "error: no match found", true),
        MatchType::NoneForInvalidPattern => (b'X', RED, "error: match failed for invalid pattern", true),
        MatchType::Fuzzy => (b'?', MAGENTA, "possible intended match", true),
    };
    Marker { lead, note: note.to_string(), filters_as_error, color }
}

fn abbreviation(ty: CheckType) -> &'static str {
    match ty.kind {
        CheckKind::Plain if ty.count > 1 => "count",
        CheckKind::Plain => "check",
        CheckKind::Next => "next",
        CheckKind::Same => "same",
        CheckKind::Not => "not",
        CheckKind::Dag => "dag",
        CheckKind::Label => "label",
        CheckKind::Empty => "empty",
        CheckKind::Eof => "eof",
    }
}

struct Annotation {
    index: usize,
    label: String,
    first_line: bool,
    line: usize,
    start_col: usize,
    /// Exclusive end column; `usize::MAX` means the rest of the line.
    end_col: usize,
    marker: Marker,
    /// Whether this marks a good match (its input is not highlighted).
    good_match: bool,
}

fn build_annotations(
    sm: &SourceManager,
    input: BufferId,
    sources: &LabelSources,
    diags: &[Diag],
) -> (Vec<Annotation>, usize) {
    let mut per_pattern: HashMap<Loc, usize> = HashMap::new();
    for d in diags {
        *per_pattern.entry(d.check_loc).or_default() += 1;
    }
    let mut seen: HashMap<Loc, usize> = HashMap::new();
    let mut width = 0;
    let mut out = Vec::new();
    for (index, d) in diags.iter().enumerate() {
        let mut label = format!("{}:", abbreviation(d.check_ty));
        if d.check_loc.buffer == sources.check_file {
            let _ = write!(label, "{}", sm.line_col(d.check_loc).0);
        } else if let Some(i) = sources.implicit.iter().position(|&b| b == d.check_loc.buffer) {
            let _ = write!(label, "imp{}", i + 1);
        }
        if per_pattern[&d.check_loc] > 1 {
            let n = seen.entry(d.check_loc).or_default();
            let _ = write!(label, "'{n}");
            *n += 1;
        }
        width = width.max(label.len());
        let good_match = d.match_ty == MatchType::FoundAndExpected;
        let mut m = marker(d.match_ty);
        if !d.note.is_empty() {
            m.note = d.note.clone();
            if d.range.0 == d.range.1 {
                m.lead = b' ';
            }
        }
        let (start_line, start_col) = sm.line_col(Loc { buffer: input, offset: d.range.0 });
        let (end_line, end_col) = sm.line_col(Loc { buffer: input, offset: d.range.1 });
        if start_line == end_line {
            let end_col = end_col.max(start_col + 1);
            out.push(Annotation {
                index,
                label,
                first_line: true,
                line: start_line,
                start_col,
                end_col,
                marker: m,
                good_match,
            });
            continue;
        }
        let (filters, color) = (m.filters_as_error, m.color);
        out.push(Annotation {
            index,
            label: label.clone(),
            first_line: true,
            line: start_line,
            start_col,
            end_col: usize::MAX,
            marker: m,
            good_match,
        });
        for l in start_line + 1..=end_line {
            if end_col == 1 && l == end_line {
                break;
            }
            out.push(Annotation {
                index,
                label: label.clone(),
                first_line: false,
                line: l,
                start_col: 1,
                end_col: if l == end_line { end_col } else { usize::MAX },
                marker: Marker { lead: b'~', note: String::new(), filters_as_error: filters, color },
                good_match,
            });
        }
    }
    (out, width)
}

fn next_line_in_filter(filter: DumpFilter, line: usize, rest: &[Annotation]) -> usize {
    if filter == DumpFilter::All {
        return line;
    }
    rest.iter()
        .find(|a| match filter {
            DumpFilter::AnnotationFull => true,
            DumpFilter::Annotation => a.first_line,
            _ => a.first_line && a.marker.filters_as_error,
        })
        .map_or(usize::MAX, |a| a.line)
}

/// Renders the dump of `input` with `diags` annotated.
pub fn render(
    sm: &SourceManager,
    input: BufferId,
    sources: &LabelSources,
    diags: &[Diag],
    opts: DumpOptions,
) -> Vec<u8> {
    let DumpOptions { filter, context, min_label_width, color, verbose } = opts;
    // The escape, or nothing without colours.
    let paint = |escape: &'static str| if color { escape } else { "" };
    let text = sm.text(input);
    let (mut annotations, label_width) = build_annotations(sm, input, sources, diags);
    annotations.sort_by_key(|a| (a.line, a.index));
    let mut line_count = text.iter().filter(|&&c| c == b'\n').count();
    if text.last() != Some(&b'\n') {
        line_count += 1;
    }
    let width = (label_width.max(line_count.to_string().len()) + 3).max(min_label_width);

    let mut out = b"Input was:\n<<<<<<\n".to_vec();
    // FileCheck asks a throw-away `WithColor` whether colours are on, which writes these.
    out.extend_from_slice(format!("{}{}", paint(BOLD), paint(RESET)).as_bytes());
    let mut elided: Vec<u8> = Vec::new();
    let flush_elided = |out: &mut Vec<u8>, elided: &mut Vec<u8>| {
        if elided.is_empty() {
            return;
        }
        if elided.iter().filter(|&&c| c == b'\n').count() > 3 {
            for _ in 0..3 {
                out.extend_from_slice(
                    format!("{}{:>width$}{}\n", paint(BLACK), ".", paint(RESET)).as_bytes(),
                );
            }
        } else {
            out.extend_from_slice(elided);
        }
        elided.clear();
    };
    let (mut pos, mut ai) = (0usize, 0usize);
    let (mut prev_in_filter, mut next_in_filter) = (0usize, 0usize);
    let mut line = 1;
    while pos < text.len() || ai < annotations.len() {
        if next_in_filter < line {
            next_in_filter = next_line_in_filter(filter, line, &annotations[ai..]);
        }
        if next_in_filter == line {
            prev_in_filter = line;
        }
        let hide = (prev_in_filter == 0 || prev_in_filter + context < line)
            && (next_in_filter == usize::MAX || line + context < next_in_filter);
        let mut chunk =
            format!("{}{line:>width$}: {}{}", paint(BLACK), paint(RESET), paint(BOLD)).into_bytes();
        // Under -v, input outside this line's good matches goes on a cyan background.
        let highlight = verbose && color;
        let good: Vec<(usize, usize)> = annotations[ai..]
            .iter()
            .take_while(|a| a.line == line)
            .filter(|a| highlight && a.good_match)
            .map(|a| (a.start_col, a.end_col))
            .collect();
        if highlight {
            chunk.extend_from_slice(CYAN_BACKGROUND.as_bytes());
        }
        let line_start = pos;
        let mut in_match = false;
        while pos < text.len() {
            let c = text[pos];
            let col = pos - line_start + 1;
            pos += 1;
            let was_in_match = in_match;
            in_match = good.iter().any(|&(s, e)| s <= col && col < e);
            if in_match && !was_in_match {
                chunk.extend_from_slice(RESET.as_bytes());
            } else if was_in_match && !in_match {
                chunk.extend_from_slice(CYAN_BACKGROUND.as_bytes());
            }
            if c == b'\n' {
                chunk.push(b' ');
                break;
            }
            chunk.push(c);
        }
        chunk.extend_from_slice(paint(RESET).as_bytes());
        chunk.push(b'\n');
        let line_width = pos - line_start;
        while ai < annotations.len() && annotations[ai].line == line {
            let a = &annotations[ai];
            chunk.extend_from_slice(format!("{}{:<width$}  ", paint(a.marker.color), a.label).as_bytes());
            let mut col = 1;
            while col < a.start_col {
                chunk.push(b' ');
                col += 1;
            }
            chunk.push(a.marker.lead);
            col += 1;
            while col < a.end_col && col <= line_width {
                chunk.push(b'~');
                col += 1;
            }
            if !a.marker.note.is_empty() {
                while col <= line_width {
                    chunk.push(b' ');
                    col += 1;
                }
                chunk.push(b' ');
                chunk.extend_from_slice(a.marker.note.as_bytes());
            }
            chunk.push(b'\n');
            chunk.extend_from_slice(paint(RESET).as_bytes());
            ai += 1;
        }
        if hide {
            elided.extend_from_slice(&chunk);
        } else {
            flush_elided(&mut out, &mut elided);
            out.extend_from_slice(&chunk);
        }
        line += 1;
    }
    flush_elided(&mut out, &mut elided);
    out.extend_from_slice(b">>>>>>\n");
    out
}
