//! The direct path: a segment of elementwise ops over one shape is emitted as one kernel's
//! bytecode straight from its recorded nodes, without building IR or running passes (as the
//! eager frameworks' own JITs do for their commonest case). Anything else goes through the
//! pipeline ([`crate::compile`]).
//!
//! Applies when every node the outputs need is an `hl` op with a one-instruction vector
//! lowering (`hl.exp` -> `npuvec.exp`, `hl.maximum` -> `npuvec.max`: the tables of
//! `kiln_passes::codegen::vector_ops` and `kiln_emit`, so the two paths cannot disagree on
//! what an op becomes) or a rank-0 `hl.constant` used as an immediate; every other operand and
//! every result has the outputs' shape and one float element type; and the flags would fuse
//! the whole segment anyway: `--opt_level=2`, or `--opt_level=1` with one output, no op lists.
//!
//! The kernel: the `N` elements, flat, in tiles of `T` (as many as the UB holds for one buffer
//! per input and per live intermediate, at most one vector instruction's `max_repeats`); tile
//! `t` on core `t mod block_dim`, the tail on core 0. Per tile: load the inputs (MTE2), run
//! the ops in order (V; intermediates reuse dead ones' buffers, in place where an operand dies),
//! store the outputs (MTE3), with the flags that order the pipes (MTE2 -> V, V -> MTE3, and
//! for the next tile V -> MTE2 and MTE3 -> V; events 0 and 1). Results are bit-identical to
//! the pipeline's (the same instructions on the same elements): `tests/direct.rs` compares
//! them on random segments, and the unit tests run kernels of several sizes on two targets
//! through the validating loader and under the sync checker.

use kiln_bytecode::isa::{
    Atomic, BinaryOp, Buf, Dim, GmView, Inst, Pipe, Reg, Scalar, ScalarOp, Space, Src, UnaryOp,
};
use kiln_bytecode::module::{BufferRef, Core, Host, Kernel, Launch, Module, TensorSpec};
use kiln_bytecode::opcode::InstKind;
use kiln_dialects::hl::CONSTANT;
use kiln_dialects::npuvec::interfaces::instruction;
use kiln_passes::codegen::vector_ops::vector_lowering;
use kiln_targets::Target;

use crate::cache::SegmentKey;
use crate::node::{AttrValue, Operand, TensorType};

/// An operand as the kernel sees it.
#[derive(Clone, Copy)]
enum Value {
    /// Kernel buffer `n`: input `n` for `n` below the input count, else an intermediate's.
    Buf(usize),
    /// An immediate (a rank-0 constant).
    Imm(Scalar),
}

/// One vector instruction of the tile, on buffer numbers.
enum Op {
    Unary { op: UnaryOp, src: usize, dst: usize },
    Binary { op: BinaryOp, a: Value, b: Value, dst: usize },
}

/// What the kernel computes, before the tile size is known.
struct Plan {
    /// The element type and shape of every operand and result.
    spec: TensorSpec,
    /// The element count.
    elems: u32,
    /// The segment inputs the ops read, in first-use order: input buffer `k` and kernel
    /// argument `k` are `inputs[k]`.
    inputs: Vec<u32>,
    ops: Vec<Op>,
    /// The buffer of each output, in the segment's output order.
    outputs: Vec<usize>,
    /// Buffers in all (inputs' and intermediates').
    buffers: usize,
}

/// The direct kernel of segment `key` for `target`, or `None` when the segment is not a plain
/// elementwise one (see the module docs).
pub(crate) fn compile(key: &SegmentKey, target: &Target) -> Option<Module> {
    let plan = plan(key)?;
    let dtype = plan.spec.dtype;
    if target.sync.event_ids < 2 {
        return None;
    }

    // The tile: as many elements as the UB holds for every buffer, aligned.
    let bytes = dtype.bytes();
    let align = u32::try_from(target.memory.alignment_bytes).ok()?.max(bytes);
    let per_buf = (target.memory.ub_usable_bytes / plan.buffers as u64)
        .min(u64::from(target.vector.max_repeats) * target.vector.repeat_bytes);
    let tile = (u32::try_from(per_buf).ok()? / align * align / bytes).min(plan.elems);
    if tile == 0 {
        return None;
    }
    let stride = u32::try_from(target.align(u64::from(tile) * u64::from(bytes))).ok()?;
    let ub_bytes = stride.checked_mul(u32::try_from(plan.buffers).ok()?)?;
    let buf = |n: usize, cols: u32| Buf {
        space: Space::Ub,
        dtype,
        addr: n as u32 * stride,
        rows: 1,
        cols,
        pitch: kiln_emit::pitch(target, cols, dtype),
    };
    let (full, tail) = (plan.elems / tile, plan.elems % tile);

    let (idx, num, hi, iv, size, off, zero, first) =
        (Reg(0), Reg(1), Reg(2), Reg(3), Reg(4), Reg(5), Reg(6), Reg(7));
    let mut code = vec![
        Inst::BlockIdx { dst: idx },
        Inst::BlockNum { dst: num },
        Inst::Const { dst: hi, value: i64::from(full) },
        Inst::Const { dst: size, value: i64::from(tile) },
        set(Pipe::V, Pipe::Mte2, 1),
        set(Pipe::Mte3, Pipe::V, 1),
    ];
    if full > 0 {
        let mut body = vec![Inst::Scalar { op: ScalarOp::Mul, dst: off, a: iv, b: size }];
        body.extend(plan.tile_code(tile, Some(off), 0, &buf));
        code.push(Inst::For { iv, lo: idx, hi, step: num, body: body.len() as u32 });
        code.extend(body);
    }
    if tail > 0 {
        let body = plan.tile_code(tail, None, i64::from(full) * i64::from(tile), &buf);
        code.extend([
            Inst::Const { dst: zero, value: 0 },
            Inst::Scalar { op: ScalarOp::Eq, dst: first, a: idx, b: zero },
            Inst::If { cond: first, then_len: body.len() as u32, else_len: 0 },
        ]);
        code.extend(body);
    }
    code.extend([
        wait(Pipe::V, Pipe::Mte2, 1),
        wait(Pipe::Mte3, Pipe::V, 1),
        Inst::Barrier { pipe: Pipe::All },
    ]);

    let n_out = plan.outputs.len() as u32;
    let mut args: Vec<BufferRef> = plan.inputs.iter().map(|&j| BufferRef::Input(j)).collect();
    args.extend((0..n_out).map(BufferRef::Temp));
    Some(Module {
        target: target.name.clone(),
        kernels: vec![Kernel {
            name: "segment_kernel0".to_string(),
            core: Core::Aiv,
            block_dim: full.clamp(1, target.cores.vector.max(1)),
            ub_bytes,
            num_args: u16::try_from(args.len()).ok()?,
            code,
        }],
        host: Host {
            name: "segment".to_string(),
            inputs: key.inputs.iter().map(TensorType::spec).collect(),
            temps: vec![plan.spec.checked_bytes()?; n_out as usize],
            launches: vec![Launch { kernel: 0, args }],
            outputs: (0..n_out).map(|k| (plan.spec.clone(), BufferRef::Temp(k))).collect(),
        },
        constants: Vec::new(),
    })
}

/// Checks that segment `key` takes the direct path and gives its values buffers.
fn plan(key: &SegmentKey) -> Option<Plan> {
    let f = &key.fusion;
    let lists = f.enable_ops.is_empty() && f.disable_ops.is_empty() && f.enable_ops_only.is_empty();
    if !f.direct_emit || !lists || !(f.opt_level == 2 || (f.opt_level == 1 && key.outputs.len() == 1)) {
        return None;
    }
    let out_ty = &key.nodes[*key.outputs.first()? as usize].ty;
    let dtype = out_ty.dtype;
    if !dtype.is_float() {
        return None;
    }
    let same = |t: &TensorType| t.dtype == dtype && t.shape == out_ty.shape;
    let is_const = |k: usize| std::ptr::eq(key.nodes[k].kind.0, &CONSTANT);

    // Which nodes the outputs need, and the last node that reads each.
    let mut needed = vec![false; key.nodes.len()];
    for &o in &key.outputs {
        needed[o as usize] = true;
    }
    let mut last_use = vec![0usize; key.nodes.len()];
    for i in (0..key.nodes.len()).rev() {
        if needed[i] {
            for o in &key.nodes[i].operands {
                if let Operand::Node(k) = *o {
                    needed[k as usize] = true;
                    last_use[k as usize] = last_use[k as usize].max(i);
                }
            }
        }
    }
    let mut inputs: Vec<u32> = Vec::new();
    for (i, node) in key.nodes.iter().enumerate() {
        if !needed[i] || is_const(i) {
            continue;
        }
        for o in &node.operands {
            if let Operand::Input(j) = *o {
                if !same(&key.inputs[j as usize]) {
                    return None;
                }
                if !inputs.contains(&j) {
                    inputs.push(j);
                }
            }
        }
    }

    // Values: immediates for constants, buffers for the rest (an intermediate takes a buffer
    // of a value that died at it, or a new one).
    let mut value: Vec<Option<Value>> = vec![None; key.nodes.len()];
    let mut buffers = inputs.len();
    let mut free: Vec<usize> = Vec::new();
    let mut ops = Vec::new();
    for (i, node) in key.nodes.iter().enumerate().filter(|&(i, _)| needed[i]) {
        if is_const(i) {
            let [(_, AttrValue::Splat(bits))] = &node.attrs[..] else { return None };
            if !node.ty.shape.is_empty() || node.ty.dtype != dtype || key.outputs.contains(&(i as u32)) {
                return None;
            }
            // The VM rounds an immediate to the op's type as `hl::builder::splat` rounds the
            // pipeline's constant (straight from `f64`), so the raw value gives its bits.
            value[i] = Some(Value::Imm(Scalar::Float(f64::from_bits(*bits))));
            continue;
        }
        if !node.attrs.is_empty() || !same(&node.ty) {
            return None;
        }
        let operand = |o: Operand| match o {
            Operand::Input(j) => inputs.iter().position(|&k| k == j).map(Value::Buf),
            Operand::Node(k) => value[k as usize],
        };
        let srcs: Vec<Value> = node.operands.iter().map(|&o| operand(o)).collect::<Option<_>>()?;
        for o in &node.operands {
            if let (Operand::Node(k), Some(Value::Buf(b))) = (*o, operand(*o)) {
                if last_use[k as usize] == i && !key.outputs.contains(&k) && !free.contains(&b) {
                    free.push(b);
                }
            }
        }
        let dst = free.pop().unwrap_or_else(|| {
            buffers += 1;
            buffers - 1
        });
        let inst = instruction(vector_lowering(node.kind.0)?)?;
        ops.push(match (&srcs[..], inst) {
            // A unary op of an immediate, or an op of two, is folded by the pipeline: not here.
            (&[Value::Buf(src)], InstKind::Unary(op)) => Op::Unary { op, src, dst },
            (&[a, b], InstKind::Binary(op)) if matches!((a, b), (Value::Buf(_), _) | (_, Value::Buf(_))) => {
                Op::Binary { op, a, b, dst }
            }
            _ => return None,
        });
        value[i] = Some(Value::Buf(dst));
    }
    let outputs = key
        .outputs
        .iter()
        .map(|&o| match value[o as usize] {
            Some(Value::Buf(b)) => Some(b),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let spec = TensorSpec { dtype, shape: out_ty.shape.iter().map(|&d| d as u64).collect() };
    Some(Plan { spec, elems: u32::try_from(out_ty.numel()).ok()?, inputs, ops, outputs, buffers })
}

impl Plan {
    /// The code of one tile of `cols` elements at GM element `base + offset`: load, compute,
    /// store, and the flags that order them and the next tile. `buf(n, cols)`: buffer `n`.
    fn tile_code(
        &self,
        cols: u32,
        offset: Option<Reg>,
        base: i64,
        buf: &dyn Fn(usize, u32) -> Buf,
    ) -> Vec<Inst> {
        let view =
            |arg: usize| GmView { arg: arg as u16, offset, base, dims: vec![Dim { size: cols, stride: 1 }] };
        let src = |v: Value| match v {
            Value::Buf(n) => Src::Buf(buf(n, cols)),
            Value::Imm(s) => Src::Imm(s),
        };
        let mut code = vec![wait(Pipe::V, Pipe::Mte2, 1)];
        for a in 0..self.inputs.len() {
            code.push(Inst::Load { dst: buf(a, cols), src: view(a), zero_pad: false });
        }
        code.extend([
            set(Pipe::Mte2, Pipe::V, 0),
            wait(Pipe::Mte2, Pipe::V, 0),
            wait(Pipe::Mte3, Pipe::V, 1),
        ]);
        for (k, op) in self.ops.iter().enumerate() {
            if k > 0 {
                code.push(Inst::Barrier { pipe: Pipe::V });
            }
            code.push(match *op {
                Op::Unary { op, src, dst } => Inst::Unary { op, dst: buf(dst, cols), src: buf(src, cols) },
                Op::Binary { op, a, b, dst } => {
                    Inst::Binary { op, dst: buf(dst, cols), a: src(a), b: src(b) }
                }
            });
        }
        code.extend([set(Pipe::V, Pipe::Mte2, 1), set(Pipe::V, Pipe::Mte3, 0), wait(Pipe::V, Pipe::Mte3, 0)]);
        for (k, &b) in self.outputs.iter().enumerate() {
            code.push(Inst::Store {
                dst: view(self.inputs.len() + k),
                src: buf(b, cols),
                atomic: Atomic::None,
            });
        }
        code.push(set(Pipe::Mte3, Pipe::V, 1));
        code
    }
}

fn set(src: Pipe, dst: Pipe, event: u8) -> Inst {
    Inst::SetFlag { src, dst, event }
}

fn wait(src: Pipe, dst: Pipe, event: u8) -> Inst {
    Inst::WaitFlag { src, dst, event }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use kiln_bytecode::isa::DType;
    use kiln_dialects::hl;
    use kiln_vm::HostTensor;
    use smallvec::smallvec;

    use super::compile;
    use crate::cache::{fold, SegmentKey};
    use crate::flags::Flags;
    use crate::node::{AttrValue, Node, OpKind, Operand, TensorType};

    fn node(def: &'static kiln_compiler::OpDef, operands: &[Operand], ty: &TensorType) -> Node {
        Node {
            kind: OpKind(def),
            operands: operands.iter().copied().collect(),
            attrs: Box::new([]),
            ty: TensorType::new(ty.dtype, &ty.shape),
            declared: false,
        }
    }

    /// `exp(x + y) * 2 - x` over `n` f32 elements, output the last and (with `both`) the sum.
    fn key(n: i64, flags: &str, both: bool) -> SegmentKey {
        let t = TensorType::new(DType::F32, &[n]);
        let scalar = TensorType::new(DType::F32, &[]);
        let nodes = vec![
            node(&hl::ADD, &[Operand::Input(0), Operand::Input(1)], &t),
            node(&hl::EXP, &[Operand::Node(0)], &t),
            Node {
                kind: OpKind(&hl::CONSTANT),
                operands: smallvec![],
                attrs: Box::new([("value", AttrValue::Splat(2.0f64.to_bits()))]),
                ty: scalar,
                declared: false,
            },
            node(&hl::MUL, &[Operand::Node(1), Operand::Node(2)], &t),
            node(&hl::SUB, &[Operand::Node(3), Operand::Input(0)], &t),
        ];
        let inputs = vec![TensorType::new(DType::F32, &[n]), TensorType::new(DType::F32, &[n])];
        let hash = fold(&nodes, &inputs);
        let outputs = if both { vec![0, 4] } else { vec![4] };
        let fusion = Rc::new(Flags::parse(flags).unwrap().flags.fusion_key());
        SegmentKey::new(nodes, hash, inputs, outputs, fusion)
    }

    fn host(v: &[f32]) -> HostTensor {
        let spec = kiln_bytecode::module::TensorSpec { dtype: DType::F32, shape: vec![v.len() as u64] };
        HostTensor { spec, bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect() }
    }

    fn floats(t: &HostTensor) -> Vec<f32> {
        t.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
    }

    /// Sizes: one tile, tiles with a tail, many tiles on several cores, a tail only.
    #[test]
    fn kernels_validate_have_no_hazards_and_compute_the_segment() {
        for name in [kiln_targets::DEFAULT_TARGET, "tiny-npu"] {
            sizes_on(&kiln_targets::Target::load(name).unwrap());
        }
    }

    fn sizes_on(target: &kiln_targets::Target) {
        let config = kiln_vm::VmConfig { exact_transcendentals: true, ..kiln_vm::VmConfig::default() };
        for (n, both) in [(1, false), (1000, true), (40_000, false), (50_003, true), (16_321, false)] {
            let module =
                compile(&key(n, "--opt_level=2", both), target).expect("a plain elementwise segment");
            let bytes = kiln_bytecode::encode(&module);
            assert_eq!(kiln_bytecode::load(&bytes, target).unwrap(), module, "the loader validates it");
            let x: Vec<f32> = (0..n).map(|i| (i % 97) as f32 * 0.03 - 1.5).collect();
            let y: Vec<f32> = (0..n).map(|i| (i % 89) as f32 * -0.02 + 0.7).collect();
            let inputs = [host(&x), host(&y)];
            let reports = kiln_vm::sync_check::check(target, &module, &inputs).unwrap();
            assert!(reports.is_empty(), "{}: n = {n}: {reports:?}", target.name);
            let out = kiln_vm::Vm::with_config(target, config).run(&module, &inputs).unwrap();
            let last = floats(&out.tensors[both as usize]);
            for i in 0..n as usize {
                let sum = x[i] + y[i];
                let expect = ((f64::from(sum).exp() as f32) * 2.0) - x[i];
                assert_eq!(last[i].to_bits(), expect.to_bits(), "n = {n}, element {i}");
                if both {
                    assert_eq!(floats(&out.tensors[0])[i], sum);
                }
            }
            let k = &module.kernels[0];
            assert!(k.ub_bytes as u64 <= target.memory.ub_usable_bytes);
            if n >= 40_000 {
                assert!(k.block_dim > 1, "n = {n}: several tiles run on several cores");
            }
        }
    }

    #[test]
    fn other_segments_and_flags_take_the_pipeline() {
        let target = kiln_targets::Target::load(kiln_targets::DEFAULT_TARGET).unwrap();
        assert!(compile(&key(64, "--opt_level=0", false), &target).is_none());
        assert!(compile(&key(64, "--opt_level=1", true), &target).is_none(), "two outputs at level 1");
        assert!(compile(&key(64, "--opt_level=1", false), &target).is_some());
        assert!(compile(&key(64, "--direct_emit=false", false), &target).is_none());
        assert!(compile(&key(64, "--dump_as_text", false), &target).is_none());
        assert!(compile(&key(64, "--disable_ops=Exp", false), &target).is_none());
    }
}
