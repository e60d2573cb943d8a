//! Reading a test file's directives: `RUN:`, `DEFINE:`/`REDEFINE:`,
//! `XFAIL:`, `REQUIRES:`, `UNSUPPORTED:`, `ALLOW_RETRIES:` and `END.`.
//!
//! As in lit, a directive may appear anywhere on a line (after `//`, `#`,
//! `;` ...), the first keyword on a line wins, and `END.` stops the scan.
//!
//! Continuations follow LLVM lit 22: `RUN:`, `DEFINE:` and `REDEFINE:` form
//! the test's script, and a script directive whose text ends in `\` (for
//! `DEFINE:`/`REDEFINE:`, also before trailing whitespace) continues on the
//! next script directive with the same keyword, whatever other directives
//! come between. A `RUN:` continuation replaces the `\` by the next line's
//! text; a substitution's replaces the `\` and the whitespace around it by
//! one space, must not be blank, and is parsed (`%{name} = value`) once it no
//! longer continues. A script directive of another keyword starts a new
//! directive and leaves the continued one unterminated, which is an error
//! once the whole file has been read.

use crate::boolexpr::BoolExpr;

/// One shell command line, after joining continuations.
#[derive(Debug, Clone, PartialEq)]
pub struct RunLine {
    /// The 1-based line of the first `RUN:` of the command.
    pub line: usize,
    /// The command text, before substitution.
    pub command: String,
}

/// A test's own substitution: `DEFINE: %{name} = value` adds one ahead of
/// all others, `REDEFINE:` changes the value of one defined before; either
/// applies to the RUN lines after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Define {
    /// The 1-based line of the directive's first line.
    pub line: usize,
    /// The 1-based line of its last continuation (`line` without one).
    pub end_line: usize,
    /// `REDEFINE:` rather than `DEFINE:`.
    pub redefine: bool,
    /// The substitution's key, `%{name}`.
    pub name: String,
    /// Its value, trimmed.
    pub value: String,
    /// How many RUN lines come before it.
    pub before_run: usize,
}

impl Define {
    /// Where the directive is, as lit says it: `at line N` or `from line N
    /// to M`.
    pub fn location(&self) -> String {
        location(self.line, self.end_line)
    }
}

/// `at line N` or, for a directive continued over several lines, `from
/// line N to M`.
fn location(start: usize, end: usize) -> String {
    if start == end {
        format!("at line {start}")
    } else {
        format!("from line {start} to {end}")
    }
}

/// One item of a `REQUIRES:`, `UNSUPPORTED:` or `XFAIL:` list.
#[derive(Debug)]
pub struct Condition {
    /// The item as written, for messages.
    pub text: String,
    /// The parsed expression.
    pub expr: BoolExpr,
}

/// The directives of one test file.
#[derive(Debug, Default)]
pub struct Directives {
    /// The commands to run, in order.
    pub run: Vec<RunLine>,
    /// `DEFINE:` and `REDEFINE:` directives, in order.
    pub defines: Vec<Define>,
    /// `XFAIL:` expressions: the test is expected to fail if any holds.
    pub xfail: Vec<Condition>,
    /// `REQUIRES:` expressions: the test runs only if all hold.
    pub requires: Vec<Condition>,
    /// `UNSUPPORTED:` expressions: the test is skipped if any holds.
    pub unsupported: Vec<Condition>,
    /// How often a failing test is run again.
    pub allow_retries: u32,
}

const KEYWORDS: &[&str] =
    &["RUN:", "DEFINE:", "REDEFINE:", "XFAIL:", "REQUIRES:", "UNSUPPORTED:", "ALLOW_RETRIES:", "END."];

/// A directive of the script being read: a `RUN:`, `DEFINE:` or
/// `REDEFINE:` with its continuations so far.
struct Scripted {
    /// `RUN:`, `DEFINE:` or `REDEFINE:`.
    keyword: &'static str,
    /// The lines of its first and last parts.
    start: usize,
    end: usize,
    /// The command, or the substitution's unparsed body.
    text: String,
    /// A substitution's name and value, once it no longer continues.
    definition: Option<(String, String)>,
    /// How many `RUN:` directives come before it.
    before_run: usize,
}

impl Scripted {
    /// A directive starting with `text` on line `line`: a command keeps
    /// lit's text up to its trailing whitespace, a substitution is parsed
    /// unless it continues.
    fn new(keyword: &'static str, line: usize, text: &str, before_run: usize) -> Result<Scripted, String> {
        let text = if keyword == "RUN:" { text.trim() } else { text }.to_string();
        let mut directive = Scripted { keyword, start: line, end: line, text, definition: None, before_run };
        directive.parse_definition()?;
        Ok(directive)
    }

    /// Whether the text asks for a continuation: it ends in `\` (for a
    /// substitution, possibly followed by whitespace).
    fn needs_continuation(&self) -> bool {
        if self.keyword == "RUN:" {
            self.text.ends_with('\\')
        } else {
            self.text.trim_end().ends_with('\\')
        }
    }

    /// Appends `text`, the continuation on line `line`, as lit does.
    fn continue_with(&mut self, line: usize, text: &str) -> Result<(), String> {
        if self.keyword == "RUN:" {
            self.text.pop();
            self.text.push_str(text.trim_end());
        } else {
            if text.trim().is_empty() {
                return Err("Substitution's continuation is empty".to_string());
            }
            let body = self.text.trim_end();
            self.text = format!("{} {}", body[..body.len() - 1].trim_end(), text.trim_start());
        }
        self.end = line;
        self.parse_definition()
    }

    /// Parses a substitution's `%{name} = value` once it no longer continues.
    fn parse_definition(&mut self) -> Result<(), String> {
        if self.keyword != "RUN:" && !self.needs_continuation() {
            self.definition = Some(definition(&self.text)?);
        }
        Ok(())
    }
}

/// Parses the directives in `text`; errors read like lit's.
pub fn parse(text: &str) -> Result<Directives, String> {
    let mut directives = Directives::default();
    let mut retries_seen = false;
    let mut script: Vec<Scripted> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let Some((keyword, rest)) = find_keyword(line) else {
            continue;
        };
        let rest = rest.trim_end_matches('\r');
        match keyword {
            "RUN:" | "DEFINE:" | "REDEFINE:" => {
                let in_directive = |e: String| format!("{e}\nin {keyword} directive on test line {line_no}");
                let rest = substitute_line_numbers(rest, line_no)?;
                match script.last_mut() {
                    Some(last) if last.keyword == keyword && last.needs_continuation() => {
                        last.continue_with(line_no, &rest).map_err(in_directive)?
                    }
                    _ => {
                        let runs = script.iter().filter(|d| d.keyword == "RUN:").count();
                        script.push(Scripted::new(keyword, line_no, &rest, runs).map_err(in_directive)?)
                    }
                }
            }
            "XFAIL:" => directives.xfail.extend(expressions(rest, true)?),
            "REQUIRES:" => directives.requires.extend(expressions(rest, false)?),
            "UNSUPPORTED:" => directives.unsupported.extend(expressions(rest, false)?),
            "ALLOW_RETRIES:" => {
                if retries_seen {
                    return Err("Error: 'ALLOW_RETRIES:' directive may only be specified once".to_string());
                }
                retries_seen = true;
                directives.allow_retries = rest.trim().parse().map_err(|_| {
                    format!("Error: 'ALLOW_RETRIES:' expects an integer, found `{}`", rest.trim())
                })?;
            }
            _ => break, // "END."
        }
    }
    if let Some(open) = script.iter().find(|d| d.needs_continuation()) {
        return Err(format!(
            "Test has unterminated '{}' directive (with '\\') {}",
            open.keyword,
            location(open.start, open.end)
        ));
    }
    for directive in script {
        match directive.definition {
            Some((name, value)) => directives.defines.push(Define {
                line: directive.start,
                end_line: directive.end,
                redefine: directive.keyword == "REDEFINE:",
                name,
                value,
                before_run: directive.before_run,
            }),
            None => directives.run.push(RunLine { line: directive.start, command: directive.text }),
        }
    }
    Ok(directives)
}

/// The first keyword in `line` and the text after it (`REDEFINE:`, not the
/// `DEFINE:` inside it).
fn find_keyword(line: &str) -> Option<(&'static str, &str)> {
    KEYWORDS
        .iter()
        .filter_map(|k| line.find(k).map(|at| (at, std::cmp::Reverse(k.len()), *k)))
        .min()
        .map(|(at, _, k)| (k, &line[at + k.len()..]))
}

/// Parses the `%{name} = value` body of a `DEFINE:` or `REDEFINE:`.
fn definition(body: &str) -> Result<(String, String), String> {
    let (name, value) =
        body.split_once('=').ok_or_else(|| "Substitution's definition does not contain '='".to_string())?;
    let name = name.trim();
    let well_formed = name.strip_prefix("%{").and_then(|n| n.strip_suffix('}')).is_some_and(|n| {
        n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && n.chars().all(|c| c.is_ascii_alphanumeric() || "_-:".contains(c))
    });
    if !well_formed {
        return Err(format!(
            "Substitution name '{name}' is malformed as it must start with '%{{', it must end with '}}', and the \
             rest must start with a letter or underscore and contain only alphanumeric characters, hyphens, \
             underscores, and colons"
        ));
    }
    Ok((name.to_string(), value.trim().to_string()))
}

/// A comma-separated list of feature expressions; `*` is allowed in XFAIL.
fn expressions(text: &str, star_ok: bool) -> Result<Vec<Condition>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            let expr = if star_ok && item == "*" { BoolExpr::True } else { BoolExpr::parse(item)? };
            Ok(Condition { text: item.to_string(), expr })
        })
        .collect()
}

/// Replaces lit's `%(line)`, `%(line+N)` and `%(line-N)`.
fn substitute_line_numbers(text: &str, line: usize) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("%(line") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "%(line".len()..];
        let close = after.find(')').ok_or_else(|| format!("unterminated `%(line` in `{text}`"))?;
        let offset: String = after[..close].chars().filter(|c| !c.is_whitespace()).collect();
        let value = match offset.as_str() {
            "" => Some(line as i64),
            o => o
                .strip_prefix('+')
                .and_then(|n| n.parse::<i64>().ok())
                .map(|n| line as i64 + n)
                .or_else(|| o.strip_prefix('-')?.parse::<i64>().ok().map(|n| line as i64 - n)),
        };
        let value = value.ok_or_else(|| format!("bad line expression `%(line{offset})`"))?;
        out.push_str(&value.to_string());
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_lines_join_continuations() {
        // As lit: the `\\` goes, the next line's text (its leading blanks too) follows.
        let d = parse("// RUN: a \\\n// RUN:   b | c\n; RUN: d %(line+1)\n").unwrap();
        assert_eq!(
            d.run,
            vec![
                RunLine { line: 1, command: "a    b | c".into() },
                RunLine { line: 3, command: "d 4".into() },
            ]
        );
        // Other directives between the parts do not interrupt a continuation.
        let d = parse("RUN: a \\\nXFAIL: *\nREQUIRES: x\nRUN: b\n").unwrap();
        assert_eq!(d.run, vec![RunLine { line: 1, command: "a  b".into() }]);
    }

    /// The values of `text`'s definitions, by name.
    fn values(text: &str) -> Vec<(String, String)> {
        parse(text).unwrap().defines.into_iter().map(|d| (d.name, d.value)).collect()
    }

    fn pair(name: &str, value: &str) -> (String, String) {
        (name.to_string(), value.to_string())
    }

    #[test]
    fn definitions_continue_as_in_lit() {
        // lit's shtest-define/ws-and-continuations.txt: each `\\` and the blanks around
        // it become one space, also when blanks follow the `\\`.
        let text = "DEFINE: %{continue} = abc\\\nDEFINE:def \\\nDEFINE:ghi\\\nDEFINE: jkl \\\n\
                    DEFINE: mno  \\\nDEFINE:  pqr \n";
        assert_eq!(values(text), [pair("%{continue}", "abc def ghi jkl mno pqr")]);
        let text = "REDEFINE: %{ws-after-continue}=foo \\ \nREDEFINE: bar    \\      \nREDEFINE: baz\n";
        assert_eq!(values(text), [pair("%{ws-after-continue}", "foo bar baz")]);
        let text = "DEFINE:\\\nDEFINE:%{blank-lines}\\\nDEFINE:\\\nDEFINE:=\\\nDEFINE:\\\nDEFINE:a\n";
        assert_eq!(values(text), [pair("%{blank-lines}", "a")]);
        // A continuation that looks like a definition is part of the value.
        let text = "DEFINE: %{deceptive}=echo \\\nDEFINE: %{name}=%{value}\n";
        assert_eq!(values(text), [pair("%{deceptive}", "echo %{name}=%{value}")]);
        // Only the same keyword continues; RUN lines and other directives may come between.
        let d = parse("RUN: a\nDEFINE: %{x} = 1 \\\nXFAIL: *\nDEFINE: 2\nRUN: %{x}\n").unwrap();
        let d0 = &d.defines[0];
        assert_eq!((d0.value.as_str(), d0.line, d0.end_line, d0.before_run), ("1 2", 2, 4, 1));
        assert_eq!((d0.location(), d.run.len()), ("from line 2 to 4".to_string(), 2));
    }

    #[test]
    fn continuation_errors_read_as_lit() {
        let error = |text: &str| parse(text).unwrap_err();
        assert_eq!(
            error("RUN: true\nDEFINE: %{foo} = foo \\\nDEFINE:   \nRUN: echo\n"),
            "Substitution's continuation is empty\nin DEFINE: directive on test line 3"
        );
        assert_eq!(
            error("DEFINE: %{foo} = \\\\\nDEFINE:\n"),
            "Substitution's continuation is empty\nin DEFINE: directive on test line 2"
        );
        assert_eq!(
            error("RUN: true\nDEFINE: %{foo} = foo \\\nDEFINE: bar \\\n"),
            "Test has unterminated 'DEFINE:' directive (with '\\') from line 2 to 3"
        );
        assert_eq!(
            error("REDEFINE: %{foo} = foo \\\nRUN: echo\n"),
            "Test has unterminated 'REDEFINE:' directive (with '\\') at line 1"
        );
        assert_eq!(
            error("RUN: echo \\\nDEFINE: %{foo}=bar\nRUN: too late\n"),
            "Test has unterminated 'RUN:' directive (with '\\') at line 1"
        );
        // A REDEFINE does not continue a DEFINE: it stands alone, and is malformed.
        assert_eq!(
            error("DEFINE: %{foo}=echo \\\nREDEFINE: Hello World\nDEFINE: too late\n"),
            "Substitution's definition does not contain '='\nin REDEFINE: directive on test line 2"
        );
        // A definition is checked once complete, at its last line.
        assert_eq!(
            error("RUN: x\nDEFINE: %{a.b} \\\nDEFINE: = 1\n"),
            "Substitution name '%{a.b}' is malformed as it must start with '%{', it must end with '}', and \
             the rest must start with a letter or underscore and contain only alphanumeric characters, \
             hyphens, underscores, and colons\nin DEFINE: directive on test line 3"
        );
    }

    #[test]
    fn end_stops_and_conditions_accumulate() {
        let d = parse("XFAIL: *\nREQUIRES: a, b\nREQUIRES: c\nEND.\nRUN: x\n").unwrap();
        assert!(d.run.is_empty());
        assert_eq!((d.xfail.len(), d.requires.len()), (1, 3));
    }

    #[test]
    fn defines_know_their_place() {
        let d = parse("DEFINE: %{x} = a b \nRUN: %{x}\nREDEFINE: %{x}=c\nRUN: %{x}\n").unwrap();
        let places: Vec<_> = d.defines.iter().map(|d| (d.redefine, d.value.as_str(), d.before_run)).collect();
        assert_eq!(places, [(false, "a b", 0), (true, "c", 1)]);
        assert!(parse("DEFINE: x = 1\n").is_err());
        assert_eq!(
            parse("DEFINE: %{x}: 1\n").unwrap_err(),
            "Substitution's definition does not contain '='\nin DEFINE: directive on test line 1"
        );
    }

    #[test]
    fn malformed_directives_are_errors() {
        assert_eq!(
            parse("RUN: a \\\nRUN: b \\\n").unwrap_err(),
            "Test has unterminated 'RUN:' directive (with '\\') from line 1 to 2"
        );
        assert!(parse("ALLOW_RETRIES: 2\nALLOW_RETRIES: 3\n").is_err());
        assert!(parse("ALLOW_RETRIES: x\n").is_err());
        assert!(parse("REQUIRES: a &&\n").is_err());
        assert!(parse("UNSUPPORTED: *\n").is_err());
    }
}
