//! Reading size expressions back: `Expr::parse` inverts `Expr::render` (and `FromStr` inverts
//! `Display`), and malformed text is refused with the column where it goes wrong.

mod common;

use common::SplitMix64 as Rng;
use kiln_bytecode::shape::{Expr, Term, MAX_EXPR_TERMS};

/// A random well-formed expression of at most `budget` terms (odd, at least 1).
fn random_expr(rng: &mut Rng, budget: usize, symbols: u32) -> Vec<Term> {
    if budget < 3 || rng.below(4) == 0 {
        return vec![match rng.below(6) {
            0 => Term::Const(i64::MIN + rng.below(2) as i64),
            1 => Term::Const(i64::MAX - rng.below(2) as i64),
            2 => Term::Const(-(rng.below(1000) as i64)),
            3 | 4 if symbols > 0 => Term::Sym(rng.below(symbols.max(1) as usize) as u32),
            _ => Term::Const(rng.below(100_000) as i64),
        }];
    }
    let left_budget = 1 + 2 * rng.below((budget - 1) / 2);
    let mut terms = random_expr(rng, left_budget, symbols);
    let right = random_expr(rng, budget - 1 - terms.len(), symbols);
    terms.extend(right);
    terms.push(Term::OPERATORS[rng.below(Term::OPERATORS.len())]);
    terms
}

#[test]
fn render_then_parse_is_the_identity() {
    let mut rng = Rng(41);
    let name_sets: [Vec<String>; 3] =
        [vec![], vec!["n".into()], vec!["batch".into(), "seq_len".into(), "s2x".into()]];
    for case in 0..4000 {
        let names = &name_sets[case % 3];
        // Symbols past the names are written `sK`.
        let symbols = names.len() as u32 + (case % 2) as u32;
        let expr = Expr(random_expr(&mut rng, MAX_EXPR_TERMS - 1, symbols));
        expr.check(symbols as usize).unwrap();
        let text = expr.render(names);
        let back = Expr::parse(&text, names).unwrap_or_else(|e| panic!("case {case}: `{text}`: {e}"));
        assert_eq!(back, expr, "case {case}: `{text}`");
        assert_eq!(back.render(names), text);
        if names.is_empty() {
            assert_eq!(text.parse::<Expr>(), Ok(expr.clone()));
            assert_eq!(expr.to_string(), text);
        }
    }
}

#[test]
fn conventional_precedence_reads_hand_written_text() {
    let n = || Expr::sym(0);
    let names = ["n".to_string()];
    let parse = |t: &str| Expr::parse(t, &names).unwrap();
    assert_eq!(parse("n * 64 + 1"), n() * Expr::constant(64) + Expr::constant(1));
    assert_eq!(parse("1 + n * 64"), Expr::constant(1) + n() * Expr::constant(64));
    assert_eq!(parse("n - 1 - 2"), (n() - Expr::constant(1)) - Expr::constant(2));
    assert_eq!(parse("n - -2"), n() - Expr::constant(-2));
    assert_eq!(parse(" ceil_div( n ,8 )"), n().ceil_div(Expr::constant(8)));
    assert_eq!(parse("mod(n - 1, 8) + 1").render(&names), "mod(n - 1, 8) + 1");
    assert_eq!(parse("floor_div(n, 2)"), n() / Expr::constant(2));
    assert_eq!("-9223372036854775808".parse::<Expr>(), Ok(Expr::constant(i64::MIN)));
}

#[test]
fn malformed_text_is_refused_with_its_column() {
    let names = ["n".to_string(), "m".to_string()];
    let cases = [
        ("", "column 1: expected a number, a symbol, a function or '(', found the end of the text"),
        ("n +", "column 4: expected a number, a symbol, a function or '(', found the end of the text"),
        ("n k", "column 3: expected an operator or the end, found 'k'"),
        ("k + 1", "column 1: unknown symbol 'k' (the symbols are n, m)"),
        ("s0", "column 1: unknown symbol 's0' (the symbols are n, m)"),
        ("n / 2", "column 3: unexpected character '/'"),
        ("(n + 1", "column 7: expected ')' to close the '(', found the end of the text"),
        ("min(n)", "column 6: expected ',' between the operands of min, found ')'"),
        ("min(n, 1, 2)", "column 9: expected ')' after the operands of min, found ','"),
        ("pow(n, 2)", "column 1: unknown function 'pow' (floor_div, ceil_div, mod, min, max)"),
        ("n * 99999999999999999999", "column 5: the constant 99999999999999999999 does not fit in 64 bits"),
        ("-9223372036854775809", "column 1: the constant -9223372036854775809 does not fit in 64 bits"),
        ("n - - m", "column 7: expected a number after '-', found 'm'"),
        ("12ab", "column 1: '12ab' is not a number"),
    ];
    for (text, want) in cases {
        let e = Expr::parse(text, &names).expect_err(text);
        assert_eq!(e.to_string(), want, "`{text}`");
    }
    let long = vec!["n"; MAX_EXPR_TERMS / 2 + 1].join(" + ");
    let e = Expr::parse(&long, &names).unwrap_err();
    assert!(e.message.contains("more than 32 terms"), "{e}");
    let deep = format!("{}n{}", "(".repeat(100), ")".repeat(100));
    let e = Expr::parse(&deep, &names).unwrap_err();
    assert!(e.message.contains("nests deeper than 32 levels"), "{e}");
}
