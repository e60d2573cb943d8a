//! Python's `difflib`, as far as lit's `diff` builtin uses it: the `SequenceMatcher` that
//! aligns two sequences of lines (longest matching blocks found recursively, with the
//! "autojunk" rule that ignores lines making up more than 1% of a 200-line or longer `b`
//! when looking for blocks), its grouped opcodes, and the two output formats
//! `unified_diff` and `context_diff`. lit 22's `diff` prints what these print, so kiln-lit
//! reproduces the same hunks byte for byte, not merely a correct diff.

use std::collections::HashMap;

/// What an opcode does with `a[i1..i2]` and `b[j1..j2]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tag {
    Equal,
    Replace,
    Delete,
    Insert,
}

/// One opcode: `a[i1..i2]` becomes `b[j1..j2]`.
#[derive(Clone, Copy, Debug)]
struct Opcode {
    tag: Tag,
    i1: usize,
    i2: usize,
    j1: usize,
    j2: usize,
}

/// `difflib.SequenceMatcher(None, a, b)`.
struct SequenceMatcher<'s, T> {
    a: &'s [T],
    b: &'s [T],
    /// Where each element of `b` occurs (popular elements removed).
    b2j: HashMap<&'s T, Vec<usize>>,
}

impl<'s, T: Eq + std::hash::Hash> SequenceMatcher<'s, T> {
    fn new(a: &'s [T], b: &'s [T]) -> Self {
        let mut b2j: HashMap<&T, Vec<usize>> = HashMap::new();
        for (j, elt) in b.iter().enumerate() {
            b2j.entry(elt).or_default().push(j);
        }
        if b.len() >= 200 {
            let ntest = b.len() / 100 + 1;
            b2j.retain(|_, idxs| idxs.len() <= ntest);
        }
        SequenceMatcher { a, b, b2j }
    }

    /// The longest block `a[i..i+k] == b[j..j+k]` within the bounds (earliest in `a`, then in
    /// `b`), found without popular elements and then extended over equal neighbours.
    fn find_longest_match(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> (usize, usize, usize) {
        let (a, b) = (self.a, self.b);
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
        let mut j2len: HashMap<usize, usize> = HashMap::new();
        for (i, elt) in a.iter().enumerate().take(ahi).skip(alo) {
            let mut next: HashMap<usize, usize> = HashMap::new();
            for &j in self.b2j.get(elt).map_or(&[][..], Vec::as_slice) {
                if j < blo {
                    continue;
                }
                if j >= bhi {
                    break;
                }
                let k = j.checked_sub(1).and_then(|p| j2len.get(&p)).copied().unwrap_or(0) + 1;
                next.insert(j, k);
                if k > bestsize {
                    (besti, bestj, bestsize) = (i + 1 - k, j + 1 - k, k);
                }
            }
            j2len = next;
        }
        while besti > alo && bestj > blo && a[besti - 1] == b[bestj - 1] {
            (besti, bestj, bestsize) = (besti - 1, bestj - 1, bestsize + 1);
        }
        while besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] == b[bestj + bestsize] {
            bestsize += 1;
        }
        (besti, bestj, bestsize)
    }

    /// The matching blocks in order, adjacent ones merged, ending in `(len a, len b, 0)`.
    fn matching_blocks(&self) -> Vec<(usize, usize, usize)> {
        let mut queue = vec![(0, self.a.len(), 0, self.b.len())];
        let mut blocks = Vec::new();
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let (i, j, k) = self.find_longest_match(alo, ahi, blo, bhi);
            if k > 0 {
                blocks.push((i, j, k));
                if alo < i && blo < j {
                    queue.push((alo, i, blo, j));
                }
                if i + k < ahi && j + k < bhi {
                    queue.push((i + k, ahi, j + k, bhi));
                }
            }
        }
        blocks.sort_unstable();
        let mut merged: Vec<(usize, usize, usize)> = Vec::new();
        for (i, j, k) in blocks {
            match merged.last_mut() {
                Some(last) if last.0 + last.2 == i && last.1 + last.2 == j => last.2 += k,
                _ => merged.push((i, j, k)),
            }
        }
        merged.push((self.a.len(), self.b.len(), 0));
        merged
    }

    fn opcodes(&self) -> Vec<Opcode> {
        let (mut i, mut j) = (0, 0);
        let mut codes = Vec::new();
        for (ai, bj, size) in self.matching_blocks() {
            let tag = match (i < ai, j < bj) {
                (true, true) => Some(Tag::Replace),
                (true, false) => Some(Tag::Delete),
                (false, true) => Some(Tag::Insert),
                (false, false) => None,
            };
            if let Some(tag) = tag {
                codes.push(Opcode { tag, i1: i, i2: ai, j1: j, j2: bj });
            }
            (i, j) = (ai + size, bj + size);
            if size > 0 {
                codes.push(Opcode { tag: Tag::Equal, i1: ai, i2: i, j1: bj, j2: j });
            }
        }
        codes
    }

    /// The opcodes in hunks with up to `n` lines of context (`get_grouped_opcodes`).
    fn grouped_opcodes(&self, n: usize) -> Vec<Vec<Opcode>> {
        let mut codes = self.opcodes();
        if codes.is_empty() {
            codes.push(Opcode { tag: Tag::Equal, i1: 0, i2: 1, j1: 0, j2: 1 });
        }
        if let Some(c) = codes.first_mut().filter(|c| c.tag == Tag::Equal) {
            (c.i1, c.j1) = (c.i1.max(c.i2.saturating_sub(n)), c.j1.max(c.j2.saturating_sub(n)));
        }
        if let Some(c) = codes.last_mut().filter(|c| c.tag == Tag::Equal) {
            (c.i2, c.j2) = (c.i2.min(c.i1 + n), c.j2.min(c.j1 + n));
        }
        let mut groups = Vec::new();
        let mut group = Vec::new();
        for mut c in codes {
            if c.tag == Tag::Equal && c.i2 - c.i1 > 2 * n {
                group.push(Opcode { i2: c.i2.min(c.i1 + n), j2: c.j2.min(c.j1 + n), ..c });
                groups.push(std::mem::take(&mut group));
                (c.i1, c.j1) = (c.i1.max(c.i2.saturating_sub(n)), c.j1.max(c.j2.saturating_sub(n)));
            }
            group.push(c);
        }
        if !(group.is_empty() || group.len() == 1 && group[0].tag == Tag::Equal) {
            groups.push(group);
        }
        groups
    }
}

/// `difflib.unified_diff(a, b, from, to, n=context)`, concatenated; empty when the sequences
/// are equal. Lines keep their own endings (a last line without one runs into the next).
pub fn unified_diff<T: Eq + std::hash::Hash + AsRef<[u8]>>(
    a: &[T],
    b: &[T],
    from: &str,
    to: &str,
    context: usize,
) -> Vec<u8> {
    let groups = SequenceMatcher::new(a, b).grouped_opcodes(context);
    let mut out = Vec::new();
    if groups.is_empty() {
        return out;
    }
    out.extend_from_slice(format!("--- {from}\n+++ {to}\n").as_bytes());
    for group in groups {
        let (first, last) = (group[0], group[group.len() - 1]);
        let head =
            format!("@@ -{} +{} @@\n", unified_range(first.i1, last.i2), unified_range(first.j1, last.j2));
        out.extend_from_slice(head.as_bytes());
        for c in group {
            let mut lines = |mark: u8, lines: &[T]| {
                for line in lines {
                    out.push(mark);
                    out.extend_from_slice(line.as_ref());
                }
            };
            if c.tag == Tag::Equal {
                lines(b' ', &a[c.i1..c.i2]);
                continue;
            }
            if matches!(c.tag, Tag::Replace | Tag::Delete) {
                lines(b'-', &a[c.i1..c.i2]);
            }
            if matches!(c.tag, Tag::Replace | Tag::Insert) {
                lines(b'+', &b[c.j1..c.j2]);
            }
        }
    }
    out
}

/// `difflib.context_diff(a, b, from, to, n=context)`, concatenated; empty when the sequences
/// are equal.
pub fn context_diff<T: Eq + std::hash::Hash + AsRef<[u8]>>(
    a: &[T],
    b: &[T],
    from: &str,
    to: &str,
    context: usize,
) -> Vec<u8> {
    let groups = SequenceMatcher::new(a, b).grouped_opcodes(context);
    let mut out = Vec::new();
    if groups.is_empty() {
        return out;
    }
    out.extend_from_slice(format!("*** {from}\n--- {to}\n").as_bytes());
    let prefix = |tag: Tag| match tag {
        Tag::Insert => b"+ ",
        Tag::Delete => b"- ",
        Tag::Replace => b"! ",
        Tag::Equal => b"  ",
    };
    for group in groups {
        let (first, last) = (group[0], group[group.len() - 1]);
        out.extend_from_slice(b"***************\n");
        out.extend_from_slice(format!("*** {} ****\n", context_range(first.i1, last.i2)).as_bytes());
        if group.iter().any(|c| matches!(c.tag, Tag::Replace | Tag::Delete)) {
            for c in group.iter().filter(|c| c.tag != Tag::Insert) {
                for line in &a[c.i1..c.i2] {
                    out.extend_from_slice(prefix(c.tag));
                    out.extend_from_slice(line.as_ref());
                }
            }
        }
        out.extend_from_slice(format!("--- {} ----\n", context_range(first.j1, last.j2)).as_bytes());
        if group.iter().any(|c| matches!(c.tag, Tag::Replace | Tag::Insert)) {
            for c in group.iter().filter(|c| c.tag != Tag::Delete) {
                for line in &b[c.j1..c.j2] {
                    out.extend_from_slice(prefix(c.tag));
                    out.extend_from_slice(line.as_ref());
                }
            }
        }
    }
    out
}

/// `start,length` of a unified hunk header (1-based; `,length` left out when 1).
fn unified_range(start: usize, stop: usize) -> String {
    let length = stop - start;
    match length {
        1 => format!("{}", start + 1),
        0 => format!("{start},0"),
        _ => format!("{},{length}", start + 1),
    }
}

/// `first,last` of a context hunk header (1-based; one number for a single or no line).
fn context_range(start: usize, stop: usize) -> String {
    let length = stop - start;
    let beginning = if length == 0 { start } else { start + 1 };
    if length <= 1 {
        format!("{beginning}")
    } else {
        format!("{beginning},{}", beginning + length - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&str> {
        text.split_inclusive('\n').collect()
    }

    // The expected texts are what Python 3.11's difflib prints for the same calls.
    #[test]
    fn context_and_unified_as_python_prints_them() {
        let a = lines("a\nb\nc\nd\ne\nf\ng\nh\ni\n");
        let b = lines("a\nB\nc\nd\ne\nf\ng\nh\ni\nj\n");
        assert_eq!(
            String::from_utf8(unified_diff(&a, &b, "x", "y", 1)).unwrap(),
            "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -9 +9,2 @@\n i\n+j\n"
        );
        assert_eq!(
            String::from_utf8(context_diff(&a, &b, "x", "y", 1)).unwrap(),
            "*** x\n--- y\n***************\n*** 1,3 ****\n  a\n! b\n  c\n--- 1,3 ----\n  a\n! B\n  c\n\
             ***************\n*** 9 ****\n--- 9,10 ----\n  i\n+ j\n"
        );
        assert!(context_diff(&a, &a, "x", "y", 3).is_empty());
    }

    #[test]
    fn blocks_are_found_longest_first_not_as_an_lcs() {
        // The longest common subsequence keeps "a" and "c"; difflib takes the first longest
        // block (the leading "c") and has nothing left to align around it.
        let a = lines("c\na\nb\nc\n");
        let b = lines("a\nc\n");
        assert_eq!(
            String::from_utf8(unified_diff(&a, &b, "a", "b", 3)).unwrap(),
            "--- a\n+++ b\n@@ -1,4 +1,2 @@\n+a\n c\n-a\n-b\n-c\n"
        );
    }

    #[test]
    fn popular_lines_of_a_long_b_are_junk_when_looking_for_blocks() {
        let a: Vec<String> =
            (0..300).map(|i| if i % 2 == 0 { "}\n".to_string() } else { format!("{i}\n") }).collect();
        let mut b = a.clone();
        b.insert(150, "new\n".to_string());
        let m = SequenceMatcher::new(&a, &b);
        assert!(!m.b2j.contains_key(&"}\n".to_string()));
        let codes = m.opcodes();
        assert!(codes.iter().any(|c| c.tag == Tag::Insert && c.j1 == 150 && c.j2 == 151), "{codes:?}");
    }
}
