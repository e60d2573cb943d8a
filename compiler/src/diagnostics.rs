//! Diagnostics in MLIR's style: `file:line:col: error: message`, then the source line and a
//! caret, then attached notes. Everything that goes wrong in Kiln is reported through here, with
//! a location; nothing panics on bad input.

use std::fmt::Write;

use crate::attributes::{AttrKind, Attribute};

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

    /// Attaches a note at `loc`.
    pub fn with_note(mut self, loc: Attribute<'c>, message: impl Into<String>) -> Self {
        self.notes.push(Diagnostic::new(Severity::Note, loc, message));
        self
    }
}

/// The source buffers diagnostics may point into, by file name.
#[derive(Clone, Debug, Default)]
pub struct SourceMgr {
    files: Vec<(String, String)>,
}

impl SourceMgr {
    /// An empty manager.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a buffer under `name` (later buffers with the same name shadow earlier ones).
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) {
        self.files.push((name.into(), text.into()));
    }

    /// The text registered under `name`, if any.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.lookup(name.as_bytes())
    }

    fn lookup(&self, name: &[u8]) -> Option<&str> {
        self.files.iter().rev().find(|(n, _)| n.as_bytes() == name).map(|(_, t)| t.as_str())
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

    /// Renders `diag` and its notes as MLIR does.
    pub fn render(&self, diag: &Diagnostic<'_>) -> String {
        let mut out = String::new();
        self.render_one(&mut out, diag);
        for n in &diag.notes {
            self.render_one(&mut out, n);
        }
        out
    }

    fn render_one(&self, out: &mut String, diag: &Diagnostic<'_>) {
        let label = diag.severity.label();
        let Some((file, line, col)) = Self::file_location(diag.loc) else {
            let _ = writeln!(out, "{}: {label}: {}", loc_prefix(diag.loc), diag.message);
            return;
        };
        let _ = writeln!(out, "{}:{line}:{col}: {label}: {}", String::from_utf8_lossy(file), diag.message);
        // Line 0 names the file as a whole (`file:0:0`, as MLIR's implicit module): no source line.
        let Some(text) = self.lookup(file).filter(|_| line > 0) else { return };
        let Some(src_line) = text.split('\n').nth(line.saturating_sub(1) as usize) else { return };
        let src_line = src_line.strip_suffix('\r').unwrap_or(src_line);
        // Very long lines are clipped around the column so a 100 MB line stays readable.
        let (shown, caret_col) = clip_line(src_line, col.saturating_sub(1) as usize);
        let _ = writeln!(out, "{shown}");
        let _ = writeln!(out, "{}^", " ".repeat(caret_col));
    }
}

fn loc_prefix(loc: Attribute<'_>) -> String {
    match *loc.kind() {
        AttrKind::NameLoc { name, .. } => format!("\"{}\"", String::from_utf8_lossy(name)),
        _ => "loc(unknown)".to_string(),
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
