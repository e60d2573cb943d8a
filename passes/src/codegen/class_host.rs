//! The host side of a shape class: which input dims bind which symbol, and the size
//! expressions of the host's `?` buffers, its outputs and its launches' parameters.
//!
//! After bufferization a host function with `?` dims launches row-class kernels
//! (`row_class.rs`) on `?` GM buffers. Every `?` dim of a host buffer lies on a domain axis of
//! each kernel it is launched with (`npuvec.row_class`'s `axes`); the dims on one axis of one
//! launch are equal, and equal dims are one *symbol*. Symbols are numbered in the order the
//! host's inputs first bind them (`n` when there is one, else `n0`, `n1`, ...). The host then
//! gets `npuvec.symbols`, `npuvec.input_symbols` (per input dim, its symbol or -1) and
//! `npuvec.output_sizes` (per output dim, its symbol or `""`); a `?` `memref.alloc` gets
//! `npuvec.size` (its byte size) and a launch of a row class `npuvec.params` (`N`, the product
//! of the kernel's kept dims, and `ceil_div(N, rows)`), the text form `kiln_emit`'s class
//! reader parses.
//!
//! Errors (the host is then not a row shape class): a `?` buffer that an op other than a
//! launch or the return uses (a host view of it), a `?` dim no input binds.

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{Context, Ir, OpId, ValueId, DYNAMIC};
use kiln_dialects::func::RETURN_OP;
use kiln_dialects::memref::ALLOC_OP;
use kiln_dialects::npuvec;
use rustc_hash::FxHashMap;

use super::build::{i64_array, set_attr};
use super::row_class::RowClass;

/// A dim of a host buffer, or an axis of one launch's kernel domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    Dim(ValueId, usize),
    Axis(OpId, i64),
}

/// Union-find over [`Node`]s.
#[derive(Default)]
struct Classes {
    parent: FxHashMap<Node, Node>,
}

impl Classes {
    fn find(&mut self, n: Node) -> Node {
        let p = *self.parent.entry(n).or_insert(n);
        if p == n {
            return n;
        }
        let root = self.find(p);
        self.parent.insert(n, root);
        root
    }

    fn union(&mut self, a: Node, b: Node) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(rb, ra);
        }
    }
}

/// The `?` dims of `v`.
fn dynamic_dims(ir: &Ir<'_>, v: ValueId) -> Vec<usize> {
    let shape = ir.value_type(v).shape().unwrap_or(&[]);
    (0..shape.len()).filter(|&j| shape[j] == DYNAMIC).collect()
}

/// Gives host function `host` (bufferized, its kernels tiled) its shape class attributes when
/// it has `?` dims; an error says why it is not a row shape class.
pub fn annotate<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, host: OpId) -> Result<(), (OpId, String)> {
    let Some(entry) = ir.regions(host).first().and_then(|&r| ir.entry_block(r)) else { return Ok(()) };
    let inputs = ir.block_args(entry).to_vec();
    let ops: Vec<OpId> = ir.walk(host, WalkOrder::PreOrder).filter(|&o| o != host).collect();
    let values: Vec<ValueId> =
        inputs.iter().copied().chain(ops.iter().flat_map(|&o| ir.results(o).to_vec())).collect();
    if values.iter().all(|&v| dynamic_dims(ir, v).is_empty()) {
        return Ok(());
    }
    let not_class = |why: String| format!("not a row shape class: {why}");
    let mut classes = Classes::default();
    let mut launches: Vec<(OpId, RowClass)> = Vec::new();
    for &op in &ops {
        let dynamic_operand = ir.operands(op).iter().any(|&v| !dynamic_dims(ir, v).is_empty());
        if ir.is(op, &npuvec::LAUNCH_OP) {
            let callee = ir.attr(op, "callee");
            let kernel = callee.and_then(|c| kiln_compiler::symbol_table::resolve(ir, op, c));
            let Some(class) = kernel.and_then(|k| RowClass::of(ir, k)) else {
                if dynamic_operand {
                    return Err((
                        op,
                        not_class("it launches a kernel without a row class on `?` buffers".into()),
                    ));
                }
                continue;
            };
            for (&v, axes) in ir.operands(op).iter().zip(&class.axes) {
                for (j, &a) in axes.iter().enumerate() {
                    if a >= 0 {
                        classes.union(Node::Axis(op, a), Node::Dim(v, j));
                    }
                }
            }
            launches.push((op, class));
        } else if dynamic_operand && !ir.is(op, &RETURN_OP) {
            return Err((op, not_class(format!("'{}' on a `?` buffer in the host", ir.op(op).name))));
        }
    }
    // Symbols, in the order the inputs bind them.
    let mut roots: Vec<Node> = Vec::new();
    let mut input_symbols: Vec<i64> = Vec::new();
    for &v in &inputs {
        let shape = ir.value_type(v).shape().unwrap_or(&[]).to_vec();
        for (j, &d) in shape.iter().enumerate() {
            if d != DYNAMIC {
                input_symbols.push(-1);
                continue;
            }
            let root = classes.find(Node::Dim(v, j));
            let k = roots.iter().position(|&r| r == root).unwrap_or_else(|| {
                roots.push(root);
                roots.len() - 1
            });
            input_symbols.push(k as i64);
        }
    }
    let names: Vec<String> = match roots.len() {
        1 => vec!["n".to_string()],
        k => (0..k).map(|i| format!("n{i}")).collect(),
    };
    let mut symbol = |n: Node| -> Option<String> {
        let root = classes.find(n);
        roots.iter().position(|&r| r == root).map(|k| names[k].clone())
    };
    let unbound =
        |op: OpId, j: usize| (op, not_class(format!("dim {j} is `?` but no input dim gives its size")));
    for &op in &ops {
        if ir.is(op, &ALLOC_OP) {
            let v = ir.results(op)[0];
            let dims = dynamic_dims(ir, v);
            if dims.is_empty() {
                continue;
            }
            let ty = ir.value_type(v);
            let shape = ty.shape().unwrap_or(&[]).to_vec();
            let mut terms = Vec::new();
            for &j in &dims {
                terms.push(symbol(Node::Dim(v, j)).ok_or_else(|| unbound(op, j))?);
            }
            let bytes = u64::from(ty.element_type().and_then(|e| e.bit_width()).unwrap_or(8).div_ceil(8));
            let fixed = shape.iter().filter(|&&d| d != DYNAMIC).product::<i64>() * bytes as i64;
            terms.push(fixed.to_string());
            let size = ctx.str_attr(terms.join(" * ").as_bytes());
            set_attr(ctx, ir, op, npuvec::SIZE_ATTR, size);
        }
    }
    for (op, class) in &launches {
        let mut terms = Vec::new();
        for a in class.dynamic_axes() {
            terms.push(symbol(Node::Axis(*op, a)).ok_or_else(|| {
                (*op, not_class(format!("axis {a} of its kernel is `?` but no input dim gives its size")))
            })?);
        }
        if class.static_rows != 1 || terms.is_empty() {
            terms.push(class.static_rows.to_string());
        }
        let n = terms.join(" * ");
        let params =
            [ctx.str_attr(n.as_bytes()), ctx.str_attr(format!("ceil_div({n}, {})", class.rows).as_bytes())];
        set_attr(ctx, ir, *op, npuvec::LAUNCH_PARAMS_ATTR, ctx.array_attr(&params));
    }
    let mut outputs = Vec::new();
    if let Some(ret) = ops.iter().copied().find(|&o| ir.is(o, &RETURN_OP) && ir.parent_op(o) == Some(host)) {
        for &v in ir.operands(ret) {
            let shape = ir.value_type(v).shape().unwrap_or(&[]).to_vec();
            for (j, &d) in shape.iter().enumerate() {
                let text = if d == DYNAMIC {
                    symbol(Node::Dim(v, j)).ok_or_else(|| unbound(ret, j))?
                } else {
                    String::new()
                };
                outputs.push(ctx.str_attr(text.as_bytes()));
            }
        }
    }
    let symbols: Vec<_> = names.iter().map(|n| ctx.str_attr(n.as_bytes())).collect();
    set_attr(ctx, ir, host, npuvec::SYMBOLS_ATTR, ctx.array_attr(&symbols));
    set_attr(ctx, ir, host, npuvec::INPUT_SYMBOLS_ATTR, i64_array(ctx, &input_symbols));
    set_attr(ctx, ir, host, npuvec::OUTPUT_SIZES_ATTR, ctx.array_attr(&outputs));
    Ok(())
}
