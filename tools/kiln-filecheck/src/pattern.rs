//! Check patterns: parsing a directive's text into a fixed string or a regex
//! with variable definitions and substitutions, and matching it.
//!
//! The regex is built exactly as LLVM builds its `RegExStr` (POSIX syntax,
//! literal text escaped with `Regex::escape`), so diagnostics that quote it,
//! such as the fuzzy "possible intended match", agree with LLVM. Substitution
//! values are spliced in at match time, then the result is compiled by
//! [`crate::posix`].

use std::collections::BTreeMap;

use crate::numeric::{parse_numeric_block, parse_var_name, EvalError, NumericBlock};
use crate::posix::{count_groups, PosixRegex};
use crate::source::{Loc, SpanError};
use crate::vars::{NumVarId, StringValue, Variables};

/// The kind of a directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// `CHECK:` (also `CHECK-COUNT-n:`)
    Plain,
    /// `CHECK-NEXT:`
    Next,
    /// `CHECK-SAME:`
    Same,
    /// `CHECK-NOT:`
    Not,
    /// `CHECK-DAG:`
    Dag,
    /// `CHECK-LABEL:`
    Label,
    /// `CHECK-EMPTY:`
    Empty,
    /// The implicit end-of-file check holding trailing NOT/DAG directives.
    Eof,
}

/// A directive type: kind, repeat count and modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckType {
    /// The kind.
    pub kind: CheckKind,
    /// How many consecutive matches are required (`-COUNT-n`), normally 1.
    pub count: usize,
    /// The `{LITERAL}` modifier.
    pub literal: bool,
}

impl CheckType {
    /// A type with count 1 and no modifiers.
    pub fn new(kind: CheckKind) -> Self {
        CheckType { kind, count: 1, literal: false }
    }

    /// The name LLVM uses in messages, e.g. `CHECK-NEXT` or `CHECK{LITERAL}`.
    pub fn description(&self, prefix: &str) -> String {
        let suffix = match self.kind {
            CheckKind::Plain if self.count > 1 => "-COUNT",
            CheckKind::Plain => "",
            CheckKind::Next => "-NEXT",
            CheckKind::Same => "-SAME",
            CheckKind::Not => "-NOT",
            CheckKind::Dag => "-DAG",
            CheckKind::Label => "-LABEL",
            CheckKind::Empty => "-EMPTY",
            CheckKind::Eof => return "implicit EOF".to_string(),
        };
        let modifiers = if self.literal { "{LITERAL}" } else { "" };
        format!("{prefix}{suffix}{modifiers}")
    }
}

/// Options that affect how patterns are parsed and matched.
#[derive(Clone, Copy, Debug, Default)]
pub struct PatternOptions {
    /// `--strict-whitespace`
    pub strict_whitespace: bool,
    /// `--match-full-lines`
    pub match_full_lines: bool,
    /// `--ignore-case`
    pub ignore_case: bool,
}

#[derive(Clone, Debug)]
enum SubstKind {
    String(String),
    Numeric(NumericBlock),
}

/// A value spliced into the regex at match time.
#[derive(Clone, Debug)]
struct Substitution {
    /// Insertion offset in the regex template.
    index: usize,
    /// The text of the substitution block (the variable name or expression).
    from: String,
    from_loc: Loc,
    kind: SubstKind,
}

#[derive(Clone, Debug)]
enum Body {
    Eof,
    Fixed(Vec<u8>),
    Regex {
        template: Vec<u8>,
        substitutions: Vec<Substitution>,
        string_defs: BTreeMap<String, usize>,
        numeric_defs: Vec<(NumVarId, usize)>,
        /// Precompiled regex when there is nothing to substitute.
        compiled: Option<PosixRegex>,
    },
}

/// A parsed check pattern.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// Its directive type.
    pub ty: CheckType,
    /// Where its text starts (LLVM's `PatternLoc`).
    pub loc: Loc,
    ignore_case: bool,
    body: Body,
}

/// Why a pattern did not match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// Nothing matched.
    NotFound,
    /// The pattern could not be evaluated (e.g. an undefined variable).
    Invalid(Vec<SpanError>),
}

/// A substitution's value as reported in `with "X" equal to "..."` notes.
pub struct SubstitutionNote {
    /// The substitution text (variable name or expression).
    pub from: String,
    /// The value (before regex escaping).
    pub value: String,
}

/// LLVM's `Regex::escape`.
pub fn regex_escape(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for &c in text {
        if b"()^$|*+?.[]\\{}".contains(&c) {
            out.push(b'\\');
        }
        out.push(c);
    }
    out
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > hay.len() {
        return None;
    }
    hay[from..].windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

/// The message for a stray `]` inside a substitution block.
pub const MISSING_BRACKET: &str = "missing closing \"]\" for regex variable";

/// Finds the `]]` closing a substitution block (LLVM `FindRegexVarEnd`).
fn find_block_end(text: &[u8], base: Loc) -> Result<Option<usize>, SpanError> {
    let mut i = 0;
    let mut depth = 0usize;
    while i < text.len() {
        if text[i..].starts_with(b"]]") && depth == 0 {
            return Ok(Some(i));
        }
        match text[i] {
            b'\\' => i += 1,
            b'[' => depth += 1,
            b']' if depth == 0 => return Err(SpanError::new(base.advanced(i), MISSING_BRACKET)),
            b']' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    Ok(None)
}

impl Pattern {
    /// The implicit end-of-file pattern.
    pub fn eof(loc: Loc) -> Self {
        Pattern { ty: CheckType::new(CheckKind::Eof), loc, ignore_case: false, body: Body::Eof }
    }

    /// Parses `text` (located at `loc`) as the pattern of a `ty` directive
    /// with prefix `prefix` (LLVM `Pattern::parsePattern`).
    pub fn parse(
        text: &[u8],
        loc: Loc,
        ty: CheckType,
        prefix: &str,
        line: Option<usize>,
        opts: PatternOptions,
        vars: &mut Variables,
    ) -> Result<Pattern, SpanError> {
        let full_lines = opts.match_full_lines && ty.kind != CheckKind::Not;
        let mut text = text;
        if !(opts.strict_whitespace && opts.match_full_lines) {
            while let [rest @ .., b' ' | b'\t'] = text {
                text = rest;
            }
        }
        let make = |body| Pattern { ty, loc, ignore_case: opts.ignore_case, body };
        if text.is_empty() && ty.kind != CheckKind::Empty {
            return Err(SpanError::new(loc, format!("found empty check string with prefix '{prefix}:'")));
        }
        if !text.is_empty() && ty.kind == CheckKind::Empty {
            return Err(SpanError::new(
                loc,
                format!("found non-empty check string for empty check with prefix '{prefix}:'"),
            ));
        }
        if ty.kind == CheckKind::Empty {
            let regex = PosixRegex::new(b"(\n$)", opts.ignore_case).ok();
            return Ok(make(Body::Regex {
                template: b"(\n$)".to_vec(),
                substitutions: Vec::new(),
                string_defs: BTreeMap::new(),
                numeric_defs: Vec::new(),
                compiled: regex,
            }));
        }
        let has_blocks = find(text, b"{{", 0).is_some() || find(text, b"[[", 0).is_some();
        if ty.literal || (!full_lines && (text.len() < 2 || !has_blocks)) {
            return Ok(make(Body::Fixed(text.to_vec())));
        }
        let mut b = RegexBuilder { template: Vec::new(), paren: 1, ..RegexBuilder::default() };
        if full_lines {
            b.template.push(b'^');
            if !opts.strict_whitespace {
                b.template.extend_from_slice(b" *");
            }
        }
        let mut pos = 0;
        while pos < text.len() {
            let rest = &text[pos..];
            let here = loc.advanced(pos);
            if rest.starts_with(b"{{") {
                let Some(end) = find(rest, b"}}", 0) else {
                    return Err(SpanError::new(here, "found start of regex string with no end '}}'"));
                };
                b.template.push(b'(');
                b.paren += 1;
                b.add_regex(&rest[2..end], here.advanced(2))?;
                b.template.push(b')');
                pos += end + 2;
            } else if rest.starts_with(b"[[") && !rest.starts_with(b"[[[") {
                let inner = &rest[2..];
                let Some(end) = find_block_end(inner, here.advanced(2))? else {
                    return Err(SpanError::new(here, "Invalid substitution block, no ]] found"));
                };
                b.substitution_block(&inner[..end], here.advanced(2), line, vars)?;
                pos += 2 + end + 2;
            } else {
                let next = [find(rest, b"{{", 1), find(rest, b"[[", 1)].into_iter().flatten().min();
                let end = next.unwrap_or(rest.len());
                b.template.extend(regex_escape(&rest[..end]));
                pos += end;
            }
        }
        if full_lines {
            if !opts.strict_whitespace {
                b.template.extend_from_slice(b" *");
            }
            b.template.push(b'$');
        }
        let compiled = if b.substitutions.is_empty() {
            Some(PosixRegex::new(&b.template, opts.ignore_case).map_err(|e| SpanError::new(loc, e))?)
        } else {
            None
        };
        Ok(make(Body::Regex {
            template: b.template,
            substitutions: b.substitutions,
            string_defs: b.string_defs,
            numeric_defs: b.numeric_defs,
            compiled,
        }))
    }

    /// Whether the pattern defines or uses any variable.
    pub fn has_variable(&self) -> bool {
        matches!(&self.body, Body::Regex { substitutions, string_defs, numeric_defs, .. }
            if !substitutions.is_empty() || !string_defs.is_empty() || !numeric_defs.is_empty())
    }

    /// The string LLVM compares input against for fuzzy matching: the fixed
    /// string, or the regex source.
    pub fn example(&self) -> &[u8] {
        match &self.body {
            Body::Eof => b"",
            Body::Fixed(s) => s,
            Body::Regex { template, .. } => template,
        }
    }

    /// Searches `input[start..end]`; on success returns the absolute match
    /// range and records variable definitions.
    pub fn find(
        &self,
        input: &[u8],
        start: usize,
        end: usize,
        vars: &mut Variables,
    ) -> Result<(usize, usize), MatchError> {
        let hay = &input[start..end];
        let (template, substitutions, string_defs, numeric_defs, compiled) = match &self.body {
            Body::Eof => return Ok((end, end)),
            Body::Fixed(s) => {
                let found = if self.ignore_case {
                    hay.windows(s.len()).position(|w| w.eq_ignore_ascii_case(s))
                } else {
                    find(hay, s, 0)
                };
                return found.map(|p| (start + p, start + p + s.len())).ok_or(MatchError::NotFound);
            }
            Body::Regex { template, substitutions, string_defs, numeric_defs, compiled } => {
                (template, substitutions, string_defs, numeric_defs, compiled)
            }
        };
        let owned;
        let regex = match compiled {
            Some(r) => r,
            None => {
                let mut text = template.clone();
                let mut shift = 0;
                let mut errors = Vec::new();
                for s in substitutions {
                    match self.substitute(s, vars) {
                        Ok(value) => {
                            let value = regex_escape(&value);
                            text.splice(s.index + shift..s.index + shift, value.iter().copied());
                            shift += value.len();
                        }
                        Err(e) => errors.extend(e),
                    }
                }
                if !errors.is_empty() {
                    return Err(MatchError::Invalid(errors));
                }
                owned = PosixRegex::new(&text, self.ignore_case).map_err(|e| {
                    MatchError::Invalid(vec![SpanError::new(self.loc, format!("invalid regex: {e}"))])
                })?;
                &owned
            }
        };
        let groups = regex.find(hay).ok_or(MatchError::NotFound)?;
        let abs = |g: usize| groups.get(g).copied().flatten().map(|(s, e)| (start + s, start + e));
        for (name, &group) in string_defs {
            if let Some((s, e)) = abs(group) {
                vars.set_string(name, StringValue { text: input[s..e].to_vec(), captured: Some((s, e)) });
            }
        }
        for &(id, group) in numeric_defs {
            if let Some((s, e)) = abs(group) {
                let format = vars.numeric(id).format;
                let var = vars.numeric_mut(id);
                var.value = format.parse_value(&input[s..e]);
                var.captured = Some((s, e));
            }
        }
        let (s, e) = abs(0).ok_or(MatchError::NotFound)?;
        // CHECK-EMPTY's match starts after the newline it consumes.
        let skip = usize::from(self.ty.kind == CheckKind::Empty);
        Ok((s + skip, e))
    }

    fn substitute(&self, s: &Substitution, vars: &Variables) -> Result<Vec<u8>, Vec<SpanError>> {
        match &s.kind {
            SubstKind::String(name) => match vars.string(name) {
                Some(v) => Ok(v.text.clone()),
                None => Err(vec![SpanError::new(s.from_loc, format!("undefined variable: {name}"))]),
            },
            SubstKind::Numeric(block) => {
                let expr = block.expr.as_ref().expect("numeric substitutions have an expression");
                let overflow = || {
                    vec![SpanError::new(
                        s.from_loc,
                        "unable to substitute variable or numeric expression: overflow error",
                    )]
                };
                match expr.eval(vars) {
                    Ok(v) => block.format.format(&v).map(String::into_bytes).ok_or_else(overflow),
                    Err(EvalError::Overflow) => Err(overflow()),
                    Err(EvalError::Undefined(names)) => Err(names
                        .into_iter()
                        .map(|(n, loc)| SpanError::new(loc, format!("undefined variable: {n}")))
                        .collect()),
                }
            }
        }
    }

    /// The current values of the pattern's substitutions, skipping those that
    /// cannot be computed (LLVM `printSubstitutions`).
    pub fn substitution_notes(&self, vars: &Variables) -> Vec<SubstitutionNote> {
        let Body::Regex { substitutions, .. } = &self.body else { return Vec::new() };
        substitutions
            .iter()
            .filter_map(|s| {
                let value = self.substitute(s, vars).ok()?;
                Some(SubstitutionNote {
                    from: s.from.clone(),
                    value: String::from_utf8_lossy(&value).into_owned(),
                })
            })
            .collect()
    }

    /// Variables this pattern captured in its last match, with their input
    /// ranges, in input order (LLVM `printVariableDefs`).
    pub fn captures(&self, vars: &Variables) -> Vec<(String, (usize, usize))> {
        let Body::Regex { string_defs, numeric_defs, .. } = &self.body else { return Vec::new() };
        let mut out: Vec<(String, (usize, usize))> = string_defs
            .keys()
            .filter_map(|n| Some((n.clone(), vars.string(n)?.captured?)))
            .chain(numeric_defs.iter().filter_map(|&(id, _)| {
                let v = vars.numeric(id);
                Some((v.name.clone(), v.captured?))
            }))
            .collect();
        out.sort_by_key(|(_, r)| r.0);
        out
    }
}

/// Accumulates the regex of one pattern.
#[derive(Default)]
struct RegexBuilder {
    template: Vec<u8>,
    /// Number of the next capture group.
    paren: usize,
    substitutions: Vec<Substitution>,
    string_defs: BTreeMap<String, usize>,
    numeric_defs: Vec<(NumVarId, usize)>,
}

impl RegexBuilder {
    fn add_regex(&mut self, regex: &[u8], loc: Loc) -> Result<(), SpanError> {
        let groups = count_groups(regex).map_err(|e| SpanError::new(loc, format!("invalid regex: {e}")))?;
        self.template.extend_from_slice(regex);
        self.paren += groups;
        Ok(())
    }

    /// Handles the inside of one `[[...]]` block located at `loc`.
    fn substitution_block(
        &mut self,
        block: &[u8],
        loc: Loc,
        line: Option<usize>,
        vars: &mut Variables,
    ) -> Result<(), SpanError> {
        let (is_numeric, body, body_loc) = match block.strip_prefix(b"#") {
            Some(rest) => (true, rest, loc.advanced(1)),
            None => (false, block, loc),
        };
        let mut insert_at = self.template.len();
        if !is_numeric {
            let colon = body.iter().position(|&c| c == b':');
            if let Some(sp) =
                body[..colon.unwrap_or(body.len())].iter().position(|&c| c == b' ' || c == b'\t')
            {
                return Err(SpanError::new(body_loc.advanced(sp), "unexpected whitespace"));
            }
            let var = parse_var_name(body, body_loc).map_err(SpanError::logged)?;
            let after = &body[var.name.len()..];
            if let Some(colon) = colon {
                if var.pseudo || after.first() != Some(&b':') {
                    return Err(SpanError::new(body_loc, "invalid name in string variable definition"));
                }
                if vars.numeric_id(&var.name).is_some() {
                    return Err(SpanError::new(
                        body_loc,
                        format!("numeric variable with name '{}' already exists", var.name),
                    ));
                }
                vars.declare_string(&var.name);
                self.template.push(b'(');
                self.string_defs.insert(var.name.clone(), self.paren);
                self.paren += 1;
                let regex = &body[colon + 1..];
                if !regex.is_empty() {
                    self.add_regex(regex, body_loc.advanced(colon + 1))?;
                }
                self.template.push(b')');
                return Ok(());
            }
            if !var.pseudo {
                if !after.is_empty() {
                    return Err(SpanError::new(body_loc, "invalid name in string variable use"));
                }
                return self.string_use(var.name, body_loc);
            }
        }
        // Numeric block, or a legacy `[[@LINE+N]]` string block.
        let legacy = !is_numeric;
        let parsed = parse_numeric_block(body, body_loc, line, legacy, vars).map_err(SpanError::logged)?;
        if let Some(def) = parsed.def {
            self.template.push(b'(');
            insert_at += 1;
            self.numeric_defs.push((def, self.paren));
            self.paren += 1;
        }
        if parsed.expr.is_none() {
            let wildcard = parsed.format.wildcard_regex();
            self.add_regex(wildcard.as_bytes(), body_loc)?;
        }
        if parsed.def.is_some() {
            self.template.push(b')');
        }
        if parsed.expr.is_some() {
            self.substitutions.push(Substitution {
                index: insert_at,
                from: String::from_utf8_lossy(body).into_owned(),
                from_loc: body_loc,
                kind: SubstKind::Numeric(parsed),
            });
        }
        Ok(())
    }

    fn string_use(&mut self, name: String, loc: Loc) -> Result<(), SpanError> {
        if let Some(&group) = self.string_defs.get(&name) {
            if !(1..=9).contains(&group) {
                return Err(SpanError::new(loc, "Can't back-reference more than 9 variables"));
            }
            self.template.extend_from_slice(format!("\\{group}").as_bytes());
            return Ok(());
        }
        self.substitutions.push(Substitution {
            index: self.template.len(),
            from: name.clone(),
            from_loc: loc,
            kind: SubstKind::String(name),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceManager;

    fn parse(text: &str, vars: &mut Variables) -> Result<Pattern, String> {
        let mut sm = SourceManager::default();
        let id = sm.add("t", text.as_bytes().to_vec());
        let loc = Loc { buffer: id, offset: 0 };
        Pattern::parse(
            text.as_bytes(),
            loc,
            CheckType::new(CheckKind::Plain),
            "CHECK",
            Some(3),
            PatternOptions::default(),
            vars,
        )
        .map_err(|e| e.msg)
    }

    fn matched(p: &Pattern, input: &str, vars: &mut Variables) -> Option<String> {
        p.find(input.as_bytes(), 0, input.len(), vars).ok().map(|(s, e)| input[s..e].to_string())
    }

    #[test]
    fn builds_llvm_regex_text() {
        let mut vars = Variables::default();
        let p = parse("a.b {{x|y}} [[V:[0-9]+]] [[V]] [[#N:]]", &mut vars).unwrap();
        assert_eq!(p.example(), b"a\\.b (x|y) ([0-9]+) \\2 ([0-9]+)");
        assert_eq!(matched(&p, "a.b y 12 12 7", &mut vars).as_deref(), Some("a.b y 12 12 7"));
        assert_eq!(vars.string("V").unwrap().text, b"12");
    }

    #[test]
    fn fixed_strings_stay_fixed() {
        let mut vars = Variables::default();
        let p = parse("a.b [x]  ", &mut vars).unwrap();
        assert_eq!(p.example(), b"a.b [x]");
        assert_eq!(matched(&p, "aXb a.b [x]", &mut vars).as_deref(), Some("a.b [x]"));
    }

    #[test]
    fn substitutions_use_current_values() {
        let mut vars = Variables::default();
        let def = parse("[[#%X,N:]]", &mut vars).unwrap();
        assert_eq!(matched(&def, "0x1F", &mut vars).as_deref(), Some("0"));
        let mut sm = SourceManager::default();
        let b = sm.add("u", b"[[#N+1]] [[S]]".to_vec());
        let use_ = Pattern::parse(
            b"[[#N+1]] [[S]]",
            Loc { buffer: b, offset: 0 },
            CheckType::new(CheckKind::Plain),
            "CHECK",
            Some(4),
            PatternOptions::default(),
            &mut vars,
        )
        .unwrap();
        let err = use_.find(b"1", 0, 1, &mut vars).unwrap_err();
        assert!(matches!(err, MatchError::Invalid(e) if e[0].msg == "undefined variable: S"));
        vars.set_string("S", StringValue { text: b"a.b".to_vec(), captured: None });
        assert_eq!(use_.find(b"1 a.b", 0, 5, &mut vars), Ok((0, 5)));
    }

    #[test]
    fn parse_errors() {
        let mut vars = Variables::default();
        assert_eq!(parse("{{a", &mut vars).unwrap_err(), "found start of regex string with no end '}}'");
        assert_eq!(parse("[[a", &mut vars).unwrap_err(), "Invalid substitution block, no ]] found");
        assert_eq!(parse("{{(}}", &mut vars).unwrap_err(), "invalid regex: parentheses not balanced");
        assert_eq!(parse("[[a b]]", &mut vars).unwrap_err(), "unexpected whitespace");
        assert_eq!(parse("[[1a]]", &mut vars).unwrap_err(), "invalid variable name");
    }
}
