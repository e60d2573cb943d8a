//! Reading a test file's directives: `RUN:` (with `\` continuation),
//! `DEFINE:`/`REDEFINE:`, `XFAIL:`, `REQUIRES:`, `UNSUPPORTED:`,
//! `ALLOW_RETRIES:` and `END.`.
//!
//! As in lit, a directive may appear anywhere on a line (after `//`, `#`,
//! `;` ...), the first keyword on a line wins, and `END.` stops the scan.

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
    /// The 1-based line of the directive.
    pub line: usize,
    /// `REDEFINE:` rather than `DEFINE:`.
    pub redefine: bool,
    /// The substitution's key, `%{name}`.
    pub name: String,
    /// Its value, trimmed.
    pub value: String,
    /// How many RUN lines come before it.
    pub before_run: usize,
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

/// Parses the directives in `text`; errors read like lit's.
pub fn parse(text: &str) -> Result<Directives, String> {
    let mut directives = Directives::default();
    let mut retries_seen = false;
    let mut continued = false;
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let Some((keyword, rest)) = find_keyword(line) else {
            continue;
        };
        let rest = rest.trim_end_matches('\r');
        match keyword {
            "RUN:" => {
                let command = substitute_line_numbers(rest.trim(), line_no)?;
                match directives.run.last_mut() {
                    Some(last) if continued => last.command.push_str(&command),
                    _ => directives.run.push(RunLine { line: line_no, command }),
                }
                let last = directives.run.last_mut().expect("just pushed");
                continued = last.command.ends_with('\\');
                if continued {
                    last.command.pop();
                }
                continue;
            }
            _ if continued => {
                return Err(format!(
                    "Test has unterminated 'RUN:' directive (with '\\') before line {line_no}"
                ))
            }
            "DEFINE:" | "REDEFINE:" => {
                let define = definition(rest, line_no, keyword == "REDEFINE:", directives.run.len())?;
                directives.defines.push(define);
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
    if continued {
        return Err("Test has unterminated 'RUN:' directive (with '\\')".to_string());
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

/// Parses the `%{name} = value` of a `DEFINE:` or `REDEFINE:` on line `line`.
fn definition(text: &str, line: usize, redefine: bool, before_run: usize) -> Result<Define, String> {
    let keyword = if redefine { "REDEFINE" } else { "DEFINE" };
    let (name, value) = text.split_once('=').ok_or_else(|| {
        format!("Substitution's definition does not contain '=' ('{keyword}:' at line {line})")
    })?;
    let name = name.trim();
    let well_formed = name.strip_prefix("%{").and_then(|n| n.strip_suffix('}')).is_some_and(|n| {
        n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && n.chars().all(|c| c.is_ascii_alphanumeric() || "_-:".contains(c))
    });
    if !well_formed {
        return Err(format!(
            "Substitution name '{name}' is malformed as it must start with '%{{', it must end with '}}', and the \
             rest must start with a letter or underscore and contain only alphanumeric characters, hyphens, \
             underscores, and colons ('{keyword}:' at line {line})"
        ));
    }
    Ok(Define { line, redefine, name: name.to_string(), value: value.trim().to_string(), before_run })
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
        let d = parse("// RUN: a \\\n// RUN:   b | c\n; RUN: d %(line+1)\n").unwrap();
        assert_eq!(
            d.run,
            vec![RunLine { line: 1, command: "a b | c".into() }, RunLine { line: 3, command: "d 4".into() },]
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
        assert!(parse("DEFINE: %{x}\n").is_err());
    }

    #[test]
    fn malformed_directives_are_errors() {
        assert!(parse("RUN: a \\\n").is_err());
        assert!(parse("RUN: a \\\nXFAIL: *\nRUN: b").is_err());
        assert!(parse("ALLOW_RETRIES: 2\nALLOW_RETRIES: 3\n").is_err());
        assert!(parse("ALLOW_RETRIES: x\n").is_err());
        assert!(parse("REQUIRES: a &&\n").is_err());
        assert!(parse("UNSUPPORTED: *\n").is_err());
    }
}
