//! Building the `hl` module of a graph: the function and its arguments, the value table
//! (ONNX names to IR values, with the host value of every constant), op creation with
//! constant folding, and the final clean-up and verification.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use indexmap::IndexMap;
use kiln_compiler::rewrite::Rewriter;
use kiln_compiler::verifier::verify;
use kiln_compiler::{AttrKind, Attribute, Context, Ir, Module, NamedAttr, OpDef, OpId, OperationState};
use kiln_compiler::{FloatKind, SourceMgr, Type, TypeKind, ValueId, DYNAMIC};
use kiln_dialects::builtin::MODULE;
use kiln_dialects::func::{FUNC_OP, RETURN_OP};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::builder::HlBuilder;
use kiln_dialects::hl::interp::program::{dtype_of, eval_op};
use kiln_dialects::hl::interp::{DType, Tensor};
use kiln_dialects::hl::CONSTANT;
use onnx_protobuf::{NodeProto, ValueInfoProto};

use crate::consts::{
    constant_attr, decode_tensor, dtype_of_onnx, elem_type, held_type_name, ints, tensor_type,
};

/// The argument and result attribute naming the ONNX element type of a value `hl` holds in
/// another type (`{onnx.type = "uint8"}` on an `i32` argument).
pub const HELD_TYPE_ATTR: &str = "onnx.type";
use crate::dynamic::{Sizes, Symbols};
use crate::error::ImportError;
use crate::model::Model;
use crate::{ops, ImportOptions};

/// Folding stops at constants of more elements than this (a fold must not take long).
const MAX_FOLD_ELEMENTS: usize = 1 << 24;

/// An ONNX value: its IR value, and its elements when it is a constant.
#[derive(Clone)]
pub(crate) struct Val {
    /// The IR value.
    pub id: ValueId,
    /// The value's elements, when known at import.
    pub konst: Option<Rc<Tensor>>,
    /// The sizes it holds when it is a vector of run-time sizes (`Shape` of a value with `?`
    /// dims, see [`crate::dynamic`]); its IR value is then a placeholder no op may read.
    pub sizes: Option<Rc<Sizes>>,
}

/// The state of one graph's import.
pub(crate) struct Importer<'r, 'a, 'c, 'm> {
    /// Creates ops before the function's `func.return`.
    pub b: HlBuilder<'r, 'a, 'c>,
    values: HashMap<&'m str, Val>,
    /// The `dense_resource` blobs of large constants; `None` with
    /// [`ImportOptions::dense_weights`] (every constant is a `dense` attribute).
    blobs: Option<IndexMap<String, String>>,
    /// The graph's nodes.
    pub nodes: &'m [NodeProto],
    /// For each value name, the nodes that read it.
    pub users: HashMap<&'m str, Vec<usize>>,
    /// Nodes already imported as part of another (a `BatchNormalization` folded into its conv).
    pub done: HashSet<usize>,
    /// Graph output names (a value the graph returns is never folded away).
    pub outputs: HashSet<&'m str>,
    /// The name of the node being imported (names the blobs of folded constants).
    current: &'m str,
    /// The model's default-domain opset.
    pub opset: i64,
    /// The graph input name of each function argument.
    arg_names: HashMap<ValueId, &'m str>,
    /// The graph input a node needed as a constant (set with the error).
    needs_constant: RefCell<Option<String>>,
    /// The ONNX element type codes of the graph inputs and initializers.
    pub onnx_codes: HashMap<&'m str, i32>,
    /// The symbols of the `?` dims (see [`crate::dynamic`]).
    pub syms: Symbols,
    /// The ONNX name of each value defined so far (for messages).
    names: HashMap<ValueId, &'m str>,
}

/// Imports `model` as `builtin.module { func.func @main }`.
pub(crate) fn import<'c>(
    ctx: &Context<'c>,
    model: &Model,
    options: &ImportOptions,
) -> Result<Module<'c>, ImportError> {
    let graph = &model.graph;
    let initializer_names: HashSet<&str> = graph.initializer.iter().map(|t| t.name.as_str()).collect();
    let all_inputs: Vec<&ValueInfoProto> =
        graph.input.iter().filter(|i| !initializer_names.contains(i.name.as_str())).collect();
    let shaped = options.input_shapes.iter().map(|(n, _)| ("--input-shape", n));
    for (flag, name) in shaped.chain(options.constant_inputs.iter().map(|(n, _)| ("--constant-input", n))) {
        if !all_inputs.iter().any(|i| &i.name == name) {
            let known: Vec<String> = all_inputs.iter().map(|i| format!("`{}`", i.name)).collect();
            return Err(ImportError::new(format!(
                "{flag} names `{name}`, which is not a graph input (inputs: {})",
                known.join(", ")
            )));
        }
    }
    let given = |name: &str| options.constant_inputs.iter().rev().find(|(n, _)| n == name).map(|(_, t)| t);
    let inputs: Vec<&ValueInfoProto> =
        all_inputs.iter().copied().filter(|i| given(&i.name).is_none()).collect();
    let mut errors = Vec::new();
    let mut arg_types = Vec::new();
    let mut arg_held: Vec<Option<&str>> = Vec::new();
    for input in &inputs {
        match input_type(ctx, input, options) {
            Ok(t) => arg_types.push(t),
            Err(e) => errors.push(e),
        }
        arg_held.push(held_type_name(elem_code(input)));
    }
    let mut fixed = Vec::new();
    for input in &all_inputs {
        let (name, Some(t)) = (input.name.as_str(), given(&input.name)) else { continue };
        match dtype_of_onnx(elem_code(input)) {
            Ok(d) if d == t.dtype() => fixed.push((name, t.clone())),
            Ok(d) => {
                errors.push(format!("--constant-input `{name}` holds {}, but the input is {d}", t.dtype()))
            }
            Err(e) => errors.push(format!("graph input `{name}`: {e}")),
        }
    }
    let mut initializers = Vec::new();
    for t in &graph.initializer {
        match decode_tensor(t) {
            Ok(v) => initializers.push((t.name.as_str(), v)),
            Err(e) => errors.push(format!("initializer `{}`: {e}", t.name)),
        }
    }
    if !errors.is_empty() {
        return Err(ImportError::new(errors.join("\n")));
    }
    let as_arg = |t: &Tensor| options.initializers_as_args && t.dtype().is_float();
    arg_types.extend(initializers.iter().filter(|(_, t)| as_arg(t)).map(|(_, t)| tensor_type(ctx, t)));

    let mut ir = Ir::with_capacity(graph.node.len() * 2 + graph.initializer.len() + 4);
    let (top, func, block, ret) = skeleton(ctx, &mut ir);
    let mut arg_names: Vec<&str> = inputs.iter().map(|i| i.name.as_str()).collect();
    arg_names.extend(initializers.iter().filter(|(_, t)| as_arg(t)).map(|(n, _)| *n));
    let args: Vec<ValueId> = arg_types
        .iter()
        .zip(&arg_names)
        .map(|(&t, n)| ir.add_block_arg(block, t, Some(name_loc(ctx, n))))
        .collect();

    let mut rw = Rewriter::new(ctx, &mut ir);
    let mut imp = Importer {
        b: HlBuilder::new(&mut rw, ret),
        values: HashMap::new(),
        blobs: (!options.dense_weights).then(IndexMap::new),
        nodes: &graph.node,
        users: HashMap::new(),
        done: HashSet::new(),
        outputs: graph.output.iter().map(|o| o.name.as_str()).collect(),
        current: "",
        opset: model.opset,
        arg_names: HashMap::new(),
        needs_constant: RefCell::new(None),
        onnx_codes: all_inputs.iter().map(|i| (i.name.as_str(), elem_code(i))).collect(),
        syms: Symbols::default(),
        names: HashMap::new(),
    };
    imp.onnx_codes.extend(graph.initializer.iter().map(|t| (t.name.as_str(), t.data_type)));
    for (name, &arg) in arg_names.iter().zip(&args) {
        imp.bind(name, Val { id: arg, konst: None, sizes: None });
        imp.arg_names.insert(arg, name);
    }
    for (input, (&arg, &ty)) in inputs.iter().zip(args.iter().zip(&arg_types)) {
        imp.syms.add_input(arg, ty, input);
    }
    let constants = initializers.into_iter().filter(|(_, t)| !as_arg(t)).chain(fixed);
    for (name, t) in constants {
        imp.b.set_loc(name_loc(ctx, name));
        let v = imp.constant(t, name).map_err(ImportError::new)?;
        imp.values.insert(name, v);
    }
    for (i, node) in graph.node.iter().enumerate() {
        for input in node.input.iter().filter(|n| !n.is_empty()) {
            imp.users.entry(input.as_str()).or_default().push(i);
        }
    }
    for (i, node) in graph.node.iter().enumerate() {
        if imp.done.contains(&i) {
            continue;
        }
        imp.b.set_loc(node_loc(ctx, node));
        imp.current = node_name(node);
        let results = match crate::dynamic::import(&mut imp, i) {
            Ok(Some(results)) => Ok(results),
            Ok(None) => ops::import_node(&mut imp, i),
            Err(e) => Err(e),
        }
        .map_err(|e| node_error(node, &e).with_constant_input(imp.needs_constant.take()))?;
        imp.define(node, results).map_err(|e| node_error(node, &e))?;
    }
    let mut results = Vec::with_capacity(graph.output.len());
    for output in &graph.output {
        let v = imp.values.get(output.name.as_str()).ok_or_else(|| {
            ImportError::new(format!("graph output `{}` is produced by no node", output.name))
        })?;
        if let Some(sizes) = &v.sizes {
            let what = format!("graph output `{}`", output.name);
            return Err(ImportError::new(imp.needs_value(sizes, &what)));
        }
        results.push(v.id);
    }
    let blobs = imp.blobs.take().unwrap_or_default();
    drop(imp);
    rw.set_operands(ret, &results);
    let result_types: Vec<Type<'c>> = results.iter().map(|&v| rw.ir().value_type(v)).collect();
    let signature = ctx.type_attr(ctx.function_type(&arg_types, &result_types));
    let res_held: Vec<Option<&str>> = graph.output.iter().map(|o| held_type_name(elem_code(o))).collect();
    rw.modify_op(func, |d| {
        let mut entries =
            vec![named(ctx, "function_type", signature), named(ctx, "sym_name", ctx.str_attr(b"main"))];
        arg_held.resize(arg_types.len(), None);
        for (key, held) in [("arg_attrs", &arg_held), ("res_attrs", &res_held)] {
            if held.iter().any(Option::is_some) {
                entries.push(named(ctx, key, held_attrs(ctx, held)));
            }
        }
        entries.sort_by(|a, b| a.name.cmp(b.name));
        d.properties = Some(ctx.dict_attr(&entries));
    });
    erase_dead_constants(&mut rw, block);
    verify(ctx, &ir, top).map_err(|diags| {
        let sm = SourceMgr::new();
        ImportError::new(diags.iter().map(|d| sm.render(d)).collect::<String>().trim_end().to_string())
    })?;
    let mut resources = kiln_compiler::module::Resources::new();
    if !blobs.is_empty() {
        resources.entry("dialect_resources".into()).or_default().insert("builtin".into(), blobs);
    }
    Ok(Module { ir, top, resources, implicit: false })
}

/// `builtin.module { func.func @main() { func.return } }`: the module, the function, its
/// entry block and the return.
fn skeleton<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>) -> (OpId, OpId, kiln_compiler::BlockId, OpId) {
    let loc = ctx.unknown_loc();
    let mut module = OperationState::new(MODULE.name, Some(&MODULE), loc);
    module.num_regions = 1;
    let top = ir.create_op(module);
    let body = ir.create_block();
    ir.append_block(ir.regions(top)[0], body);
    let mut func = OperationState::new(FUNC_OP.name, Some(&FUNC_OP), loc);
    func.num_regions = 1;
    let func = ir.create_op(func);
    ir.append_op(body, func);
    let block = ir.create_block();
    ir.append_block(ir.regions(func)[0], block);
    let ret = ir.create_op(OperationState::new(RETURN_OP.name, Some(&RETURN_OP), loc));
    ir.append_op(block, ret);
    (top, func, block, ret)
}

/// The `TensorProto.DataType` code of a tensor value's element type (0 when it has none).
fn elem_code(v: &ValueInfoProto) -> i32 {
    match v.type_.value.as_ref() {
        Some(onnx_protobuf::type_proto::Value::TensorType(t)) => t.elem_type,
        _ => 0,
    }
}

/// `arg_attrs` / `res_attrs`: `{onnx.type = "uint8"}` for a value whose ONNX element type `hl`
/// holds in another type, `{}` for the others.
fn held_attrs<'c>(ctx: &Context<'c>, held: &[Option<&str>]) -> Attribute<'c> {
    let dicts: Vec<Attribute<'c>> = held
        .iter()
        .map(|h| match h {
            Some(name) => ctx.dict_attr(&[named(ctx, HELD_TYPE_ATTR, ctx.str_attr(name.as_bytes()))]),
            None => ctx.dict_attr(&[]),
        })
        .collect();
    ctx.array_attr(&dicts)
}

fn named<'c>(ctx: &Context<'c>, name: &str, value: Attribute<'c>) -> NamedAttr<'c> {
    NamedAttr { name: ctx.intern_str(name), value }
}

/// `loc("name")`.
fn name_loc<'c>(ctx: &Context<'c>, name: &str) -> Attribute<'c> {
    ctx.attr(AttrKind::NameLoc { name: ctx.alloc_bytes(name.as_bytes()), child: None })
}

/// The node's name, else its first named output's.
pub(crate) fn node_name(node: &NodeProto) -> &str {
    if node.name.is_empty() {
        node.output.iter().find(|o| !o.is_empty()).map_or("", String::as_str)
    } else {
        &node.name
    }
}

fn node_loc<'c>(ctx: &Context<'c>, node: &NodeProto) -> Attribute<'c> {
    name_loc(ctx, node_name(node))
}

fn node_error(node: &NodeProto, message: &str) -> ImportError {
    ImportError::new(format!("node `{}` (`{}`): {message}", node_name(node), node.op_type))
}

/// The type of graph input `input`: its declared shape (`?` for a symbolic or unknown dim), or
/// the one `--input-shape` gives.
fn input_type<'c>(
    ctx: &Context<'c>,
    input: &ValueInfoProto,
    options: &ImportOptions,
) -> Result<Type<'c>, String> {
    let name = &input.name;
    let tensor = match input.type_.value.as_ref() {
        Some(onnx_protobuf::type_proto::Value::TensorType(t)) => t,
        _ => return Err(format!("graph input `{name}` is not a tensor")),
    };
    let dtype = dtype_of_onnx(tensor.elem_type).map_err(|e| format!("graph input `{name}`: {e}"))?;
    let given = options.input_shapes.iter().rev().find(|(n, _)| n == name).map(|(_, s)| s.clone());
    let shape = match (given, tensor.shape.as_ref()) {
        (Some(given), declared) => {
            if let Some(declared) = declared.filter(|d| d.dim.len() != given.len()) {
                return Err(format!(
                    "--input-shape gives graph input `{name}` rank {}, but the model declares rank {}",
                    given.len(),
                    declared.dim.len()
                ));
            }
            given
        }
        (None, None) => {
            return Err(format!("graph input `{name}` has no shape: give one with --input-shape {name}=..."))
        }
        // A symbolic (`dim_param`) or unknown dim is dynamic (see `crate::dynamic`).
        (None, Some(declared)) => declared
            .dim
            .iter()
            .map(|d| match &d.value {
                Some(onnx_protobuf::tensor_shape_proto::dimension::Value::DimValue(v)) if *v >= 0 => *v,
                _ => DYNAMIC,
            })
            .collect(),
    };
    Ok(ctx.tensor_type(&shape, elem_type(ctx, dtype)))
}

/// Erases the `hl.constant`s nothing reads (folded operands, shape inputs).
fn erase_dead_constants(rw: &mut Rewriter<'_, '_>, block: kiln_compiler::BlockId) {
    let ops: Vec<OpId> = rw.ir().block_ops(block).collect();
    for op in ops.into_iter().rev() {
        let ir = rw.ir();
        if ir.is(op, &CONSTANT) && ir.results(op).iter().all(|&r| ir.uses(r).is_empty()) {
            rw.erase_op(op);
        }
    }
}

impl<'r, 'a, 'c, 'm> Importer<'r, 'a, 'c, 'm> {
    /// The context.
    pub fn ctx(&self) -> &'a Context<'c> {
        self.b.rw.ctx
    }

    /// The op version of `node` at the model's opset (0 for an op ONNX does not define).
    pub fn version(&self, node: &NodeProto) -> i64 {
        crate::versions::op_version(&node.op_type, self.opset).unwrap_or(0)
    }

    /// Records the values node `node` defines, output by output (empty output names are
    /// skipped).
    fn define(&mut self, node: &'m NodeProto, results: Vec<Val>) -> Result<(), String> {
        let wanted = node.output.iter().rposition(|o| !o.is_empty()).map_or(0, |p| p + 1);
        if results.len() < wanted {
            return Err(format!("only the first {} outputs are supported", results.len()));
        }
        for (name, v) in node.output.iter().zip(results) {
            if !name.is_empty() {
                self.bind(name, v);
            }
        }
        Ok(())
    }

    /// Binds value name `name` to `v` (a node imported as part of another one).
    pub fn bind(&mut self, name: &'m str, v: Val) {
        self.names.entry(v.id).or_insert(name);
        self.values.insert(name, v);
    }

    /// The value named `name`.
    pub fn value(&self, name: &str) -> Result<Val, String> {
        self.values.get(name).cloned().ok_or_else(|| format!("value `{name}` is not defined before its use"))
    }

    /// Input `i` of `node`, which must be given.
    pub fn input(&self, node: &NodeProto, i: usize) -> Result<Val, String> {
        self.opt_input(node, i)?.ok_or_else(|| format!("input #{i} is missing"))
    }

    /// Input `i` of `node`, `None` when absent (an empty name or past the end).
    pub fn opt_input(&self, node: &NodeProto, i: usize) -> Result<Option<Val>, String> {
        match node.input.get(i).filter(|n| !n.is_empty()) {
            Some(name) => self.value(name).map(Some),
            None => Ok(None),
        }
    }

    /// The type of `v`.
    pub fn ty(&self, v: &Val) -> Type<'c> {
        self.b.rw.ir().value_type(v.id)
    }

    /// The dims of `v`, `?` ([`DYNAMIC`]) included: for ops that carry dynamic dims.
    pub fn dims(&self, v: &Val) -> Vec<i64> {
        tensor_parts(self.ty(v)).map(|(s, _)| s.to_vec()).unwrap_or_default()
    }

    /// The rank of `v`.
    pub fn rank(&self, v: &Val) -> usize {
        tensor_parts(self.ty(v)).map_or(0, |(s, _)| s.len())
    }

    /// The static shape of `v`: a dynamic dim is an error naming it and the graph input dim
    /// behind it (the op needs it static).
    pub fn shape(&self, v: &Val) -> Result<Vec<i64>, String> {
        (0..self.rank(v)).map(|i| self.static_dim(v, i)).collect()
    }

    /// Dim `i` of `v`, which the op needs static: a dynamic one is an error as
    /// [`Importer::shape`]'s.
    pub fn static_dim(&self, v: &Val, i: usize) -> Result<i64, String> {
        match self.dims(v).get(i) {
            Some(&d) if d != DYNAMIC => Ok(d),
            Some(_) => {
                let name = self.names.get(&v.id).map_or(String::new(), |n| format!(" `{n}`"));
                Err(format!(
                    "needs a static dim, but dim #{i} of its input{name} is dynamic: {}",
                    self.dynamic_dim(v, i)
                ))
            }
            None => Err(format!("dim #{i} is past the rank {}", self.rank(v))),
        }
    }

    /// The element type of `v`.
    pub fn elem(&self, v: &Val) -> Type<'c> {
        let ty = self.ty(v);
        tensor_parts(ty).map_or(ty, |(_, e)| e)
    }

    /// The host element type of `v`.
    pub fn dtype(&self, v: &Val) -> Result<DType, String> {
        let e = self.elem(v);
        dtype_of(e).ok_or_else(|| format!("element type '{e}' is not supported"))
    }

    /// The elements of `v`, which must be a constant (after folding): else an error naming
    /// `what` and, when `v` is a graph input, that input (recorded for the caller).
    pub fn const_tensor(&self, v: &Val, what: &str) -> Result<Rc<Tensor>, String> {
        if let Some(t) = &v.konst {
            return Ok(t.clone());
        }
        if let Some(sizes) = &v.sizes {
            return Err(self.needs_value(sizes, what));
        }
        match self.arg_names.get(&v.id) {
            Some(name) => {
                *self.needs_constant.borrow_mut() = Some(name.to_string());
                Err(format!(
                    "{what} must be a constant, but it is graph input `{name}` (give its value at import: \
                     --constant-input {name}=FILE.npy)"
                ))
            }
            None => {
                let inputs = self.graph_inputs_of(v.id);
                if let Some(first) = inputs.first() {
                    *self.needs_constant.borrow_mut() = Some(first.to_string());
                }
                let named: Vec<String> = inputs.iter().map(|n| format!("`{n}`")).collect();
                Err(format!(
                    "{what} must be a constant, but it depends on the graph's input{} {} (give {} at import \
                     with --constant-input NAME=FILE.npy)",
                    if named.len() == 1 { "" } else { "s" },
                    named.join(", "),
                    if named.len() == 1 { "its value" } else { "their values" }
                ))
            }
        }
    }

    /// The graph inputs (function arguments) value `id` is computed from, in argument order.
    fn graph_inputs_of(&self, id: ValueId) -> Vec<&'m str> {
        let ir = self.b.rw.ir();
        let (mut seen, mut stack, mut found) = (HashSet::new(), vec![id], Vec::new());
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            match ir.defining_op(v) {
                Some(op) => stack.extend(ir.operands(op).iter().copied()),
                None => found.extend(self.arg_names.get(&v).copied()),
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The integer elements of a constant `v` (`what` names it in the error).
    pub fn const_ints(&self, v: &Val, what: &str) -> Result<Vec<i64>, String> {
        ints(&*self.const_tensor(v, what)?).ok_or_else(|| format!("{what} must be an integer tensor"))
    }

    /// The elements of a constant `v` as `f64`s.
    pub fn const_f64s(&self, v: &Val, what: &str) -> Result<Vec<f64>, String> {
        Ok(self.const_tensor(v, what)?.to_f64s())
    }

    /// An `hl.constant` holding `t` (`name` names its blob when it gets one).
    pub fn constant(&mut self, t: Tensor, name: &str) -> Result<Val, String> {
        let handle = resource_handle(name);
        let attr = constant_attr(self.b.rw.ctx, &t, &handle, self.blobs.as_mut());
        let ty = tensor_type(self.b.rw.ctx, &t);
        let id = self.b.create(&CONSTANT, &[], &[("value", attr)], Some(ty))?;
        Ok(Val { id, konst: Some(Rc::new(t)), sizes: None })
    }

    /// A rank-0 constant of `v`'s element type holding `value`.
    pub fn scalar_like(&mut self, v: &Val, value: f64) -> Result<Val, String> {
        let dtype = self.dtype(v)?;
        self.constant(Tensor::scalar(dtype, value), "scalar")
    }

    /// Creates `def(operands) {attrs}` (result type inferred unless `result` is given). When
    /// every operand is a constant, the op is evaluated and replaced by its constant result.
    pub fn op(
        &mut self,
        def: &'static OpDef,
        operands: &[&Val],
        attrs: &[(&str, Attribute<'c>)],
        result: Option<Type<'c>>,
    ) -> Result<Val, String> {
        let mut results = self.op_results(def, operands, attrs, result)?;
        Ok(results.swap_remove(0))
    }

    /// [`Importer::op`] for an op of several results (`hl.split`): every result.
    pub fn op_results(
        &mut self,
        def: &'static OpDef,
        operands: &[&Val],
        attrs: &[(&str, Attribute<'c>)],
        result: Option<Type<'c>>,
    ) -> Result<Vec<Val>, String> {
        if let Some(sizes) = operands.iter().find_map(|v| v.sizes.as_ref()) {
            return Err(self.needs_value(sizes, &format!("the operand of `{}`", def.name)));
        }
        let ids: Vec<ValueId> = operands.iter().map(|v| v.id).collect();
        let first = self.b.create(def, &ids, attrs, result)?;
        let op = self.b.rw.ir().defining_op(first).ok_or("the builder created no op")?;
        let results: Vec<ValueId> = self.b.rw.ir().results(op).to_vec();
        let plain = || results.iter().map(|&id| Val { id, konst: None, sizes: None }).collect();
        let consts: Option<Vec<&Rc<Tensor>>> = operands.iter().map(|v| v.konst.as_ref()).collect();
        let Some(consts) = consts.filter(|c| !c.is_empty()) else {
            self.syms.follow(self.b.rw.ctx, self.b.rw.ir(), op);
            return Ok(plain());
        };
        let numel = |ty: Type<'_>| {
            tensor_parts(ty).map_or(usize::MAX, |(s, _)| s.iter().map(|&d| d.max(0) as usize).product())
        };
        let too_big = results.iter().any(|&r| numel(self.b.rw.ir().value_type(r)) > MAX_FOLD_ELEMENTS)
            || consts.iter().any(|t| t.numel() > MAX_FOLD_ELEMENTS);
        if too_big {
            return Ok(plain());
        }
        let tensors: Vec<Tensor> = consts.iter().map(|t| (***t).clone()).collect();
        match eval_op(self.b.rw.ir(), op, &tensors) {
            Ok(values) => {
                self.b.rw.erase_op(op);
                let name = self.current;
                values.into_iter().map(|t| self.constant(t, name)).collect()
            }
            // An op the interpreter rejects on these values stays, and the verifier or a run
            // reports it at its location.
            Err(_) => Ok(plain()),
        }
    }

    /// `hl.reshape` of `v` to `shape` (`v` itself when `shape` is its own dims); at most one
    /// `?` of `shape`, left to the element count (see [`Importer::reshape_tied`]).
    pub fn reshape(&mut self, v: &Val, shape: &[i64]) -> Result<Val, String> {
        self.reshape_tied(v, shape, &[])
    }

    /// `hl.reshape` of `v` to `shape`, whose `?` dims are the operand dims `sources` names
    /// (entry `i`: the operand dim of result dim `i`, `-1`: none; empty: none at all), but for
    /// at most one, left to the element count. The ties become `source_dims` when the result
    /// has two `?` or more (one is determined by the count alone).
    pub fn reshape_tied(&mut self, v: &Val, shape: &[i64], sources: &[i64]) -> Result<Val, String> {
        let tie = |i: usize| sources.get(i).copied().unwrap_or(-1);
        let ties: Vec<i64> =
            (0..shape.len()).map(|i| if shape[i] == DYNAMIC { tie(i) } else { -1 }).collect();
        let dims = self.dims(v);
        // What inference makes of the target: tied dims and a `?` the count determines.
        let shape =
            &kiln_dialects::hl::infer::reshape_dims(&dims, shape, &ties).unwrap_or_else(|_| shape.to_vec());
        if dims == *shape
            && (0..shape.len()).all(|i| shape[i] != DYNAMIC || ties[i] == -1 || ties[i] == i as i64)
        {
            return Ok(v.clone());
        }
        let dynamic: Vec<usize> = (0..shape.len()).filter(|&i| shape[i] == DYNAMIC).collect();
        let untied: Vec<usize> = dynamic.iter().copied().filter(|&i| tie(i) == -1).collect();
        if untied.len() > 1 {
            let name = self.names.get(&v.id).map_or(String::new(), |n| format!(" `{n}`"));
            let sym = (0..dims.len()).find_map(|j| self.syms.dim(v.id, j));
            let fix = sym.map_or("--input-shape".to_string(), |s| self.syms.fix(s));
            return Err(format!(
                "cannot reshape{name} to dims #{} and #{} that are both dynamic and not dims of the input \
                 (only one can follow from the element count): fix the dynamic dims with {fix}",
                untied[0], untied[1]
            ));
        }
        let ty = self.ctx().tensor_type(shape, self.elem(v));
        let mut attrs = Vec::new();
        if dynamic.len() > 1 {
            let ties: Vec<i64> =
                (0..shape.len()).map(|i| if shape[i] == DYNAMIC { ties[i] } else { -1 }).collect();
            attrs.push(("source_dims", self.ints_attr(&ties)));
        }
        self.op(&kiln_dialects::hl::RESHAPE, &[v], &attrs, Some(ty))
    }

    /// An `i64` array attribute.
    pub fn ints_attr(&self, values: &[i64]) -> Attribute<'c> {
        self.b.ints(values)
    }

    /// An `i64` integer attribute.
    pub fn int_attr(&self, value: i64) -> Attribute<'c> {
        self.b.int(value)
    }

    /// An `f32` float attribute.
    pub fn f32_attr(&self, value: f64) -> Attribute<'c> {
        self.number_attr(self.ctx().float_type(FloatKind::F32), value)
    }

    /// `value` as an attribute of scalar type `ty`: a float (rounded to nearest even) or an
    /// integer (truncated).
    pub fn number_attr(&self, ty: Type<'c>, value: f64) -> Attribute<'c> {
        let ctx = self.ctx();
        let bits = match *ty.kind() {
            TypeKind::Float(FloatKind::F32) => u128::from((value as f32).to_bits()),
            TypeKind::Float(FloatKind::F16) => u128::from(half::f16::from_f64(value).to_bits()),
            TypeKind::Float(FloatKind::BF16) => u128::from(half::bf16::from_f64(value).to_bits()),
            TypeKind::Float(FloatKind::F64) => u128::from(value.to_bits()),
            _ => return ctx.int_attr(value as i128, ty),
        };
        ctx.attr(AttrKind::Float { bits, ty })
    }

    /// A bool attribute.
    pub fn bool_attr(&self, value: bool) -> Attribute<'c> {
        self.ctx().bool_attr(value)
    }
}

/// A `dense_resource` handle from an ONNX name: letters, digits, `_` and `.` kept, anything
/// else `_`, never empty and never starting with a digit.
fn resource_handle(name: &str) -> String {
    let mut h: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '.' { c } else { '_' })
        .collect();
    if h.is_empty() || h.starts_with(|c: char| c.is_ascii_digit()) {
        h.insert(0, '_');
    }
    h
}
