//! Force/forbid rules: a TOML (`[[rule]]` tables) or JSON (a list of objects) file of
//!
//! ```toml
//! [[rule]]
//! pattern = "MatMul -> Add -> Gelu"   # a producer -> consumer chain of hl ops (CamelCase)
//! action = "force"                    # or "forbid"
//! when = "m >= 128 && dtype == f16"   # optional condition on the chain's first cube op
//! reason = "epilogue fusion pays off"
//! ```
//!
//! A chain matches where each op uses the previous one's result. `forbid` keeps every edge of
//! a match out of any region; `force` lifts the opt-level, enable/disable, precision-guard and
//! strategy restrictions for the edges of a match (legality, `max-ops` and the UB budget still
//! hold). Conditions compare `m`, `n`, `k`, `rank`, `elems` (integers) or `dtype` (`f16`,
//! `bf16`, `f32`, `i32` ...) with `== != < <= > >=`, joined by `&&` and `||`. For a cube op,
//! `m`/`n` are the result's last two dims and `k` the contraction length; otherwise `n` is the
//! last dim, `m` the product of the others and `k` is 1. Variables are read from the chain's
//! first cube op, or its first op if it has none.

use kiln_compiler::{Ir, OpDef};
use kiln_dialects::hl::accessors::checked_numel;
use kiln_dialects::hl::interfaces::{contraction_length, hl_op, FusionCategory};
use serde::Deserialize;

use super::graph::BlockGraph;
use super::options::op_def;

/// What a rule does to the edges of its matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Fuse them whatever the cost model and options say (legality still holds).
    Force,
    /// Never fuse them.
    Forbid,
}

/// One rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The pattern as written.
    pub text: String,
    /// The ops of the chain.
    pub pattern: Vec<&'static OpDef>,
    /// Force or forbid.
    pub action: Action,
    /// The condition, if any.
    pub when: Option<Cond>,
    /// Why (shown in remarks).
    pub reason: String,
}

/// The variables a condition can read.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// Rows (cube: result's second-to-last dim).
    pub m: i64,
    /// Columns (last dim).
    pub n: i64,
    /// Contraction length (1 when not a cube op).
    pub k: i64,
    /// Rank of the result.
    pub rank: i64,
    /// Elements of the result.
    pub elems: i64,
    /// Element type of the result (`f16`, `f32` ...).
    pub dtype: String,
}

/// A parsed condition: a disjunction of conjunctions of comparisons.
#[derive(Clone, Debug)]
pub struct Cond {
    any: Vec<Vec<(String, String, String)>>,
}

impl Cond {
    /// Parses `m >= 128 && dtype == f16 || k < 64`.
    pub fn parse(text: &str) -> Result<Cond, String> {
        let mut any = Vec::new();
        for conj in text.split("||") {
            let mut all = Vec::new();
            for cmp in conj.split("&&") {
                let cmp = cmp.trim();
                let op = ["<=", ">=", "==", "!=", "<", ">"]
                    .into_iter()
                    .find(|o| cmp.contains(o))
                    .ok_or_else(|| format!("condition '{cmp}' has no comparison (== != < <= > >=)"))?;
                let (l, r) = cmp.split_once(op).expect("found above");
                let (l, r) = (l.trim().to_string(), r.trim().to_string());
                match l.as_str() {
                    "m" | "n" | "k" | "rank" | "elems" => {
                        r.parse::<i64>().map_err(|_| format!("'{l}' compares with an integer, not '{r}'"))?;
                    }
                    "dtype" if matches!(op, "==" | "!=") => {}
                    "dtype" => return Err(format!("'dtype' compares with == or != only, not '{op}'")),
                    other => {
                        return Err(format!(
                            "unknown variable '{other}' (known: m, n, k, rank, elems, dtype)"
                        ))
                    }
                }
                all.push((l, op.to_string(), r));
            }
            any.push(all);
        }
        Ok(Cond { any })
    }

    /// Evaluates the condition on `facts`.
    pub fn eval(&self, f: &Facts) -> bool {
        self.any.iter().any(|all| {
            all.iter().all(|(l, op, r)| {
                if l == "dtype" {
                    return (f.dtype == *r) == (op == "==");
                }
                let v = match l.as_str() {
                    "m" => f.m,
                    "n" => f.n,
                    "k" => f.k,
                    "rank" => f.rank,
                    _ => f.elems,
                };
                let r: i64 = r.parse().unwrap_or(0);
                match op.as_str() {
                    "<=" => v <= r,
                    ">=" => v >= r,
                    "==" => v == r,
                    "!=" => v != r,
                    "<" => v < r,
                    _ => v > r,
                }
            })
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    pattern: String,
    action: String,
    #[serde(default)]
    when: Option<String>,
    #[serde(default)]
    reason: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTomlRules {
    rule: Vec<RawRule>,
}

/// Loads a rules file: JSON when it ends in `.json` (or, with another extension than `.toml`,
/// starts with `[` but not `[[`), TOML otherwise.
pub fn load_rules(path: &str) -> Result<Vec<Rule>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read rules file '{path}': {e}"))?;
    parse_rules(&text, path)
}

/// Parses the text of a rules file; `file` names it in errors.
pub fn parse_rules(text: &str, file: &str) -> Result<Vec<Rule>, String> {
    let t = text.trim_start();
    let json =
        file.ends_with(".json") || (!file.ends_with(".toml") && t.starts_with('[') && !t.starts_with("[["));
    let raw: Vec<RawRule> = if json {
        serde_json::from_str(text).map_err(|e| format!("rules file '{file}': line {}: {e}", e.line()))?
    } else {
        let t: RawTomlRules = toml::from_str(text).map_err(|e| {
            let line = e.span().map_or(0, |s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            format!("rules file '{file}': line {line}: {}", e.message().trim_end())
        })?;
        t.rule
    };
    raw.into_iter()
        .enumerate()
        .map(|(i, r)| {
            let at = |m: String| format!("rules file '{file}': rule #{}: {m}", i + 1);
            let pattern =
                r.pattern.split("->").map(|s| op_def(s.trim())).collect::<Result<Vec<_>, _>>().map_err(at)?;
            if pattern.len() < 2 {
                return Err(at(format!("pattern '{}' needs at least two ops joined by '->'", r.pattern)));
            }
            let action = match r.action.as_str() {
                "force" => Action::Force,
                "forbid" => Action::Forbid,
                other => return Err(at(format!("action must be \"force\" or \"forbid\", not \"{other}\""))),
            };
            let when = r.when.as_deref().map(Cond::parse).transpose().map_err(at)?;
            let reason = r.reason.unwrap_or_default();
            Ok(Rule { text: r.pattern, pattern, action, when, reason })
        })
        .collect()
}

/// The rule edges of a block: `(producer, consumer)` local indices -> (rule index, action).
/// `forbid` wins over `force` on an edge both name.
pub type RuleEdges = rustc_hash::FxHashMap<(u32, u32), (usize, Action)>;

/// Finds every match of `rules` in the block graph `g` and returns the edges they name.
pub fn match_rules(ir: &Ir<'_>, g: &BlockGraph, rules: &[Rule]) -> RuleEdges {
    let mut edges = RuleEdges::default();
    for (ri, rule) in rules.iter().enumerate() {
        for start in 0..g.len() as u32 {
            if !ir.is(g.ops[start as usize], rule.pattern[0]) {
                continue;
            }
            // Depth-first over chains, with an explicit stack of partial paths.
            let mut stack: Vec<Vec<u32>> = vec![vec![start]];
            while let Some(path) = stack.pop() {
                if path.len() == rule.pattern.len() {
                    let facts = facts(ir, g, &path);
                    if rule.when.as_ref().is_none_or(|c| c.eval(&facts)) {
                        for w in path.windows(2) {
                            let e = edges.entry((w[0], w[1])).or_insert((ri, rule.action));
                            if rule.action == Action::Forbid {
                                *e = (ri, Action::Forbid);
                            }
                        }
                    }
                    continue;
                }
                let want = rule.pattern[path.len()];
                let last = *path.last().expect("paths are non-empty");
                for &u in &g.users[last as usize] {
                    if ir.is(g.ops[u as usize], want) {
                        let mut p = path.clone();
                        p.push(u);
                        stack.push(p);
                    }
                }
            }
        }
    }
    edges
}

/// The facts of a match: from its first cube op, or its first op.
fn facts(ir: &Ir<'_>, g: &BlockGraph, path: &[u32]) -> Facts {
    let is_cube =
        |&&i: &&u32| hl_op(ir, g.ops[i as usize]).is_some_and(|h| h.category == FusionCategory::Cube);
    let cube = path.iter().find(is_cube);
    let op = g.ops[*cube.unwrap_or(&path[0]) as usize];
    let Some(&r) = ir.results(op).first() else { return Facts::default() };
    let ty = ir.value_type(r);
    let shape = ty.shape().unwrap_or(&[]);
    let rank = shape.len();
    let n = shape.last().copied().unwrap_or(1);
    let (m, k) = if cube.is_some() {
        let m = if rank >= 2 { shape[rank - 2] } else { 1 };
        (m, contraction_length(ir, op).unwrap_or(1) as i64)
    } else {
        (saturating_numel(&shape[..rank.saturating_sub(1)]), 1)
    };
    Facts {
        m,
        n,
        k,
        rank: rank as i64,
        elems: saturating_numel(shape),
        dtype: ty.element_type().map_or(String::new(), |e| e.to_string()),
    }
}

/// The element count of `dims` for rule facts, saturating at `i64::MAX` (see [`checked_numel`]).
fn saturating_numel(dims: &[i64]) -> i64 {
    checked_numel(dims).and_then(|n| i64::try_from(n).ok()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_and_json_rules() {
        let toml = "[[rule]]\npattern = \"MatMul -> Add\"\naction = \"force\"\nwhen = \"m >= 128 && dtype == f16\"\n";
        let r = parse_rules(toml, "r.toml").unwrap();
        assert_eq!(
            r[0].pattern.iter().map(|d| d.name).collect::<Vec<_>>(),
            vec![kiln_dialects::hl::MATMUL.name, kiln_dialects::hl::ADD.name]
        );
        let f = Facts { m: 128, dtype: "f16".into(), ..Facts::default() };
        assert!(r[0].when.as_ref().unwrap().eval(&f));
        let f = Facts { m: 64, dtype: "f16".into(), ..Facts::default() };
        assert!(!r[0].when.as_ref().unwrap().eval(&f));
        let json = r#"[{"pattern": "Exp -> ReduceSum", "action": "forbid", "reason": "precision"}]"#;
        let r = parse_rules(json, "r.json").unwrap();
        assert_eq!(r[0].action, Action::Forbid);
    }

    #[test]
    fn bad_rules_are_clear_errors() {
        let e = parse_rules("[[rule]]\npattern = \"MatMul -> Sort\"\naction = \"force\"\n", "r.toml")
            .unwrap_err();
        assert!(e.contains("rule #1") && e.contains("unknown op 'Sort'"), "{e}");
        let e =
            parse_rules("[[rule]]\npattern = \"Add -> Exp\"\naction = \"maybe\"\n", "r.toml").unwrap_err();
        assert!(e.contains("\"force\" or \"forbid\""), "{e}");
        let e = parse_rules(
            "[[rule]]\npattern = \"Add -> Exp\"\naction = \"force\"\nwhen = \"q > 1\"\n",
            "r.toml",
        )
        .unwrap_err();
        assert!(e.contains("unknown variable 'q'"), "{e}");
        let e = parse_rules("[[rule]]\npatern = \"Add\"\n", "r.toml").unwrap_err();
        assert!(e.contains("unknown field `patern`"), "{e}");
        assert!(parse_rules("[{\"pattern\": 1}]", "r.json").unwrap_err().contains("r.json"));
    }
}
