//! Substitutions: how `%s`, `%t`, `%kiln-opt`, `FileCheck` ... in a RUN line
//! become text.
//!
//! As in lit, substitutions apply in order, each once over the whole line:
//! first the configured ones, then the built-in ones; with a recursive
//! expansion limit, the whole list applies again while the line changes,
//! at most that many more times. `%%` stands for a
//! literal `%` and is protected from every substitution; `%if feat %{ a %}
//! %else %{ b %}` picks a branch by feature before anything else.

use crate::boolexpr::BoolExpr;
use std::collections::BTreeSet;
use std::path::Path;

/// Placeholder hiding `%%` while substitutions run (lit's marker).
const PERCENT_MARKER: &str = "#_MARKER_#";

/// What a substitution's key matches.
#[derive(Debug, Clone)]
enum Matcher {
    /// Every occurrence of the text.
    Literal,
    /// Occurrences standing as a whole word, the way lit's `ToolSubst`
    /// matches tool names: not preceded by a word character or one of
    /// `.-^/\<`, not followed by a word character, `-` or `.`.
    Word,
}

/// One substitution: `key` becomes `value`.
#[derive(Debug, Clone)]
pub struct Substitution {
    key: String,
    value: String,
    matcher: Matcher,
}

impl Substitution {
    /// Replaces every occurrence of `key` by `value`.
    pub fn literal(key: impl Into<String>, value: impl Into<String>) -> Self {
        Substitution { key: key.into(), value: value.into(), matcher: Matcher::Literal }
    }

    /// Replaces `key` by `value` where `key` stands as a whole word (a tool
    /// name, possibly with an introducer such as `%`).
    pub fn word(key: impl Into<String>, value: impl Into<String>) -> Self {
        Substitution { key: key.into(), value: value.into(), matcher: Matcher::Word }
    }

    /// The text this substitution replaces.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Gives the substitution a new value.
    pub fn set_value(&mut self, value: impl Into<String>) {
        self.value = value.into();
    }

    fn apply(&self, line: &str) -> String {
        let mut out = String::with_capacity(line.len());
        let mut last = 0;
        for (at, _) in line.match_indices(&self.key) {
            if at < last || !self.matches_at(line, at) {
                continue;
            }
            out.push_str(&line[last..at]);
            out.push_str(&self.value);
            last = at + self.key.len();
        }
        out.push_str(&line[last..]);
        out
    }

    fn matches_at(&self, line: &str, at: usize) -> bool {
        if let Matcher::Literal = self.matcher {
            return true;
        }
        let is_word = |c: char| c.is_alphanumeric() || c == '_';
        let starts_with_word = self.key.starts_with(is_word);
        let before = line[..at].chars().next_back();
        let after = line[at + self.key.len()..].chars().next();
        let bad_before = before.is_some_and(|c| ".-^/\\<".contains(c) || (starts_with_word && is_word(c)));
        let bad_after = after.is_some_and(|c| c == '-' || c == '.' || is_word(c));
        !bad_before && !bad_after
    }
}

/// The built-in substitutions for the test at `source` whose temporary
/// base is `tmp_base` (`<dir>/Output/<file name>`), in lit 22's order.
pub fn builtins(source: &Path, tmp_base: &Path) -> Vec<Substitution> {
    let text = |p: &Path| p.to_string_lossy().into_owned();
    let source_dir = source.parent().unwrap_or(Path::new("/"));
    let tmp_name = format!("{}.tmp", text(tmp_base));
    let tmp_stem = tmp_base.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let source_name = source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let sep = std::path::MAIN_SEPARATOR.to_string();
    let pathsep = if cfg!(windows) { ";" } else { ":" };
    let mut subs = vec![
        Substitution::literal("%{pathsep}", pathsep),
        Substitution::literal("%basename_t", tmp_stem.clone()),
        Substitution::literal("%{s:basename}", source_name),
        Substitution::literal("%{t:stem}", tmp_stem),
        Substitution::literal("%{fs-src-root}", sep.clone()),
        Substitution::literal("%{fs-tmp-root}", sep.clone()),
        Substitution::literal("%{fs-sep}", sep),
        Substitution::literal("%/et", tmp_name.clone()),
    ];
    let paths = [('s', text(source)), ('S', text(source_dir)), ('p', text(source_dir)), ('t', tmp_name)];
    for (letter, path) in paths {
        let real = std::fs::canonicalize(&path).map(|p| text(&p)).unwrap_or_else(|_| path.clone());
        let regex_safe = path.replace('@', "\\@").replace('&', "\\&");
        let no_root = path.trim_start_matches('/').to_string();
        subs.push(Substitution::literal(format!("%{letter}"), path.clone()));
        subs.push(Substitution::literal(format!("%/{letter}"), path));
        subs.push(Substitution::literal(format!("%{{{letter}:real}}"), real.clone()));
        subs.push(Substitution::literal(format!("%{{/{letter}:real}}"), real));
        subs.push(Substitution::literal(format!("%{{/{letter}:regex_replacement}}"), regex_safe));
        subs.push(Substitution::literal(format!("%:{letter}"), no_root));
    }
    subs
}

/// Expands `line` with `subs` (in order), `%if` by `features`, and `%%`;
/// with a `recursion_limit`, again until the line no longer changes.
///
/// Errors, as lit's: a malformed `%if`, a line still changing at the limit,
/// and a leftover `%T`, which lit 22 no longer supports.
pub fn expand(
    line: &str,
    subs: &[Substitution],
    features: &BTreeSet<String>,
    recursion_limit: Option<usize>,
) -> Result<String, String> {
    let once = |line: &str| -> Result<String, String> {
        let mut line = expand_if(&line.replace("%%", PERCENT_MARKER), features)?;
        for sub in subs {
            line = sub.apply(&line.replace("%%", PERCENT_MARKER));
        }
        Ok(line.trim().to_string())
    };
    let mut current = line.to_string();
    let mut processed = once(&current)?;
    if let Some(limit) = recursion_limit {
        let mut steps = 0;
        while processed != current && steps < limit {
            current = processed;
            processed = once(&current)?;
            steps += 1;
        }
        if processed != current {
            return Err(format!(
                "Recursive substitution of '{line}' did not complete in the provided recursion limit ({limit})"
            ));
        }
    }
    let line = processed;
    if line.contains("%T") {
        return Err(
            "%T is no longer supported. Please create directories with names based on %t.".to_string()
        );
    }
    Ok(line.replace(PERCENT_MARKER, "%"))
}

/// Resolves `%if cond %{ then %} [%else %{ else %}]`, possibly nested.
fn expand_if(line: &str, features: &BTreeSet<String>) -> Result<String, String> {
    if !line.contains("%if ") {
        return Ok(line.to_string());
    }
    let (text, rest) = expand_if_text(line, features, false)?;
    debug_assert!(rest.is_empty());
    Ok(text)
}

/// Expands text up to the end of `line` or, when `nested`, up to the `%}`
/// closing the current branch; returns the text and what follows it.
fn expand_if_text<'a>(
    mut line: &'a str,
    features: &BTreeSet<String>,
    nested: bool,
) -> Result<(String, &'a str), String> {
    let mut out = String::new();
    loop {
        let next_if = line.find("%if ");
        let next_end = if nested { line.find("%}") } else { None };
        match (next_if, next_end) {
            (Some(i), end) if end.is_none_or(|e| i < e) => {
                out.push_str(&line[..i]);
                let after = &line[i + 4..];
                let open = after.find("%{").ok_or("'%{' is missing for %if substitution")?;
                let cond = BoolExpr::parse(after[..open].trim())?;
                let (then, after) = expand_if_text(&after[open + 2..], features, true)?;
                let mut after = after.strip_prefix("%}").ok_or("'%}' is missing for %if substitution")?;
                let mut otherwise = String::new();
                if let Some(rest) = after.trim_start().strip_prefix("%else") {
                    let rest = rest
                        .trim_start()
                        .strip_prefix("%{")
                        .ok_or("'%{' is missing for %else substitution")?;
                    let (text, rest) = expand_if_text(rest, features, true)?;
                    otherwise = text;
                    after = rest.strip_prefix("%}").ok_or("'%}' is missing for %else substitution")?;
                }
                out.push_str(if cond.eval(features) { &then } else { &otherwise });
                line = after;
            }
            (_, Some(e)) => {
                out.push_str(&line[..e]);
                return Ok((out, &line[e..]));
            }
            (_, None) => {
                out.push_str(line);
                return Ok((out, ""));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str, subs: &[Substitution]) -> String {
        expand(line, subs, &BTreeSet::from(["yes".to_string()]), None).unwrap()
    }

    #[test]
    fn tool_names_match_whole_words_only() {
        let subs = [Substitution::word("FileCheck", "/bin/fc")];
        assert_eq!(
            run("FileCheck x-FileCheck FileCheck.y /FileCheck FileCheck-z aFileCheck | FileCheck", &subs),
            "/bin/fc x-FileCheck FileCheck.y /FileCheck FileCheck-z aFileCheck | /bin/fc"
        );
        let subs = [Substitution::word("%kiln-opt", "/bin/ko")];
        assert_eq!(run("%kiln-opt %kiln-opt-x a%kiln-opt", &subs), "/bin/ko %kiln-opt-x a/bin/ko");
    }

    #[test]
    fn builtins_follow_lit() {
        let subs = builtins(Path::new("/d/a.test"), Path::new("/d/Output/a.test"));
        assert_eq!(
            run("%s %S %p %t %basename_t %{s:basename} %{pathsep} %:s %/t", &subs),
            "/d/a.test /d /d /d/Output/a.test.tmp a.test a.test : d/a.test /d/Output/a.test.tmp"
        );
        assert_eq!(run("echo 100%% %%s", &subs), "echo 100% %s");
        assert!(expand("%T", &subs, &BTreeSet::new(), None).is_err());
    }

    #[test]
    fn config_substitutions_come_first_and_apply_once() {
        let subs = [
            Substitution::literal("%{a}", "%{b}"),
            Substitution::literal("%{b}", "B"),
            Substitution::literal("%{c}", "%{a}"),
        ];
        assert_eq!(run("%{a} %{c}", &subs), "B %{a}");
    }

    #[test]
    fn if_else_picks_by_feature() {
        assert_eq!(run("a %if yes %{ b %} c", &[]), "a  b  c");
        assert_eq!(run("%if no %{b%} %else %{c%}", &[]), "c");
        assert_eq!(run("%if yes %{ %if no %{x%} %else %{y%} %}", &[]), "y");
        assert!(expand("%if yes b", &[], &BTreeSet::new(), None).is_err());
    }

    #[test]
    fn recursive_expansion_stops_at_the_limit() {
        let subs = [Substitution::literal("%rec1", "STOP"), Substitution::literal("%rec2", "%rec1")];
        let features = BTreeSet::new();
        assert_eq!(expand("echo %rec2", &subs, &features, None).unwrap(), "echo %rec1");
        // One step to reach STOP, one more to see that it stays.
        assert_eq!(expand("echo %rec2", &subs, &features, Some(2)).unwrap(), "echo STOP");
        assert_eq!(
            expand("echo %rec2", &subs, &features, Some(1)).unwrap_err(),
            "Recursive substitution of 'echo %rec2' did not complete in the provided recursion limit (1)"
        );
    }
}
