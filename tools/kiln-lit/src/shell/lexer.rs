//! Splitting a command line into words and operators, with sh quoting:
//! `'...'` is literal, `"..."` allows `\"`, `\\`, `\$` and `` \` ``, and a
//! backslash outside quotes escapes the next character.

/// A word: its text after quote removal, and whether it has unquoted glob
/// characters (`*`, `?`, `[`) to expand.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// The text, quotes removed.
    pub text: String,
    /// Whether unquoted `*`, `?` or `[` appear.
    pub glob: bool,
}

/// A lexical token.
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// A word.
    Word(Word),
    /// `|`
    Pipe,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `;`
    Semi,
    /// `&` (not supported, like lit's internal shell)
    Amp,
    /// A redirection operator with its file descriptor, e.g. `2>`, `>>`,
    /// `<`, `>&`, `&>`.
    Redirect {
        /// The descriptor written before the operator, if any.
        fd: Option<u32>,
        /// The operator itself: one of `>`, `>>`, `<`, `>&`, `&>`.
        op: &'static str,
    },
}

/// Splits `line` into tokens.
pub fn lex(line: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '|' | '&' | ';' | '<' | '>' => {
                chars.next();
                tokens.push(operator(c, &mut chars, None));
            }
            _ => tokens.push(word(&mut chars)?),
        }
    }
    Ok(tokens)
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

fn operator(first: char, chars: &mut Chars, fd: Option<u32>) -> Token {
    let mut next_is = |want: char| chars.next_if_eq(&want).is_some();
    match first {
        '|' if next_is('|') => Token::OrOr,
        '|' => Token::Pipe,
        '&' if next_is('&') => Token::AndAnd,
        '&' if next_is('>') => Token::Redirect { fd, op: "&>" },
        '&' => Token::Amp,
        ';' => Token::Semi,
        '<' => Token::Redirect { fd, op: "<" },
        _ if next_is('>') => Token::Redirect { fd, op: ">>" },
        _ if next_is('&') => Token::Redirect { fd, op: ">&" },
        _ => Token::Redirect { fd, op: ">" },
    }
}

fn word(chars: &mut Chars) -> Result<Token, String> {
    let mut text = String::new();
    let mut glob = false;
    let mut quoted = false;
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() || "|&;".contains(c) => break,
            '<' | '>' => {
                // `2>` and friends: a word of digits directly before.
                if !quoted && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
                    let fd = text.parse().ok();
                    chars.next();
                    return Ok(operator(c, chars, fd));
                }
                break;
            }
            '\'' => {
                chars.next();
                quoted = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => text.push(c),
                        None => return Err("unterminated single quote".to_string()),
                    }
                }
            }
            '"' => {
                chars.next();
                quoted = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\' | '$' | '`')) => text.push(e),
                            Some(other) => {
                                text.push('\\');
                                text.push(other);
                            }
                            None => return Err("unterminated double quote".to_string()),
                        },
                        Some(c) => text.push(c),
                        None => return Err("unterminated double quote".to_string()),
                    }
                }
            }
            '\\' => {
                chars.next();
                match chars.next() {
                    Some(c) => text.push(c),
                    None => text.push('\\'),
                }
                quoted = true;
            }
            _ => {
                chars.next();
                glob |= "*?[".contains(c);
                text.push(c);
            }
        }
    }
    Ok(Token::Word(Word { text, glob }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        lex(line)
            .unwrap()
            .into_iter()
            .map(|t| match t {
                Token::Word(w) => w.text,
                other => format!("<{other:?}>"),
            })
            .collect()
    }

    #[test]
    fn quoting() {
        assert_eq!(words(r#"a 'b c' "d \"e\" \n" f\ g"#), ["a", "b c", r#"d "e" \n"#, "f g"]);
        assert_eq!(words("''"), [""]);
        assert!(lex("'open").is_err());
        assert!(lex("\"open").is_err());
    }

    #[test]
    fn operators_and_redirects() {
        let tokens = lex("a|b||c&&d;e 2>&1 >>f <g 2>h x2>y &>z").unwrap();
        let ops: Vec<_> = tokens.iter().filter(|t| !matches!(t, Token::Word(_))).collect();
        assert_eq!(
            ops,
            [
                &Token::Pipe,
                &Token::OrOr,
                &Token::AndAnd,
                &Token::Semi,
                &Token::Redirect { fd: Some(2), op: ">&" },
                &Token::Redirect { fd: None, op: ">>" },
                &Token::Redirect { fd: None, op: "<" },
                &Token::Redirect { fd: Some(2), op: ">" },
                &Token::Redirect { fd: None, op: ">" },
                &Token::Redirect { fd: None, op: "&>" },
            ]
        );
    }

    #[test]
    fn globs_only_when_unquoted() {
        let globs: Vec<bool> = lex("*.txt '*.txt' a\\*")
            .unwrap()
            .into_iter()
            .map(|t| matches!(t, Token::Word(Word { glob: true, .. })))
            .collect();
        assert_eq!(globs, [true, false, false]);
    }
}
