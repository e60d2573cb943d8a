//! Source buffers and LLVM `SourceMgr`-style diagnostic printing.
//!
//! Every text FileCheck reports on (the check file, the input, the fake
//! `command line` buffers for `--implicit-check-not` and `-D`) lives in a
//! [`SourceManager`]. Positions are [`Loc`]s: a buffer handle plus a byte
//! offset. Messages are rendered like LLVM:
//!
//! ```text
//! check.txt:2:8: error: CHECK: expected string not found in input
//! CHECK: foo
//!        ^
//! ```

use std::io::Write;

/// Handle of a buffer inside a [`SourceManager`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BufferId(u32);

/// A byte position inside one buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    /// The buffer holding the position.
    pub buffer: BufferId,
    /// Byte offset from the start of the buffer (may equal its length).
    pub offset: usize,
}

impl Loc {
    /// The location `n` bytes further on in the same buffer.
    pub fn advanced(self, n: usize) -> Loc {
        Loc { buffer: self.buffer, offset: self.offset + n }
    }
}

/// Severity of a printed diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// `error:`
    Error,
    /// `note:`
    Note,
    /// `remark:`
    Remark,
}

impl Severity {
    fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }

    /// The ANSI colour LLVM's `WithColor` gives the label: bold red, black
    /// or blue.
    fn color(self) -> &'static str {
        match self {
            Severity::Error => ansi::RED,
            Severity::Note => ansi::BLACK,
            Severity::Remark => ansi::BLUE,
        }
    }
}

/// ANSI escapes as LLVM's `raw_ostream` writes them.
pub mod ansi {
    /// Bold, in the current colour.
    pub const BOLD: &str = "\x1b[1m";
    /// Back to normal.
    pub const RESET: &str = "\x1b[0m";
    /// Bold green (carets, good matches).
    pub const GREEN: &str = "\x1b[0;1;32m";
    /// Bold red (errors).
    pub const RED: &str = "\x1b[0;1;31m";
    /// Bold black (notes, line numbers).
    pub const BLACK: &str = "\x1b[0;1;30m";
    /// Bold blue (remarks).
    pub const BLUE: &str = "\x1b[0;1;34m";
    /// Bold magenta (fuzzy matches).
    pub const MAGENTA: &str = "\x1b[0;1;35m";
    /// Bold cyan (discarded matches).
    pub const CYAN: &str = "\x1b[0;1;36m";
    /// Bold on a cyan background (unmatched input).
    pub const CYAN_BACKGROUND: &str = "\x1b[0;1;46m";
}

struct Buffer {
    name: String,
    text: Vec<u8>,
}

/// Owner of all buffers diagnostics can point into.
#[derive(Default)]
pub struct SourceManager {
    buffers: Vec<Buffer>,
    /// Whether diagnostics carry ANSI colours (`--color`), as LLVM's do.
    pub color: bool,
}

impl SourceManager {
    /// Adds a buffer and returns its handle.
    pub fn add(&mut self, name: impl Into<String>, text: Vec<u8>) -> BufferId {
        let id = BufferId(u32::try_from(self.buffers.len()).expect("too many buffers"));
        self.buffers.push(Buffer { name: name.into(), text });
        id
    }

    /// The contents of a buffer.
    pub fn text(&self, id: BufferId) -> &[u8] {
        &self.buffers[id.0 as usize].text
    }

    /// One-based line and column of a location, as LLVM computes them: lines
    /// are counted by `\n`, columns from the last `\n` or `\r`.
    pub fn line_col(&self, loc: Loc) -> (usize, usize) {
        let before = &self.text(loc.buffer)[..loc.offset];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        // As in LLVM, columns restart after a `\r` too.
        let line_start = before.iter().rposition(|&b| b == b'\n' || b == b'\r').map_or(0, |p| p + 1);
        (line, loc.offset - line_start + 1)
    }

    /// Renders a diagnostic at `loc`, underlining `range` (byte offsets in the
    /// same buffer, end exclusive) with tildes.
    pub fn render(&self, loc: Loc, severity: Severity, msg: &str, range: Option<(usize, usize)>) -> Vec<u8> {
        let buf = &self.buffers[loc.buffer.0 as usize];
        let text = &buf.text;
        let (line, col) = self.line_col(loc);
        let (name, label) = (&buf.name, severity.label());
        let mut out = if self.color {
            let (bold, reset, color) = (ansi::BOLD, ansi::RESET, severity.color());
            format!("{bold}{name}:{line}:{col}: {reset}{color}{label}: {reset}{bold}{msg}\n{reset}")
        } else {
            format!("{name}:{line}:{col}: {label}: {msg}\n")
        }
        .into_bytes();
        let line_start = loc.offset - (col - 1);
        let line_end = text[line_start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(text.len(), |p| line_start + p);
        let source_line = &text[line_start..line_end];
        let mut caret = vec![b' '; source_line.len().max(col) + 1];
        if let Some((start, end)) = range {
            let from = start.max(line_start) - line_start;
            let to = end.min(line_end).max(start.max(line_start)) - line_start;
            for c in caret.iter_mut().take(to).skip(from) {
                *c = b'~';
            }
        }
        caret[col - 1] = b'^';
        let (shown, caret) = expand_tabs(source_line, &caret);
        out.extend_from_slice(&shown);
        out.push(b'\n');
        // Like LLVM, no caret line under a line that is not valid UTF-8.
        if std::str::from_utf8(source_line).is_err() {
            return out;
        }
        let trimmed = caret.iter().rposition(|&c| c != b' ').map_or(0, |p| p + 1);
        if self.color {
            out.extend_from_slice(ansi::GREEN.as_bytes());
        }
        out.extend_from_slice(&caret[..trimmed]);
        out.push(b'\n');
        if self.color {
            out.extend_from_slice(ansi::RESET.as_bytes());
        }
        out
    }

    /// Prints a diagnostic to standard error (see [`SourceManager::render`]).
    pub fn print(&self, loc: Loc, severity: Severity, msg: &str, range: Option<(usize, usize)>) {
        let _ = std::io::stderr().write_all(&self.render(loc, severity, msg, range));
    }
}

/// Expands tabs to 8-column stops in a source line, repeating the caret
/// line's mark across each expanded tab as LLVM does.
fn expand_tabs(line: &[u8], caret: &[u8]) -> (Vec<u8>, Vec<u8>) {
    const TAB_STOP: usize = 8;
    let (mut shown, mut marks) = (Vec::new(), Vec::new());
    for &c in line {
        if c == b'\t' {
            loop {
                shown.push(b' ');
                if shown.len() % TAB_STOP == 0 {
                    break;
                }
            }
        } else {
            shown.push(c);
        }
    }
    for (i, &m) in caret.iter().enumerate() {
        if line.get(i) == Some(&b'\t') {
            loop {
                marks.push(m);
                if marks.len() % TAB_STOP == 0 {
                    break;
                }
            }
        } else {
            marks.push(m);
        }
    }
    (shown, marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_caret_and_range() {
        let mut sm = SourceManager::default();
        let id = sm.add("f", b"ab\nfoo bar\n".to_vec());
        let loc = Loc { buffer: id, offset: 7 };
        let text = sm.render(loc, Severity::Note, "found here", Some((7, 10)));
        assert_eq!(String::from_utf8(text).unwrap(), "f:2:5: note: found here\nfoo bar\n    ^~~\n");
    }

    #[test]
    fn line_col_at_end_of_buffer() {
        let mut sm = SourceManager::default();
        let id = sm.add("f", b"a\n".to_vec());
        assert_eq!(sm.line_col(Loc { buffer: id, offset: 2 }), (2, 1));
    }
}

/// An error pinned to a position of a buffer, printed as
/// `file:line:col: error: msg` with the source line and a caret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanError {
    /// Start of the offending text.
    pub loc: Loc,
    /// The message.
    pub msg: String,
    /// Printed with an empty line after it, as LLVM's `logAllUnhandledErrors` prints an
    /// `ErrorDiagInfo` (the errors of numeric blocks, variable names and `-D` definitions).
    pub logged: bool,
}

impl SpanError {
    /// An error at `loc`.
    pub fn new(loc: Loc, msg: impl Into<String>) -> Self {
        SpanError { loc, msg: msg.into(), logged: false }
    }

    /// The same error, printed as a logged one (see [`SpanError::logged`]).
    pub fn logged(self) -> Self {
        SpanError { logged: true, ..self }
    }

    /// Prints the error to standard error.
    pub fn print(&self, sm: &SourceManager) {
        sm.print(self.loc, Severity::Error, &self.msg, None);
        if self.logged {
            eprintln!();
        }
    }
}

/// A reported problem: located in a buffer, or a bare message.
#[derive(Debug)]
pub enum Report {
    /// A diagnostic located in a buffer.
    At(SpanError),
    /// A message printed as is.
    Plain(String),
}

impl From<SpanError> for Report {
    fn from(e: SpanError) -> Self {
        Report::At(e)
    }
}

impl Report {
    /// Prints the problem to standard error.
    pub fn print(&self, sm: &SourceManager) {
        match self {
            Report::At(e) => e.print(sm),
            Report::Plain(msg) => eprintln!("{msg}"),
        }
    }
}
