//! Textual pass pipelines: `builtin.module(func.func(cse, canonicalize{max-iterations=3}), symbol-dce)`.
//!
//! An element followed by `(` names an op and opens a nested pass manager for ops of that name
//! (`any` for every op); otherwise it is a registered pass, optionally with `{options}`. A list
//! without an outer anchor runs on the top-level op.

use super::manager::{Entry, PassManager};
use super::{PassOptions, PassRegistry};

/// Parses a pipeline description against `registry`.
pub fn parse_pipeline(text: &str, registry: &PassRegistry) -> Result<PassManager, String> {
    let mut p = Parser { text, pos: 0, registry };
    let entries = p.list()?;
    p.skip_ws();
    if p.pos < text.len() {
        return Err(p.error(&format!("unexpected '{}' in pass pipeline", &text[p.pos..p.pos + 1])));
    }
    // A single anchored element at the top is the pipeline's own anchor.
    if let [Entry::Nested(_)] = entries.as_slice() {
        if let Some(Entry::Nested(pm)) = entries.into_iter().next() {
            return Ok(pm);
        }
        unreachable!("matched a single nested entry");
    }
    Ok(PassManager::with_entries(None, entries))
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    registry: &'a PassRegistry,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> String {
        format!("{message}\n  {}\n  {}^", self.text, " ".repeat(self.pos))
    }

    fn skip_ws(&mut self) {
        while self.text[self.pos..].starts_with(|c: char| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn list(&mut self) -> Result<Vec<Entry>, String> {
        let mut entries = Vec::new();
        loop {
            self.skip_ws();
            if matches!(self.peek(), None | Some(b')')) {
                return Ok(entries);
            }
            entries.push(self.element()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                _ => return Ok(entries),
            }
        }
    }

    fn element(&mut self) -> Result<Entry, String> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || b"-_.".contains(&c)) {
            self.pos += 1;
        }
        let name = &self.text[start..self.pos];
        if name.is_empty() {
            return Err(self.error("expected a pass or op name in pass pipeline"));
        }
        let options = if self.peek() == Some(b'{') {
            let open = self.pos;
            let mut depth = 0;
            loop {
                match self.peek() {
                    Some(b'{') => depth += 1,
                    Some(b'}') => {
                        depth -= 1;
                        if depth == 0 {
                            self.pos += 1;
                            break;
                        }
                    }
                    Some(_) => {}
                    None => {
                        self.pos = open;
                        return Err(self.error("unbalanced '{' in pass options"));
                    }
                }
                self.pos += 1;
            }
            Some(&self.text[open + 1..self.pos - 1])
        } else {
            None
        };
        self.skip_ws();
        if self.peek() == Some(b'(') {
            if options.is_some() {
                return Err(self.error("an op anchor takes no options"));
            }
            self.pos += 1;
            let entries = self.list()?;
            self.skip_ws();
            if self.peek() != Some(b')') {
                return Err(self.error("expected ')' to close the nested pipeline"));
            }
            self.pos += 1;
            let anchor = (name != "any").then(|| name.to_string());
            return Ok(Entry::Nested(PassManager::with_entries(anchor, entries)));
        }
        let Some(info) = self.registry.get(name) else {
            self.pos = start;
            return Err(self.error(&format!(
                "'{name}' does not refer to a registered pass or pass pipeline; registered passes: {}",
                self.registry.names()
            )));
        };
        let text = format!("{} {}", self.registry.default_options(name), options.unwrap_or(""));
        let opts = PassOptions::parse(name, info.options, &text)?;
        Ok(Entry::Pass((info.create)(&opts)?, opts))
    }
}
