//! The crate's module graph, read from its sources: which file names which (`crate::` paths,
//! `$crate::` paths in macros, `super::` and `self::` paths, `use child::...` of a declared
//! child module, and exported macros by name), and its strongly connected components.
//!
//! [`LAYERS`] is the crate's layer order, written here once and checked by
//! [`modules_form_layers`]; docs/architecture.md ("The core crate's layers") explains it, and
//! [`the_architecture_doc_shows_the_layers`] keeps its diagram in step.
//! `cargo test -p kiln-compiler --test layering -- --ignored --nocapture` prints the
//! components of the file graph and of the top-level module graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A directed graph over names.
#[derive(Default)]
struct Graph {
    edges: BTreeMap<String, BTreeSet<String>>,
}

impl Graph {
    fn add_node(&mut self, n: &str) {
        self.edges.entry(n.to_string()).or_default();
    }

    fn add_edge(&mut self, from: &str, to: &str) {
        self.add_node(to);
        if from != to {
            self.edges.entry(from.to_string()).or_default().insert(to.to_string());
        }
    }

    /// The graph with every node renamed by `f` (edges between nodes of one name vanish).
    fn map(&self, f: impl Fn(&str) -> String) -> Graph {
        let mut g = Graph::default();
        for (from, tos) in &self.edges {
            g.add_node(&f(from));
            for to in tos {
                g.add_edge(&f(from), &f(to));
            }
        }
        g
    }

    fn reachable(&self, from: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(n) = stack.pop() {
            for m in &self.edges[&n] {
                if seen.insert(m.clone()) {
                    stack.push(m.clone());
                }
            }
        }
        seen
    }

    /// The strongly connected components of more than one node, biggest first.
    fn cycles(&self) -> Vec<BTreeSet<String>> {
        let reach: BTreeMap<&String, BTreeSet<String>> =
            self.edges.keys().map(|n| (n, self.reachable(n))).collect();
        let mut sccs: Vec<BTreeSet<String>> = Vec::new();
        for n in self.edges.keys() {
            if sccs.iter().any(|s| s.contains(n)) || !reach[n].contains(n) {
                continue;
            }
            sccs.push(reach[n].iter().filter(|m| reach[*m].contains(n)).cloned().collect());
        }
        sccs.sort_by_key(|s| std::cmp::Reverse(s.len()));
        sccs
    }

    /// A shortest cycle through `n`, as `n -> ... -> n`.
    fn cycle_through(&self, n: &str) -> Vec<String> {
        let mut prev: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([n.to_string()]);
        while let Some(u) = queue.pop_front() {
            for v in &self.edges[&u] {
                if v == n {
                    let mut path = vec![u.clone()];
                    while let Some(p) = prev.get(path.last().unwrap()) {
                        path.push(p.clone());
                    }
                    path.reverse();
                    path.push(n.to_string());
                    return path;
                }
                if !prev.contains_key(v) {
                    prev.insert(v.clone(), u.clone());
                    queue.push_back(v.clone());
                }
            }
        }
        Vec::new()
    }
}

/// Source text with comments removed (doc links are not imports).
fn strip_comments(src: &str) -> String {
    let mut out = String::new();
    let mut in_block = false;
    for line in src.lines() {
        let mut rest = line;
        let mut kept = String::new();
        loop {
            if in_block {
                match rest.find("*/") {
                    Some(i) => {
                        in_block = false;
                        rest = &rest[i + 2..];
                    }
                    None => break,
                }
            } else {
                let line_comment = rest.find("//");
                let block = rest.find("/*");
                match (line_comment, block) {
                    (Some(l), b) if b.is_none_or(|b| l < b) => {
                        kept.push_str(&rest[..l]);
                        break;
                    }
                    (_, Some(b)) => {
                        kept.push_str(&rest[..b]);
                        in_block = true;
                        rest = &rest[b + 2..];
                    }
                    _ => {
                        kept.push_str(rest);
                        break;
                    }
                }
            }
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Parses the path that follows an anchor (`crate::`, ...) at `s`: its expansions (one per
/// leaf of a `{...}` group), as segment lists.
fn parse_path(s: &str) -> Vec<Vec<String>> {
    fn ident(s: &str) -> (&str, &str) {
        let end = s.find(|c: char| !is_ident_char(c)).unwrap_or(s.len());
        (&s[..end], &s[end..])
    }
    fn path(s: &str) -> (Vec<Vec<String>>, &str) {
        let s = s.trim_start();
        if let Some(mut rest) = s.strip_prefix('{') {
            let mut all = Vec::new();
            loop {
                rest = rest.trim_start();
                if let Some(r) = rest.strip_prefix('}') {
                    return (all, r);
                }
                let (sub, r) = path(rest);
                all.extend(sub);
                rest = r.trim_start();
                rest = rest.strip_prefix(',').unwrap_or(rest);
                if rest.is_empty() {
                    return (all, rest);
                }
            }
        }
        let (id, rest) = ident(s);
        if id.is_empty() {
            return (vec![Vec::new()], s);
        }
        match rest.strip_prefix("::") {
            Some(r) => {
                let (subs, r) = path(r);
                let subs = subs
                    .into_iter()
                    .map(|mut p| {
                        p.insert(0, id.to_string());
                        p
                    })
                    .collect();
                (subs, r)
            }
            None => {
                // `x as y` keeps `x`.
                let rest = rest.trim_start();
                let rest = rest.strip_prefix("as ").map_or(rest, |r| ident(r.trim_start()).1);
                (vec![vec![id.to_string()]], rest)
            }
        }
    }
    path(s).0
}

/// One source file: its module path and the paths it names, made absolute.
struct SourceFile {
    /// Relative to `src/`, with `/`.
    name: String,
    module: Vec<String>,
    paths: Vec<Vec<String>>,
    macros_used: BTreeSet<String>,
}

fn module_of(rel: &str) -> Vec<String> {
    let stem = rel.strip_suffix(".rs").unwrap();
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

fn read_file(rel: &str, text: &str) -> SourceFile {
    let code = strip_comments(text);
    let module = module_of(rel);
    let children: BTreeSet<String> = code
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("pub ").or(l.strip_prefix("pub(crate) ")).unwrap_or(l);
            let name = l.strip_prefix("mod ")?.trim_end().strip_suffix(';')?;
            Some(name.to_string())
        })
        .collect();
    let mut paths = Vec::new();
    let mut macros_used = BTreeSet::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let boundary = i == 0 || !is_ident_char(bytes[i - 1] as char);
        if !boundary || !rest.starts_with(is_ident_char) {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let word_end = rest.find(|c: char| !is_ident_char(c)).unwrap_or(rest.len());
        let word = &rest[..word_end];
        let after = &rest[word_end..];
        let mut base: Option<Vec<String>> = None;
        let mut tail = after;
        if let Some(t) = after.strip_prefix("::") {
            tail = t;
            match word {
                "crate" => base = Some(Vec::new()),
                "self" => base = Some(module.clone()),
                "super" => {
                    let mut b = module.clone();
                    b.pop();
                    while let Some(t2) = tail.strip_prefix("super::") {
                        b.pop();
                        tail = t2;
                    }
                    base = Some(b);
                }
                w if children.contains(w) && code[..i].trim_end().ends_with("use") => {
                    base = Some(module.clone());
                    tail = rest;
                }
                _ => {}
            }
        } else if after.starts_with('!') {
            macros_used.insert(word.to_string());
        }
        if let Some(base) = base {
            for p in parse_path(tail) {
                let mut full = base.clone();
                full.extend(p);
                paths.push(full);
            }
        }
        i += word_end.max(1);
    }
    SourceFile { name: rel.to_string(), module, paths, macros_used }
}

fn collect(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, root, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// The file graph of `src/` (`lib.rs`, the facade that declares and re-exports everything,
/// is left out).
fn file_graph() -> Graph {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut texts = Vec::new();
    collect(&root, &root, &mut texts);
    let files: Vec<SourceFile> = texts.iter().map(|(rel, text)| read_file(rel, text)).collect();
    let by_module: BTreeMap<Vec<String>, &SourceFile> = files.iter().map(|f| (f.module.clone(), f)).collect();
    // Names the crate root re-exports (`pub use attributes::Attribute`), to their paths.
    let lib = files.iter().find(|f| f.name == "lib.rs").unwrap();
    let lib_code = strip_comments(&texts.iter().find(|(r, _)| r == "lib.rs").unwrap().1);
    let mut reexports: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for stmt in lib_code.split(';') {
        if let Some(p) = stmt.trim().strip_prefix("pub use ") {
            for path in parse_path(p) {
                reexports.insert(path.last().unwrap().clone(), path);
            }
        }
    }
    // Exported macros, by the file that defines them.
    let mut macros: BTreeMap<String, String> = BTreeMap::new();
    for (rel, text) in &texts {
        for chunk in text.split("#[macro_export]").skip(1) {
            if let Some(name) = chunk.trim_start().strip_prefix("macro_rules! ") {
                let name: String = name.chars().take_while(|&c| is_ident_char(c)).collect();
                macros.insert(name, rel.clone());
            }
        }
    }
    let mut g = Graph::default();
    for f in files.iter().filter(|f| f.name != lib.name) {
        g.add_node(&f.name);
        for path in &f.paths {
            let path = match path.first().and_then(|s| reexports.get(s)) {
                Some(target) if !by_module.contains_key(&path[..1]) => {
                    target.iter().chain(&path[1..]).cloned().collect()
                }
                _ => path.clone(),
            };
            if let Some(m) = path.last().and_then(|m| macros.get(m)).filter(|_| path.len() == 1) {
                g.add_edge(&f.name, m);
                continue;
            }
            let target = (1..=path.len()).rev().find_map(|n| by_module.get(&path[..n]));
            if let Some(t) = target.filter(|t| t.name != lib.name) {
                g.add_edge(&f.name, &t.name);
            }
        }
        for m in f.macros_used.iter().filter_map(|m| macros.get(m)) {
            g.add_edge(&f.name, m);
        }
    }
    g
}

/// The top-level module a file belongs to (`syntax/parser/ops.rs` is in `syntax`).
fn top_module(file: &str) -> String {
    let first = file.split('/').next().unwrap();
    first.strip_suffix(".rs").unwrap_or(first).to_string()
}

fn describe(sccs: &[BTreeSet<String>]) -> String {
    sccs.iter()
        .map(|s| format!("  {} nodes: {}\n", s.len(), s.iter().cloned().collect::<Vec<_>>().join(", ")))
        .collect()
}

#[test]
#[ignore = "a report: run with --ignored --nocapture"]
fn print_module_graph() {
    let files = file_graph();
    let top = files.map(top_module);
    println!("top-level module graph:");
    for (from, tos) in &top.edges {
        println!("  {from} -> {}", tos.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    println!("cycles among top-level modules:\n{}", describe(&top.cycles()));
    println!("cycles among files:\n{}", describe(&files.cycles()));
    for scc in top.cycles() {
        println!("e.g. {}", top.cycle_through(scc.first().unwrap()).join(" -> "));
    }
}

/// The crate's top-level modules, bottom layer first. A module names only modules of lower
/// layers, except for the [`BACK_EDGES`]; modules of one layer do not name each other.
const LAYERS: &[(&str, &[&str])] = &[
    ("affine expressions", &["affine"]),
    ("types", &["types"]),
    ("attributes", &["attributes"]),
    ("the context: interning, the dialect registry", &["context"]),
    ("the IR store", &["ir"]),
    ("diagnostics", &["diagnostics"]),
    ("hook interfaces: assembly parser and printer, patterns and the rewriter", &["asm", "pattern"]),
    ("dialect attribute and type definitions", &["dialect_attrs"]),
    ("op definitions and dialects", &["dialect"]),
    ("modules, symbol tables, owned contexts", &["module", "symbol_table", "owned_context"]),
    ("the text format: parser and printer", &["syntax"]),
    ("the greedy rewrite driver, the verifier", &["rewrite", "verifier"]),
    ("dialect conversion, the pass manager", &["conversion", "pass"]),
];

/// The edges that go up a layer, each with why: the IR core's types name one another (as
/// MLIR's `Type`, `Attribute`, `Operation`, `Dialect` and `MLIRContext` do), so these modules
/// are one strongly connected component; every other edge goes down.
const BACK_EDGES: &[(&str, &str, &str)] = &[
    ("types", "attributes", "a tensor's encoding, a memref's layout and memory space"),
    ("types", "dialect_attrs", "a dialect type holds its `TypeDef`"),
    ("attributes", "dialect_attrs", "a dialect attribute holds its `AttrDef`"),
    ("context", "dialect", "the context holds the dialect registry"),
    ("ir", "dialect", "an op holds its `OpDef`"),
    ("pattern", "dialect", "a pattern is rooted on an `OpDef`"),
];

/// Checks the top-level module graph against [`LAYERS`] and [`BACK_EDGES`]; the errors.
fn layering_errors(top: &Graph) -> Vec<String> {
    let mut errors = Vec::new();
    let mut layer_of: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, (_, modules)) in LAYERS.iter().enumerate() {
        for m in *modules {
            if layer_of.insert(m, i).is_some() {
                errors.push(format!("module `{m}` is declared in two layers"));
            }
        }
    }
    for m in top.edges.keys() {
        if !layer_of.contains_key(m.as_str()) {
            errors.push(format!("module `{m}` is in no layer: add it to LAYERS"));
        }
    }
    for m in layer_of.keys() {
        if !top.edges.contains_key(*m) {
            errors.push(format!("LAYERS names `{m}`, which is not a module"));
        }
    }
    let allowed = |from: &str, to: &str| BACK_EDGES.iter().any(|&(f, t, _)| f == from && t == to);
    // The graph without the declared back edges must have no cycle.
    let mut forward = Graph::default();
    for (from, tos) in &top.edges {
        forward.add_node(from);
        for to in tos.iter().filter(|to| !allowed(from, to)) {
            forward.add_edge(from, to);
        }
    }
    for scc in forward.cycles() {
        let cycle = forward.cycle_through(scc.first().unwrap());
        errors.push(format!("cycle among top-level modules: {}", cycle.join(" -> ")));
    }
    for (from, tos) in &forward.edges {
        let Some(&lf) = layer_of.get(from.as_str()) else { continue };
        for to in tos {
            let Some(&lt) = layer_of.get(to.as_str()) else { continue };
            if lt >= lf {
                errors.push(format!(
                    "`{from}` (layer {}, {}) names `{to}` (layer {}, {}), which is not below it",
                    lf + 1,
                    LAYERS[lf].0,
                    lt + 1,
                    LAYERS[lt].0
                ));
            }
        }
    }
    for &(from, to, why) in BACK_EDGES {
        if layer_of.get(from) >= layer_of.get(to) {
            errors.push(format!("declared back edge {from} -> {to} ({why}) goes down: remove it"));
        }
        if !top.edges.get(from).is_some_and(|tos| tos.contains(to)) {
            errors.push(format!("declared back edge {from} -> {to} ({why}) no longer exists: remove it"));
        }
    }
    errors
}

#[test]
fn modules_form_layers() {
    let errors = layering_errors(&file_graph().map(top_module));
    assert!(errors.is_empty(), "the module graph breaks the layering:\n{}", errors.join("\n"));
}

/// The layer diagram of docs/architecture.md lists [`LAYERS`]: one line per layer, its number
/// (bottom = 1) and its modules, then a description after two spaces or more.
#[test]
fn the_architecture_doc_shows_the_layers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/architecture.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let section = doc.split("## The core crate's layers").nth(1).expect("the section is there");
    let diagram = section.split("```").nth(1).expect("the section opens with the diagram");
    let mut shown: Vec<(usize, String)> = diagram
        .lines()
        .filter_map(|line| {
            let (number, rest) = line.trim_start().split_once("  ")?;
            let modules = rest.trim_start().split("  ").next()?;
            Some((number.parse().ok()?, modules.to_string()))
        })
        .collect();
    shown.sort();
    let declared: Vec<(usize, String)> =
        LAYERS.iter().enumerate().map(|(i, (_, modules))| (i + 1, modules.join(", "))).collect();
    assert_eq!(shown, declared, "docs/architecture.md's layer diagram differs from LAYERS");
}
