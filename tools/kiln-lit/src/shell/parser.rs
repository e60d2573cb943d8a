//! Parsing tokens into lit's shell grammar:
//!
//! ```text
//! script   := pipeline (('&&' | '||' | ';') pipeline)*     (left-assoc.)
//! pipeline := command ('|' command)*
//! command  := (word | redirect)+
//! ```

use super::lexer::{lex, Token, Word};

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub enum Script {
    /// A single pipeline.
    Pipeline(Vec<Command>),
    /// `lhs op rhs`.
    Seq(Box<Script>, SeqOp, Box<Script>),
}

/// How two parts of a sequence are joined.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SeqOp {
    /// `&&`: run the right side if the left succeeded.
    And,
    /// `||`: run the right side if the left failed.
    Or,
    /// `;`: run both.
    Then,
}

/// One simple command.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    /// The program and its arguments.
    pub args: Vec<Word>,
    /// Redirections, applied in order.
    pub redirects: Vec<Redirect>,
}

/// A redirection of one file descriptor (0, 1 or 2).
#[derive(Debug, Clone, PartialEq)]
pub struct Redirect {
    /// The descriptor redirected.
    pub fd: u32,
    /// Where it goes.
    pub target: Target,
}

/// The target of a redirection.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A file opened for reading (`<`).
    Read(Word),
    /// A file truncated (`>`).
    Write(Word),
    /// A file appended to (`>>`).
    Append(Word),
    /// Another descriptor (`2>&1`).
    Fd(u32),
}

/// How messages about redirects the shell does not support start: lit
/// parses such lines and fails when it runs them, so they fail the test
/// rather than leave it unresolved.
pub const UNSUPPORTED_REDIRECT: &str = "unsupported redirect";

/// Parses a command line.
pub fn parse(line: &str) -> Result<Script, String> {
    let mut tokens = lex(line)?.into_iter().peekable();
    let mut script = Script::Pipeline(pipeline(&mut tokens)?);
    while let Some(token) = tokens.next() {
        let op = match token {
            Token::AndAnd => SeqOp::And,
            Token::OrOr => SeqOp::Or,
            Token::Semi => SeqOp::Then,
            Token::Amp => return Err("unsupported shell operator: '&'".to_string()),
            other => return Err(format!("unexpected token {other:?}")),
        };
        let rhs = Script::Pipeline(pipeline(&mut tokens)?);
        script = Script::Seq(Box::new(script), op, Box::new(rhs));
    }
    Ok(script)
}

type Tokens = std::iter::Peekable<std::vec::IntoIter<Token>>;

fn pipeline(tokens: &mut Tokens) -> Result<Vec<Command>, String> {
    let mut commands = vec![command(tokens)?];
    while tokens.next_if_eq(&Token::Pipe).is_some() {
        commands.push(command(tokens)?);
    }
    Ok(commands)
}

fn command(tokens: &mut Tokens) -> Result<Command, String> {
    let mut args = Vec::new();
    let mut redirects = Vec::new();
    loop {
        match tokens.peek() {
            Some(Token::Word(_)) => {
                let Some(Token::Word(word)) = tokens.next() else { unreachable!("peeked a word") };
                args.push(word);
            }
            Some(Token::Redirect { .. }) => {
                let Some(Token::Redirect { fd, op }) = tokens.next() else {
                    unreachable!("peeked a redirect")
                };
                // lit's parser takes an empty word ("") for the end of input here.
                let Some(Token::Word(word)) =
                    tokens.next().filter(|t| !matches!(t, Token::Word(w) if w.text.is_empty()))
                else {
                    return Err(format!("missing file name after '{op}'"));
                };
                redirects.extend(redirect(fd, op, word)?);
            }
            _ => break,
        }
    }
    // As in lit's parser, a command whose first word is empty ("") is no command.
    if args.first().is_none_or(|w| w.text.is_empty()) {
        return Err("empty command".to_string());
    }
    Ok(Command { args, redirects })
}

fn redirect(fd: Option<u32>, op: &str, word: Word) -> Result<Vec<Redirect>, String> {
    let fd_or = |default| fd.unwrap_or(default);
    let one = |fd, target| Ok(vec![Redirect { fd, target }]);
    let check = |fd: u32| {
        if fd <= 2 {
            Ok(fd)
        } else {
            Err(format!("{UNSUPPORTED_REDIRECT} of descriptor {fd}"))
        }
    };
    match op {
        "<" => one(check(fd_or(0))?, Target::Read(word)),
        ">" => one(check(fd_or(1))?, Target::Write(word)),
        ">>" => one(check(fd_or(1))?, Target::Append(word)),
        ">&" => match word.text.parse() {
            Ok(to @ (1 | 2)) => one(check(fd_or(1))?, Target::Fd(to)),
            _ => Err(format!("{UNSUPPORTED_REDIRECT}: '>&{}'", word.text)),
        },
        _ => Ok(vec![
            Redirect { fd: 1, target: Target::Write(word) },
            Redirect { fd: 2, target: Target::Fd(1) },
        ]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Word {
        Word { text: text.into(), glob: false }
    }

    #[test]
    fn sequences_are_left_associative() {
        let Script::Seq(lhs, SeqOp::Then, _) = parse("a && b || c ; d").unwrap() else {
            panic!("expected `;` at the top")
        };
        let Script::Seq(inner, SeqOp::Or, _) = *lhs else { panic!("expected `||` next") };
        assert!(matches!(*inner, Script::Seq(_, SeqOp::And, _)));
    }

    #[test]
    fn pipelines_and_redirects() {
        let Script::Pipeline(cmds) = parse("a x 2>&1 | b <in >out 2>>err").unwrap() else {
            panic!("expected a pipeline")
        };
        assert_eq!(cmds.len(), 2);
        assert_eq!(cmds[0].args, [w("a"), w("x")]);
        assert_eq!(cmds[0].redirects, [Redirect { fd: 2, target: Target::Fd(1) }]);
        assert_eq!(
            cmds[1].redirects,
            [
                Redirect { fd: 0, target: Target::Read(w("in")) },
                Redirect { fd: 1, target: Target::Write(w("out")) },
                Redirect { fd: 2, target: Target::Append(w("err")) },
            ]
        );
    }

    #[test]
    fn errors() {
        for bad in ["", "a |", "| a", "a &&", "a >", "a & b", "a 3>x", "a >&x", "\"\" x", "a > ''"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
