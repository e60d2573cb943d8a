//! Emitting the host program: the public `func.func` without `npuvec.core` (the entry).
//!
//! Its arguments are the program's inputs; `memref.alloc` allocates a temporary GM buffer,
//! `npuvec.constant` a constant one (splats expanded), `npuvec.reshape` names its operand's
//! buffer again, `npuvec.launch` binds buffers to a kernel's arguments, and the operands of
//! `func.return` are the outputs.

use kiln_dialects::{func, memref, npuvec};
use std::collections::HashMap;

use kiln_bytecode::isa::Space;
use kiln_bytecode::module::{BufferRef, Host, Launch, TensorSpec};
use kiln_compiler::{AttrKind, DenseData, Diagnostic, Ir, OpDef, OpId, ValueId};
use kiln_targets::Target;

use crate::kernel::body;
use crate::read::{self, Res};

/// The GM tensor spec of memref value `v` used by `op` (0 where its type has `?`) and which
/// of its dims are `?`.
fn spec<'c>(ir: &Ir<'c>, op: OpId, v: ValueId) -> Res<'c, (TensorSpec, Vec<bool>)> {
    let m = read::memref_dynamic(ir, op, ir.value_type(v))?;
    if m.space.is_some_and(|s| s != Space::Gm) {
        return Err(Diagnostic::op_error(
            ir,
            op,
            format!("expects a GM memref, but got '{}'", ir.value_type(v)),
        ));
    }
    Ok((TensorSpec { dtype: m.dtype, shape: m.shape }, m.dynamic))
}

/// The byte size of `spec`, bounded by the target's HBM.
fn bytes<'c>(ir: &Ir<'c>, op: OpId, spec: &TensorSpec, target: &Target) -> Res<'c, u64> {
    match spec.checked_bytes() {
        Some(b) if b <= target.hbm.capacity_bytes => Ok(b),
        _ => Err(Diagnostic::op_error(
            ir,
            op,
            format!("needs more GM than the target's HBM capacity ({} bytes)", target.hbm.capacity_bytes),
        )),
    }
}

/// The little-endian bytes of constant `op`'s `value` (a dense elements attribute).
fn constant_bytes<'c>(ir: &Ir<'c>, op: OpId, spec: &TensorSpec, target: &Target) -> Res<'c, Vec<u8>> {
    let total = bytes(ir, op, spec, target)?;
    let data = ir.attr(op, "value").map(|a| *a.kind());
    let Some(AttrKind::DenseElements { data: DenseData::Raw { bytes: raw, splat }, .. }) = data else {
        return Err(Diagnostic::op_error(ir, op, "needs a `value` of dense integer or float elements"));
    };
    let elem = spec.dtype.bytes() as usize;
    let out =
        if splat && raw.len() == elem { raw.repeat(total as usize / elem.max(1)) } else { raw.to_vec() };
    if out.len() as u64 != total {
        return Err(Diagnostic::op_error(
            ir,
            op,
            format!("has {} bytes of data for a '{}' buffer", out.len(), ir.value_type(ir.results(op)[0])),
        ));
    }
    Ok(out)
}

/// Constant GM data: a shape and its little-endian bytes (as [`kiln_bytecode::module::Module`] keeps it).
pub type Constants = Vec<(TensorSpec, Vec<u8>)>;

/// The host program of entry `func`, its constants and the places a shape class may make
/// symbolic, given the kernels' names in order.
pub fn emit_host<'c>(
    ir: &Ir<'c>,
    func: OpId,
    kernels: &[String],
    target: &Target,
) -> Res<'c, (Host, Constants, Sites)> {
    let mut sites = Sites::default();
    let name = ir.attr(func, "sym_name").and_then(|a| a.as_str()).unwrap_or_default();
    let mut host = Host { name: String::from_utf8_lossy(name).into_owned(), ..Host::default() };
    let mut constants = Vec::new();
    let Some(entry) = body(ir, func) else {
        return Err(Diagnostic::op_error(ir, func, "entry function has no body"));
    };
    let mut buffers: HashMap<ValueId, BufferRef> = HashMap::new();
    for (i, &arg) in ir.block_args(entry).iter().enumerate() {
        let (s, dynamic) = spec(ir, func, arg)?;
        bytes(ir, func, &s, target)?;
        host.inputs.push(s);
        sites.inputs.push(dynamic);
        buffers.insert(arg, BufferRef::Input(i as u32));
    }
    let buffer = |buffers: &HashMap<ValueId, BufferRef>, op: OpId, i: usize, v: ValueId| {
        buffers.get(&v).copied().ok_or_else(|| {
            Diagnostic::op_error(ir, op, format!("operand #{i} is not a GM buffer of the host program"))
        })
    };
    for op in ir.block_ops(entry) {
        let result = ir.results(op).first().copied();
        let is = |def: &'static OpDef| ir.is(op, def);
        match result {
            Some(v) if is(&memref::ALLOC_OP) && ir.operands(op).is_empty() => {
                let (s, dynamic) = spec(ir, op, v)?;
                host.temps.push(bytes(ir, op, &s, target)?);
                sites.temps.push((op, dynamic.contains(&true)));
                buffers.insert(v, BufferRef::Temp(host.temps.len() as u32 - 1));
            }
            Some(v) if is(&npuvec::CONSTANT_OP) => {
                let s = static_spec(ir, op, v)?;
                let data = constant_bytes(ir, op, &s, target)?;
                constants.push((s, data));
                buffers.insert(v, BufferRef::Const(constants.len() as u32 - 1));
            }
            Some(v) if is(&npuvec::RESHAPE_OP) => {
                let [from] = ir.operands(op)[..] else {
                    return Err(Diagnostic::op_error(ir, op, "expects one operand"));
                };
                let b = buffer(&buffers, op, 0, from)?;
                spec(ir, op, v)?;
                buffers.insert(v, b);
            }
            None if is(&npuvec::LAUNCH_OP) => {
                let callee = ir.attr(op, "callee").map(|a| *a.kind());
                let Some(AttrKind::SymbolRef { root, nested: [] }) = callee else {
                    return Err(Diagnostic::op_error(ir, op, "needs a `callee` symbol"));
                };
                let kernel = kernels.iter().position(|k| k.as_bytes() == root).ok_or_else(|| {
                    Diagnostic::op_error(
                        ir,
                        op,
                        format!("calls '@{}', which is not a kernel (`npuvec.core`)", String::from_utf8_lossy(root)),
                    )
                })?;
                let args = ir.operands(op).iter().enumerate().map(|(i, &v)| buffer(&buffers, op, i, v));
                host.launches.push(Launch { kernel: kernel as u32, args: args.collect::<Res<'c, _>>()? });
                sites.launches.push(op);
            }
            _ if is(&func::RETURN_OP) => {
                for (i, &v) in ir.operands(op).iter().enumerate() {
                    let (s, dynamic) = spec(ir, op, v)?;
                    host.outputs.push((s, buffer(&buffers, op, i, v)?));
                    sites.outputs.push(dynamic);
                }
                sites.ret = Some(op);
            }
            _ => {
                return Err(Diagnostic::op_error(
                    ir,
                    op,
                    "has no place in a host program (memref.alloc, npuvec.constant, npuvec.reshape, npuvec.launch, func.return)",
                ))
            }
        }
    }
    Ok((host, constants, sites))
}

/// [`spec`] of a buffer whose shape must be static (a constant's).
fn static_spec<'c>(ir: &Ir<'c>, op: OpId, v: ValueId) -> Res<'c, TensorSpec> {
    let ty = ir.value_type(v);
    match spec(ir, op, v)? {
        (s, dynamic) if !dynamic.contains(&true) => Ok(s),
        _ => Err(Diagnostic::op_error(ir, op, format!("needs a static shape, but got '{ty}'"))),
    }
}

/// Where the host program may be symbolic in a shape class: which dims of its inputs and
/// outputs are `?`, its temporaries (the `memref.alloc`, whether its size is `?`), its
/// launches and its `func.return`.
#[derive(Default)]
pub struct Sites {
    /// Per input, per dim: `?`.
    pub inputs: Vec<Vec<bool>>,
    /// Per temporary: its op and whether its type has `?`.
    pub temps: Vec<(OpId, bool)>,
    /// Per output, per dim: `?`.
    pub outputs: Vec<Vec<bool>>,
    /// Per launch: its op.
    pub launches: Vec<OpId>,
    /// The `func.return`.
    pub ret: Option<OpId>,
}
