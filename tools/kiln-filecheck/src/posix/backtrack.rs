//! The matcher for patterns with back-references, as BSD `regexec`'s
//! `backref()`: a backtracking search over the pattern's syntax tree that, at
//! one start position, tries every way to match and keeps the longest, with
//! the groups of the first way (in the pattern's order of preference) that
//! reaches it. A back-reference matches the exact text its group captured
//! (compared byte for byte even when ignoring case, as `regexec` does) and
//! never matches while its group is unset.
//!
//! Like `regexec`'s, the search is exponential in the worst case; FileCheck
//! patterns are short and `.` never crosses a newline, so a search stays
//! within a line or two.

use regex_automata::util::look::{Look, LookMatcher};
use regex_syntax::hir::{Class, Hir, HirKind, Repetition};

/// What remains to match after the current node.
enum Next<'a> {
    /// The end of the pattern.
    Done,
    /// The remaining items of a concatenation.
    Then(&'a [Hir], &'a Next<'a>),
    /// Another iteration of `rep` may follow `done` completed ones; the last
    /// one started at `from`.
    Repeat { rep: &'a Repetition, done: u32, from: usize, next: &'a Next<'a> },
    /// The end of capture group `group`.
    Close { group: usize, next: &'a Next<'a> },
}

/// The state of one anchored search.
pub(super) struct Search<'h> {
    hay: &'h [u8],
    /// (copy group, original group): the copy is matched as a back-reference.
    copies: &'h [(usize, usize)],
    looks: LookMatcher,
    slots: Vec<Option<usize>>,
    best: Option<(usize, Vec<Option<usize>>)>,
}

impl<'h> Search<'h> {
    /// A search in `hay` for a pattern with `groups` capture groups (group 0
    /// included).
    pub(super) fn new(hay: &'h [u8], groups: usize, copies: &'h [(usize, usize)]) -> Self {
        Search { hay, copies, looks: LookMatcher::new(), slots: vec![None; 2 * groups], best: None }
    }

    /// The longest match of `hir` starting at `at`, as group slots (start and
    /// end per group, group 0 being the whole match).
    pub(super) fn longest(mut self, hir: &Hir, at: usize) -> Option<Vec<Option<usize>>> {
        self.slots[0] = Some(at);
        self.node(hir, at, &Next::Done);
        self.best.map(|(_, slots)| slots)
    }

    fn node(&mut self, hir: &Hir, at: usize, next: &Next) {
        let hay = self.hay;
        match hir.kind() {
            HirKind::Empty => self.next(at, next),
            HirKind::Literal(lit) => {
                if hay[at..].starts_with(&lit.0) {
                    self.next(at + lit.0.len(), next);
                }
            }
            HirKind::Class(class) => {
                if let Some(len) = class_match(class, &hay[at..]) {
                    self.next(at + len, next);
                }
            }
            HirKind::Look(look) => {
                let look =
                    Look::from_repr(look.as_repr()).expect("regex-syntax and regex-automata share looks");
                if self.looks.matches(look, hay, at) {
                    self.next(at, next);
                }
            }
            HirKind::Repetition(rep) => self.repeat(rep, 0, at, next),
            HirKind::Capture(cap) => {
                let group = cap.index as usize;
                if let Some(&(_, orig)) = self.copies.iter().find(|&&(copy, _)| copy == group) {
                    if let (Some(s), Some(e)) = (self.slots[2 * orig], self.slots[2 * orig + 1]) {
                        if hay[at..].starts_with(&hay[s..e]) {
                            self.next(at + (e - s), next);
                        }
                    }
                    return;
                }
                let saved = (self.slots[2 * group], self.slots[2 * group + 1]);
                self.slots[2 * group] = Some(at);
                self.node(&cap.sub, at, &Next::Close { group, next });
                (self.slots[2 * group], self.slots[2 * group + 1]) = saved;
            }
            HirKind::Concat(items) => self.seq(items, at, next),
            HirKind::Alternation(alts) => {
                for alt in alts {
                    self.node(alt, at, next);
                }
            }
        }
    }

    fn next(&mut self, at: usize, next: &Next) {
        match *next {
            Next::Done => {
                if self.best.as_ref().is_none_or(|&(end, _)| at > end) {
                    let mut slots = self.slots.clone();
                    slots[1] = Some(at);
                    self.best = Some((at, slots));
                }
            }
            Next::Then(items, next) => self.seq(items, at, next),
            Next::Repeat { rep, done, from, next } => {
                // An empty iteration beyond the minimum cannot lead anywhere new.
                if !(at == from && done > rep.min) {
                    self.repeat(rep, done, at, next);
                }
            }
            Next::Close { group, next } => {
                let saved = self.slots[2 * group + 1];
                self.slots[2 * group + 1] = Some(at);
                self.next(at, next);
                self.slots[2 * group + 1] = saved;
            }
        }
    }

    fn seq(&mut self, items: &[Hir], at: usize, next: &Next) {
        match items.split_first() {
            None => self.next(at, next),
            Some((first, rest)) => self.node(first, at, &Next::Then(rest, next)),
        }
    }

    fn repeat(&mut self, rep: &Repetition, done: u32, at: usize, next: &Next) {
        let more = rep.max.is_none_or(|max| done < max);
        let again = Next::Repeat { rep, done: done + 1, from: at, next };
        if rep.greedy {
            if more {
                self.node(&rep.sub, at, &again);
            }
            if done >= rep.min {
                self.next(at, next);
            }
        } else {
            if done >= rep.min {
                self.next(at, next);
            }
            if more {
                self.node(&rep.sub, at, &again);
            }
        }
    }
}

/// The length of the class's match at the start of `hay`, if any.
fn class_match(class: &Class, hay: &[u8]) -> Option<usize> {
    match class {
        Class::Bytes(c) => {
            let &b = hay.first()?;
            c.ranges().iter().any(|r| r.start() <= b && b <= r.end()).then_some(1)
        }
        Class::Unicode(c) => {
            let prefix = &hay[..hay.len().min(4)];
            let text = match std::str::from_utf8(prefix) {
                Ok(s) => s,
                Err(e) => std::str::from_utf8(&prefix[..e.valid_up_to()]).ok()?,
            };
            let ch = text.chars().next()?;
            c.ranges().iter().any(|r| r.start() <= ch && ch <= r.end()).then_some(ch.len_utf8())
        }
    }
}
