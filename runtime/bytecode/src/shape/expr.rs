//! Size expressions: the tiny language in which a shape class gives temporary sizes, output
//! dims and launch parameters as functions of its symbols.
//!
//! An [`Expr`] is a postfix program of at most [`MAX_EXPR_TERMS`] [`Term`]s over 64-bit
//! signed integers: constants and symbols push a value, operators pop two and push one. The
//! form has no recursion to bound (decoding and evaluating use a stack of at most
//! [`MAX_EXPR_TERMS`] values) and every operation is checked: an overflow, a division by a
//! divisor that is not positive, is an error, never a wrapped value.

use std::fmt;

/// The most terms of one expression.
pub const MAX_EXPR_TERMS: usize = 32;

/// One term of a postfix [`Expr`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// Pushes a constant.
    Const(i64),
    /// Pushes the value of symbol `k` (the launch's `k`-th symbolic dim).
    Sym(u32),
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `floor(a / b)`, `b > 0`.
    Div,
    /// `ceil(a / b)`, `b > 0` (a tile count).
    CeilDiv,
    /// `a mod b` in `0..b`, `b > 0` (a tail).
    Rem,
    /// `min(a, b)`.
    Min,
    /// `max(a, b)`.
    Max,
}

impl Term {
    /// The operators, in encoding order (codes 2 and up; 0 is a constant, 1 a symbol).
    pub const OPERATORS: [Term; 8] =
        [Term::Add, Term::Sub, Term::Mul, Term::Div, Term::CeilDiv, Term::Rem, Term::Min, Term::Max];

    /// Applies an operator to `a` and `b`; `None` for a constant or symbol.
    fn apply(self, a: i64, b: i64) -> Option<Result<i64, String>> {
        let positive = |what: &str| -> Result<(), String> {
            if b <= 0 {
                return Err(format!("{what} by {b}, which is not positive"));
            }
            Ok(())
        };
        let overflow = |op: &str| format!("{a} {op} {b} overflows");
        Some(match self {
            Term::Const(_) | Term::Sym(_) => return None,
            Term::Add => a.checked_add(b).ok_or_else(|| overflow("+")),
            Term::Sub => a.checked_sub(b).ok_or_else(|| overflow("-")),
            Term::Mul => a.checked_mul(b).ok_or_else(|| overflow("*")),
            Term::Div => positive("division").map(|()| a.div_euclid(b)),
            Term::CeilDiv => positive("ceil_div").map(|()| a.div_euclid(b) + i64::from(a.rem_euclid(b) != 0)),
            Term::Rem => positive("remainder").map(|()| a.rem_euclid(b)),
            Term::Min => Ok(a.min(b)),
            Term::Max => Ok(a.max(b)),
        })
    }

    /// How the operator is written: infix (`+`) or as a function (`ceil_div`).
    fn spelling(self) -> (&'static str, bool) {
        match self {
            Term::Add => ("+", true),
            Term::Sub => ("-", true),
            Term::Mul => ("*", true),
            Term::Div => ("floor_div", false),
            Term::CeilDiv => ("ceil_div", false),
            Term::Rem => ("mod", false),
            Term::Min => ("min", false),
            Term::Max => ("max", false),
            Term::Const(_) | Term::Sym(_) => ("", false),
        }
    }
}

/// A size expression: a postfix program of [`Term`]s (see the module documentation). Build
/// one with [`Expr::constant`], [`Expr::sym`], the operators `+ - * / %` (`/` floors, `%` is
/// in `0..rhs`) and [`Expr::ceil_div`], [`Expr::min`], [`Expr::max`]:
/// `Expr::sym(0).ceil_div(Expr::constant(8))` is `ceil_div(s0, 8)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr(pub Vec<Term>);

impl Expr {
    /// A constant.
    pub fn constant(v: i64) -> Expr {
        Expr(vec![Term::Const(v)])
    }

    /// Symbol `k`.
    pub fn sym(k: u32) -> Expr {
        Expr(vec![Term::Sym(k)])
    }

    fn binary(mut self, rhs: Expr, op: Term) -> Expr {
        self.0.extend(rhs.0);
        self.0.push(op);
        self
    }

    /// `ceil(self / rhs)`.
    pub fn ceil_div(self, rhs: Expr) -> Expr {
        self.binary(rhs, Term::CeilDiv)
    }

    /// `min(self, rhs)`.
    pub fn min(self, rhs: Expr) -> Expr {
        self.binary(rhs, Term::Min)
    }

    /// `max(self, rhs)`.
    pub fn max(self, rhs: Expr) -> Expr {
        self.binary(rhs, Term::Max)
    }

    /// Checks the form: 1 to [`MAX_EXPR_TERMS`] terms, symbols below `symbols`, and a stack
    /// that never underflows and ends with one value.
    pub fn check(&self, symbols: usize) -> Result<(), String> {
        if self.0.is_empty() || self.0.len() > MAX_EXPR_TERMS {
            return Err(format!("an expression has {} terms, expected 1 to {MAX_EXPR_TERMS}", self.0.len()));
        }
        let mut depth = 0usize;
        for (i, t) in self.0.iter().enumerate() {
            match *t {
                Term::Sym(k) if k as usize >= symbols => {
                    return Err(format!("term {i} names symbol {k}, the class has {symbols}"));
                }
                Term::Const(_) | Term::Sym(_) => depth += 1,
                _ if depth < 2 => {
                    return Err(format!("term {i} ({}) has {depth} operands, expected 2", t.spelling().0))
                }
                _ => depth -= 1,
            }
        }
        if depth != 1 {
            return Err(format!("an expression leaves {depth} values, expected 1"));
        }
        Ok(())
    }

    /// The value for the symbols' values `syms`; an error names the operation that fails (a
    /// malformed expression is an error too, never a panic).
    pub fn eval(&self, syms: &[i64]) -> Result<i64, String> {
        let mut stack: Vec<i64> = Vec::with_capacity(self.0.len().min(MAX_EXPR_TERMS));
        for t in &self.0 {
            let v = match *t {
                Term::Const(v) => v,
                Term::Sym(k) => *syms.get(k as usize).ok_or_else(|| format!("symbol {k} is not bound"))?,
                op => {
                    let (b, a) = (stack.pop(), stack.pop());
                    let (Some(a), Some(b)) = (a, b) else { return Err("malformed expression".into()) };
                    op.apply(a, b).unwrap_or_else(|| Err("malformed expression".into()))?
                }
            };
            stack.push(v);
        }
        match stack[..] {
            [v] => Ok(v),
            _ => Err("malformed expression".into()),
        }
    }

    /// The expression in infix form, symbols by `names` (`sK` past its end).
    pub fn render(&self, names: &[String]) -> String {
        let mut stack: Vec<(String, bool)> = Vec::new();
        for t in &self.0 {
            let item = match *t {
                Term::Const(v) => (v.to_string(), false),
                Term::Sym(k) => (names.get(k as usize).cloned().unwrap_or_else(|| format!("s{k}")), false),
                op => {
                    let b = stack.pop().unwrap_or_else(|| ("?".into(), false));
                    let a = stack.pop().unwrap_or_else(|| ("?".into(), false));
                    let (name, infix) = op.spelling();
                    if infix {
                        let paren =
                            |(s, compound): (String, bool)| if compound { format!("({s})") } else { s };
                        (format!("{} {name} {}", paren(a), paren(b)), true)
                    } else {
                        (format!("{name}({}, {})", a.0, b.0), false)
                    }
                }
            };
            stack.push(item);
        }
        let parts: Vec<String> = stack.into_iter().map(|(s, _)| s).collect();
        parts.join(", ")
    }
}

/// Why text is not an [`Expr`]: the message and the 1-based column (in characters) where
/// the text stops making sense.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprParseError {
    /// The 1-based column.
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ExprParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for ExprParseError {}

/// A token of the infix form and the column it starts at.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Int(i64),
    Ident(String),
    Punct(char),
    End,
}

/// The recursive-descent reader of [`Expr::parse`]: `sum := product (('+' | '-') product)*`,
/// `product := atom ('*' atom)*`, `atom := int | '-' int | name | func '(' sum ',' sum ')' |
/// '(' sum ')'`. Nesting is bounded by [`MAX_EXPR_TERMS`] (every level adds a term).
struct Parser<'t> {
    chars: Vec<char>,
    pos: usize,
    names: &'t [String],
    out: Vec<Term>,
    depth: usize,
}

impl Parser<'_> {
    fn err<T>(&self, column: usize, message: impl Into<String>) -> Result<T, ExprParseError> {
        Err(ExprParseError { column: column + 1, message: message.into() })
    }

    fn skip_space(&mut self) {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    /// The next token and its 0-based column, without consuming it.
    fn peek(&mut self) -> Result<(Token, usize, usize), ExprParseError> {
        self.skip_space();
        let start = self.pos;
        let Some(&c) = self.chars.get(start) else { return Ok((Token::End, start, start)) };
        let run = |ok: fn(char) -> bool| start + self.chars[start..].iter().take_while(|&&c| ok(c)).count();
        if c.is_ascii_digit() {
            let end = run(|c| c.is_ascii_alphanumeric() || c == '_');
            let text: String = self.chars[start..end].iter().collect();
            return match text.parse::<i64>() {
                Ok(v) => Ok((Token::Int(v), start, end)),
                Err(_) if text.bytes().all(|b| b.is_ascii_digit()) => {
                    self.err(start, format!("the constant {text} does not fit in 64 bits"))
                }
                Err(_) => self.err(start, format!("'{text}' is not a number")),
            };
        }
        if c.is_alphabetic() || c == '_' {
            let end = run(|c| c.is_alphanumeric() || c == '_');
            return Ok((Token::Ident(self.chars[start..end].iter().collect()), start, end));
        }
        if "+-*(),".contains(c) {
            return Ok((Token::Punct(c), start, start + 1));
        }
        self.err(start, format!("unexpected character '{c}'"))
    }

    fn next(&mut self) -> Result<(Token, usize), ExprParseError> {
        let (t, start, end) = self.peek()?;
        self.pos = end;
        Ok((t, start))
    }

    fn expect(&mut self, want: char, what: &str) -> Result<(), ExprParseError> {
        match self.next()? {
            (Token::Punct(c), _) if c == want => Ok(()),
            (t, at) => self.err(at, format!("expected '{want}' {what}, found {}", describe(&t))),
        }
    }

    fn push(&mut self, t: Term, at: usize) -> Result<(), ExprParseError> {
        if self.out.len() == MAX_EXPR_TERMS {
            return self.err(at, format!("the expression has more than {MAX_EXPR_TERMS} terms"));
        }
        self.out.push(t);
        Ok(())
    }

    fn sum(&mut self) -> Result<(), ExprParseError> {
        self.depth += 1;
        let (_, at, _) = self.peek()?;
        if self.depth > MAX_EXPR_TERMS {
            return self.err(at, format!("the expression nests deeper than {MAX_EXPR_TERMS} levels"));
        }
        self.product()?;
        loop {
            let op = match self.peek()? {
                (Token::Punct('+'), at, _) => (Term::Add, at),
                (Token::Punct('-'), at, _) => (Term::Sub, at),
                _ => break,
            };
            self.next()?;
            self.product()?;
            self.push(op.0, op.1)?;
        }
        self.depth -= 1;
        Ok(())
    }

    fn product(&mut self) -> Result<(), ExprParseError> {
        self.atom()?;
        while let (Token::Punct('*'), at, _) = self.peek()? {
            self.next()?;
            self.atom()?;
            self.push(Term::Mul, at)?;
        }
        Ok(())
    }

    fn atom(&mut self) -> Result<(), ExprParseError> {
        let (t, at) = self.next()?;
        match t {
            Token::Int(v) => self.push(Term::Const(v), at),
            Token::Punct('-') => {
                self.skip_space();
                let start = self.pos;
                let end = start + self.chars[start..].iter().take_while(|c| c.is_ascii_digit()).count();
                if end == start {
                    let (t, at2) = self.next()?;
                    return self.err(at2, format!("expected a number after '-', found {}", describe(&t)));
                }
                let text: String =
                    std::iter::once('-').chain(self.chars[start..end].iter().copied()).collect();
                let Ok(v) = text.parse::<i64>() else {
                    return self.err(at, format!("the constant {text} does not fit in 64 bits"));
                };
                self.pos = end;
                self.push(Term::Const(v), at)
            }
            Token::Punct('(') => {
                self.sum()?;
                self.expect(')', "to close the '('")
            }
            Token::Ident(name) => {
                if let (Token::Punct('('), _, _) = self.peek()? {
                    let Some(op) =
                        Term::OPERATORS.into_iter().find(|t| t.spelling() == (name.as_str(), false))
                    else {
                        return self.err(
                            at,
                            format!("unknown function '{name}' (floor_div, ceil_div, mod, min, max)"),
                        );
                    };
                    self.next()?;
                    self.sum()?;
                    self.expect(',', &format!("between the operands of {name}"))?;
                    self.sum()?;
                    self.expect(')', &format!("after the operands of {name}"))?;
                    return self.push(op, at);
                }
                let k = self.symbol(&name, at)?;
                self.push(Term::Sym(k), at)
            }
            t => self
                .err(at, format!("expected a number, a symbol, a function or '(', found {}", describe(&t))),
        }
    }

    /// The symbol `name` stands for: its index in the names, or `K` of `sK` past their end
    /// (as [`Expr::render`] writes a symbol without a name).
    fn symbol(&self, name: &str, at: usize) -> Result<u32, ExprParseError> {
        if let Some(k) = self.names.iter().position(|n| n == name) {
            return Ok(k as u32);
        }
        let unnamed =
            name.strip_prefix('s').filter(|d| d.bytes().all(|b| b.is_ascii_digit()) && !d.is_empty());
        if let Some(k) =
            unnamed.and_then(|d| d.parse::<u32>().ok()).filter(|&k| k as usize >= self.names.len())
        {
            return Ok(k);
        }
        let known = if self.names.is_empty() { "s0, s1, ...".to_string() } else { self.names.join(", ") };
        self.err(at, format!("unknown symbol '{name}' (the symbols are {known})"))
    }
}

fn describe(t: &Token) -> String {
    match t {
        Token::Int(v) => format!("the number {v}"),
        Token::Ident(s) => format!("'{s}'"),
        Token::Punct(c) => format!("'{c}'"),
        Token::End => "the end of the text".into(),
    }
}

impl Expr {
    /// Reads the infix form that [`Expr::render`] writes, symbols by `names` (`sK` for a
    /// symbol `K` past their end): integers (`-` before one makes it negative), symbols,
    /// `a + b`, `a - b`, `a * b` (`*` binds tighter, all three to the left), parentheses,
    /// and the functions `floor_div`, `ceil_div`, `mod`, `min`, `max` of two arguments.
    /// `render` parenthesizes every compound operand of an infix operator, so its text reads
    /// back as the same terms. An error gives the column where the text goes wrong.
    pub fn parse(text: &str, names: &[String]) -> Result<Expr, ExprParseError> {
        let mut p = Parser { chars: text.chars().collect(), pos: 0, names, out: Vec::new(), depth: 0 };
        p.sum()?;
        match p.next()? {
            (Token::End, _) => Ok(Expr(p.out)),
            (t, at) => p.err(at, format!("expected an operator or the end, found {}", describe(&t))),
        }
    }
}

impl std::str::FromStr for Expr {
    type Err = ExprParseError;

    /// [`Expr::parse`] with unnamed symbols (`s0`, `s1`, ... as [`Expr`]'s `Display` writes).
    fn from_str(text: &str) -> Result<Expr, ExprParseError> {
        Expr::parse(text, &[])
    }
}

macro_rules! operators {
    ($($trait:ident $method:ident $term:ident),*) => {$(
        impl std::ops::$trait for Expr {
            type Output = Expr;
            fn $method(self, rhs: Expr) -> Expr {
                self.binary(rhs, Term::$term)
            }
        }
    )*};
}

operators!(Add add Add, Sub sub Sub, Mul mul Mul, Div div Div, Rem rem Rem);

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&[]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_arithmetic() {
        let tiles = Expr::sym(0).ceil_div(Expr::constant(8));
        assert_eq!(tiles.eval(&[1]), Ok(1));
        assert_eq!(tiles.eval(&[8]), Ok(1));
        assert_eq!(tiles.eval(&[9]), Ok(2));
        assert_eq!(tiles.to_string(), "ceil_div(s0, 8)");
        let tail = (Expr::sym(0) - Expr::constant(1)) % Expr::constant(8) + Expr::constant(1);
        assert_eq!(tail.eval(&[9]), Ok(1));
        assert_eq!(tail.eval(&[16]), Ok(8));
        assert_eq!(tail.render(&["n".into()]), "mod(n - 1, 8) + 1");
        let bytes = Expr::sym(0) * Expr::sym(1) * Expr::constant(4);
        assert_eq!(bytes.to_string(), "(s0 * s1) * 4");
        assert_eq!(bytes.eval(&[3, 5]), Ok(60));
    }

    #[test]
    fn errors_are_values() {
        let big = Expr::sym(0) * Expr::constant(1 << 40);
        assert_eq!(big.eval(&[1 << 30]), Err(format!("{} * {} overflows", 1i64 << 30, 1i64 << 40)));
        assert!((Expr::sym(0) / Expr::constant(0)).eval(&[3]).unwrap_err().contains("not positive"));
        assert_eq!(Expr(vec![Term::Add]).eval(&[]), Err("malformed expression".into()));
        assert_eq!(Expr::sym(1).eval(&[1]), Err("symbol 1 is not bound".into()));
        assert!(Expr(vec![Term::Add]).check(0).unwrap_err().contains("0 operands"));
        assert!(Expr(vec![]).check(0).is_err());
        assert!(Expr::sym(2).check(2).unwrap_err().contains("symbol 2"));
        assert!(Expr(vec![Term::Const(1), Term::Const(2)]).check(0).unwrap_err().contains("2 values"));
        assert!(Expr(vec![Term::Const(1); MAX_EXPR_TERMS + 1]).check(0).is_err());
    }
}
