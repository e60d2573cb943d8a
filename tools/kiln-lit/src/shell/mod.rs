//! A small shell like lit's internal one: enough sh to run RUN lines the
//! same way on every machine, without starting `/bin/sh` for each.

mod builtins;
mod diff;
mod difflib;
mod exec;
mod glob;
mod lexer;
mod parser;

pub use exec::Shell;
pub use lexer::{lex, Token};
