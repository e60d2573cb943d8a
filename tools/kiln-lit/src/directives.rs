//! Reading a test file's directives: `RUN:` (with `\` continuation),
//! `XFAIL:`, `REQUIRES:`, `UNSUPPORTED:`, `ALLOW_RETRIES:` and `END.`.
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
    /// `XFAIL:` expressions: the test is expected to fail if any holds.
    pub xfail: Vec<Condition>,
    /// `REQUIRES:` expressions: the test runs only if all hold.
    pub requires: Vec<Condition>,
    /// `UNSUPPORTED:` expressions: the test is skipped if any holds.
    pub unsupported: Vec<Condition>,
    /// How often a failing test is run again.
    pub allow_retries: u32,
}

const KEYWORDS: &[&str] = &["RUN:", "XFAIL:", "REQUIRES:", "UNSUPPORTED:", "ALLOW_RETRIES:", "END."];

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

/// The first keyword in `line` and the text after it.
fn find_keyword(line: &str) -> Option<(&'static str, &str)> {
    KEYWORDS
        .iter()
        .filter_map(|k| line.find(k).map(|at| (at, *k)))
        .min()
        .map(|(at, k)| (k, &line[at + k.len()..]))
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
    fn malformed_directives_are_errors() {
        assert!(parse("RUN: a \\\n").is_err());
        assert!(parse("RUN: a \\\nXFAIL: *\nRUN: b").is_err());
        assert!(parse("ALLOW_RETRIES: 2\nALLOW_RETRIES: 3\n").is_err());
        assert!(parse("ALLOW_RETRIES: x\n").is_err());
        assert!(parse("REQUIRES: a &&\n").is_err());
        assert!(parse("UNSUPPORTED: *\n").is_err());
    }
}
