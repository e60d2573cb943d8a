//! Alias collection, after MLIR's `AliasInitializer`: which attributes and types the printer
//! names (`#map`, `#set`, `#loc`, `!tuple`), their numbering, and where their definitions go.
//!
//! A dummy walk visits what the printer will print, in MLIR's order (per op: its location,
//! its regions, operand and result types, then its attributes). Aliases are then sorted by
//! nesting depth, types before attributes, and base name (stable, so visit order breaks ties)
//! and numbered `#map`, `#map1`, ... in that order. Locations reached only through op
//! locations are deferred: their definitions are printed after the top op.

use std::cell::RefCell;

use rustc_hash::{FxHashMap as HashMap, FxHashSet};

use indexmap::{IndexMap, IndexSet};

use crate::attributes::{AttrKind, Attribute};
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId};
use crate::syntax::type_attr::AliasLookup;
use crate::types::{Type, TypeKind};

/// How deep the walk follows nested attributes and types before giving up on aliases there.
const MAX_NESTING: usize = 512;

/// Dialects whose ops mlir-opt registers: their properties are visited (as inherent
/// attributes of registered ops are); properties of truly unregistered ops are not.
const MLIR_DIALECTS: &[&str] = &[
    "acc",
    "affine",
    "amdgpu",
    "amx",
    "arith",
    "arm_neon",
    "arm_sme",
    "arm_sve",
    "async",
    "bufferization",
    "builtin",
    "cf",
    "complex",
    "dlti",
    "emitc",
    "func",
    "gpu",
    "index",
    "irdl",
    "linalg",
    "llvm",
    "math",
    "memref",
    "ml_program",
    "mpi",
    "nvgpu",
    "nvvm",
    "omp",
    "pdl",
    "pdl_interp",
    "ptr",
    "quant",
    "rocdl",
    "scf",
    "shape",
    "shard",
    "smt",
    "sparse_tensor",
    "spirv",
    "tensor",
    "tosa",
    "transform",
    "ub",
    "vector",
    "wasmssa",
    "x86vector",
    "xegpu",
    "xevm",
];

/// Mnemonics of `#llvm.*` attributes that mlir-opt's LLVM dialect names by their mnemonic.
const LLVM_ALIASED: &[&str] = &[
    "di_basic_type",
    "di_compile_unit",
    "di_composite_type",
    "di_derived_type",
    "di_file",
    "di_global_variable",
    "di_global_variable_expression",
    "di_imported_entity",
    "di_label",
    "di_lexical_block",
    "di_lexical_block_file",
    "di_local_variable",
    "di_module",
    "di_namespace",
    "di_null_type",
    "di_string_type",
    "di_subprogram",
    "di_subroutine_type",
    "loop_annotation",
    "tbaa_root",
    "tbaa_tag",
    "tbaa_type_desc",
];

/// The alias mlir-opt's upstream dialects give attributes we keep opaque.
fn upstream_alias(dialect: &str, body: &str) -> Option<&'static str> {
    let mnemonic = body.split(['<', ' ']).next().unwrap_or(body);
    match dialect {
        "llvm" => LLVM_ALIASED.iter().copied().find(|m| *m == mnemonic),
        "sparse_tensor" if mnemonic == "encoding" => Some("sparse"),
        _ => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key<'c> {
    Attr(Attribute<'c>),
    Type(Type<'c>),
}

struct Info<'c> {
    base: Option<&'c str>,
    /// The name is used as is, not numbered (an alias a dialect chose, read from the input).
    fixed: bool,
    depth: usize,
    deferrable: bool,
    children: Vec<usize>,
    /// When the walk finished this value (0: never); a child finished later is an ancestor
    /// still in progress, reached again through recursion.
    finished: u32,
}

/// The aliases chosen for one print.
#[derive(Default)]
pub(crate) struct AliasTable<'c> {
    names: HashMap<Key<'c>, String>,
    /// Alias definitions in print order: (value, name, deferred).
    defs: Vec<(Key<'c>, bool)>,
    /// `dense_resource` handles in order of first reference.
    pub resource_handles: IndexSet<&'c str>,
    /// `distinct[..]` attributes in order of first print: their printed ids.
    distinct: RefCell<IndexSet<Attribute<'c>>>,
    /// `--mlir-elide-elementsattrs-if-larger` (see [`AliasLookup::elements_limit`]).
    pub elements_limit: Option<usize>,
}

struct Collector<'a, 'c> {
    ctx: &'a Context<'c>,
    seen: IndexMap<Key<'c>, Info<'c>>,
    /// Values opaque bodies refer to by alias, with the name they use.
    referenced: HashMap<Key<'c>, &'c str>,
    handles: IndexSet<&'c str>,
    debug_info: bool,
    /// Values finished so far (see [`Info::finished`]).
    finished: u32,
}

impl<'c> AliasTable<'c> {
    /// Collects the aliases for printing `root` (and the resource handles it references).
    pub fn collect(ctx: &Context<'c>, ir: &Ir<'c>, root: OpId, debug_info: bool, enabled: bool) -> Self {
        let mut c = Collector {
            ctx,
            seen: IndexMap::new(),
            referenced: HashMap::default(),
            handles: IndexSet::new(),
            debug_info,
            finished: 0,
        };
        c.visit_tree(ir, root);
        c.follow_input_order();
        let mut table = AliasTable { resource_handles: c.handles, ..Default::default() };
        if !enabled {
            return table;
        }
        let mut order: Vec<usize> = (0..c.seen.len()).filter(|&i| c.seen[i].base.is_some()).collect();
        let is_type = |i: usize| matches!(c.seen.get_index(i).map(|e| *e.0), Some(Key::Type(_)));
        order.sort_by(|&a, &b| {
            let (ia, ib) = (&c.seen[a], &c.seen[b]);
            ia.depth.cmp(&ib.depth).then(is_type(b).cmp(&is_type(a))).then(ia.base.cmp(&ib.base))
        });
        let prefix = |key: Key<'c>| if matches!(key, Key::Type(_)) { '!' } else { '#' };
        // Names taken as they are (read from the input); numbered names skip them, as MLIR's
        // probing for an unused alias does, so that no two definitions share a name.
        let mut used: FxHashSet<String> = c
            .seen
            .iter()
            .filter(|(_, info)| info.fixed)
            .map(|(&key, info)| format!("{}{}", prefix(key), info.base.unwrap_or_default()))
            .collect();
        let mut counts: HashMap<&str, usize> = HashMap::default();
        for i in order {
            let (&key, info) = c.seen.get_index(i).expect("index in range");
            let base = info.base.unwrap_or_default();
            let bare = format!("{}{base}", prefix(key));
            if info.fixed {
                table.names.insert(key, bare);
                table.defs.push((key, info.deferrable));
                continue;
            }
            let n = counts.entry(base).or_insert(0);
            let name = loop {
                let mut name = bare.clone();
                if *n > 0 {
                    if base.ends_with(|ch: char| ch.is_ascii_digit()) {
                        name.push('_');
                    }
                    name.push_str(&n.to_string());
                }
                *n += 1;
                if used.insert(name.clone()) {
                    break name;
                }
            };
            table.names.insert(key, name);
            table.defs.push((key, info.deferrable));
        }
        table
    }

    /// Prints the alias definitions: the deferred ones (after the top op) or the others.
    pub fn print_defs(&self, out: &mut String, deferred: bool) {
        for &(key, d) in &self.defs {
            if d != deferred {
                continue;
            }
            out.push_str(&self.names[&key]);
            out.push_str(" = ");
            let hide = Hide { table: self, hidden: key };
            match key {
                Key::Type(t) => crate::syntax::type_attr::print_type(out, t, &hide),
                Key::Attr(a) if a.is_location() => crate::syntax::type_attr::print_location(out, a, &hide),
                Key::Attr(a) => crate::syntax::type_attr::print_attr(out, a, &hide),
            }
            out.push('\n');
        }
    }

    /// A lookup that prints `attr` itself inline (block argument locations).
    pub fn without<'t>(&'t self, attr: Attribute<'c>) -> impl AliasLookup<'c> + 't {
        Hide { table: self, hidden: Key::Attr(attr) }
    }
}

impl<'c> AliasLookup<'c> for AliasTable<'c> {
    fn attr_alias(&self, a: Attribute<'c>) -> Option<&str> {
        self.names.get(&Key::Attr(a)).map(String::as_str)
    }
    fn type_alias(&self, t: Type<'c>) -> Option<&str> {
        self.names.get(&Key::Type(t)).map(String::as_str)
    }
    fn distinct_id(&self, a: Attribute<'c>) -> u64 {
        self.distinct.borrow_mut().insert_full(a).0 as u64
    }
    fn elements_limit(&self) -> Option<usize> {
        self.elements_limit
    }
}

/// The table without one entry: used to print an alias's own definition.
struct Hide<'t, 'c> {
    table: &'t AliasTable<'c>,
    hidden: Key<'c>,
}

impl<'c> AliasLookup<'c> for Hide<'_, 'c> {
    fn attr_alias(&self, a: Attribute<'c>) -> Option<&str> {
        if self.hidden == Key::Attr(a) {
            return None;
        }
        self.table.attr_alias(a)
    }
    fn type_alias(&self, t: Type<'c>) -> Option<&str> {
        if self.hidden == Key::Type(t) {
            return None;
        }
        self.table.type_alias(t)
    }
    fn distinct_id(&self, a: Attribute<'c>) -> u64 {
        self.table.distinct_id(a)
    }
    fn elements_limit(&self) -> Option<usize> {
        self.table.elements_limit
    }
}

/// Whether an alias name read from the input is one mlir-opt's dialects would choose for a
/// value Kiln does not alias itself: an attribute or type of a dialect mlir-opt registers, or
/// a builtin one named by the test dialect's alias hook.
fn adopt_alias(dialect: Option<&str>, name: &str) -> bool {
    match dialect {
        Some(d) => d == "test" || MLIR_DIALECTS.contains(&d),
        None => name.contains("test"),
    }
}

impl<'c> Collector<'_, 'c> {
    /// Aliased values the input defined keep the input's relative order (deferred ones and
    /// the others apart): MLIR's
    /// depth of an alias can hang on what its dialect prints (a recursive type visits itself),
    /// which Kiln cannot see, but mlir-opt printed the definitions sorted by (depth, types
    /// first, name). Where the input order goes against Kiln's sort key, the later alias is
    /// deepened; then every value is kept deeper than its children, so that definitions still
    /// come after the aliases they use.
    fn follow_input_order(&mut self) {
        // (deferred, input position, index) of every aliased value the input defined.
        let mut fixed: Vec<(bool, u32, usize)> = Vec::new();
        for (i, (key, info)) in self.seen.iter().enumerate() {
            if info.base.is_none() {
                continue;
            }
            let input_name = match *key {
                Key::Type(t) => self.ctx.type_alias_name(t),
                Key::Attr(a) => self.ctx.attr_alias_name(a),
            };
            let is_type = matches!(key, Key::Type(_));
            if let Some(pos) = input_name.and_then(|n| self.ctx.alias_position(is_type, n)) {
                fixed.push((info.deferrable, pos, i));
            }
        }
        if fixed.len() < 2 {
            return;
        }
        fixed.sort_unstable();
        let rank = |seen: &IndexMap<Key<'c>, Info<'c>>, i: usize| {
            let (key, info) = seen.get_index(i).expect("index in range");
            (!matches!(key, Key::Type(_)), info.base)
        };
        let mut changed = false;
        for w in 1..fixed.len() {
            if fixed[w - 1].0 != fixed[w].0 {
                continue;
            }
            let (prev, cur) = (fixed[w - 1].2, fixed[w].2);
            let prev_depth = self.seen[prev].depth;
            let mut depth = self.seen[cur].depth.max(prev_depth);
            if depth == prev_depth && rank(&self.seen, cur) < rank(&self.seen, prev) {
                depth += 1;
            }
            if depth != self.seen[cur].depth {
                self.seen[cur].depth = depth;
                changed = true;
            }
        }
        if !changed {
            return;
        }
        // Keep parents deeper than their children, children first (recursion's back edges
        // lead to a value finished later: they are left out).
        let mut by_finish: Vec<usize> = (0..self.seen.len()).filter(|&i| self.seen[i].finished > 0).collect();
        by_finish.sort_unstable_by_key(|&i| self.seen[i].finished);
        for i in by_finish {
            let done = self.seen[i].finished;
            let need = self.seen[i]
                .children
                .iter()
                .map(|&c| &self.seen[c])
                .filter(|c| c.finished > 0 && c.finished < done && c.depth > 0)
                .map(|c| c.depth + 1)
                .max()
                .unwrap_or(0);
            if need > self.seen[i].depth {
                self.seen[i].depth = need;
            }
        }
    }

    /// Visits `root` and everything nested in it in MLIR's order, iteratively.
    fn visit_tree(&mut self, ir: &Ir<'c>, root: OpId) {
        enum Step {
            Enter(OpId),
            Block(BlockId),
            Exit(OpId),
        }
        let mut stack = vec![Step::Enter(root)];
        let mut nested: Vec<Step> = Vec::new();
        while let Some(step) = stack.pop() {
            match step {
                Step::Enter(op) => {
                    if self.debug_info {
                        self.visit_attr(ir.op(op).loc, true, 0);
                    }
                    stack.push(Step::Exit(op));
                    for &r in ir.regions(op) {
                        for b in ir.region_blocks(r) {
                            nested.push(Step::Block(b));
                            nested.extend(ir.block_ops(b).map(Step::Enter));
                        }
                    }
                    stack.extend(nested.drain(..).rev());
                }
                Step::Block(b) => {
                    for &arg in ir.block_args(b) {
                        self.visit_type(ir.value_type(arg), false, 0);
                        if let (true, Some(loc)) = (self.debug_info, ir.value(arg).loc) {
                            self.visit_attr(loc, false, 0);
                        }
                    }
                }
                Step::Exit(op) => self.visit_op_own(ir, op),
            }
        }
    }

    /// An op's operand and result types, then its attributes (properties merged in, sorted
    /// by name, for ops mlir-opt registers).
    fn visit_op_own(&mut self, ir: &Ir<'c>, op: OpId) {
        for &v in ir.operands(op) {
            self.visit_type(ir.value_type(v), false, 0);
        }
        for &v in ir.results(op) {
            self.visit_type(ir.value_type(v), false, 0);
        }
        let data = ir.op(op);
        let dialect = data.name.split_once('.').map_or(data.name, |(d, _)| d);
        let props = match data.properties.and_then(|p| p.as_dict()) {
            Some(p) if data.def.is_some() || MLIR_DIALECTS.contains(&dialect) => p,
            _ => &[],
        };
        let mut attrs = data.attrs.iter().peekable();
        let mut props = props.iter().peekable();
        loop {
            let take_prop = match (props.peek(), attrs.peek()) {
                (Some(p), Some((name, _))) => p.name <= **name,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let value = if take_prop { props.next().map(|p| p.value) } else { attrs.next().map(|(_, &v)| v) };
            if let Some(v) = value {
                self.visit_attr(v, false, 0);
            }
        }
    }

    fn visit_type(&mut self, ty: Type<'c>, deferrable: bool, nesting: usize) -> (usize, usize) {
        let key = Key::Type(ty);
        if let Some(i) = self.seen.get_index_of(&key) {
            return (self.seen[i].depth, i);
        }
        let mut fixed = false;
        let own = match ty.kind() {
            TypeKind::Tuple(items) if items.len() > 16 => Some("tuple"),
            _ => None,
        };
        // A dialect's alias (read from the input) wins over the builtin one.
        let base = self
            .ctx
            .type_alias_name(ty)
            .filter(|name| {
                let dialect = match ty.kind() {
                    TypeKind::Opaque { dialect, .. } => Some(*dialect),
                    _ => None,
                };
                fixed = adopt_alias(dialect, name) && own.is_none_or(|o| !name.starts_with(o));
                fixed
            })
            .or(own);
        let base = base.or_else(|| {
            let name = self.referenced.get(&key).copied();
            fixed |= name.is_some();
            name
        });
        let (index, _) = self.seen.insert_full(
            key,
            Info { base, fixed, depth: base.map_or(0, |_| 1), deferrable, children: vec![], finished: 0 },
        );
        if nesting > MAX_NESTING {
            return (0, index);
        }
        let mut kids: Vec<TypeOrAttr<'c>> = Vec::new();
        match *ty.kind() {
            TypeKind::Complex(t) | TypeKind::UnrankedTensor { elem: t } => kids.push(TypeOrAttr::T(t)),
            TypeKind::Tuple(ts) => kids.extend(ts.iter().map(|&t| TypeOrAttr::T(t))),
            TypeKind::Function { inputs, results } => {
                kids.extend(inputs.iter().chain(results).map(|&t| TypeOrAttr::T(t)))
            }
            TypeKind::RankedTensor { elem, encoding, .. } => {
                kids.push(TypeOrAttr::T(elem));
                kids.extend(encoding.map(TypeOrAttr::A));
            }
            TypeKind::MemRef { elem, layout, memory_space, .. } => {
                kids.push(TypeOrAttr::T(elem));
                kids.extend(layout.map(TypeOrAttr::A));
                kids.extend(memory_space.map(TypeOrAttr::A));
            }
            TypeKind::UnrankedMemRef { elem, memory_space } => {
                kids.push(TypeOrAttr::T(elem));
                kids.extend(memory_space.map(TypeOrAttr::A));
            }
            TypeKind::Vector { elem, .. } => kids.push(TypeOrAttr::T(elem)),
            TypeKind::Opaque { body, .. } => self.body_refs(body, &mut kids),
            _ => {}
        }
        self.finish(index, kids, deferrable, nesting)
    }

    fn visit_attr(&mut self, attr: Attribute<'c>, deferrable: bool, nesting: usize) -> (usize, usize) {
        let key = Key::Attr(attr);
        if let Some(i) = self.seen.get_index_of(&key) {
            if !deferrable {
                self.mark_non_deferrable(i);
            }
            return (self.seen[i].depth, i);
        }
        let base = match attr.kind() {
            AttrKind::AffineMap(_) => Some("map"),
            AttrKind::IntegerSet(_) => Some("set"),
            AttrKind::Distinct { inner, .. } if !matches!(inner.kind(), AttrKind::Unit) => Some("distinct"),
            _ if attr.is_location() => Some("loc"),
            AttrKind::Opaque { dialect, body, .. } => upstream_alias(dialect, body),
            _ => None,
        };
        let mut fixed = false;
        let base = base.or_else(|| {
            self.ctx.attr_alias_name(attr).filter(|name| {
                let dialect = match attr.kind() {
                    AttrKind::Opaque { dialect, .. } => Some(*dialect),
                    _ => None,
                };
                fixed = adopt_alias(dialect, name);
                fixed
            })
        });
        let base = base.or_else(|| {
            let name = self.referenced.get(&key).copied();
            fixed |= name.is_some();
            name
        });
        let info =
            Info { base, fixed, depth: base.map_or(0, |_| 1), deferrable, children: vec![], finished: 0 };
        let (index, _) = self.seen.insert_full(key, info);
        if nesting > MAX_NESTING {
            return (0, index);
        }
        let mut kids: Vec<TypeOrAttr<'c>> = Vec::new();
        match *attr.kind() {
            AttrKind::Integer { ty, .. }
            | AttrKind::WideInteger { ty, .. }
            | AttrKind::Float { ty, .. }
            | AttrKind::Type(ty) => kids.push(TypeOrAttr::T(ty)),
            AttrKind::String { ty, .. } => kids.extend(ty.map(TypeOrAttr::T)),
            AttrKind::Opaque { body, ty, .. } => {
                self.body_refs(body, &mut kids);
                kids.extend(ty.map(TypeOrAttr::T));
            }
            AttrKind::Distinct { inner, .. } => kids.push(TypeOrAttr::A(inner)),
            AttrKind::Array(items) => kids.extend(items.iter().map(|&a| TypeOrAttr::A(a))),
            AttrKind::Dictionary(entries) => kids.extend(entries.iter().map(|e| TypeOrAttr::A(e.value))),
            AttrKind::DenseElements { ty, .. } => kids.push(TypeOrAttr::T(ty)),
            AttrKind::DenseResource { handle, ty } => {
                self.handles.insert(handle);
                kids.push(TypeOrAttr::T(ty));
            }
            AttrKind::DenseArray { elem, .. } => kids.push(TypeOrAttr::T(elem)),
            AttrKind::Sparse { ty, indices, values } => {
                kids.extend([TypeOrAttr::A(indices), TypeOrAttr::A(values), TypeOrAttr::T(ty)]);
            }
            AttrKind::NameLoc { child, .. } => kids.extend(child.map(TypeOrAttr::A)),
            AttrKind::CallSiteLoc { callee, caller } => {
                kids.extend([TypeOrAttr::A(callee), TypeOrAttr::A(caller)])
            }
            AttrKind::FusedLoc { locs, metadata } => {
                kids.extend(metadata.map(TypeOrAttr::A));
                kids.extend(locs.iter().map(|&l| TypeOrAttr::A(l)));
            }
            _ => {}
        }
        self.finish(index, kids, deferrable, nesting)
    }

    fn finish(
        &mut self,
        index: usize,
        kids: Vec<TypeOrAttr<'c>>,
        deferrable: bool,
        nesting: usize,
    ) -> (usize, usize) {
        let mut max_depth = 0;
        let mut children = Vec::with_capacity(kids.len());
        for k in kids {
            let (d, i) = match k {
                TypeOrAttr::T(t) => self.visit_type(t, deferrable, nesting + 1),
                TypeOrAttr::A(a) => self.visit_attr(a, deferrable, nesting + 1),
                TypeOrAttr::Ref(key, levels) => {
                    let (d, i) = match key {
                        Key::Type(t) => self.visit_type(t, deferrable, nesting + 1),
                        Key::Attr(a) => self.visit_attr(a, deferrable, nesting + 1),
                    };
                    (if d > 0 { d + levels } else { d }, i)
                }
            };
            max_depth = max_depth.max(d);
            children.push(i);
        }
        self.finished += 1;
        let info = &mut self.seen[index];
        info.finished = self.finished;
        info.children = children;
        if max_depth > 0 {
            info.depth = max_depth + 1;
        }
        (info.depth, index)
    }

    /// The aliases an opaque body refers to (`#di_file` in `di_subprogram<file = #di_file>`):
    /// they are printed under the names the body uses.
    fn body_refs(&mut self, body: &'c str, kids: &mut Vec<TypeOrAttr<'c>>) {
        if !body.bytes().any(|b| b == b'#' || b == b'!') {
            return;
        }
        let bytes = body.as_bytes();
        let mut i = 0;
        // `<` levels: the first is the attribute's own.
        let mut angles = 0usize;
        while i < bytes.len() {
            match bytes[i] {
                b'<' => {
                    angles += 1;
                    i += 1;
                }
                b'>' if i > 0 && bytes[i - 1] == b'-' => i += 1,
                b'>' => {
                    angles = angles.saturating_sub(1);
                    i += 1;
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                sigil @ (b'#' | b'!') => {
                    let start = i + 1;
                    let mut end = start;
                    while end < bytes.len()
                        && (bytes[end].is_ascii_alphanumeric()
                            || matches!(bytes[end], b'_' | b'$' | b'.' | b'-'))
                    {
                        end += 1;
                    }
                    let name = &body[start..end];
                    let first_ok = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
                    if first_ok && !name.contains('.') {
                        let key = if sigil == b'#' {
                            self.ctx.attr_by_alias(name).map(Key::Attr)
                        } else {
                            self.ctx.type_by_alias(name).map(Key::Type)
                        };
                        if let Some(key) = key {
                            let kid = TypeOrAttr::Ref(key, angles.saturating_sub(1));
                            self.referenced.insert(key, self.ctx.intern_str(name));
                            if let Some(info) = self.seen.get_mut(&key) {
                                if info.base.is_none() {
                                    info.base = self.referenced.get(&key).copied();
                                    info.fixed = true;
                                    info.depth = info.depth.max(1);
                                }
                            }
                            kids.push(kid);
                        }
                    }
                    i = end.max(i + 1);
                }
                _ => i += 1,
            }
        }
    }

    fn mark_non_deferrable(&mut self, index: usize) {
        let mut work = vec![index];
        while let Some(i) = work.pop() {
            let info = &mut self.seen[i];
            if info.deferrable {
                info.deferrable = false;
                work.extend(info.children.iter().copied());
            }
        }
    }
}

enum TypeOrAttr<'c> {
    T(Type<'c>),
    A(Attribute<'c>),
    /// An alias an opaque body refers to, inside this many nested `<...>` (each an attribute
    /// of its own in the dialect's structure, one level deeper).
    Ref(Key<'c>, usize),
}
