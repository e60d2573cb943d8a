//! MLIR's wording and placement of syntax errors in types, attributes and locations.
//!
//! pest reports failures as "expected `<rules>`" at the furthest position it tried. MLIR's
//! recursive-descent parser instead names the grammar point that failed ("expected '>' in
//! tensor type", "expected location instance") and places "expected ..." errors at the end of
//! the last significant text before the unexpected token. When pest fails, the extent is parsed
//! again with pest's detailed attempt tracking; the furthest position, the literal tokens tried
//! there and the rules (with their parents) tried there select MLIR's message from a table.

use pest::error::Error;

use super::grammar::{Grammar, Rule};
use super::SyntaxError;

/// What pest tried at the furthest position it reached.
struct Attempts {
    /// Offset in the extent.
    pos: usize,
    /// Literal tokens tried (`">"`, `","`).
    tokens: Vec<String>,
    /// Rules tried, each with the rule that called it.
    rules: Vec<(Option<Rule>, Option<Rule>)>,
}

impl Attempts {
    fn token(&self, t: &str) -> bool {
        self.tokens.iter().any(|x| x == t)
    }

    /// Whether a failure happened directly inside `r`.
    fn deepest(&self, r: Rule) -> bool {
        self.rules.iter().any(|&(d, _)| d == Some(r))
    }

    /// Whether the literal tokens tried, apart from whitespace and comments, are among `ts`.
    fn tokens_only(&self, ts: &[&str]) -> bool {
        self.tokens
            .iter()
            .all(|t| ts.contains(&t.as_str()) || matches!(t.as_str(), " " | "\t" | "\n" | "\r" | "//"))
    }
}

/// Parses `text` again with pest's attempt tracking (a process-wide switch, so detailed
/// re-parses take a lock: another thread's re-parse must not switch it off midway). Set
/// `KILN_PEST_DEBUG` to see what pest tried.
fn attempts(entry: Rule, text: &str) -> Option<Attempts> {
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let result = {
        let _guard = DETAIL.lock().unwrap_or_else(|e| e.into_inner());
        pest::set_error_detail(true);
        let result = <Grammar as pest::Parser<Rule>>::parse(entry, text);
        pest::set_error_detail(false);
        result
    };
    let e: Error<Rule> = result.err()?;
    let a = e.parse_attempts()?;
    let tokens = a.expected_tokens().iter().map(|t| t.to_string()).collect();
    let rules = a.call_stacks().iter().map(|c| (c.deepest.get_rule().copied(), c.parent)).collect();
    if std::env::var_os("KILN_PEST_DEBUG").is_some() {
        eprintln!("pest attempts at {}: tokens {:?} rules {:?}", a.max_position, tokens, a.call_stacks());
    }
    Some(Attempts { pos: a.max_position, tokens, rules })
}

/// Where MLIR reports "expected ..." for an unexpected token starting at `tok_start`
/// (`emitWrongTokenError`): at the end of the last significant text before it, skipping blank
/// lines and trailing `//` comments; at end of input, one character back first.
pub(crate) fn wrong_token_offset(src: &str, tok_start: usize, at_eof: bool) -> usize {
    let b = src.as_bytes();
    let original = if at_eof { tok_start.saturating_sub(1) } else { tok_start };
    let mut end = original;
    loop {
        while end > 0 && matches!(b[end - 1], b' ' | b'\t') {
            end -= 1;
        }
        if end == 0 {
            return original;
        }
        if !matches!(b[end - 1], b'\n' | b'\r') {
            return end;
        }
        end -= 1;
        let line_start = b[..end].iter().rposition(|&c| c == b'\n' || c == b'\r').map_or(0, |i| i + 1);
        if let Some(c) = b[line_start..end].windows(2).position(|w| w == b"//") {
            end = line_start + c;
        }
    }
}

/// Where a message belongs.
enum Place {
    /// Where MLIR reports an unexpected token (see [`wrong_token_offset`]).
    WrongToken,
    /// At this offset of the extent (lexer errors).
    At(usize),
}

/// The error for a failed pest parse of `src[pos..end]` from `entry`: MLIR's message at MLIR's
/// position where the grammar point is known, pest's own message otherwise.
pub(super) fn syntax_error(entry: Rule, src: &str, pos: usize, end: usize, e: Error<Rule>) -> SyntaxError {
    // MLIR's lexer reports a bad escape when it reaches the string: when the string comes
    // before the syntax error, or is the token it fails at. (Strings are not decoded before the
    // grammar runs.)
    let failed_at = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let next_token = super::scan::skip_ws(&src[pos..end], failed_at);
    if let Some((_, at)) = super::scan::first_bad_escape(&src[pos..end]).filter(|&(s, _)| s <= next_token) {
        return SyntaxError { offset: pos + at, message: "unknown escape in string literal".into() };
    }
    let mut text = super::scan::grammar_input(&src[pos..end]).into_owned();
    // pest tries further than MLIR's lexer reads (`0x}`, `1.5e}`, `unknownfoo`): blank out the
    // character where MLIR's token ends or starts, so that pest fails where MLIR does.
    for _ in 0..3 {
        let Some(a) = attempts(entry, &text) else { break };
        if let Some(poison) = token_boundary(&text, &a) {
            text.replace_range(poison..poison + 1, "\u{1}");
            continue;
        }
        let Some((message, place)) = message(entry, &text, &a) else { break };
        let offset = match place {
            Place::At(o) => pos + o,
            Place::WrongToken => {
                let tok = super::scan::skip_ws(src, pos + a.pos);
                wrong_token_offset(src, tok, tok >= src.len())
            }
        };
        return SyntaxError { offset, message };
    }
    generic(e, pos)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

/// Where MLIR's lexer ends a token that pest read too far into, if pest failed inside one.
fn token_boundary(text: &str, a: &Attempts) -> Option<usize> {
    let b = text.as_bytes();
    let p = a.pos;
    if (a.deepest(Rule::hex_int) || a.deepest(Rule::uint)) && p >= 1 && b[p - 1] == b'x' {
        return Some(p - 1);
    }
    // `@a :` not followed by a second `:`: MLIR takes the symbol reference without the `:`,
    // which is the next token.
    if a.deepest(Rule::symbol_ref) && a.tokens_only(&[":"]) {
        let blanks = b[..p].iter().rev().take_while(|&&c| c.is_ascii_whitespace()).count();
        let colon = p.checked_sub(blanks + 1)?;
        let before = b[..colon].iter().rev().find(|&&c| !c.is_ascii_whitespace());
        return (b.get(colon) == Some(&b':') && before != Some(&b':')).then_some(colon);
    }
    if a.deepest(Rule::float_lit) {
        let e = b[..p].iter().rposition(|&c| c == b'e' || c == b'E')?;
        return (e + 2 >= p).then_some(e);
    }
    if p > 0 && p < b.len() && is_ident(b[p - 1]) && is_ident(b[p]) {
        // (An integer is a token of its own: `0X10` is `0`, then `X10`; `1.5` is one token.)
        let start = b[..p].iter().rposition(|&c| !is_ident(c)).map_or(0, |i| i + 1);
        let integer = b[start..p].iter().all(u8::is_ascii_digit) && b[p] != b'.';
        return (start < p && b[start] != 1 && !integer).then_some(start);
    }
    None
}

/// An open bracket enclosing the failure: the bracket and the word or text just before it.
struct Open<'t> {
    bracket: u8,
    word: &'t str,
    at: usize,
    /// Whether the word ends right at the bracket (no whitespace between).
    adjacent: bool,
}

/// The brackets open at `p`, outermost first (strings skipped, `->`, `<=` and `>=` are not
/// brackets).
fn open_brackets(text: &str, p: usize) -> Vec<Open<'_>> {
    let b = text.as_bytes();
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut closed: Option<Open<'_>> = None;
    let mut i = 0;
    while i < p.min(b.len()) {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
            b'<' | b'>' if b.get(i + 1) == Some(&b'=') => i += 1,
            c @ (b'<' | b'(' | b'[' | b'{') => {
                // (Whitespace may separate a keyword from its bracket: `affine_map <`.)
                let word_end =
                    i - b[..i].iter().rev().take_while(|&&c| crate::syntax::lexer::is_trivia(c)).count();
                let start = if word_end > 0 && b[word_end - 1] == b'"' {
                    word_end - 1
                } else {
                    b[..word_end].iter().rposition(|&c| !is_ident(c)).map_or(0, |j| j + 1)
                };
                let mut word = &text[start..word_end];
                let after = |close: u8, w: &str| {
                    i > 0 && b[i - 1] == close && closed.as_ref().is_some_and(|o| o.word == w)
                };
                if c == b'[' {
                    // Only `fused[`, `fused<...>[` and `distinct[` name a construct; `4x[4]`
                    // does not.
                    let named = matches!(word, "fused" | "distinct");
                    word = if named {
                        word
                    } else if after(b'>', "fused") {
                        "fused"
                    } else {
                        ""
                    };
                } else if c == b'<' && after(b']', "distinct") {
                    word = "distinct";
                }
                stack.push(Open { bracket: c, word, at: i, adjacent: word_end == i });
            }
            b'>' | b')' | b']' | b'}' => {
                closed = stack.pop();
            }
            _ => {}
        }
        i += 1;
    }
    stack
}

/// MLIR's message for what pest expected, keyed by the innermost open construct.
fn message(entry: Rule, text: &str, a: &Attempts) -> Option<(String, Place)> {
    let b = text.as_bytes();
    let p = a.pos;
    let wrong = |m: &str| Some((m.to_owned(), Place::WrongToken));
    // Lexer errors. (Strings are checked when the extent is scanned and when their values are
    // built: pest failing in one is trying a closing quote as an opening one.)
    if p >= 1 && b[p - 1] == b'#' && a.deepest(Rule::alias_name) {
        return Some(("invalid attribute name".into(), Place::At(p - 1)));
    }
    if p >= 1 && b[p - 1] == b'!' && a.deepest(Rule::alias_name) {
        return Some(("invalid type identifier".into(), Place::At(p - 1)));
    }
    if p >= 1 && b[p - 1] == b'@' && a.deepest(Rule::bare_id) {
        return Some(("@ identifier expected to start with letter or '_'".into(), Place::At(p)));
    }
    if a.deepest(Rule::symbol_name) && text[..p].trim_end().ends_with(':') {
        return wrong("expected nested symbol reference identifier");
    }
    match b.get(p) {
        // A `.` that starts a token (not in a number or identifier) must start `...`.
        Some(b'.') if (p == 0 || !is_ident(b[p - 1])) && !text[p..].starts_with("...") => {
            return Some(("expected three consecutive dots for an ellipsis".into(), Place::At(p + 1)))
        }
        Some(b'%') => return Some(("invalid SSA name".into(), Place::At(p))),
        Some(b'^') => return Some(("invalid block name".into(), Place::At(p))),
        // (Byte 1 is the blank put in by `syntax_error`.)
        Some(&c)
            if c != 1
                && (!c.is_ascii_graphic() && !crate::syntax::lexer::is_trivia(c)
                    || b"`'~&;\\".contains(&c)) =>
        {
            return Some(("unexpected character".into(), Place::At(p)))
        }
        _ => {}
    }
    let opens = open_brackets(text, p);
    // Inside the body of a dialect type or attribute only unbalanced brackets fail.
    let dialect_body = opens.iter().find(|o| {
        let start = o.at - o.word.len();
        o.bracket == b'<'
            && o.adjacent
            && !o.word.is_empty()
            && start > 0
            && matches!(b[start - 1], b'#' | b'!')
    });
    if let Some(o) = dialect_body {
        return Some(("unbalanced '<' character in pretty dialect name".into(), Place::At(o.at + 1)));
    }
    let inner = opens.last();
    let within = |w: &str| opens.iter().any(|o| o.word == w);
    // A missing attribute, location or type.
    if a.token("unit") {
        return wrong("expected attribute value");
    }
    if a.token("callsite") {
        return wrong("expected location instance");
    }
    if a.token("tensor") {
        return wrong("expected non-function type");
    }
    if a.tokens_only(&[":"]) {
        let after_offset = text[..p].trim_end().ends_with("offset");
        return wrong(if after_offset { "expected ':' after 'offset'" } else { "expected ':'" });
    }
    if a.token("[") && text[..p].trim_end().ends_with("distinct") {
        return wrong("expected '[' after 'distinct'");
    }
    if a.tokens_only(&["<"]) && text[..p].trim_end().ends_with(']') {
        return wrong("expected '<' after distinct ID");
    }
    // `(types)` not followed by `->` (in an attribute, a dictionary, a list...).
    if a.token("->") && a.deepest(Rule::function_type) {
        return wrong("expected '->' in function type");
    }
    let Some(inner) = inner else {
        if a.token("->") && entry == Rule::type_entry {
            return wrong("expected '->' in function type");
        }
        return None;
    };
    // `[` directly inside `strided<`, `dense<`, `vector<`: the construct is the outer one.
    let word = match (inner.bracket, inner.word, opens.len()) {
        (b'[', "", n) if n >= 2 && opens[n - 2].bracket == b'<' => opens[n - 2].word,
        _ => inner.word,
    };
    let after_operator = matches!(text[..p].trim_end().as_bytes().last(), Some(b'+' | b'-' | b'*'))
        || ["floordiv", "ceildiv", "mod"].iter().any(|k| text[..p].trim_end().ends_with(k));
    let m = match (inner.bracket, word) {
        (b'<', "tensor") if a.token(">") => "expected '>' in tensor type",
        (b'<', "memref") if a.token(">") => {
            // After the element type the message names the type; after a layout it does not.
            let body = &text[inner.at + 1..p];
            if open_brackets(body, body.len()).is_empty() && body.contains(',') {
                "expected ',' or '>'"
            } else {
                "expected ',' or '>' in memref type"
            }
        }
        (b'<', "vector") if a.token(">") => "expected '>' in vector type",
        (b'<', "complex") if a.token(">") => "expected '>' in complex type",
        (b'<', "tuple") if a.token(">") => "expected '>' in tuple type",
        (b'[', "distinct") if a.token("0..9") => "expected distinct ID",
        (b'[', "distinct") => "expected ']' to close distinct ID",
        (b'<', "distinct") if a.token(">") => "expected '>' to close distinct attribute",
        (b'[', "vector") => "missing ']' closing scalable dimension",
        (b'<', "affine_map" | "affine_set") if a.token("->") => "expected '->' or ':'",
        (b'(' | b'[', _) if (within("affine_map") || within("affine_set")) && after_operator => {
            return Some(("missing right operand of binary operator".into(), Place::At(p)));
        }
        (b'<', "array") if a.token(":") => "expected ':' after dense array type",
        (b'<', "array") if a.token(">") && a.token(",") => "expected '>' to close an array attribute",
        (b'<', "array") if a.token("0x") => {
            let elem = text[inner.at + 1..].trim_start();
            let float = elem.starts_with('f') || elem.starts_with("bf") || elem.starts_with("tf");
            let m = if float { "expected floating point literal" } else { "expected integer literal" };
            return Some((m.into(), Place::At(p)));
        }
        (b'<', "dense" | "sparse") if a.token("[") => "expected element literal of primitive type",
        (b'<', "dense_resource") => "expected identifier key for 'resource' entry",
        (b'[', _) if within("dense") || within("sparse") => {
            if a.token("[") {
                "expected element literal of primitive type"
            } else {
                "expected ']'"
            }
        }
        (b'[', "strided") if a.token("?") => {
            return Some(("expected a 64-bit signed integer or '?'".into(), Place::At(p)));
        }
        (b'[', "fused") if a.token("]") => "expected ']' in fused location",
        (b'[', _) if a.token("]") && a.token(",") => "expected ',' or ']'",
        (b'{', _) if a.token("}") => "expected '}' in attribute dictionary",
        (b'{', _) if a.token("\"") && !a.token("=") => "expected attribute name",
        // (`loc(...)` as an attribute is an "inline location" in MLIR's words.)
        (b'(', "loc") if a.token(")") && entry == Rule::attr_entry => "expected ')' in inline location",
        (b'(', "loc") if a.token(")") => "expected ')' in location",
        (b'(', "callsite") if a.token("at") => "expected 'at' in callsite location",
        (b'(', "callsite") if a.token(")") => "expected ')' in callsite location",
        (b'(', w) if w.starts_with('"') && a.token(")") => "expected ')' after child location of NameLoc",
        (b'(', "loc" | "callsite") if a.token("0..9") => {
            let before = text[..p].trim_end();
            let string_end = before.rfind('"').unwrap_or(0);
            if before[string_end..].contains(" to") {
                "expected either integer or `:` post `to` in FileLineColRange"
            } else if before[string_end..].matches(':').count() == 1 {
                "expected integer line number in FileLineColRange"
            } else {
                "expected integer column number in FileLineColRange"
            }
        }
        (b'(', "") if !within("loc") && !within("affine_map") && !within("affine_set") => {
            if a.token(")") {
                "expected ')'"
            } else if a.token("->") {
                "expected '->' in function type"
            } else {
                return None;
            }
        }
        _ => return None,
    };
    wrong(m)
}

/// pest's own message, for grammar points the table does not cover.
fn generic(e: Error<Rule>, base: usize) -> SyntaxError {
    let offset = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let e = e.renamed_rules(|r| format!("{r:?}").replace('_', " "));
    SyntaxError { offset: base + offset, message: e.variant.message().into_owned() }
}

/// Places an error of the conversion of the parsed extent `src[..end]` as MLIR does: errors
/// MLIR reports at the token after a literal are there even when it lies past the extent, and
/// a keyword that is not a type is an unexpected token.
pub(super) fn place_semantic(src: &str, end: usize, mut e: SyntaxError) -> SyntaxError {
    const AT_NEXT_TOKEN: [&str; 2] = [
        "floating point value not valid for specified type",
        "tensor literal is invalid; ranks are not consistent between elements",
    ];
    if e.offset == end && AT_NEXT_TOKEN.contains(&e.message.as_str()) {
        e.offset = super::scan::skip_ws(src, end);
    }
    const AT_WRONG_TOKEN: [&str; 3] = [
        "expected non-function type",
        "expected '(' in inline location",
        "expected integer line number in FileLineColRange",
    ];
    if AT_WRONG_TOKEN.contains(&e.message.as_str()) {
        e.offset = wrong_token_offset(src, e.offset, e.offset >= src.len());
    }
    e
}
