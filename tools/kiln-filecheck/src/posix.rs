//! POSIX extended regular expressions, as LLVM's `Regex` (BSD `regcomp`)
//! accepts them, translated to the `regex` crate.
//!
//! LLVM compiles check patterns with `REG_EXTENDED | REG_NEWLINE`. This
//! module parses that dialect with the same grammar and error messages as BSD
//! `regcomp` and emits an equivalent byte-oriented Rust regex:
//!
//! - a backslash makes any following character literal (`\d` is `d`), except
//!   `\1`..`\9`, which are back-references;
//! - bracket expressions treat `\` literally, allow `]` first and support
//!   `[:class:]`, `[=c=]` and `[.c.]`; negated brackets never match a newline;
//! - `{` is literal unless a digit follows it;
//! - back-references, which the `regex` crate lacks, become a copy of the
//!   referenced group (to find where a match may start) and are then matched
//!   by backtracking.
//!
//! Matches are POSIX's leftmost-longest, as `regexec` finds them: the
//! `regex` crate finds the leftmost start, and from there a `PikeVM` that
//! ignores match priority (`MatchKind::All`) finds the longest end; its groups
//! are those of the most preferred path to that end (BSD `regexec` prefers
//! longer earlier subexpressions instead, which can assign groups differently
//! for the same match). Patterns with back-references go through the
//! backtracking matcher of `backtrack`, as `regexec` sends them to `backref()`.

mod backtrack;

use regex::bytes::{Regex, RegexBuilder};
use regex_automata::nfa::thompson::{self, pikevm::PikeVM};
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::Hir;

/// A compiled POSIX regex.
#[derive(Clone, Debug)]
pub struct PosixRegex {
    /// Leftmost-first; finds where matches start. With back-references, a
    /// copy of each referenced group stands for the reference, so this
    /// accepts a superset of the pattern's matches.
    re: Regex,
    engine: Engine,
    /// For each POSIX group (1-based, index 0 unused), its Rust group index.
    group_map: Vec<usize>,
}

/// How a match found to start somewhere is extended to its longest end.
#[derive(Clone, Debug)]
enum Engine {
    Longest(Box<PikeVM>),
    /// The pattern's syntax tree and its (copy group, original group) pairs.
    Backrefs(Box<Hir>, Vec<(usize, usize)>),
}

/// Byte ranges of a match: index 0 is the whole match, then one entry per
/// POSIX capture group.
pub type Groups = Vec<Option<(usize, usize)>>;

/// Checks that `src` is a valid POSIX ERE and returns its number of groups,
/// or the BSD `regerror` text describing the problem.
pub fn count_groups(src: &[u8]) -> Result<usize, &'static str> {
    let mut t = Translator::new(src, false);
    t.top_level()?;
    Ok(t.nsub)
}

const SIZE_LIMIT: usize = 64 << 20;

impl PosixRegex {
    /// Compiles a POSIX ERE; errors carry the `regerror` text.
    pub fn new(src: &[u8], ignore_case: bool) -> Result<Self, String> {
        let mut t = Translator::new(src, false);
        t.top_level().map_err(str::to_string)?;
        let pattern = format!("(?m{}){}", if ignore_case { "i" } else { "" }, t.out);
        fn invalid(_: impl std::error::Error) -> String {
            "invalid regular expression".to_string()
        }
        let re =
            RegexBuilder::new(&pattern).unicode(false).size_limit(SIZE_LIMIT).build().map_err(invalid)?;
        let engine = if t.backrefs.is_empty() {
            let vm = PikeVM::builder()
                .configure(PikeVM::config().match_kind(MatchKind::All))
                .syntax(syntax::Config::new().unicode(false).utf8(false))
                .thompson(thompson::Config::new().utf8(false).nfa_size_limit(Some(SIZE_LIMIT)))
                .build(&pattern)
                .map_err(invalid)?;
            Engine::Longest(Box::new(vm))
        } else {
            let hir = regex_syntax::ParserBuilder::new()
                .unicode(false)
                .utf8(false)
                .build()
                .parse(&pattern)
                .map_err(invalid)?;
            Engine::Backrefs(Box::new(hir), t.backrefs)
        };
        Ok(PosixRegex { re, engine, group_map: t.group_map })
    }

    /// Finds the leftmost-longest match in `hay`. `^` and `$` also match at
    /// the ends of `hay` and around newlines.
    pub fn find(&self, hay: &[u8]) -> Option<Groups> {
        let slots = match &self.engine {
            Engine::Longest(vm) => {
                let start = self.re.find(hay)?.start();
                let mut caps = vm.create_captures();
                vm.search(
                    &mut vm.create_cache(),
                    &Input::new(hay).range(start..).anchored(Anchored::Yes),
                    &mut caps,
                );
                let span = |g: usize| caps.get_group(g).map(|s| (s.start, s.end));
                return Some(self.groups(span));
            }
            Engine::Backrefs(hir, copies) => {
                let mut from = 0;
                loop {
                    let start = self.re.find_at(hay, from)?.start();
                    let groups = self.re.captures_len();
                    if let Some(slots) = backtrack::Search::new(hay, groups, copies).longest(hir, start) {
                        break slots;
                    }
                    from = start + 1;
                    if from > hay.len() {
                        return None;
                    }
                }
            }
        };
        Some(self.groups(|g| Some((slots[2 * g]?, slots[2 * g + 1]?))))
    }

    /// The POSIX groups of a match, given the span of each Rust group.
    fn groups(&self, span: impl Fn(usize) -> Option<(usize, usize)>) -> Groups {
        let mut groups = vec![span(0)];
        groups.extend(self.group_map.iter().skip(1).map(|&g| span(g)));
        groups
    }
}

/// A recursive-descent translator following BSD `regcomp`'s `p_ere`.
struct Translator<'a> {
    src: &'a [u8],
    pos: usize,
    out: String,
    /// Number of POSIX groups opened so far.
    nsub: usize,
    /// Number of Rust capture groups emitted so far.
    rust_groups: usize,
    group_map: Vec<usize>,
    /// Source span (inside the parentheses) of each closed POSIX group.
    group_spans: Vec<Option<(usize, usize)>>,
    backrefs: Vec<(usize, usize)>,
    /// Emit groups as non-capturing (used when copying a group for a
    /// back-reference).
    no_capture: bool,
}

type Res = Result<(), &'static str>;

const EPAREN: &str = "parentheses not balanced";
const EBRACK: &str = "brackets ([ ]) not balanced";
const EBRACE: &str = "braces not balanced";
const BADBR: &str = "invalid repetition count(s)";
const BADRPT: &str = "repetition-operator operand invalid";
const EMPTY: &str = "empty (sub)expression";
const EESCAPE: &str = "trailing backslash (\\)";
const ESUBREG: &str = "invalid backreference number";
const ERANGE: &str = "invalid character range";
const ECTYPE: &str = "invalid character class";
const ECOLLATE: &str = "invalid collating element";

const CLASSES: &[&str] = &[
    "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper",
    "xdigit",
];

fn push_literal(out: &mut String, b: u8) {
    if b.is_ascii_alphanumeric() || b == b'_' || b == b' ' {
        out.push(b as char);
    } else {
        out.push_str(&format!("\\x{b:02X}"));
    }
}

impl<'a> Translator<'a> {
    fn new(src: &'a [u8], no_capture: bool) -> Self {
        Translator {
            src,
            pos: 0,
            out: String::new(),
            nsub: 0,
            rust_groups: 0,
            group_map: vec![0],
            group_spans: vec![None],
            backrefs: Vec::new(),
            no_capture,
        }
    }

    fn more(&self) -> bool {
        self.pos < self.src.len()
    }
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }
    fn peek2(&self) -> Option<u8> {
        self.src.get(self.pos + 1).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn eat_two(&mut self, a: u8, b: u8) -> bool {
        if self.peek() == Some(a) && self.peek2() == Some(b) {
            self.pos += 2;
            true
        } else {
            false
        }
    }

    fn top_level(&mut self) -> Res {
        self.ere(None)?;
        if self.more() {
            return Err(EPAREN);
        }
        Ok(())
    }

    fn ere(&mut self, stop: Option<u8>) -> Res {
        loop {
            let start = self.pos;
            while let Some(c) = self.peek() {
                if c == b'|' || Some(c) == stop {
                    break;
                }
                self.ere_exp()?;
            }
            if self.pos == start {
                return Err(EMPTY);
            }
            if !self.eat(b'|') {
                return Ok(());
            }
            self.out.push('|');
        }
    }

    fn is_repetition_next(&self) -> bool {
        match self.peek() {
            Some(b'*' | b'+' | b'?') => true,
            Some(b'{') => self.peek2().is_some_and(|d| d.is_ascii_digit()),
            _ => false,
        }
    }

    fn ere_exp(&mut self) -> Res {
        let c = self.src[self.pos];
        self.pos += 1;
        let mut was_caret = false;
        match c {
            b'(' => {
                if !self.more() {
                    return Err(EPAREN);
                }
                self.nsub += 1;
                let index = self.nsub;
                self.group_spans.push(None);
                if self.no_capture {
                    self.out.push_str("(?:");
                    self.group_map.push(0);
                } else {
                    self.rust_groups += 1;
                    self.group_map.push(self.rust_groups);
                    self.out.push('(');
                }
                let inner_start = self.pos;
                if self.peek() != Some(b')') {
                    self.ere(Some(b')'))?;
                }
                let inner_end = self.pos;
                if !self.eat(b')') {
                    return Err(EPAREN);
                }
                self.out.push(')');
                self.group_spans[index] = Some((inner_start, inner_end));
            }
            b')' => return Err(EPAREN),
            b'^' => {
                self.out.push('^');
                was_caret = true;
            }
            b'$' => self.out.push('$'),
            b'*' | b'+' | b'?' => return Err(BADRPT),
            b'.' => self.out.push('.'),
            b'[' => self.bracket()?,
            b'\\' => {
                let Some(e) = self.peek() else { return Err(EESCAPE) };
                self.pos += 1;
                if (b'1'..=b'9').contains(&e) {
                    self.backref(usize::from(e - b'0'))?;
                } else {
                    push_literal(&mut self.out, e);
                }
            }
            b'{' => {
                if self.peek().is_some_and(|d| d.is_ascii_digit()) {
                    return Err(BADRPT);
                }
                push_literal(&mut self.out, c);
            }
            _ => push_literal(&mut self.out, c),
        }
        if !self.is_repetition_next() {
            return Ok(());
        }
        if was_caret {
            return Err(BADRPT);
        }
        let r = self.src[self.pos];
        self.pos += 1;
        if r == b'{' {
            let min = self.count()?;
            let max = if self.eat(b',') {
                if self.peek().is_some_and(|d| d.is_ascii_digit()) {
                    let max = self.count()?;
                    if min > max {
                        return Err(BADBR);
                    }
                    Some(max)
                } else {
                    None
                }
            } else {
                Some(min)
            };
            if !self.eat(b'}') {
                while self.more() && self.peek() != Some(b'}') {
                    self.pos += 1;
                }
                return Err(if self.more() { BADBR } else { EBRACE });
            }
            match max {
                Some(max) => self.out.push_str(&format!("{{{min},{max}}}")),
                None => self.out.push_str(&format!("{{{min},}}")),
            }
        } else {
            self.out.push(r as char);
        }
        if self.is_repetition_next() {
            return Err(BADRPT);
        }
        Ok(())
    }

    fn count(&mut self) -> Result<u32, &'static str> {
        let mut n: u32 = 0;
        let mut digits = 0;
        while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
            n = n.saturating_mul(10).saturating_add(u32::from(d - b'0'));
            self.pos += 1;
            digits += 1;
        }
        if digits == 0 || n > 255 {
            return Err(BADBR);
        }
        Ok(n)
    }

    fn backref(&mut self, n: usize) -> Res {
        let Some(Some((s, e))) = self.group_spans.get(n).copied() else { return Err(ESUBREG) };
        let mut copy = Translator::new(&self.src[s..e], true);
        if s != e {
            copy.ere(None)?;
        }
        self.rust_groups += 1;
        self.out.push('(');
        self.out.push_str(&copy.out);
        self.out.push(')');
        if !self.no_capture {
            self.backrefs.push((self.rust_groups, self.group_map[n]));
        }
        Ok(())
    }

    fn bracket(&mut self) -> Res {
        let rest = &self.src[self.pos..];
        if rest.starts_with(b"[:<:]]") || rest.starts_with(b"[:>:]]") {
            self.pos += 6;
            self.out.push_str("\\b");
            return Ok(());
        }
        let invert = self.eat(b'^');
        let mut items = String::new();
        if self.eat(b']') {
            push_literal(&mut items, b']');
        } else if self.eat(b'-') {
            push_literal(&mut items, b'-');
        }
        while self.more()
            && self.peek() != Some(b']')
            && !(self.peek() == Some(b'-') && self.peek2() == Some(b']'))
        {
            self.bracket_term(&mut items)?;
        }
        if self.eat(b'-') {
            push_literal(&mut items, b'-');
        }
        if !self.eat(b']') {
            return Err(EBRACK);
        }
        self.out.push('[');
        if invert {
            self.out.push('^');
            items.push_str("\\x0A");
        }
        self.out.push_str(&items);
        self.out.push(']');
        Ok(())
    }

    fn bracket_term(&mut self, items: &mut String) -> Res {
        let kind = match self.peek() {
            Some(b'[') => self.peek2(),
            Some(b'-') => return Err(ERANGE),
            _ => None,
        };
        match kind {
            Some(b':') => {
                self.pos += 2;
                let start = self.pos;
                if self.peek().is_none() {
                    return Err(EBRACK);
                }
                if matches!(self.peek(), Some(b'-' | b']')) {
                    return Err(ECTYPE);
                }
                while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                    self.pos += 1;
                }
                let name = &self.src[start..self.pos];
                if !CLASSES.iter().any(|c| c.as_bytes() == name) {
                    return Err(ECTYPE);
                }
                if !self.more() {
                    return Err(EBRACK);
                }
                if !self.eat_two(b':', b']') {
                    return Err(ECTYPE);
                }
                items.push_str("[:");
                items.push_str(std::str::from_utf8(name).unwrap_or_default());
                items.push_str(":]");
            }
            Some(b'=') => {
                self.pos += 2;
                let c = self.collating_element(b'=')?;
                push_literal(items, c);
            }
            _ => {
                let start = self.symbol()?;
                let finish = if self.peek() == Some(b'-') && self.peek2().is_some_and(|c| c != b']') {
                    self.pos += 1;
                    if self.eat(b'-') {
                        b'-'
                    } else {
                        self.symbol()?
                    }
                } else {
                    start
                };
                if start > finish {
                    return Err(ERANGE);
                }
                push_literal(items, start);
                if finish != start {
                    items.push('-');
                    push_literal(items, finish);
                }
            }
        }
        Ok(())
    }

    fn symbol(&mut self) -> Result<u8, &'static str> {
        if !self.more() {
            return Err(EBRACK);
        }
        if self.eat_two(b'[', b'.') {
            return self.collating_element(b'.');
        }
        let c = self.src[self.pos];
        self.pos += 1;
        Ok(c)
    }

    /// Parses the single-character body of `[.c.]` or `[=c=]` after its
    /// opening delimiter.
    fn collating_element(&mut self, delim: u8) -> Result<u8, &'static str> {
        let Some(c) = self.peek() else { return Err(EBRACK) };
        if delim == b'=' && matches!(c, b'-' | b']') {
            return Err(ECOLLATE);
        }
        self.pos += 1;
        if !self.eat_two(delim, b']') {
            return Err(if self.more() { ECOLLATE } else { EBRACK });
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(re: &str, hay: &str) -> Option<String> {
        let r = PosixRegex::new(re.as_bytes(), false).unwrap();
        r.find(hay.as_bytes()).map(|g| {
            let (s, e) = g[0].unwrap();
            hay[s..e].to_string()
        })
    }

    #[test]
    fn backslash_makes_literals() {
        assert_eq!(first(r"a\db", "adb"), Some("adb".into()));
        assert_eq!(first(r"a\.b", "axb a.b"), Some("a.b".into()));
    }

    #[test]
    fn brackets_follow_posix() {
        assert_eq!(first(r"[]a]+", "x]a]"), Some("]a]".into()));
        assert_eq!(first(r"[\]+", r"a\\b"), Some(r"\\".into()));
        assert_eq!(first(r"[[:digit:]]+", "ab12"), Some("12".into()));
        assert_eq!(first(r"a[^x]b", "a\nb axb acb"), Some("acb".into()));
    }

    #[test]
    fn literal_brace_and_bounds() {
        assert_eq!(first(r"a{", "a{"), Some("a{".into()));
        assert_eq!(first(r"a{2}", "aaa"), Some("aa".into()));
    }

    #[test]
    fn backreferences_compare_text() {
        assert_eq!(first(r"([a-z]+)-\1", "ab-cd xy-xy"), Some("xy-xy".into()));
    }

    #[test]
    fn matches_are_leftmost_longest() {
        assert_eq!(first("a|ab", "xab"), Some("ab".into()));
        assert_eq!(first("a*(ab)?", "aab"), Some("aab".into()));
        assert_eq!(first("(a|ab)(c|bcd)", "abcd"), Some("abcd".into()));
        let r = PosixRegex::new(b"x(a|ab)", false).unwrap();
        assert_eq!(r.find(b"xab").unwrap(), vec![Some((0, 3)), Some((1, 3))]);
    }

    #[test]
    fn backreferences_backtrack_through_greedy_groups() {
        let re = r"%(.*) = hl\.dropout %\1";
        assert_eq!(first(re, "%5 = hl.dropout %5 : tensor<4xf32>"), Some("%5 = hl.dropout %5".into()));
        assert_eq!(first(re, "%5 = hl.dropout %6 : tensor<4xf32>"), None);
        assert_eq!(first(r"(a*)b\1", "aabaaa"), Some("aabaa".into()));
        assert_eq!(first(r"(a|ab)\1c", "ababc"), Some("ababc".into()));
        assert_eq!(first(r"(x)?y\1", "y"), None);
    }

    #[test]
    fn errors_use_regerror_text() {
        assert_eq!(count_groups(b"(").unwrap_err(), EPAREN);
        assert_eq!(count_groups(b"").unwrap_err(), EMPTY);
        assert_eq!(count_groups(b"a**").unwrap_err(), BADRPT);
        assert_eq!(count_groups(b"[a").unwrap_err(), EBRACK);
        assert_eq!(count_groups(b"[z-a]").unwrap_err(), ERANGE);
        assert_eq!(count_groups(b"[[:foo:]]").unwrap_err(), ECTYPE);
        assert_eq!(count_groups(b"\\1").unwrap_err(), ESUBREG);
        assert_eq!(count_groups(b"a\\").unwrap_err(), EESCAPE);
        assert_eq!(count_groups(b"(a)(b)").unwrap(), 2);
    }
}
