//! Numeric substitution blocks: `[[#%x,VAR:]]`, `[[#VAR+1]]`,
//! `[[#add(A,B)]]`, `[[#@LINE-2]]` and the legacy `[[@LINE+1]]`.
//!
//! A block is `[%fmt,][VAR:][==]expr`. Formats are `%u` (default), `%d`,
//! `%x`, `%X`, with optional precision (`%.4d`) and, for hex, the alternate
//! form (`%#x`, matching a `0x` prefix). Expressions are operands (variables,
//! `@LINE`, integer literals, parenthesized expressions and calls of `add`,
//! `sub`, `mul`, `div`, `min`, `max`) joined by left-associative `+`/`-`.
//! Values have arbitrary precision, as LLVM 22's (`APInt`) do: only a
//! division by zero, or a negative value shown in an unsigned format, has
//! no value. Errors carry LLVM's messages and point at the offending text.

use num_bigint::{BigInt, Sign};

use crate::source::{Loc, SpanError};
use crate::vars::{NumVarId, Variables};

/// How a numeric value is printed and matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatKind {
    /// `%u`
    Unsigned,
    /// `%d`
    Signed,
    /// `%x`
    HexLower,
    /// `%X`
    HexUpper,
}

/// A numeric format: kind, minimum digit count and `0x` alternate form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// The kind of digits.
    pub kind: FormatKind,
    /// Minimum number of digits (zero padded).
    pub precision: usize,
    /// Whether hex values carry a `0x` prefix.
    pub alternate: bool,
}

impl Format {
    /// The default `%u` format.
    pub const UNSIGNED: Format = Format { kind: FormatKind::Unsigned, precision: 0, alternate: false };

    fn name(self) -> &'static str {
        match self.kind {
            FormatKind::Unsigned => "%u",
            FormatKind::Signed => "%d",
            FormatKind::HexLower => "%x",
            FormatKind::HexUpper => "%X",
        }
    }

    /// The (POSIX) regex matching any value printed in this format.
    pub fn wildcard_regex(self) -> String {
        let prefix = if self.alternate { "0x" } else { "" };
        let (lead, digit) = match self.kind {
            FormatKind::Unsigned => ("[1-9][0-9]*", "[0-9]"),
            FormatKind::Signed => ("[1-9][0-9]*", "[0-9]"),
            FormatKind::HexLower => ("[1-9a-f][0-9a-f]*", "[0-9a-f]"),
            FormatKind::HexUpper => ("[1-9A-F][0-9A-F]*", "[0-9A-F]"),
        };
        let sign = if self.kind == FormatKind::Signed { "-?" } else { "" };
        if self.precision > 0 {
            format!("{prefix}{sign}({lead})?{digit}{{{}}}", self.precision)
        } else {
            format!("{prefix}{sign}{digit}+")
        }
    }

    /// Prints a value; `None` when the value cannot be shown in this format
    /// (a negative value in an unsigned format).
    pub fn format(self, value: &BigInt) -> Option<String> {
        let negative = value.sign() == Sign::Minus;
        if negative && self.kind != FormatKind::Signed {
            return None;
        }
        let abs = value.magnitude();
        let digits = match self.kind {
            FormatKind::Unsigned | FormatKind::Signed => abs.to_string(),
            FormatKind::HexLower => abs.to_str_radix(16),
            FormatKind::HexUpper => abs.to_str_radix(16).to_ascii_uppercase(),
        };
        let sign = if negative { "-" } else { "" };
        let prefix = if self.alternate { "0x" } else { "" };
        let pad = "0".repeat(self.precision.saturating_sub(digits.len()));
        Some(format!("{sign}{prefix}{pad}{digits}"))
    }

    /// Parses text matched by [`Format::wildcard_regex`].
    pub fn parse_value(self, text: &[u8]) -> Option<BigInt> {
        let text = std::str::from_utf8(text).ok()?;
        let (negative, text) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let text = if self.alternate { text.strip_prefix("0x").unwrap_or(text) } else { text };
        let radix = if matches!(self.kind, FormatKind::HexLower | FormatKind::HexUpper) { 16 } else { 10 };
        let value = BigInt::parse_bytes(text.as_bytes(), radix)?;
        Some(if negative { -value } else { value })
    }
}

/// A binary operation or function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+` or `add`
    Add,
    /// `-` or `sub`
    Sub,
    /// `mul`
    Mul,
    /// `div`
    Div,
    /// `max`
    Max,
    /// `min`
    Min,
}

/// A node of an expression tree.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal.
    Literal(BigInt),
    /// A numeric variable use.
    Var(NumVarId),
    /// `@LINE`, with the line of the directive using it (none for patterns
    /// not in the check file).
    Line(Option<usize>),
    /// An operation on two operands.
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

/// An expression with the source text it was parsed from.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Where its text starts.
    pub loc: Loc,
    /// Its text.
    pub text: String,
}

/// Why an expression has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// These variables (name and use location) are undefined.
    Undefined(Vec<(String, Loc)>),
    /// A division by zero (LLVM calls it an overflow).
    Overflow,
}

impl Expr {
    /// Computes the value with the current variable values.
    pub fn eval(&self, vars: &Variables) -> Result<BigInt, EvalError> {
        match &self.kind {
            ExprKind::Literal(v) => Ok(v.clone()),
            ExprKind::Line(line) => line
                .map(BigInt::from)
                .ok_or_else(|| EvalError::Undefined(vec![("@LINE".to_string(), self.loc)])),
            ExprKind::Var(id) => {
                let var = vars.numeric(*id);
                var.value.clone().ok_or_else(|| EvalError::Undefined(vec![(var.name.clone(), self.loc)]))
            }
            ExprKind::Binary(op, lhs, rhs) => {
                let (l, r) = (lhs.eval(vars), rhs.eval(vars));
                let (l, r) = match (l, r) {
                    (Ok(l), Ok(r)) => (l, r),
                    (Err(EvalError::Undefined(mut a)), Err(EvalError::Undefined(b))) => {
                        a.extend(b);
                        return Err(EvalError::Undefined(a));
                    }
                    (Err(e), _) | (_, Err(e)) => return Err(e),
                };
                Ok(match op {
                    BinOp::Add => l + r,
                    BinOp::Sub => l - r,
                    BinOp::Mul => l * r,
                    BinOp::Div if r.sign() == Sign::NoSign => return Err(EvalError::Overflow),
                    BinOp::Div => l / r,
                    BinOp::Max => l.max(r),
                    BinOp::Min => l.min(r),
                })
            }
        }
    }

    /// The format the expression gets without an explicit one, if any.
    fn implicit_format(&self, vars: &Variables) -> Result<Option<Format>, SpanError> {
        match &self.kind {
            ExprKind::Literal(_) => Ok(None),
            ExprKind::Line(_) => Ok(Some(Format::UNSIGNED)),
            ExprKind::Var(id) => Ok(Some(vars.numeric(*id).format)),
            ExprKind::Binary(_, lhs, rhs) => {
                let (l, r) = (lhs.implicit_format(vars)?, rhs.implicit_format(vars)?);
                match (l, r) {
                    (Some(a), Some(b)) if a != b => Err(SpanError::new(
                        self.loc,
                        format!(
                            "implicit format conflict between '{}' ({}) and '{}' ({}), need an explicit format specifier",
                            lhs.text,
                            a.name(),
                            rhs.text,
                            b.name()
                        ),
                    )),
                    _ => Ok(l.or(r)),
                }
            }
        }
    }
}

/// A parsed numeric substitution block.
#[derive(Clone, Debug)]
pub struct NumericBlock {
    /// The format of the value matched or substituted.
    pub format: Format,
    /// The expression, absent in a bare definition like `[[#VAR:]]`.
    pub expr: Option<Expr>,
    /// The variable the block defines, if any.
    pub def: Option<NumVarId>,
}

/// What may appear as an operand.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Allowed {
    /// Only `@LINE` (first operand of a legacy `[[@LINE+N]]`).
    LineVar,
    /// Only a decimal literal (second operand of a legacy expression).
    LegacyLiteral,
    /// Anything.
    Any,
}

/// Whether `c` may start a variable name.
pub fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// A parsed variable name: the name, whether it is a pseudo variable (`@`),
/// and its length in bytes.
pub struct VarName {
    /// The name including any `$` or `@` sigil.
    pub name: String,
    /// Whether it starts with `@`.
    pub pseudo: bool,
}

/// Parses a variable name at the start of `text` (LLVM `parseVariable`).
pub fn parse_var_name(text: &[u8], loc: Loc) -> Result<VarName, SpanError> {
    if text.is_empty() {
        return Err(SpanError::new(loc, "empty variable name"));
    }
    let pseudo = text[0] == b'@';
    let mut i = usize::from(pseudo || text[0] == b'$');
    if i == text.len() {
        let kind = if pseudo { "pseudo" } else { "global" };
        return Err(SpanError::new(loc.advanced(i), format!("empty {kind} variable name")));
    }
    if !is_name_start(text[i]) {
        return Err(SpanError::new(loc, "invalid variable name"));
    }
    i += 1;
    while i < text.len() && (text[i] == b'_' || text[i].is_ascii_alphanumeric()) {
        i += 1;
    }
    Ok(VarName { name: String::from_utf8_lossy(&text[..i]).into_owned(), pseudo })
}

fn is_space(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

struct Parser<'a, 'v> {
    text: &'a [u8],
    pos: usize,
    end: usize,
    base: Loc,
    line: Option<usize>,
    vars: &'v mut Variables,
}

impl Parser<'_, '_> {
    fn loc(&self, at: usize) -> Loc {
        self.base.advanced(at)
    }
    fn rest(&self) -> &[u8] {
        &self.text[self.pos..self.end]
    }
    fn err_rest(&self, msg: impl Into<String>) -> SpanError {
        SpanError::new(self.loc(self.pos), msg)
    }
    fn skip_space(&mut self) {
        while self.pos < self.end && is_space(self.text[self.pos]) {
            self.pos += 1;
        }
    }
    fn starts_with(&self, s: &[u8]) -> bool {
        self.rest().starts_with(s)
    }
    fn text_of(&self, from: usize) -> String {
        String::from_utf8_lossy(&self.text[from..self.pos]).into_owned()
    }

    fn operand(&mut self, allowed: Allowed, maybe_constraint: bool) -> Result<Expr, SpanError> {
        let start = self.pos;
        if self.starts_with(b"(") {
            if allowed != Allowed::Any {
                return Err(self.err_rest("parenthesized expression not permitted here"));
            }
            return self.paren();
        }
        if allowed != Allowed::LegacyLiteral {
            match parse_var_name(self.rest(), self.loc(self.pos)) {
                Ok(var) => {
                    self.pos += var.name.len();
                    let after = self.rest().iter().position(|&c| !is_space(c)).unwrap_or(self.end - self.pos);
                    if self.rest().get(after) == Some(&b'(') {
                        if allowed != Allowed::Any {
                            return Err(SpanError::new(self.loc(start), "unexpected function call"));
                        }
                        return self.call(start, &var.name);
                    }
                    return self.var_use(start, var);
                }
                Err(e) if allowed == Allowed::LineVar => return Err(e),
                Err(_) => {}
            }
        }
        let negative = self.starts_with(b"-");
        let mut digits_at = start + usize::from(negative);
        let rest = &self.text[digits_at..self.end];
        let lower: Vec<u8> = rest.iter().take(2).map(u8::to_ascii_lowercase).collect();
        let radix = if allowed == Allowed::LegacyLiteral {
            10
        } else if lower.starts_with(b"0x") {
            digits_at += 2;
            16
        } else if lower.starts_with(b"0b") {
            digits_at += 2;
            2
        } else if rest.starts_with(b"0o") {
            digits_at += 2;
            8
        } else if rest.len() > 1 && rest[0] == b'0' && rest[1].is_ascii_digit() {
            digits_at += 1;
            8
        } else {
            10
        };
        let digits_end =
            (digits_at..self.end).find(|&i| !(self.text[i] as char).is_digit(radix)).unwrap_or(self.end);
        let digits = std::str::from_utf8(&self.text[digits_at..digits_end]).unwrap_or_default();
        match BigInt::parse_bytes(digits.as_bytes(), radix) {
            Some(v) if !digits.is_empty() => {
                self.pos = digits_end;
                let value = if negative { -v } else { v };
                Ok(Expr { kind: ExprKind::Literal(value), loc: self.loc(start), text: self.text_of(start) })
            }
            _ => {
                let what = if maybe_constraint { "matching constraint or " } else { "" };
                Err(self.err_rest(format!("invalid {what}operand format")))
            }
        }
    }

    fn var_use(&mut self, start: usize, var: VarName) -> Result<Expr, SpanError> {
        let loc = self.loc(start);
        let text = var.name.clone();
        if var.pseudo {
            if var.name != "@LINE" {
                return Err(SpanError::new(loc, format!("invalid pseudo numeric variable '{}'", var.name)));
            }
            return Ok(Expr { kind: ExprKind::Line(self.line), loc, text });
        }
        let id = match self.vars.numeric_id(&var.name) {
            Some(id) => id,
            None => self.vars.create_numeric(&var.name, Format::UNSIGNED, None),
        };
        let def_line = self.vars.numeric(id).def_line;
        if def_line.is_some() && def_line == self.line {
            return Err(SpanError::new(
                loc,
                format!("numeric variable '{}' defined earlier in the same CHECK directive", var.name),
            ));
        }
        Ok(Expr { kind: ExprKind::Var(id), loc, text })
    }

    fn paren(&mut self) -> Result<Expr, SpanError> {
        self.pos += 1;
        self.skip_space();
        if self.pos == self.end {
            return Err(self.err_rest("missing operand in expression"));
        }
        let start = self.pos;
        let mut expr = self.operand(Allowed::Any, false)?;
        self.skip_space();
        while self.pos < self.end && !self.starts_with(b")") {
            expr = self.binop(start, expr, false)?;
            self.skip_space();
        }
        if !self.starts_with(b")") {
            return Err(self.err_rest("missing ')' at end of nested expression"));
        }
        self.pos += 1;
        Ok(expr)
    }

    fn call(&mut self, start: usize, name: &str) -> Result<Expr, SpanError> {
        let op = match name {
            "add" => BinOp::Add,
            "div" => BinOp::Div,
            "max" => BinOp::Max,
            "min" => BinOp::Min,
            "mul" => BinOp::Mul,
            "sub" => BinOp::Sub,
            _ => return Err(SpanError::new(self.loc(start), format!("call to undefined function '{name}'"))),
        };
        self.skip_space();
        self.pos += 1;
        self.skip_space();
        let mut args = Vec::new();
        while self.pos < self.end && !self.starts_with(b")") {
            if self.starts_with(b",") {
                return Err(self.err_rest("missing argument"));
            }
            let arg_start = self.pos;
            let mut arg = self.operand(Allowed::Any, false)?;
            while self.pos < self.end {
                self.skip_space();
                if self.starts_with(b",") || self.starts_with(b")") {
                    break;
                }
                arg = self.binop(arg_start, arg, false)?;
            }
            args.push(arg);
            self.skip_space();
            if !self.starts_with(b",") {
                break;
            }
            self.pos += 1;
            self.skip_space();
            if self.starts_with(b")") {
                return Err(self.err_rest("missing argument"));
            }
        }
        if !self.starts_with(b")") {
            return Err(self.err_rest("missing ')' at end of call expression"));
        }
        self.pos += 1;
        if args.len() != 2 {
            return Err(SpanError::new(
                self.loc(start),
                format!("function '{name}' takes 2 arguments but {} given", args.len()),
            ));
        }
        let rhs = args.pop().expect("two arguments");
        let lhs = args.pop().expect("two arguments");
        Ok(Expr {
            kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            loc: self.loc(start),
            text: self.text_of(start),
        })
    }

    fn binop(&mut self, start: usize, lhs: Expr, legacy: bool) -> Result<Expr, SpanError> {
        self.skip_space();
        if self.pos == self.end {
            return Ok(lhs);
        }
        let op_at = self.pos;
        let op = match self.text[self.pos] {
            b'+' => BinOp::Add,
            b'-' => BinOp::Sub,
            _ => {
                let shown = String::from_utf8_lossy(&self.text[op_at..op_at + 1]).into_owned();
                return Err(SpanError::new(self.loc(op_at), format!("unsupported operation '{shown}'")));
            }
        };
        self.pos += 1;
        self.skip_space();
        if self.pos == self.end {
            return Err(self.err_rest("missing operand in expression"));
        }
        let allowed = if legacy { Allowed::LegacyLiteral } else { Allowed::Any };
        let rhs = self.operand(allowed, false)?;
        Ok(Expr {
            kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            loc: self.loc(start),
            text: self.text_of(start),
        })
    }
}

fn trim_range(text: &[u8], mut s: usize, mut e: usize) -> (usize, usize) {
    while s < e && is_space(text[s]) {
        s += 1;
    }
    while e > s && is_space(text[e - 1]) {
        e -= 1;
    }
    (s, e)
}

fn parse_format(text: &[u8], (s, e): (usize, usize), base: Loc) -> Result<Option<Format>, SpanError> {
    let spec_err =
        |at: usize| SpanError::new(base.advanced(at), "invalid matching format specification in expression");
    if text.get(s) != Some(&b'%') || s >= e {
        return Err(spec_err(s));
    }
    let mut i = s + 1;
    let alt_at = i;
    let alternate = text.get(i) == Some(&b'#') && i < e;
    i += usize::from(alternate);
    let mut precision = 0;
    if i < e && text[i] == b'.' {
        i += 1;
        let digits_end = (i..e).find(|&j| !text[j].is_ascii_digit()).unwrap_or(e);
        precision = std::str::from_utf8(&text[i..digits_end])
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| SpanError::new(base.advanced(i), "invalid precision in format specifier"))?;
        i = digits_end;
    }
    let mut format = None;
    if i < e {
        let kind = match text[i] {
            b'u' => FormatKind::Unsigned,
            b'd' => FormatKind::Signed,
            b'x' => FormatKind::HexLower,
            b'X' => FormatKind::HexUpper,
            _ => return Err(SpanError::new(base.advanced(i), "invalid format specifier in expression")),
        };
        i += 1;
        format = Some(Format { kind, precision, alternate });
    }
    let is_hex = format.is_some_and(|f| matches!(f.kind, FormatKind::HexLower | FormatKind::HexUpper));
    if alternate && !is_hex {
        return Err(SpanError::new(base.advanced(alt_at), "alternate form only supported for hex values"));
    }
    while i < e && is_space(text[i]) {
        i += 1;
    }
    if i < e {
        return Err(spec_err(i));
    }
    // A precision without a kind still applies to the default format.
    Ok(format.or((precision > 0).then_some(Format { precision, ..Format::UNSIGNED })))
}

/// Parses the inside of a numeric substitution block (after `[[#`), located
/// at `base`. `line` is the directive's check-file line (none for implicit
/// patterns and `-D`); `legacy` selects the `[[@LINE+N]]` grammar.
pub fn parse_numeric_block(
    text: &[u8],
    base: Loc,
    line: Option<usize>,
    legacy: bool,
    vars: &mut Variables,
) -> Result<NumericBlock, SpanError> {
    let mut start = 0;
    let mut explicit = None;
    let comma = text.iter().position(|&c| c == b',');
    let paren = text.iter().position(|&c| c == b'(');
    if let Some(comma) = comma.filter(|&c| paren.is_none_or(|p| c < p)) {
        explicit = parse_format(text, trim_range(text, 0, comma), base)?;
        start = comma + 1;
    }
    let colon = text[start..].iter().position(|&c| c == b':').map(|p| p + start);
    let def_range = colon.map(|c| (start, c));
    let expr_start = colon.map_or(start, |c| c + 1);
    let mut p = Parser { text, pos: expr_start, end: text.len(), base, line, vars };
    p.skip_space();
    let constraint = p.starts_with(b"==");
    if constraint {
        p.pos += 2;
    }
    p.skip_space();
    let expr = if p.pos == p.end {
        if constraint {
            return Err(p.err_rest("empty numeric expression should not have a constraint"));
        }
        None
    } else {
        p.end = trim_range(text, p.pos, p.end).1;
        let outer = p.pos;
        let first = if legacy { Allowed::LineVar } else { Allowed::Any };
        let mut expr = p.operand(first, !constraint)?;
        while p.pos < p.end {
            expr = p.binop(outer, expr, legacy)?;
            if legacy && p.pos < p.end {
                let rest = String::from_utf8_lossy(p.rest()).into_owned();
                return Err(p.err_rest(format!("unexpected characters at end of expression '{rest}'")));
            }
        }
        Some(expr)
    };
    let vars = p.vars;
    let format = match explicit {
        Some(f) => f,
        None => match &expr {
            Some(e) => e.implicit_format(vars)?.unwrap_or(Format::UNSIGNED),
            None => Format::UNSIGNED,
        },
    };
    let def = match def_range {
        None => None,
        Some((s, e)) => Some(define(text, (trim_range(text, s, e).0, e), base, line, format, vars)?),
    };
    Ok(NumericBlock { format, expr, def })
}

/// Parses the definition part `text[s..e]` of a numeric block and returns
/// the variable it defines (LLVM `parseNumericVariableDefinition`).
fn define(
    text: &[u8],
    (s, e): (usize, usize),
    base: Loc,
    line: Option<usize>,
    format: Format,
    vars: &mut Variables,
) -> Result<NumVarId, SpanError> {
    let var = parse_var_name(&text[s..e], base.advanced(s))?;
    let name_loc = base.advanced(s);
    if var.pseudo {
        return Err(SpanError::new(name_loc, "definition of pseudo numeric variable unsupported"));
    }
    if vars.is_string_declared(&var.name) {
        return Err(SpanError::new(
            name_loc,
            format!("string variable with name '{}' already exists", var.name),
        ));
    }
    let after = trim_range(text, s + var.name.len(), e).0;
    if after < e {
        return Err(SpanError::new(
            base.advanced(after),
            "unexpected characters after numeric variable name",
        ));
    }
    match vars.numeric_id(&var.name) {
        Some(id) if vars.numeric(id).format != format => {
            Err(SpanError::new(base.advanced(e), "format different from previous variable definition"))
        }
        Some(id) => Ok(id),
        None => Ok(vars.create_numeric(&var.name, format, line)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceManager;

    fn parse(text: &str, vars: &mut Variables) -> Result<NumericBlock, String> {
        let mut sm = SourceManager::default();
        let id = sm.add("t", text.as_bytes().to_vec());
        let base = Loc { buffer: id, offset: 0 };
        parse_numeric_block(text.as_bytes(), base, Some(7), false, vars).map_err(|e| e.msg)
    }

    fn value(text: &str, vars: &mut Variables) -> Result<BigInt, EvalError> {
        parse(text, vars).unwrap().expr.unwrap().eval(vars)
    }

    #[test]
    fn formats_and_wildcards() {
        let hex = Format { kind: FormatKind::HexUpper, precision: 4, alternate: true };
        assert_eq!(hex.format(&255.into()).unwrap(), "0x00FF");
        assert_eq!(hex.wildcard_regex(), "0x([1-9A-F][0-9A-F]*)?[0-9A-F]{4}");
        let signed = Format { kind: FormatKind::Signed, precision: 3, alternate: false };
        assert_eq!(signed.format(&(-5).into()).unwrap(), "-005");
        assert_eq!(Format::UNSIGNED.format(&(-1).into()), None);
        assert_eq!(hex.parse_value(b"0x00FF"), Some(255.into()));
    }

    #[test]
    fn expressions_evaluate() {
        let mut vars = Variables::default();
        let def = parse("%x,V:", &mut vars).unwrap();
        let id = def.def.unwrap();
        assert_eq!(def.format.kind, FormatKind::HexLower);
        vars.numeric_mut(id).value = Some(10.into());
        let mut later = Variables::default();
        std::mem::swap(&mut later, &mut vars);
        // Uses on another line than the definition are fine.
        let mut p = |t: &str| {
            let mut sm = SourceManager::default();
            let b = sm.add("t", t.as_bytes().to_vec());
            let block =
                parse_numeric_block(t.as_bytes(), Loc { buffer: b, offset: 0 }, Some(9), false, &mut later)
                    .unwrap();
            (block.format, block.expr.unwrap().eval(&later))
        };
        assert_eq!(p("V+1"), (def.format, Ok(BigInt::from(11))));
        assert_eq!(p("add(V, 2) - 0x3").1, Ok(BigInt::from(9)));
        assert_eq!(p("max(1,mul(2,3))").1, Ok(BigInt::from(6)));
        assert_eq!(p("(1+2)-4").1, Ok(BigInt::from(-1)));
        assert_eq!(p("div(1,0)").1, Err(EvalError::Overflow));
        assert_eq!(p("@LINE+1").1, Ok(BigInt::from(10)));
    }

    #[test]
    fn values_have_arbitrary_precision() {
        let mut vars = Variables::default();
        let sum = value("0x8000000000000000+0x8000000000000000", &mut vars).unwrap();
        assert_eq!(Format::UNSIGNED.format(&sum).unwrap(), "18446744073709551616");
        let product = value("mul(99999999999999999999,99999999999999999999)", &mut vars).unwrap();
        assert_eq!(product.to_string(), "9999999999999999999800000000000000000001");
        let hex = Format { kind: FormatKind::HexLower, precision: 0, alternate: false };
        assert_eq!(hex.parse_value(b"10000000000000000000000000"), Some(BigInt::from(1) << 100));
    }

    #[test]
    fn parse_errors_use_llvm_messages() {
        let mut vars = Variables::default();
        assert_eq!(parse("1+", &mut vars).unwrap_err(), "missing operand in expression");
        assert_eq!(parse("1*2", &mut vars).unwrap_err(), "unsupported operation '*'");
        assert_eq!(parse("%z,X:", &mut vars).unwrap_err(), "invalid format specifier in expression");
        assert_eq!(parse("foo(1,2)", &mut vars).unwrap_err(), "call to undefined function 'foo'");
        assert_eq!(parse("add(1)", &mut vars).unwrap_err(), "function 'add' takes 2 arguments but 1 given");
        assert_eq!(parse("X:", &mut vars).map(|_| ()), Ok(()));
        assert_eq!(
            parse("X", &mut vars).unwrap_err(),
            "numeric variable 'X' defined earlier in the same CHECK directive"
        );
        assert_eq!(
            parse("==", &mut vars).unwrap_err(),
            "empty numeric expression should not have a constraint"
        );
        assert!(value("0b101 + 010", &mut vars) == Ok(BigInt::from(13)));
    }
}
