//! Boolean expressions over features, as in `REQUIRES:`, `UNSUPPORTED:`,
//! `XFAIL:` and `%if`.
//!
//! The grammar is lit's:
//!
//! ```text
//! expr     := and ('||' and)*
//! and      := not ('&&' not)*
//! not      := '!' not | '(' expr ')' | match
//! match    := (ident | '{{' regex '}}')+
//! ```
//!
//! `true` is always true. A match with `{{regex}}` parts is true when some
//! feature matches the whole pattern; a plain identifier is true when it is a
//! feature.

use regex::Regex;
use std::collections::BTreeSet;

/// A parsed feature expression.
#[derive(Debug, Clone)]
pub enum BoolExpr {
    /// Always true: the literal `true`, or `*` in `XFAIL:`.
    True,
    /// A feature name.
    Feature(String),
    /// A feature pattern with `{{regex}}` parts, anchored at both ends.
    Pattern(Regex),
    /// `!e`.
    Not(Box<BoolExpr>),
    /// `a && b`.
    And(Box<BoolExpr>, Box<BoolExpr>),
    /// `a || b`.
    Or(Box<BoolExpr>, Box<BoolExpr>),
}

impl BoolExpr {
    /// Parses `text`; the error names the problem and the expression.
    pub fn parse(text: &str) -> Result<BoolExpr, String> {
        let tokens = tokenize(text)?;
        let mut parser = Parser { tokens, pos: 0 };
        let expr = parser.or()?;
        match parser.tokens.get(parser.pos) {
            None => Ok(expr),
            Some(tok) => Err(format!("expected end of expression, found `{}` in `{text}`", tok.spelling())),
        }
    }

    /// Evaluates the expression with `features` as the true variables.
    pub fn eval(&self, features: &BTreeSet<String>) -> bool {
        match self {
            BoolExpr::True => true,
            BoolExpr::Feature(name) => name == "true" || features.contains(name),
            BoolExpr::Pattern(re) => features.iter().any(|f| re.is_match(f)),
            BoolExpr::Not(e) => !e.eval(features),
            BoolExpr::And(a, b) => a.eval(features) && b.eval(features),
            BoolExpr::Or(a, b) => a.eval(features) || b.eval(features),
        }
    }
}

#[derive(Debug, PartialEq)]
enum Token {
    And,
    Or,
    Not,
    Open,
    Close,
    /// Literal identifier text and `{{regex}}` parts, in order.
    Match(Vec<MatchPart>),
}

#[derive(Debug, PartialEq)]
enum MatchPart {
    Text(String),
    Regex(String),
}

impl Token {
    fn spelling(&self) -> String {
        match self {
            Token::And => "&&".into(),
            Token::Or => "||".into(),
            Token::Not => "!".into(),
            Token::Open => "(".into(),
            Token::Close => ")".into(),
            Token::Match(parts) => parts
                .iter()
                .map(|p| match p {
                    MatchPart::Text(t) => t.clone(),
                    MatchPart::Regex(r) => format!("{{{{{r}}}}}"),
                })
                .collect(),
        }
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-+=._".contains(c)
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (token, tail) = if let Some(tail) = rest.strip_prefix("&&") {
            (Token::And, tail)
        } else if let Some(tail) = rest.strip_prefix("||") {
            (Token::Or, tail)
        } else if let Some(tail) = rest.strip_prefix('!') {
            (Token::Not, tail)
        } else if let Some(tail) = rest.strip_prefix('(') {
            (Token::Open, tail)
        } else if let Some(tail) = rest.strip_prefix(')') {
            (Token::Close, tail)
        } else {
            lex_match(rest, text)?
        };
        tokens.push(token);
        rest = tail.trim_start();
    }
    Ok(tokens)
}

/// Lexes a run of identifier characters and `{{regex}}` parts.
fn lex_match<'a>(mut rest: &'a str, whole: &str) -> Result<(Token, &'a str), String> {
    let mut parts = Vec::new();
    loop {
        if let Some(after) = rest.strip_prefix("{{") {
            let end = after.find("}}").ok_or_else(|| format!("unterminated `{{{{` in `{whole}`"))?;
            parts.push(MatchPart::Regex(after[..end].to_string()));
            rest = &after[end + 2..];
            continue;
        }
        let len = rest.find(|c| !is_ident_char(c)).unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        parts.push(MatchPart::Text(rest[..len].to_string()));
        rest = &rest[len..];
    }
    if parts.is_empty() {
        let bad = rest.chars().next().unwrap_or(' ');
        return Err(format!("unexpected character `{bad}` in `{whole}`"));
    }
    Ok((Token::Match(parts), rest))
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

impl Parser {
    fn eat(&mut self, token: &Token) -> bool {
        if self.tokens.get(self.pos) == Some(token) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Result<BoolExpr, String> {
        let mut lhs = self.and()?;
        while self.eat(&Token::Or) {
            lhs = BoolExpr::Or(Box::new(lhs), Box::new(self.and()?));
        }
        Ok(lhs)
    }

    fn and(&mut self) -> Result<BoolExpr, String> {
        let mut lhs = self.not()?;
        while self.eat(&Token::And) {
            lhs = BoolExpr::And(Box::new(lhs), Box::new(self.not()?));
        }
        Ok(lhs)
    }

    fn not(&mut self) -> Result<BoolExpr, String> {
        if self.eat(&Token::Not) {
            return Ok(BoolExpr::Not(Box::new(self.not()?)));
        }
        if self.eat(&Token::Open) {
            let inner = self.or()?;
            if !self.eat(&Token::Close) {
                return Err("expected `)`".to_string());
            }
            return Ok(inner);
        }
        match self.tokens.get_mut(self.pos) {
            Some(Token::Match(parts)) => {
                let parts = std::mem::take(parts);
                self.pos += 1;
                match_expr(parts)
            }
            Some(tok) => Err(format!("expected a feature, found `{}`", tok.spelling())),
            None => Err("expected a feature, found end of expression".to_string()),
        }
    }
}

fn match_expr(parts: Vec<MatchPart>) -> Result<BoolExpr, String> {
    if let [MatchPart::Text(name)] = parts.as_slice() {
        return Ok(BoolExpr::Feature(name.clone()));
    }
    let mut pattern = String::from("^(?:");
    for part in &parts {
        match part {
            MatchPart::Text(t) => pattern.push_str(&regex::escape(t)),
            MatchPart::Regex(r) => pattern.push_str(&format!("(?:{r})")),
        }
    }
    pattern.push_str(")$");
    Regex::new(&pattern).map(BoolExpr::Pattern).map_err(|e| format!("bad regex in feature pattern: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str, features: &[&str]) -> bool {
        let set = features.iter().map(|f| f.to_string()).collect();
        BoolExpr::parse(text).unwrap().eval(&set)
    }

    #[test]
    fn precedence_and_binds_tighter_than_or() {
        assert!(eval("a && !b || c", &["c"]));
        assert!(eval("a && !b || c", &["a"]));
        assert!(!eval("a && !b || c", &["a", "b"]));
        assert!(!eval("a && (!b || c)", &["b"]));
    }

    #[test]
    fn literals_and_patterns() {
        assert!(eval("true", &[]));
        assert!(eval("mlir-opt", &["mlir-opt"]));
        assert!(eval("x86_64-{{.*}}", &["x86_64-linux"]));
        assert!(!eval("x86{{.*}}", &["arm"]));
        assert!(eval("!!a", &["a"]));
    }

    #[test]
    fn errors_are_reported() {
        for bad in ["", "a &&", "(a", "a b", "a & b", "{{x", "a )"] {
            assert!(BoolExpr::parse(bad).is_err(), "{bad}");
        }
    }
}
