//! `--verify-diagnostics`: checking the diagnostics a run produces against `expected-*`
//! comments in the input, with mlir-opt's syntax, matching rules and messages.
//!
//! A designator is anywhere on a line (the line without trailing blanks must end with it):
//!
//! ```text
//! expected-(error|warning|remark|note)[-re] [@+N|@-N|@above|@below|@unknown] {{message}}
//! ```
//!
//! - Without a designator the diagnostic is expected on the same line; `@+N` / `@-N` are
//!   relative, `@above` is the closest line above that is not itself a designator line,
//!   `@below` the closest such line below, and `@unknown` expects a diagnostic without a file
//!   location.
//! - `message` is matched as a substring of the diagnostic's message. With `-re`, the pieces
//!   between `{{` and `}}` inside it are regular expressions and the rest is literal.
//! - Diagnostics and each of their notes are checked separately; one designator may match
//!   several diagnostics. Only lines are compared, not columns.
//!
//! The report follows mlir-opt: `unexpected error: <message>` at the diagnostic, `'warning'
//! diagnostic emitted when expecting a 'error'` at a designator whose severity alone differs,
//! and at the end `expected error "<message>" was not produced` for every unmatched designator.

use std::fmt::Write;

use kiln_compiler::{Diagnostic, Severity, SourceMgr};
use regex::Regex;

/// One `expected-*` designator.
#[derive(Debug)]
struct Expected {
    severity: Severity,
    /// The line the diagnostic is expected on (1-based; 0 never matches).
    line: u32,
    /// Where the designator text starts: its line and 1-based byte column.
    at: (u32, u32),
    /// The text between the outer `{{` and `}}`.
    substring: String,
    /// The compiled `-re` pattern.
    regex: Option<Regex>,
    /// `@unknown`: matches diagnostics without a file location.
    unknown_loc: bool,
    matched: bool,
}

impl Expected {
    fn matches(&self, message: &str) -> bool {
        match &self.regex {
            Some(re) => re.is_match(message),
            None => message.contains(&self.substring),
        }
    }
}

/// Checks the diagnostics of one input file against its `expected-*` designators.
#[derive(Debug)]
pub struct DiagnosticVerifier {
    file_name: String,
    lines: Vec<String>,
    expected: Vec<Expected>,
    ok: bool,
}

fn designator_regex() -> Regex {
    Regex::new(
        r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$",
    )
    .expect("the designator pattern is valid")
}

impl DiagnosticVerifier {
    /// Scans `text` (the whole input, named `file_name`) for designators. Malformed `-re`
    /// patterns are reported to `out` and make the verification fail.
    pub fn new(file_name: &str, text: &str, out: &mut String) -> Self {
        let pattern = designator_regex();
        let lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        let mut verifier =
            DiagnosticVerifier { file_name: file_name.to_string(), lines, expected: Vec::new(), ok: true };
        let total = verifier.lines.len() as u32;
        let mut last_plain_line = 1u32;
        let mut pending_below: Vec<usize> = Vec::new();
        for idx in 0..verifier.lines.len() {
            let line_no = idx as u32 + 1;
            let line = verifier.lines[idx].trim_end();
            let Some(caps) = pattern.captures(line) else {
                for i in pending_below.drain(..) {
                    verifier.expected[i].line = line_no;
                }
                last_plain_line = line_no;
                continue;
            };
            let whole = caps.get(0).expect("group 0 always exists");
            let severity = match &caps[1] {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "remark" => Severity::Remark,
                _ => Severity::Note,
            };
            let substring = caps[5].to_string();
            let at = (line_no, whole.start() as u32 + 1);
            let mut record = Expected {
                severity,
                line: line_no,
                at,
                substring,
                regex: None,
                unknown_loc: false,
                matched: false,
            };
            if caps.get(2).is_some() {
                match compile_re(&record.substring) {
                    Ok(re) => record.regex = Some(re),
                    Err(msg) => {
                        verifier.emit_at(out, at, &msg, Some(record.substring.len()));
                        continue;
                    }
                }
            }
            match caps.get(4).map(|m| m.as_str()) {
                None => {}
                Some("unknown") => record.unknown_loc = true,
                Some("above") => record.line = last_plain_line,
                Some("below") => {
                    // Dangling `@below` designators point past the end and never match.
                    record.line = total + 1;
                    pending_below.push(verifier.expected.len());
                }
                Some(offset) => {
                    let n: u32 = offset[1..].parse().unwrap_or(u32::MAX);
                    record.line = if offset.starts_with('+') {
                        line_no.saturating_add(n)
                    } else {
                        line_no.saturating_sub(n)
                    };
                }
            }
            verifier.expected.push(record);
        }
        verifier
    }

    /// Whether the input holds any designator.
    pub fn has_expectations(&self) -> bool {
        !self.expected.is_empty()
    }

    /// Checks one diagnostic and each of its notes; mismatches are reported to `out`.
    pub fn process(&mut self, diag: &Diagnostic<'_>, sources: &SourceMgr, out: &mut String) {
        self.process_one(diag, sources, out);
        for note in &diag.notes {
            self.process_one(note, sources, out);
        }
    }

    fn process_one(&mut self, diag: &Diagnostic<'_>, sources: &SourceMgr, out: &mut String) {
        let file_loc = SourceMgr::file_location(diag.loc);
        let mut near_miss = None;
        for (i, e) in self.expected.iter_mut().enumerate() {
            let applies = match file_loc {
                Some((file, line, _)) => {
                    !e.unknown_loc && file == self.file_name.as_bytes() && line == e.line
                }
                None => e.unknown_loc,
            };
            if !applies || !e.matches(&diag.message) {
                continue;
            }
            if e.severity == diag.severity {
                e.matched = true;
                return;
            }
            near_miss = Some(i);
        }
        self.ok = false;
        if let Some(i) = near_miss {
            let (label, expected_label) = (diag.severity.label(), self.expected[i].severity.label());
            let msg = format!("'{label}' diagnostic emitted when expecting a '{expected_label}'");
            self.emit_at(out, self.expected[i].at, &msg, None);
        } else {
            let msg = format!("unexpected {}: {}", diag.severity.label(), diag.message);
            out.push_str(&sources.render(&Diagnostic::error(diag.loc, msg)));
        }
    }

    /// Reports every designator that nothing matched; `true` when everything matched.
    pub fn finish(mut self, out: &mut String) -> bool {
        let unmatched: Vec<((u32, u32), String, usize)> = self
            .expected
            .iter()
            .filter(|e| !e.matched)
            .map(|e| {
                let msg = format!("expected {} \"{}\" was not produced", e.severity.label(), e.substring);
                (e.at, msg, e.substring.len())
            })
            .collect();
        for (at, msg, len) in unmatched {
            self.ok = false;
            self.emit_at(out, at, &msg, Some(len));
        }
        self.ok
    }

    /// Prints an error at a designator, with a `^~~~` range of `range` bytes when given.
    fn emit_at(&mut self, out: &mut String, (line, col): (u32, u32), msg: &str, range: Option<usize>) {
        self.ok = false;
        let _ = writeln!(out, "{}:{line}:{col}: error: {msg}", self.file_name);
        let src = self.lines.get(line as usize - 1).map_or("", |l| l.strip_suffix('\r').unwrap_or(l));
        let start = col as usize - 1;
        let len = range.unwrap_or(1).clamp(1, src.len().saturating_sub(start).max(1));
        let _ = writeln!(out, "{src}\n{}^{}", " ".repeat(start), "~".repeat(len - 1));
    }
}

/// Compiles an `-re` message: literal text with `{{regex}}` pieces.
fn compile_re(substring: &str) -> Result<Regex, String> {
    let mut pattern = String::new();
    let mut rest = substring;
    while let Some(open) = rest.find("{{") {
        pattern.push_str(&regex::escape(&rest[..open]));
        rest = &rest[open + 2..];
        let Some(close) = rest.find("}}") else {
            return Err("found start of regex with no end '}}'".to_string());
        };
        let piece = &rest[..close];
        if let Err(e) = Regex::new(piece) {
            let reason = e.to_string();
            let reason = reason.lines().last().unwrap_or("").trim_start_matches("error: ");
            return Err(format!("invalid regex: {reason}"));
        }
        let _ = write!(pattern, "({piece})");
        rest = &rest[close + 2..];
    }
    pattern.push_str(&regex::escape(rest));
    Regex::new(&pattern).map_err(|e| format!("invalid regex: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bumpalo::Bump;
    use kiln_compiler::Context;

    const FILE: &str = "t.mlir";

    /// Runs the verifier over `text` with diagnostics `(severity, line, message)` (line 0:
    /// unknown location) and returns (success, report).
    fn check(text: &str, diags: &[(Severity, u32, &str)]) -> (bool, String) {
        let arena = Bump::new();
        let ctx = Context::new(&arena, kiln_compiler::DialectRegistry::new());
        let mut sources = SourceMgr::new();
        sources.add(FILE, text);
        let mut out = String::new();
        let mut v = DiagnosticVerifier::new(FILE, text, &mut out);
        for &(sev, line, msg) in diags {
            let loc = if line == 0 { ctx.unknown_loc() } else { ctx.file_loc(FILE, line, 1) };
            v.process(&Diagnostic::new(sev, loc, msg), &sources, &mut out);
        }
        let ok = v.finish(&mut out);
        (ok, out)
    }

    #[test]
    fn same_line_and_relative_designators_match() {
        let text = "// expected-error @+1 {{bad thing}}\nx // expected-warning {{careful}}\n// expected-note @-2 {{here}}";
        let (ok, out) = check(
            text,
            &[
                (Severity::Error, 2, "a bad thing happened"),
                (Severity::Warning, 2, "careful"),
                (Severity::Note, 1, "here"),
            ],
        );
        assert!(ok, "{out}");
        assert_eq!(out, "");
    }

    #[test]
    fn above_and_below_skip_designator_lines() {
        let text = "x\n// expected-error @above {{one}}\n// expected-error @below {{two}}\n// expected-error@below{{three}}\ny";
        let (ok, out) = check(
            text,
            &[(Severity::Error, 1, "one"), (Severity::Error, 5, "two"), (Severity::Error, 5, "three")],
        );
        assert!(ok, "{out}");
    }

    #[test]
    fn dangling_below_is_not_produced() {
        let (ok, out) = check("// expected-error @below {{never}}", &[]);
        assert!(!ok);
        assert!(out.contains("t.mlir:1:4: error: expected error \"never\" was not produced"), "{out}");
    }

    #[test]
    fn unexpected_and_missing_are_reported_like_mlir() {
        let text = "// expected-error @+1 {{wanted}}\nop\n";
        let (ok, out) = check(text, &[(Severity::Error, 2, "got something else")]);
        assert!(!ok);
        let expected = "t.mlir:2:1: error: unexpected error: got something else\nop\n^\n\
                        t.mlir:1:4: error: expected error \"wanted\" was not produced\n\
                        // expected-error @+1 {{wanted}}\n   ^~~~~~\n";
        assert_eq!(out, expected);
    }

    #[test]
    fn severity_mismatch_is_a_near_miss() {
        let (ok, out) = check("x // expected-warning {{msg}}", &[(Severity::Error, 1, "msg")]);
        assert!(!ok);
        assert!(
            out.contains("t.mlir:1:6: error: 'error' diagnostic emitted when expecting a 'warning'"),
            "{out}"
        );
        assert!(out.contains("expected warning \"msg\" was not produced"), "{out}");
    }

    #[test]
    fn plain_designators_are_substrings_not_regexes() {
        let (ok, _) = check("x // expected-error {{a{{.*}}b}}", &[(Severity::Error, 1, "a{{.*}}b!")]);
        assert!(ok);
        let (ok, _) = check("x // expected-error {{a{{.*}}b}}", &[(Severity::Error, 1, "axxb")]);
        assert!(!ok);
    }

    #[test]
    fn re_designators_mix_literal_text_and_regexes() {
        let text = "x // expected-error-re {{value {{[0-9]+}} (i32)}}";
        assert!(check(text, &[(Severity::Error, 1, "value 42 (i32)")]).0);
        assert!(!check(text, &[(Severity::Error, 1, "value x (i32)")]).0);
    }

    #[test]
    fn malformed_re_designators_fail() {
        let (ok, out) = check("x // expected-error-re {{a {{[}}}", &[]);
        assert!(!ok);
        assert!(out.contains("t.mlir:1:6: error: found start of regex with no end '}}'"), "{out}");
        let (ok, out) = check("x // expected-error-re {{a {{(}}}}", &[]);
        assert!(!ok);
        assert!(out.contains("error: invalid regex:"), "{out}");
    }

    #[test]
    fn unknown_locations_need_at_unknown() {
        let text = "// expected-error @unknown {{nowhere}}";
        assert!(check(text, &[(Severity::Error, 0, "nowhere")]).0);
        let (ok, out) = check("", &[(Severity::Error, 0, "nowhere")]);
        assert!(!ok);
        assert!(out.contains("unexpected error: nowhere"), "{out}");
    }

    #[test]
    fn notes_are_checked_separately() {
        let arena = Bump::new();
        let ctx = Context::new(&arena, kiln_compiler::DialectRegistry::new());
        let text = "a // expected-error {{outer}}\nb // expected-note {{inner}}\n";
        let mut sources = SourceMgr::new();
        sources.add(FILE, text);
        let mut out = String::new();
        let mut v = DiagnosticVerifier::new(FILE, text, &mut out);
        let diag =
            Diagnostic::error(ctx.file_loc(FILE, 1, 1), "outer").with_note(ctx.file_loc(FILE, 2, 1), "inner");
        v.process(&diag, &sources, &mut out);
        assert!(v.finish(&mut out), "{out}");
    }

    #[test]
    fn designators_need_the_closing_braces_at_the_end() {
        // Trailing text after `}}` makes the line an ordinary comment, as in mlir-opt.
        let (ok, out) = check("x // expected-error {{msg}} trailing", &[(Severity::Error, 1, "msg")]);
        assert!(!ok);
        assert!(out.contains("unexpected error: msg"), "{out}");
    }

    #[test]
    fn other_files_do_not_match() {
        let arena = Bump::new();
        let ctx = Context::new(&arena, kiln_compiler::DialectRegistry::new());
        let text = "x // expected-error {{msg}}";
        let mut out = String::new();
        let mut v = DiagnosticVerifier::new(FILE, text, &mut out);
        v.process(&Diagnostic::error(ctx.file_loc("other.mlir", 1, 1), "msg"), &SourceMgr::new(), &mut out);
        assert!(!v.finish(&mut out));
    }
}
