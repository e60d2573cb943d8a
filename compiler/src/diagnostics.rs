//! Diagnostics in MLIR's style: `file:line:col: error: message`, then the source line and a
//! caret, then attached notes. Everything that goes wrong in Kiln is reported through here, with
//! a location; nothing panics on bad input.

use std::fmt::Write;

use crate::attributes::{AttrKind, Attribute};
use crate::ir::{Ir, OpId};

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// A note attached to another diagnostic (or a free-standing one).
    Note,
    /// Information, e.g. an optimization remark.
    Remark,
    /// Something suspicious that does not stop compilation.
    Warning,
    /// Compilation fails.
    Error,
}

impl Severity {
    /// The word printed after the location (`error`, `warning`, `remark`, `note`).
    pub fn label(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Remark => "remark",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One diagnostic with its notes.
#[derive(Clone, Debug)]
pub struct Diagnostic<'c> {
    /// Severity.
    pub severity: Severity,
    /// Where it points (a location attribute).
    pub loc: Attribute<'c>,
    /// The message: lowercase, no trailing period.
    pub message: String,
    /// Attached notes.
    pub notes: Vec<Diagnostic<'c>>,
}

impl<'c> Diagnostic<'c> {
    /// An error at `loc`.
    pub fn error(loc: Attribute<'c>, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, loc, message: message.into(), notes: Vec::new() }
    }

    /// A diagnostic of any severity at `loc`.
    pub fn new(severity: Severity, loc: Attribute<'c>, message: impl Into<String>) -> Self {
        Diagnostic { severity, loc, message: message.into(), notes: Vec::new() }
    }

    /// An error about `op`, at its location, prefixed with its name as MLIR's `emitOpError`
    /// does: `'func.return' op has 1 operands, but ...`.
    pub fn op_error(ir: &Ir<'c>, op: OpId, message: impl std::fmt::Display) -> Self {
        let data = ir.op(op);
        Diagnostic::error(data.loc, format!("'{}' op {message}", data.name))
    }

    /// Attaches a note at `loc`.
    pub fn with_note(mut self, loc: Attribute<'c>, message: impl Into<String>) -> Self {
        self.notes.push(Diagnostic::new(Severity::Note, loc, message));
        self
    }

    /// The message and its notes on one line, `message (note; note)`, for error channels
    /// without source locations (an exception's text). The `see current operation` note,
    /// which prints the whole op, is left out.
    pub fn summary(&self) -> String {
        let notes: Vec<&str> = self
            .notes
            .iter()
            .map(|n| n.message.as_str())
            .filter(|m| !m.starts_with("see current operation"))
            .collect();
        if notes.is_empty() {
            self.message.clone()
        } else {
            format!("{} ({})", self.message, notes.join("; "))
        }
    }
}

/// The source buffers diagnostics may point into, by file name.
#[derive(Clone, Debug, Default)]
pub struct SourceMgr {
    files: Vec<SourceFile>,
}

/// A buffer and the byte offset of each of its lines, computed once when it is added so that
/// rendering a diagnostic finds its line in O(1) (not by re-splitting the buffer).
#[derive(Clone, Debug)]
struct SourceFile {
    name: String,
    text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    fn new(name: String, text: String) -> Self {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        SourceFile { name, text, line_starts }
    }

    /// Line `line` (1-based) as LLVM's `SourceMgr` shows it: up to its first `\r` or `\n`
    /// (lines are counted by `\n`, but a `\r` also ends the text shown).
    fn line(&self, line: u32) -> Option<&str> {
        let i = (line as usize).checked_sub(1)?;
        let start = *self.line_starts.get(i)?;
        let end = self.line_starts.get(i + 1).map_or(self.text.len(), |&next| next - 1);
        let text = &self.text[start..end];
        Some(text.split('\r').next().unwrap_or(text))
    }
}

impl SourceMgr {
    /// An empty manager.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a buffer under `name` (later buffers with the same name shadow earlier ones).
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) {
        self.files.push(SourceFile::new(name.into(), text.into()));
    }

    /// The text registered under `name`, if any.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.lookup(name.as_bytes()).map(|f| f.text.as_str())
    }

    fn lookup(&self, name: &[u8]) -> Option<&SourceFile> {
        self.files.iter().rev().find(|f| f.name.as_bytes() == name)
    }

    /// The innermost file location of `loc`, if any: the one a diagnostic is printed at.
    pub fn file_location<'c>(loc: Attribute<'c>) -> Option<(&'c [u8], u32, u32)> {
        let mut stack = vec![loc];
        while let Some(l) = stack.pop() {
            match *l.kind() {
                AttrKind::FileLineColLoc { file, line, col, .. } => return Some((file, line, col)),
                AttrKind::NameLoc { child: Some(c), .. } => stack.push(c),
                AttrKind::CallSiteLoc { callee, .. } => stack.push(callee),
                AttrKind::FusedLoc { locs, .. } => stack.extend(locs.iter().rev()),
                _ => {}
            }
        }
        None
    }

    /// Renders `diag` and its notes as MLIR does: a note at the location just shown (the
    /// diagnostic's or the previous note's) shows no source line again.
    pub fn render(&self, diag: &Diagnostic<'_>) -> String {
        let mut out = String::new();
        self.render_one(&mut out, diag, true);
        let mut shown = diag.loc;
        for n in &diag.notes {
            self.render_one(&mut out, n, n.loc != shown);
            shown = n.loc;
        }
        out
    }

    fn render_one(&self, out: &mut String, diag: &Diagnostic<'_>, source_line: bool) {
        let label = diag.severity.label();
        let Some((file, line, col)) = Self::file_location(diag.loc) else {
            // MLIR prints the message at no source position (`<unknown>:0`), after the location
            // itself unless that is `loc(unknown)`.
            let _ = match *diag.loc.kind() {
                AttrKind::UnknownLoc => writeln!(out, "<unknown>:0: {label}: {}", diag.message),
                _ => writeln!(out, "<unknown>:0: {label}: {}: {}", diag.loc, diag.message),
            };
            return;
        };
        let _ = writeln!(out, "{}:{line}:{col}: {label}: {}", String::from_utf8_lossy(file), diag.message);
        if !source_line {
            return;
        }
        // Line 0 names the file as a whole (`file:0:0`, as MLIR's implicit module): no source line.
        let Some(src_line) = self.lookup(file).and_then(|f| f.line(line)) else { return };
        // Nor a column past the text shown (past a `\r`, as LLVM's `FindLocForLineAndColumn`).
        if col.saturating_sub(1) as usize > src_line.len() {
            return;
        }
        // Very long lines are clipped around the column so a 100 MB line stays readable.
        let (shown, caret_col) = clip_line(src_line, col.saturating_sub(1) as usize);
        let _ = writeln!(out, "{shown}");
        let _ = writeln!(out, "{}^", " ".repeat(caret_col));
    }
}

fn clip_line(line: &str, col: usize) -> (String, usize) {
    const WINDOW: usize = 120;
    let chars: Vec<char> = if line.len() > 4 * WINDOW {
        let start = floor_char_boundary(line, col.saturating_sub(WINDOW / 2));
        let end = floor_char_boundary(line, (start + WINDOW).min(line.len()));
        return (line[start..end].to_string(), col.saturating_sub(start));
    } else {
        line.chars().collect()
    };
    let caret = line.get(..col.min(line.len())).map_or(col, |p| p.chars().count());
    (chars.into_iter().collect(), caret)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
