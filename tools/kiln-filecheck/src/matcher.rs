//! Matching check strings against the input (LLVM `checkInput` and
//! `FileCheckString::Check`) and reporting each result both as printed
//! diagnostics and as [`Diag`] records for the input dump.
//!
//! The input is split into blocks at CHECK-LABEL matches; inside a block each
//! check string first handles its CHECK-DAG/CHECK-NOT group, then matches its
//! own pattern (`count` times for CHECK-COUNT), then verifies the CHECK-NEXT,
//! CHECK-SAME and CHECK-EMPTY line constraints and the CHECK-NOTs against the
//! skipped text.

use crate::check_file::{CheckString, DagNot};
use crate::pattern::{CheckKind, CheckType, MatchError, Pattern};
use crate::source::{BufferId, Loc, Severity, SourceManager};
use crate::vars::Variables;

/// How a diagnostic relates to its pattern, as in LLVM's `FileCheckDiag`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchType {
    /// A wanted match was found.
    FoundAndExpected,
    /// A CHECK-NOT pattern was found.
    FoundButExcluded,
    /// A match broke a NEXT/SAME/EMPTY line constraint.
    FoundButWrongLine,
    /// A CHECK-DAG match overlapped an earlier one (`-vv`).
    FoundButDiscarded,
    /// A CHECK-NOT pattern was not found (`-vv`).
    NoneAndExcluded,
    /// A wanted match was not found.
    NoneButExpected,
    /// The pattern could not be evaluated.
    NoneForInvalidPattern,
    /// A likely intended match.
    Fuzzy,
}

/// One recorded diagnostic about the input.
#[derive(Clone, Debug)]
pub struct Diag {
    /// Type of the directive.
    pub check_ty: CheckType,
    /// Location of the directive's pattern.
    pub check_loc: Loc,
    /// What happened.
    pub match_ty: MatchType,
    /// Input byte range concerned (end exclusive).
    pub range: (usize, usize),
    /// A custom note (substitution values, captures, pattern errors).
    pub note: String,
}

/// Request flags the matcher needs.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchOptions {
    /// `-v`
    pub verbose: bool,
    /// `-vv`
    pub very_verbose: bool,
    /// `--enable-var-scope`
    pub enable_var_scope: bool,
    /// `--allow-deprecated-dag-overlap`
    pub allow_dag_overlap: bool,
}

/// State of one run over the input.
pub struct Matcher<'a> {
    sm: &'a SourceManager,
    input_id: BufferId,
    input: &'a [u8],
    opts: MatchOptions,
    vars: Variables,
    diags: Option<Vec<Diag>>,
}

/// A reported failure; details have already been printed or recorded.
struct Failed;

impl<'a> Matcher<'a> {
    /// Creates a matcher; `record` enables [`Diag`] collection for the dump.
    pub fn new(
        sm: &'a SourceManager,
        input_id: BufferId,
        opts: MatchOptions,
        vars: Variables,
        record: bool,
    ) -> Self {
        Matcher { sm, input_id, input: sm.text(input_id), opts, vars, diags: record.then(Vec::new) }
    }

    /// The recorded diagnostics.
    pub fn into_diags(self) -> Vec<Diag> {
        self.diags.unwrap_or_default()
    }

    fn input_loc(&self, offset: usize) -> Loc {
        Loc { buffer: self.input_id, offset }
    }

    fn note_input(&self, offset: usize, msg: &str, range: Option<(usize, usize)>) {
        self.sm.print(self.input_loc(offset), Severity::Note, msg, range);
    }

    fn record(&mut self, pat: &Pattern, match_ty: MatchType, range: (usize, usize), note: String) {
        if let Some(diags) = &mut self.diags {
            diags.push(Diag { check_ty: pat.ty, check_loc: pat.loc, match_ty, range, note });
        }
    }

    /// Runs all checks; returns whether they all passed.
    pub fn check_input(&mut self, checks: &[CheckString]) -> bool {
        let mut failed = false;
        let mut buffer = (0, self.input.len());
        let (mut i, mut j) = (0, 0);
        loop {
            let region;
            if j == checks.len() {
                region = buffer;
            } else {
                let label = &checks[j];
                if label.pattern.ty.kind != CheckKind::Label {
                    j += 1;
                    continue;
                }
                let Ok((pos, len)) = self.check_string(label, buffer, true) else { return false };
                region = (buffer.0, pos + len);
                buffer = (pos + len, buffer.1);
                j += 1;
            }
            if i != 0 && self.opts.enable_var_scope {
                self.vars.clear_local();
            }
            let mut region = region;
            while i != j {
                match self.check_string(&checks[i], region, false) {
                    Ok((pos, len)) => region = (pos + len, region.1),
                    Err(Failed) => {
                        failed = true;
                        i = j;
                        break;
                    }
                }
                i += 1;
            }
            if j == checks.len() {
                break;
            }
        }
        !failed
    }

    /// Matches one check string in `region`; returns the absolute position
    /// and length of its match.
    fn check_string(
        &mut self,
        cs: &CheckString,
        region: (usize, usize),
        label_scan: bool,
    ) -> Result<(usize, usize), Failed> {
        let mut not_strings: Vec<&DagNot> = Vec::new();
        let last_pos = if label_scan { region.0 } else { self.check_dag(cs, region, &mut not_strings)? };
        let pat = &cs.pattern;
        let mut last_end = last_pos;
        let mut first_pos = last_pos;
        for n in 1..=pat.ty.count {
            let result = pat.find(self.input, last_end, region.1, &mut self.vars);
            let found = self.report(true, &cs.prefix, pat, n, (last_end, region.1), result)?;
            if n == 1 {
                first_pos = found.0;
            }
            last_end = found.1;
        }
        let len = last_end - first_pos;
        if !label_scan {
            let skipped = (last_pos, first_pos);
            self.check_line_constraint(cs, skipped, (first_pos, first_pos + len))?;
            if self.check_not(&not_strings, skipped) {
                return Err(Failed);
            }
        }
        Ok((first_pos, len))
    }

    /// Verifies CHECK-NEXT/CHECK-EMPTY (exactly one newline skipped) and
    /// CHECK-SAME (none).
    fn check_line_constraint(
        &mut self,
        cs: &CheckString,
        skipped: (usize, usize),
        found: (usize, usize),
    ) -> Result<(), Failed> {
        let kind = cs.pattern.ty.kind;
        if !matches!(kind, CheckKind::Next | CheckKind::Empty | CheckKind::Same) {
            return Ok(());
        }
        let (count, first_newline) = count_newlines(&self.input[skipped.0..skipped.1]);
        let msg = match kind {
            CheckKind::Same if count != 0 => "-SAME: is not on the same line as the previous match",
            CheckKind::Same => return Ok(()),
            _ if count == 0 => "is on the same line as previous match",
            _ if count != 1 => "is not on the line after the previous match",
            _ => return Ok(()),
        };
        let pat = &cs.pattern;
        if self.opts.verbose {
            if let Some(diags) = &mut self.diags {
                for d in diags.iter_mut().rev().take_while(|d| d.check_loc == pat.loc) {
                    d.match_ty = MatchType::FoundButWrongLine;
                }
            }
        } else {
            self.record(pat, MatchType::FoundButWrongLine, found, String::new());
        }
        let full = match kind {
            CheckKind::Same => format!("{}{msg}", cs.prefix),
            CheckKind::Empty => format!("{}-EMPTY: {msg}", cs.prefix),
            _ => format!("{}-NEXT: {msg}", cs.prefix),
        };
        self.sm.print(pat.loc, Severity::Error, &full, None);
        self.note_input(skipped.1, "'next' match was here", None);
        self.note_input(skipped.0, "previous match ended here", None);
        if kind != CheckKind::Same && count > 1 {
            self.note_input(
                skipped.0 + first_newline,
                "non-matching line after previous match is here",
                None,
            );
        }
        Err(Failed)
    }

    /// Checks that no CHECK-NOT pattern matches in `region`; returns whether
    /// any did.
    fn check_not(&mut self, nots: &[&DagNot], region: (usize, usize)) -> bool {
        let mut failed = false;
        for not in nots {
            let result = not.pattern.find(self.input, region.0, region.1, &mut self.vars);
            failed |= self.report(false, &not.prefix, &not.pattern, 1, region, result).is_err();
        }
        failed
    }

    /// Matches the CHECK-DAG groups before a check string; returns where the
    /// check string's own search starts.
    fn check_dag<'c>(
        &mut self,
        cs: &'c CheckString,
        region: (usize, usize),
        nots: &mut Vec<&'c DagNot>,
    ) -> Result<usize, Failed> {
        let mut start = region.0;
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (idx, dn) in cs.dag_not.iter().enumerate() {
            let pat = &dn.pattern;
            if pat.ty.kind == CheckKind::Not {
                nots.push(dn);
                continue;
            }
            let mut pos = start;
            let mut ri = 0;
            let found = 'search: loop {
                let result = pat.find(self.input, pos, region.1, &mut self.vars);
                let m = match result {
                    Ok(m) if !self.opts.very_verbose => m,
                    other => self.report(true, &dn.prefix, pat, 1, (pos, region.1), other)?,
                };
                if self.opts.allow_dag_overlap {
                    match ranges.first_mut() {
                        None => ranges.push(m),
                        Some(block) => *block = (block.0.min(m.0), block.1.max(m.1)),
                    }
                    break m;
                }
                while ri < ranges.len() && ranges[ri].1 <= m.0 {
                    ri += 1;
                }
                if ri == ranges.len() || m.1 <= ranges[ri].0 {
                    ranges.insert(ri, m);
                    break 'search m;
                }
                if self.opts.very_verbose {
                    if let Some(diags) = &mut self.diags {
                        for d in diags.iter_mut().rev().take_while(|d| d.check_loc == pat.loc) {
                            d.match_ty = MatchType::FoundButDiscarded;
                        }
                    } else {
                        let old = ranges[ri];
                        self.note_input(old.0, "match discarded, overlaps earlier DAG match here", Some(old));
                    }
                }
                pos = ranges[ri].1;
                ri += 1;
            };
            if !self.opts.very_verbose {
                let _ = self.report(true, &dn.prefix, pat, 1, (start, region.1), Ok(found));
            }
            let group_ends =
                cs.dag_not.get(idx + 1).is_none_or(|next| next.pattern.ty.kind == CheckKind::Not);
            if group_ends {
                if !nots.is_empty() {
                    let skipped = (start, ranges[0].0);
                    if self.check_not(nots, skipped) {
                        return Err(Failed);
                    }
                    nots.clear();
                }
                start = ranges.last().map_or(start, |r| r.1);
                ranges.clear();
            }
        }
        Ok(start)
    }

    /// Prints and records the outcome of one match attempt (LLVM
    /// `reportMatchResult`); returns the match or `Failed` if it is an error.
    fn report(
        &mut self,
        expected: bool,
        prefix: &str,
        pat: &Pattern,
        n: usize,
        searched: (usize, usize),
        result: Result<(usize, usize), MatchError>,
    ) -> Result<(usize, usize), Failed> {
        match result {
            Ok(m) => {
                self.print_match(expected, prefix, pat, n, m);
                if expected {
                    Ok(m)
                } else {
                    Err(Failed)
                }
            }
            Err(e) => {
                let invalid = matches!(e, MatchError::Invalid(_));
                self.print_no_match(expected, prefix, pat, n, searched, e);
                if expected || invalid {
                    Err(Failed)
                } else {
                    Ok(searched)
                }
            }
        }
    }

    fn count_suffix(pat: &Pattern, n: usize) -> String {
        if pat.ty.count > 1 {
            format!(" ({n} out of {})", pat.ty.count)
        } else {
            String::new()
        }
    }

    fn print_match(&mut self, expected: bool, prefix: &str, pat: &Pattern, n: usize, m: (usize, usize)) {
        if expected && (!self.opts.verbose || (!self.opts.very_verbose && pat.ty.kind == CheckKind::Eof)) {
            return;
        }
        let match_ty = if expected { MatchType::FoundAndExpected } else { MatchType::FoundButExcluded };
        self.record(pat, match_ty, m, String::new());
        let substitutions = pat.substitution_notes(&self.vars);
        let captures = pat.captures(&self.vars);
        if self.diags.is_some() {
            for s in &substitutions {
                self.record(
                    pat,
                    match_ty,
                    (m.0, m.0),
                    format!("with \"{}\" equal to \"{}\"", s.from, s.value),
                );
            }
            for (name, r) in &captures {
                self.record(pat, match_ty, *r, format!("captured var \"{name}\""));
            }
            if expected {
                return;
            }
        }
        let verb = if expected { "expected" } else { "excluded" };
        let msg = format!(
            "{}: {verb} string found in input{}",
            pat.ty.description(prefix),
            Self::count_suffix(pat, n)
        );
        let severity = if expected { Severity::Remark } else { Severity::Error };
        self.sm.print(pat.loc, severity, &msg, None);
        self.note_input(m.0, "found here", Some(m));
        for s in &substitutions {
            self.note_input(m.0, &format!("with \"{}\" equal to \"{}\"", s.from, s.value), None);
        }
        for (name, r) in &captures {
            self.note_input(r.0, &format!("captured var \"{name}\""), Some(*r));
        }
    }

    fn print_no_match(
        &mut self,
        expected: bool,
        prefix: &str,
        pat: &Pattern,
        n: usize,
        searched: (usize, usize),
        err: MatchError,
    ) {
        let pattern_errors = match err {
            MatchError::NotFound => Vec::new(),
            MatchError::Invalid(errors) => errors,
        };
        for e in &pattern_errors {
            e.print(self.sm);
        }
        let has_error = expected || !pattern_errors.is_empty();
        if !has_error && !self.opts.very_verbose {
            return;
        }
        let match_ty = if !pattern_errors.is_empty() {
            MatchType::NoneForInvalidPattern
        } else if expected {
            MatchType::NoneButExpected
        } else {
            MatchType::NoneAndExcluded
        };
        self.record(pat, match_ty, searched, String::new());
        let substitutions = pat.substitution_notes(&self.vars);
        if self.diags.is_some() {
            for e in &pattern_errors {
                self.record(pat, match_ty, (searched.0, searched.0), e.msg.clone());
            }
            for s in &substitutions {
                self.record(
                    pat,
                    match_ty,
                    (searched.0, searched.0),
                    format!("with \"{}\" equal to \"{}\"", s.from, s.value),
                );
            }
            if !has_error {
                return;
            }
        }
        if pattern_errors.is_empty() {
            let verb = if expected { "expected" } else { "excluded" };
            let msg = format!(
                "{}: {verb} string not found in input{}",
                pat.ty.description(prefix),
                Self::count_suffix(pat, n)
            );
            let severity = if expected { Severity::Error } else { Severity::Remark };
            self.sm.print(pat.loc, severity, &msg, None);
            self.note_input(searched.0, "scanning from here", None);
        }
        for s in &substitutions {
            self.note_input(searched.0, &format!("with \"{}\" equal to \"{}\"", s.from, s.value), None);
        }
        if expected {
            self.print_fuzzy_match(pat, searched);
        }
    }

    /// Points at the input most similar to the pattern (LLVM
    /// `printFuzzyMatch`).
    fn print_fuzzy_match(&mut self, pat: &Pattern, searched: (usize, usize)) {
        let buf = &self.input[searched.0..searched.1];
        let example = pat.example();
        let mut lines = 0usize;
        let mut best: Option<(usize, f64)> = None;
        for i in 0..buf.len().min(4096) {
            if buf[i] == b'\n' {
                lines += 1;
            }
            if buf[i] == b' ' || buf[i] == b'\t' {
                continue;
            }
            let window = &buf[i..buf.len().min(i + example.len())];
            let window = window.split(|&c| c == b'\n').next().unwrap_or_default();
            let quality = kiln_cli::edit_distance(window, example) as f64 + lines as f64 / 100.0;
            if best.is_none_or(|(_, q)| quality < q) {
                best = Some((i, quality));
            }
        }
        if let Some((i, quality)) = best {
            if i != 0 && quality < 50.0 {
                let at = searched.0 + i;
                self.record(pat, MatchType::Fuzzy, (at, at), String::new());
                self.note_input(at, "possible intended match here", None);
            }
        }
    }
}

/// Counts line breaks (`\n`, `\r`, and `\n\r`/`\r\n` pairs as one) and
/// returns the offset just after the first.
fn count_newlines(text: &[u8]) -> (usize, usize) {
    let mut count = 0;
    let mut first = None;
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'\n' || text[i] == b'\r' {
            if i + 1 < text.len() && (text[i + 1] == b'\n' || text[i + 1] == b'\r') && text[i + 1] != text[i]
            {
                i += 1;
            }
            first.get_or_insert(i + 1);
            count += 1;
        }
        i += 1;
    }
    (count, first.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newline_counting_treats_crlf_as_one() {
        assert_eq!(count_newlines(b"a\r\nb"), (1, 3));
        assert_eq!(count_newlines(b"\n\n"), (2, 1));
        assert_eq!(count_newlines(b"abc"), (0, 0));
    }
}
