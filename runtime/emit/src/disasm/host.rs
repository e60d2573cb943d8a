//! Disassembling the module frame: the `builtin.module`, the kernels' signatures and the host
//! function (inputs, constants, temporaries, launches, outputs).

use std::collections::HashMap;

use kiln_bytecode::isa::{DType, Space};
use kiln_bytecode::module::{BufferRef, Module, TensorSpec};
use kiln_bytecode::shape::ShapeClass;
use kiln_compiler::{AttrKind, DenseData, OpId, Type, ValueId};
use kiln_dialects::builtin::MODULE;
use kiln_dialects::npuvec::Core as NpuCore;
use kiln_dialects::{func, memref, npuvec};
use kiln_targets::Target;

use super::build::Builder;
use super::kernel::{arg_dtypes, KernelDisasm};
use super::DisasmError;
use crate::{
    INPUT_SYMBOLS_ATTR, LAUNCH_PARAMS_ATTR, OUTPUT_SIZES_ATTR, PARAMS_ATTR, SIZE_ATTR, SYMBOLS_ATTR,
};

/// The GM memref type of `spec`, `?` where `dynamic(dim)`.
fn spec_type<'c>(b: &Builder<'_, 'c>, spec: &TensorSpec, dynamic: impl Fn(usize) -> bool) -> Type<'c> {
    let shape: Vec<Option<u64>> =
        spec.shape.iter().enumerate().map(|(d, &n)| (!dynamic(d)).then_some(n)).collect();
    b.memref(&shape, spec.dtype, Space::Gm)
}

/// Where a shape class makes the host program's sizes symbolic (nowhere without one).
#[derive(Clone, Copy)]
struct Dynamic<'a>(Option<&'a ShapeClass>);

impl Dynamic<'_> {
    fn input(self, i: usize, d: usize) -> bool {
        self.0.and_then(|c| c.inputs.get(i)?.get(d).copied().flatten()).is_some()
    }

    fn output(self, o: usize, d: usize) -> bool {
        self.0.and_then(|c| c.outputs.get(o)?.get(d)?.as_ref()).is_some()
    }

    fn temp(self, t: usize) -> bool {
        self.0.and_then(|c| c.temps.get(t)?.as_ref()).is_some()
    }
}

/// The type each buffer of the host program is written with.
struct Types<'c> {
    inputs: Vec<Type<'c>>,
    consts: Vec<Type<'c>>,
    temps: Vec<Type<'c>>,
}

impl<'c> Types<'c> {
    fn of(&self, r: BufferRef) -> Option<Type<'c>> {
        match r {
            BufferRef::Input(i) => self.inputs.get(i as usize).copied(),
            BufferRef::Const(i) => self.consts.get(i as usize).copied(),
            BufferRef::Temp(i) => self.temps.get(i as usize).copied(),
        }
    }
}

/// Checks the references a disassembly relies on (the validator checks them too).
fn check(module: &Module) -> Result<(), DisasmError> {
    let host = &module.host;
    let fits = |r: &BufferRef| match *r {
        BufferRef::Input(i) => (i as usize) < host.inputs.len(),
        BufferRef::Const(i) => (i as usize) < module.constants.len(),
        BufferRef::Temp(i) => (i as usize) < host.temps.len(),
    };
    for (i, l) in host.launches.iter().enumerate() {
        let Some(k) = module.kernels.get(l.kernel as usize) else {
            return Err(DisasmError(format!(
                "launch {i} names kernel {} of {}",
                l.kernel,
                module.kernels.len()
            )));
        };
        if l.args.len() != k.num_args as usize || !l.args.iter().all(fits) {
            return Err(DisasmError(format!(
                "launch {i} of kernel '{}' binds buffers that do not exist",
                k.name
            )));
        }
    }
    if !host.outputs.iter().all(|(_, r)| fits(r)) {
        return Err(DisasmError("an output names a buffer that does not exist".into()));
    }
    for (i, k) in module.kernels.iter().enumerate() {
        let clash = module.kernels[..i].iter().any(|o| o.name == k.name) || k.name == host.name;
        if clash || k.name.is_empty() {
            return Err(DisasmError(format!(
                "kernel {i} has the name '{}', which is empty or taken",
                k.name
            )));
        }
    }
    Ok(())
}

/// The types of the host's buffers.
fn types<'c>(b: &Builder<'_, 'c>, module: &Module, dynamic: Dynamic) -> Types<'c> {
    let host = &module.host;
    let inputs =
        host.inputs.iter().enumerate().map(|(i, s)| spec_type(b, s, |d| dynamic.input(i, d))).collect();
    let consts = module.constants.iter().map(|(s, _)| spec_type(b, s, |_| false)).collect();
    let dtypes: Vec<HashMap<u16, DType>> = module.kernels.iter().map(arg_dtypes).collect();
    let temps = host
        .temps
        .iter()
        .enumerate()
        .map(|(t, &size)| {
            let r = BufferRef::Temp(t as u32);
            let found = host
                .outputs
                .iter()
                .enumerate()
                .find(|(_, (s, o))| *o == r && s.checked_bytes() == Some(size));
            if let Some((o, (s, _))) = found {
                return spec_type(b, s, |d| dynamic.output(o, d));
            }
            let accessed = host.launches.iter().find_map(|l| {
                let j = l.args.iter().position(|&a| a == r)?;
                dtypes[l.kernel as usize].get(&(j as u16)).copied()
            });
            let dtype = accessed.filter(|d| size % d.bytes() as u64 == 0).unwrap_or(DType::I8);
            let len = (!dynamic.temp(t)).then_some(size / dtype.bytes() as u64);
            b.memref(&[len], dtype, Space::Gm)
        })
        .collect();
    Types { inputs, consts, temps }
}

/// Builds the `builtin.module` of `module` (and of the shape class laid over it); returns it.
pub fn build_module<'c>(
    b: &mut Builder<'_, 'c>,
    module: &Module,
    class: Option<&ShapeClass>,
    target: &Target,
) -> Result<OpId, DisasmError> {
    check(module)?;
    let types = types(b, module, Dynamic(class));
    let top_state = kiln_compiler::OperationState::new(MODULE.name, Some(&MODULE), b.ctx.unknown_loc());
    let top = b.ir.create_op(kiln_compiler::OperationState { num_regions: 1, ..top_state });
    let target_attr = b.ctx.str_attr(module.target.as_bytes());
    b.ir.op_mut(top).attrs.insert(b.ctx.intern_str("npuvec.target"), target_attr);
    let body = b.block_in(top, 0);
    for (k, kernel) in module.kernels.iter().enumerate() {
        let dtypes = arg_dtypes(kernel);
        let launch = module.host.launches.iter().find(|l| l.kernel as usize == k);
        let kernel_class = class.and_then(|c| c.kernels.get(k)).filter(|kc| !kc.is_static());
        let params = kernel_class.map_or(0, |kc| kc.params.len());
        let mut arg_types: Vec<Type<'c>> = (0..kernel.num_args)
            .map(|j| match launch.and_then(|l| types.of(l.args[j as usize])) {
                Some(t) => t,
                None => b.memref(&[None], dtypes.get(&j).copied().unwrap_or(DType::I8), Space::Gm),
            })
            .collect();
        arg_types.extend((0..params).map(|_| b.ctx.index_type()));
        let mut attrs = vec![
            ("sym_name", b.ctx.str_attr(kernel.name.as_bytes())),
            ("function_type", b.ctx.type_attr(b.ctx.function_type(&arg_types, &[]))),
            ("sym_visibility", b.ctx.str_attr(b"private")),
            ("npuvec.core", NpuCore::from(kernel.core).attr(b.ctx)),
            ("npuvec.block_dim", b.i64(kernel.block_dim as i64)),
            ("npuvec.ub_bytes", b.i64(kernel.ub_bytes as i64)),
        ];
        if let Some(kc) = kernel_class {
            let ranges: Vec<i64> = kc.params.iter().flat_map(|r| [r.min, r.max]).collect();
            attrs.push((PARAMS_ATTR, b.i64_array(&ranges)));
        }
        let func = b.op(body, &func::FUNC_OP, &[], &attrs, &[], 1);
        let entry = b.block_in(func, 0);
        for &t in &arg_types {
            b.ir.add_block_arg(entry, t, None);
        }
        KernelDisasm::run(b, kernel, kernel_class, entry, target)?;
    }
    host_func(b, module, class, &types, body);
    Ok(top)
}

/// `["expr", ...]`: size expressions as text (an empty string for a static size).
fn exprs_attr<'c>(
    b: &Builder<'_, 'c>,
    class: &ShapeClass,
    exprs: &[Option<&kiln_bytecode::shape::Expr>],
) -> kiln_compiler::Attribute<'c> {
    let items: Vec<_> = exprs
        .iter()
        .map(|e| b.ctx.str_attr(e.map_or(String::new(), |e| e.render(&class.symbols)).as_bytes()))
        .collect();
    b.ctx.array_attr(&items)
}

/// The host function. In a shape class it carries `npuvec.symbols` (the names),
/// `npuvec.input_symbols` (per input dim, its symbol or -1) and `npuvec.output_sizes` (per
/// output dim, its expression); a temporary its `npuvec.size` and a launch its
/// `npuvec.params`, as text.
fn host_func<'c>(
    b: &mut Builder<'_, 'c>,
    module: &Module,
    class: Option<&ShapeClass>,
    types: &Types<'c>,
    body: kiln_compiler::BlockId,
) {
    let host = &module.host;
    let dynamic = Dynamic(class);
    let results: Vec<Type<'c>> = host
        .outputs
        .iter()
        .enumerate()
        .map(|(o, (s, _))| spec_type(b, s, |d| dynamic.output(o, d)))
        .collect();
    let mut attrs = vec![
        ("sym_name", b.ctx.str_attr(host.name.as_bytes())),
        ("function_type", b.ctx.type_attr(b.ctx.function_type(&types.inputs, &results))),
    ];
    if let Some(c) = class {
        let names: Vec<_> = c.symbols.iter().map(|s| b.ctx.str_attr(s.as_bytes())).collect();
        attrs.push((SYMBOLS_ATTR, b.ctx.array_attr(&names)));
        let syms: Vec<i64> = c.inputs.iter().flatten().map(|s| s.map_or(-1, i64::from)).collect();
        attrs.push((INPUT_SYMBOLS_ATTR, b.i64_array(&syms)));
        let outs: Vec<_> = c.outputs.iter().flatten().map(Option::as_ref).collect();
        attrs.push((OUTPUT_SIZES_ATTR, exprs_attr(b, c, &outs)));
    }
    let func = b.op(body, &func::FUNC_OP, &[], &attrs, &[], 1);
    let entry = b.block_in(func, 0);
    let mut values: HashMap<BufferRef, ValueId> = HashMap::new();
    for (i, &t) in types.inputs.iter().enumerate() {
        let v = b.ir.add_block_arg(entry, t, None);
        values.insert(BufferRef::Input(i as u32), v);
    }
    for (i, ((spec, data), &t)) in module.constants.iter().zip(&types.consts).enumerate() {
        let shape: Vec<i64> = spec.shape.iter().map(|&d| d as i64).collect();
        let tensor = b.ctx.tensor_type(&shape, b.elem(spec.dtype));
        let bytes = b.ctx.alloc_bytes(data);
        let value =
            b.ctx.attr(AttrKind::DenseElements { ty: tensor, data: DenseData::Raw { bytes, splat: false } });
        let v = b.value(entry, &npuvec::CONSTANT_OP, &[], &[("value", value)], t);
        values.insert(BufferRef::Const(i as u32), v);
    }
    for (i, &t) in types.temps.iter().enumerate() {
        let segments = b.ctx.attr(AttrKind::DenseArray {
            elem: b.ctx.int_type(32),
            len: 2,
            bytes: b.ctx.alloc_bytes(&[0; 8]),
        });
        let mut attrs = vec![("operandSegmentSizes", segments)];
        if let Some((c, Some(e))) = class.map(|c| (c, c.temps.get(i).and_then(Option::as_ref))) {
            attrs.push((SIZE_ATTR, b.ctx.str_attr(e.render(&c.symbols).as_bytes())));
        }
        let v = b.value(entry, &memref::ALLOC_OP, &[], &attrs, t);
        values.insert(BufferRef::Temp(i as u32), v);
    }
    for (li, l) in host.launches.iter().enumerate() {
        let args: Vec<ValueId> = l.args.iter().map(|r| values[r]).collect();
        let callee = b.ctx.symbol_ref_attr(module.kernels[l.kernel as usize].name.as_bytes());
        let mut attrs = vec![("callee", callee)];
        if let Some(c) = class {
            let params: Vec<_> = c.launches.get(li).into_iter().flatten().map(Some).collect();
            if !params.is_empty() {
                attrs.push((LAUNCH_PARAMS_ATTR, exprs_attr(b, c, &params)));
            }
        }
        b.op(entry, &npuvec::LAUNCH_OP, &args, &attrs, &[], 0);
    }
    let mut outs = Vec::new();
    for ((_, r), &t) in host.outputs.iter().zip(&results) {
        let v = values[r];
        outs.push(if b.ir.value_type(v) == t {
            v
        } else {
            b.value(entry, &npuvec::RESHAPE_OP, &[v], &[], t)
        });
    }
    b.op(entry, &func::RETURN_OP, &outs, &[], &[], 0);
}
