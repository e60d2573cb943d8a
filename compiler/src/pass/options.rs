//! Typed pass options, parsed from `name{key=value other=1}`.

use indexmap::IndexMap;

/// The type of a pass option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` / `false` (a bare `key` means true).
    Bool,
    /// A signed integer.
    Int,
    /// A non-negative integer.
    UInt,
    /// Any string.
    String,
    /// One of the listed words.
    Enum(&'static [&'static str]),
    /// A comma-separated list of strings.
    List,
}

/// The declaration of one pass option.
#[derive(Clone, Copy, Debug)]
pub struct PassOptionSpec {
    /// Its name (kebab-case).
    pub name: &'static str,
    /// What it does.
    pub help: &'static str,
    /// Its type.
    pub kind: OptionKind,
    /// Its default value, as text.
    pub default: &'static str,
}

/// Option values for one pass instance, validated against its specs.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    values: IndexMap<&'static str, String>,
    specs: &'static [PassOptionSpec],
    /// The options the text gave (the others hold their defaults).
    given: Vec<&'static str>,
}

impl PassOptions {
    /// Parses `key=value` pairs (space separated, values may be `{...}`-braced or quoted) for
    /// a pass with options `specs`; unknown keys and ill-typed values are errors.
    pub fn parse(pass: &str, specs: &'static [PassOptionSpec], text: &str) -> Result<PassOptions, String> {
        let mut values: IndexMap<&'static str, String> = IndexMap::new();
        for spec in specs {
            values.insert(spec.name, spec.default.to_string());
        }
        let mut given = Vec::new();
        for (key, value) in split_pairs(text)? {
            let Some(spec) = specs.iter().find(|s| s.name == key) else {
                let valid: Vec<&str> = specs.iter().map(|s| s.name).collect();
                return Err(if valid.is_empty() {
                    format!("pass '{pass}' has no options, but '{key}' was given")
                } else {
                    format!("no such option '{key}' for pass '{pass}'; valid options: {}", valid.join(", "))
                });
            };
            let value = match value {
                None if spec.kind == OptionKind::Bool => "true".to_string(),
                None => return Err(format!("option '{key}' of pass '{pass}' needs a value")),
                Some(v) => v,
            };
            check_value(pass, spec, &value)?;
            values.insert(spec.name, value);
            if !given.contains(&spec.name) {
                given.push(spec.name);
            }
        }
        Ok(PassOptions { values, specs, given })
    }

    fn raw(&self, name: &str) -> &str {
        self.values.get(name).map_or("", |s| s.as_str())
    }

    /// Whether option `name` was given (not left at its default).
    pub fn is_given(&self, name: &str) -> bool {
        self.given.contains(&name)
    }

    /// A boolean option.
    pub fn get_bool(&self, name: &str) -> bool {
        matches!(self.raw(name), "true" | "1")
    }

    /// An integer option (validated at parse time).
    pub fn get_int(&self, name: &str) -> i64 {
        self.raw(name).parse().unwrap_or(0)
    }

    /// A string or enum option.
    pub fn get_str(&self, name: &str) -> &str {
        self.raw(name)
    }

    /// A list option.
    pub fn get_list(&self, name: &str) -> Vec<&str> {
        self.raw(name).split(',').map(str::trim).filter(|s| !s.is_empty()).collect()
    }

    /// The options as mlir-opt 22 prints them in a pipeline, so that the text parses back to
    /// the same options: `{key=value ...}` sorted by name, every option with its value
    /// (defaults included), an empty list option as nothing; empty when the pass has no
    /// options. Values with spaces are braced (`fusion-flags={--opt_level=2 --dump_as_text}`).
    pub fn render(&self) -> String {
        if self.specs.is_empty() {
            return String::new();
        }
        let mut specs: Vec<&PassOptionSpec> = self.specs.iter().collect();
        specs.sort_by_key(|s| s.name);
        let parts: Vec<String> = specs
            .iter()
            .map(|spec| match self.raw(spec.name) {
                "" if spec.kind == OptionKind::List => String::new(),
                v if v.contains(char::is_whitespace) => format!("{}={{{v}}}", spec.name),
                v => format!("{}={v}", spec.name),
            })
            .collect();
        format!("{{{}}}", parts.join(" "))
    }
}

fn check_value(pass: &str, spec: &PassOptionSpec, value: &str) -> Result<(), String> {
    let ok = match spec.kind {
        OptionKind::Bool => matches!(value, "true" | "false" | "1" | "0"),
        OptionKind::Int => value.parse::<i64>().is_ok(),
        OptionKind::UInt => value.parse::<u64>().is_ok(),
        OptionKind::String | OptionKind::List => true,
        OptionKind::Enum(words) => words.contains(&value),
    };
    if ok {
        return Ok(());
    }
    let expected = match spec.kind {
        OptionKind::Bool => "true or false".to_string(),
        OptionKind::Int => "an integer".to_string(),
        OptionKind::UInt => "a non-negative integer".to_string(),
        OptionKind::Enum(words) => format!("one of {}", words.join(", ")),
        OptionKind::String | OptionKind::List => unreachable!("strings always parse"),
    };
    Err(format!("invalid value '{value}' for option '{}' of pass '{pass}': expected {expected}", spec.name))
}

/// Splits `a=1 b={x y} c="q r" d` into pairs.
fn split_pairs(text: &str) -> Result<Vec<(&str, Option<String>)>, String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() || bytes[i] == b',' {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'=' {
            i += 1;
        }
        let key = &text[start..i];
        if i >= bytes.len() || bytes[i] != b'=' {
            out.push((key, None));
            continue;
        }
        i += 1;
        let vstart = i;
        let (value, end) = match bytes.get(i) {
            Some(b'"') | Some(b'\'') => {
                let q = bytes[i];
                let close =
                    text[i + 1..].find(q as char).ok_or_else(|| format!("unterminated quote in '{text}'"))?;
                (text[i + 1..i + 1 + close].to_string(), i + close + 2)
            }
            Some(b'{') => {
                let mut depth = 0;
                let mut j = i;
                loop {
                    match bytes.get(j) {
                        Some(b'{') => depth += 1,
                        Some(b'}') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Some(_) => {}
                        None => return Err(format!("unbalanced '{{' in '{text}'")),
                    }
                    j += 1;
                }
                (text[i + 1..j].to_string(), j + 1)
            }
            _ => {
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
                (text[vstart..i].to_string(), i)
            }
        };
        out.push((key, Some(value)));
        i = end;
    }
    Ok(out)
}
