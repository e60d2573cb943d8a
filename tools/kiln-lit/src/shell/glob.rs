//! Expanding unquoted `*`, `?` and `[...]` in words against the file
//! system; like lit, a pattern matching nothing stays as written.

use std::path::Path;

/// The sorted paths matching `pattern` (relative to `cwd` unless
/// absolute), written the way the pattern was; `[pattern]` if none match.
pub fn expand(pattern: &str, cwd: &Path) -> Vec<String> {
    let absolute = pattern.starts_with('/');
    let mut found = vec![String::new()];
    for component in pattern.split('/').filter(|c| !c.is_empty()) {
        let mut next = Vec::new();
        for prefix in &found {
            let join = |name: &str| {
                if prefix.is_empty() && !absolute {
                    name.to_string()
                } else {
                    format!("{prefix}/{name}")
                }
            };
            if !component.contains(['*', '?', '[']) {
                next.push(join(component));
                continue;
            }
            let dir = cwd.join(if prefix.is_empty() && absolute { "/" } else { prefix });
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                let hidden_ok = component.starts_with('.') || !name.starts_with('.');
                if hidden_ok && matches(component.as_bytes(), name.as_bytes()) {
                    next.push(join(&name));
                }
            }
        }
        found = next;
    }
    found.retain(|p| cwd.join(p).symlink_metadata().is_ok());
    if found.is_empty() {
        return vec![pattern.to_string()];
    }
    found.sort();
    found
}

/// Whether `name` matches the wildcard `pattern`.
fn matches(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|k| matches(rest, &name[k..])),
        Some((b'?', rest)) => !name.is_empty() && matches(rest, &name[1..]),
        Some((b'[', rest)) => match (rest.iter().position(|&b| b == b']'), name.first()) {
            (Some(close), Some(&c)) if close > 0 => {
                let (set, negate) = match rest[..close].split_first() {
                    Some((b'!' | b'^', set)) => (set, true),
                    _ => (&rest[..close], false),
                };
                in_set(set, c) != negate && matches(&rest[close + 1..], &name[1..])
            }
            _ => name.first() == Some(&b'[') && matches(rest, &name[1..]),
        },
        Some((&p, rest)) => name.first() == Some(&p) && matches(rest, &name[1..]),
    }
}

fn in_set(set: &[u8], c: u8) -> bool {
    let mut k = 0;
    while k < set.len() {
        if k + 2 < set.len() && set[k + 1] == b'-' {
            if (set[k]..=set[k + 2]).contains(&c) {
                return true;
            }
            k += 3;
        } else {
            if set[k] == c {
                return true;
            }
            k += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(matches(b"*.txt", b"a.txt"));
        assert!(!matches(b"*.txt", b"a.txt2"));
        assert!(matches(b"a?c", b"abc"));
        assert!(matches(b"[a-c]x", b"bx"));
        assert!(!matches(b"[!a-c]x", b"bx"));
    }

    #[test]
    fn unmatched_patterns_stay() {
        assert_eq!(expand("/nonexistent-dir/*.x", Path::new("/")), ["/nonexistent-dir/*.x"]);
    }
}
