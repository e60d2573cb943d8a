//! `--split-input-file`: cutting one input into chunks that are processed independently.
//!
//! A chunk ends at a line that reads exactly the split marker (`// -----` by default; leading
//! and trailing whitespace is ignored), and the marker line belongs to no chunk. Each chunk is
//! padded in front with as many empty lines as precede it in the file, so the parser reports
//! line numbers of the whole file, as mlir-opt 22 does, and `expected-*` designators keep
//! their meaning.
//!
//! A line that looks like a marker but is not one (`// ----`, `//-----`, `// ------`,
//! `// ----- x`) would silently merge two test cases; mlir-opt only warns about some of these.
//! Here every such near miss is an error naming its line: a checker must not pass silently.

use std::borrow::Cow;

/// The marker mlir-opt splits on by default.
pub const DEFAULT_MARKER: &str = "// -----";

/// One piece of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The chunk's bytes, preceded by one `\n` per line of the file before it (borrowed from
    /// the input when the file is not split).
    pub text: Cow<'a, [u8]>,
    /// The 1-based line of the file the chunk starts on.
    pub first_line: u32,
}

/// A line that resembles the split marker without being it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NearMiss {
    /// 1-based line.
    pub line: u32,
    /// 1-based column of the line's first non-blank character.
    pub col: u32,
}

/// The whole input as a single chunk (no splitting).
pub fn whole(input: &[u8]) -> Vec<Chunk<'_>> {
    vec![Chunk { text: Cow::Borrowed(input), first_line: 1 }]
}

/// Splits `input` on lines equal to `marker`. Near misses of the marker are errors, reported
/// all at once in file order.
pub fn split_input<'a>(input: &'a [u8], marker: &str) -> Result<Vec<Chunk<'a>>, Vec<NearMiss>> {
    let marker = marker.trim().as_bytes();
    let mut chunks = Vec::new();
    let mut near_misses = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
    let mut pos = 0usize;
    let mut line_no = 1u32;
    while pos < input.len() {
        let end = input[pos..].iter().position(|&b| b == b'\n').map_or(input.len(), |i| pos + i);
        let line = &input[pos..end];
        let next = (end + 1).min(input.len());
        let trimmed = line.trim_ascii();
        if trimmed == marker {
            chunks.push(padded(&input[start..pos], start_line));
            start = next;
            start_line = line_no + 1;
        } else if is_near_miss(trimmed, marker) {
            let col = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(0) as u32 + 1;
            near_misses.push(NearMiss { line: line_no, col });
        }
        pos = end + 1;
        line_no += 1;
    }
    if !near_misses.is_empty() {
        return Err(near_misses);
    }
    chunks.push(padded(&input[start.min(input.len())..], start_line));
    Ok(chunks)
}

fn padded(text: &[u8], first_line: u32) -> Chunk<'static> {
    let mut out = vec![b'\n'; first_line as usize - 1];
    out.extend_from_slice(text);
    Chunk { text: Cow::Owned(out), first_line }
}

/// Whether `trimmed` (a line without surrounding blanks) resembles the default-shaped marker
/// `marker` (`//` then blanks then dashes) without being it: 3 to 7 dashes with any spacing,
/// or the marker followed by more text. Rulers of 8 or more dashes are ordinary comments.
fn is_near_miss(trimmed: &[u8], marker: &[u8]) -> bool {
    let Some(marker_dashes) = marker.strip_prefix(b"//").map(|m| m.trim_ascii()) else {
        return false;
    };
    if marker_dashes.is_empty() || marker_dashes.iter().any(|&b| b != b'-') {
        return false;
    }
    let Some(rest) = trimmed.strip_prefix(b"//") else { return false };
    let compact: Vec<u8> = rest.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect();
    let dashes_only = !compact.is_empty() && compact.iter().all(|&b| b == b'-');
    if dashes_only && (3..=7).contains(&compact.len()) {
        return true;
    }
    // `// ----- x`: the marker with trailing text (mlir-opt splits there and parses `x`).
    trimmed.strip_prefix(marker).is_some_and(|after| after.first().is_some_and(|&b| b != b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(chunks: &[Chunk]) -> Vec<String> {
        chunks.iter().map(|c| String::from_utf8(c.text.to_vec()).unwrap()).collect()
    }

    #[test]
    fn splits_on_exact_markers_and_pads_line_numbers() {
        let input = b"a\nb\n// -----\nc\n  // -----  \nd";
        let chunks = split_input(input, DEFAULT_MARKER).unwrap();
        assert_eq!(texts(&chunks), ["a\nb\n", "\n\n\nc\n", "\n\n\n\n\nd"]);
        assert_eq!(chunks.iter().map(|c| c.first_line).collect::<Vec<_>>(), [1, 4, 6]);
    }

    #[test]
    fn no_marker_is_one_chunk() {
        let chunks = split_input(b"x\ny\n", DEFAULT_MARKER).unwrap();
        assert_eq!(texts(&chunks), ["x\ny\n"]);
    }

    #[test]
    fn marker_at_the_ends_gives_empty_chunks() {
        let chunks = split_input(b"// -----\nx\n// -----\n", DEFAULT_MARKER).unwrap();
        assert_eq!(texts(&chunks), ["", "\nx\n", "\n\n\n"]);
    }

    #[test]
    fn crlf_lines_are_markers_too() {
        let chunks = split_input(b"a\r\n// -----\r\nb\r\n", DEFAULT_MARKER).unwrap();
        assert_eq!(texts(&chunks), ["a\r\n", "\n\nb\r\n"]);
    }

    #[test]
    fn near_misses_are_reported_with_their_lines() {
        let input = b"a\n// ----\nb\n  //-----\n// ------\n// ----- x\n//  -  -  -\n";
        let misses = split_input(input, DEFAULT_MARKER).unwrap_err();
        let at: Vec<(u32, u32)> = misses.iter().map(|m| (m.line, m.col)).collect();
        assert_eq!(at, [(2, 1), (4, 3), (5, 1), (6, 1), (7, 1)]);
    }

    #[test]
    fn rulers_and_ordinary_comments_are_not_near_misses() {
        let input = b"// ------------------------------\n//===---===//\n// -- note\n// - item\n";
        assert_eq!(split_input(input, DEFAULT_MARKER).unwrap().len(), 1);
    }

    #[test]
    fn custom_markers_split_without_near_miss_detection() {
        let chunks = split_input(b"a\n#---\nb\n# --\n", "#---").unwrap();
        assert_eq!(texts(&chunks), ["a\n", "\n\nb\n# --\n"]);
    }
}
