//! Disassembling the module frame: the `builtin.module`, the kernels' signatures and the host
//! function (inputs, constants, temporaries, launches, outputs).

use std::collections::HashMap;

use kiln_bytecode::isa::{DType, Space};
use kiln_bytecode::module::{BufferRef, Module, TensorSpec};
use kiln_compiler::{AttrKind, DenseData, OpId, Type, ValueId};
use kiln_dialects::builtin::MODULE;
use kiln_dialects::npuvec::Core as NpuCore;
use kiln_dialects::{func, memref, npuvec};
use kiln_targets::Target;

use super::build::Builder;
use super::kernel::{arg_dtypes, KernelDisasm};
use super::DisasmError;

/// The GM memref type of `spec`.
fn spec_type<'c>(b: &Builder<'_, 'c>, spec: &TensorSpec) -> Type<'c> {
    let shape: Vec<Option<u64>> = spec.shape.iter().map(|&d| Some(d)).collect();
    b.memref(&shape, spec.dtype, Space::Gm)
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
fn types<'c>(b: &Builder<'_, 'c>, module: &Module) -> Types<'c> {
    let host = &module.host;
    let inputs = host.inputs.iter().map(|s| spec_type(b, s)).collect();
    let consts = module.constants.iter().map(|(s, _)| spec_type(b, s)).collect();
    let dtypes: Vec<HashMap<u16, DType>> = module.kernels.iter().map(arg_dtypes).collect();
    let temps = host
        .temps
        .iter()
        .enumerate()
        .map(|(t, &size)| {
            let r = BufferRef::Temp(t as u32);
            if let Some((s, _)) =
                host.outputs.iter().find(|(s, o)| *o == r && s.checked_bytes() == Some(size))
            {
                return spec_type(b, s);
            }
            let accessed = host.launches.iter().find_map(|l| {
                let j = l.args.iter().position(|&a| a == r)?;
                dtypes[l.kernel as usize].get(&(j as u16)).copied()
            });
            let dtype = accessed.filter(|d| size % d.bytes() as u64 == 0).unwrap_or(DType::I8);
            b.memref(&[Some(size / dtype.bytes() as u64)], dtype, Space::Gm)
        })
        .collect();
    Types { inputs, consts, temps }
}

/// Builds the `builtin.module` of `module`; returns it.
pub fn build_module<'c>(
    b: &mut Builder<'_, 'c>,
    module: &Module,
    target: &Target,
) -> Result<OpId, DisasmError> {
    check(module)?;
    let types = types(b, module);
    let top_state = kiln_compiler::OperationState::new(MODULE.name, Some(&MODULE), b.ctx.unknown_loc());
    let top = b.ir.create_op(kiln_compiler::OperationState { num_regions: 1, ..top_state });
    let target_attr = b.ctx.str_attr(module.target.as_bytes());
    b.ir.op_mut(top).attrs.insert(b.ctx.intern_str("npuvec.target"), target_attr);
    let body = b.block_in(top, 0);
    for (k, kernel) in module.kernels.iter().enumerate() {
        let dtypes = arg_dtypes(kernel);
        let launch = module.host.launches.iter().find(|l| l.kernel as usize == k);
        let arg_types: Vec<Type<'c>> = (0..kernel.num_args)
            .map(|j| match launch.and_then(|l| types.of(l.args[j as usize])) {
                Some(t) => t,
                None => b.memref(&[None], dtypes.get(&j).copied().unwrap_or(DType::I8), Space::Gm),
            })
            .collect();
        let attrs = [
            ("sym_name", b.ctx.str_attr(kernel.name.as_bytes())),
            ("function_type", b.ctx.type_attr(b.ctx.function_type(&arg_types, &[]))),
            ("sym_visibility", b.ctx.str_attr(b"private")),
            ("npuvec.core", NpuCore::from(kernel.core).attr(b.ctx)),
            ("npuvec.block_dim", b.i64(kernel.block_dim as i64)),
            ("npuvec.ub_bytes", b.i64(kernel.ub_bytes as i64)),
        ];
        let func = b.op(body, &func::FUNC_OP, &[], &attrs, &[], 1);
        let entry = b.block_in(func, 0);
        for &t in &arg_types {
            b.ir.add_block_arg(entry, t, None);
        }
        KernelDisasm::run(b, kernel, entry, target)?;
    }
    host_func(b, module, &types, body);
    Ok(top)
}

/// The host function.
fn host_func<'c>(b: &mut Builder<'_, 'c>, module: &Module, types: &Types<'c>, body: kiln_compiler::BlockId) {
    let host = &module.host;
    let results: Vec<Type<'c>> = host.outputs.iter().map(|(s, _)| spec_type(b, s)).collect();
    let attrs = [
        ("sym_name", b.ctx.str_attr(host.name.as_bytes())),
        ("function_type", b.ctx.type_attr(b.ctx.function_type(&types.inputs, &results))),
    ];
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
        let v = b.value(entry, &memref::ALLOC_OP, &[], &[("operandSegmentSizes", segments)], t);
        values.insert(BufferRef::Temp(i as u32), v);
    }
    for l in &host.launches {
        let args: Vec<ValueId> = l.args.iter().map(|r| values[r]).collect();
        let callee = b.ctx.symbol_ref_attr(module.kernels[l.kernel as usize].name.as_bytes());
        b.op(entry, &npuvec::LAUNCH_OP, &args, &[("callee", callee)], &[], 0);
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
