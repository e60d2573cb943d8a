//! The direct path: a segment of elementwise ops over one shape is emitted as one kernel's
//! bytecode straight from its recorded nodes, without building IR or running passes (as the
//! eager frameworks' own JITs do for their commonest case). It skips the IR, not the
//! decisions: its buffers, tile, buffer addresses and flags come from the code the pipeline
//! makes them with. Anything else goes through the pipeline ([`crate::compile`]).
//!
//! Applies when every node the outputs need is an `hl` op with a one-instruction vector
//! lowering (`hl.exp` -> `npuvec.exp`, `hl.maximum` -> `npuvec.max`: the tables of
//! `kiln_passes::codegen::vector_ops` and `kiln_emit`, so the two paths cannot disagree on
//! what an op becomes) or a rank-0 `hl.constant` used as an immediate; every other operand and
//! every result has the outputs' shape and one float element type; and the flags would fuse
//! the whole segment anyway: `--opt_level=2`, or `--opt_level=1` with one output, no op lists.
//!
//! The decisions, from `kiln_passes::codegen`, on what `VectorModel` would find in the
//! segment's kernel (its shape is the domain; the last axis the columns, the others kept):
//! - buffers: `model::assign_buffers` (a result in place of an operand that dies at it), or
//!   for a row too long for the UB `model::stage_buffers`;
//! - the tile: `Tiling::choose_in` (the most rows whose placed buffers fit the UB, fewer when
//!   that gives every core a tile; a row too long in column chunks), the choice of
//!   `kiln-codegen-tile`;
//! - buffer addresses: `tiling::tile_placement`, the placement `kiln-codegen-plan-ub` makes
//!   (buffers with disjoint lifetimes share bytes);
//! - flags and barriers: `sync::plan`, the rules of `kiln-codegen-insert-sync`, on the
//!   kernel's own instructions (what each touches read off the ISA's table with
//!   `sync::role_access`, as the pass reads its ops); a barrier of all pipes ends the kernel.
//!
//! The kernel then runs those tiles flat: a tile of whole rows is a contiguous run of
//! elements (`block` indices of the key axis with the axes inside it), so the elements are
//! `groups` runs (one per index of the axes outside the key axis) of `full` tiles and a tail;
//! in column chunks, a run is a row and a tile a chunk (a tile of several rows in chunks is not
//! contiguous: the pipeline then). A buffer is one row of the tile's elements at the address of
//! the pipeline's `rows x cols` buffer, which holds it. The kernel runs on as many cores as
//! there are tiles, up to the target's; core `i` takes tiles `i`, `i + block_dim`, ... in a
//! loop, or only tile `i` when there are no more tiles than cores.
//! Not shared with the pipeline: its clean-up before the tile (CSE, folding), double buffering
//! (the direct kernel is single-buffered, as `kiln-codegen-tile{double-buffer=false}` tiles)
//! and the lowering's loops (its tails are a branch inside the tile loop, its tiles `rows x
//! cols` buffers; a row's column chunks are tiles spread over the cores, where the pipeline
//! runs them in a loop on the row's core).
//!
//! Results are bit-identical to the pipeline's (the same instructions on the same elements):
//! `tests/direct.rs` compares them on random segments, and the unit tests run kernels of
//! several shapes on two targets through the validating loader and under the sync checker.

use kiln_bytecode::isa::{
    Atomic, BinaryOp, Buf, DType, Dim, GmView, Inst, Operand as InstOperand, Pipe, Reg, Scalar, ScalarOp,
    Space, Src, UnaryOp,
};
use kiln_bytecode::module::{BufferRef, Core, Host, Kernel, Launch, Module, TensorSpec};
use kiln_bytecode::opcode::InstKind;
use kiln_dialects::hl::CONSTANT;
use kiln_dialects::npuvec::interfaces::instruction;
use kiln_passes::codegen::model::{assign_buffers, stage_buffers, Layout, Reuse, Step};
use kiln_passes::codegen::sync::{self, role_access, Item, Memory, Touch};
use kiln_passes::codegen::tiling::{tile_placement, TileDomain, Tiling};
use kiln_passes::codegen::vector_ops::vector_lowering;
use kiln_targets::Target;
use smallvec::SmallVec;

use crate::cache::SegmentKey;
use crate::node::{AttrValue, Operand, TensorType};

/// An operand as the kernel sees it.
#[derive(Clone, Copy)]
enum Value {
    /// Value `n` of the tile (see [`Plan`]), in its buffer.
    Buf(usize),
    /// An immediate (a rank-0 constant).
    Imm(Scalar),
}

/// One vector instruction of the tile, on values.
enum Op {
    Unary { op: UnaryOp, src: usize, dst: usize },
    Binary { op: BinaryOp, a: Value, b: Value, dst: usize },
}

/// What the kernel computes, before the tile is known. Its values are numbered as
/// [`assign_buffers`] numbers them: the inputs, then one per step (each node the outputs
/// need, in order, constants included).
struct Plan {
    /// The element type and shape of every operand and result.
    spec: TensorSpec,
    /// The segment inputs the ops read, in first-use order: value `k` and kernel argument `k`
    /// are `inputs[k]`.
    inputs: SmallVec<[u32; 4]>,
    /// The values each step reads, and whether its result is an immediate (a constant).
    steps: Vec<(SmallVec<[usize; 2]>, bool)>,
    ops: Vec<Op>,
    /// The value of each output, in the segment's output order.
    outputs: Vec<usize>,
}

/// A kernel's code before its sync: instructions, and loops and branches with their bodies
/// (the lengths in their heads are set when the code is written out).
enum Code {
    Inst(Inst),
    /// A `For`, whether it may run no iteration (`kiln_passes::codegen::sync::may_skip`) and
    /// its body.
    Loop(Inst, bool, Vec<Code>),
    /// An `If` and its `then` and `else` blocks.
    Branch(Inst, Vec<Code>, Vec<Code>),
}

/// Scalar code: a block of [`Code`] and the next free register (0 and 1 hold the core's index
/// and the number of cores).
struct Scalars<'a> {
    code: &'a mut Vec<Code>,
    next: &'a mut u8,
}

impl Scalars<'_> {
    fn reg(&mut self) -> Reg {
        *self.next += 1;
        Reg(*self.next - 1)
    }

    fn konst(&mut self, value: i64) -> Reg {
        let dst = self.reg();
        self.code.push(Code::Inst(Inst::Const { dst, value }));
        dst
    }

    fn op(&mut self, op: ScalarOp, a: Reg, b: Reg) -> Reg {
        let dst = self.reg();
        self.code.push(Code::Inst(Inst::Scalar { op, dst, a, b }));
        dst
    }

    /// A loop of `iv` from `lo` to `hi` (constants: `bounds`) by `step`, its body from `body`.
    fn for_loop(
        &mut self,
        (lo, hi, step): (Reg, Reg, Reg),
        bounds: (Option<i64>, Option<i64>),
        body: impl FnOnce(&mut Scalars<'_>, Reg),
    ) {
        let iv = self.reg();
        let mut inner = Vec::new();
        body(&mut Scalars { code: &mut inner, next: self.next }, iv);
        let may_skip = sync::may_skip(bounds.0.map(i128::from), bounds.1.map(i128::from));
        self.code.push(Code::Loop(Inst::For { iv, lo, hi, step, body: 0 }, may_skip, inner));
    }
}

/// The direct kernel of segment `key` for `target`, or `None` when the segment is not a plain
/// elementwise one (see the module docs).
pub(crate) fn compile(key: &SegmentKey, target: &Target) -> Option<Module> {
    let plan = plan(key)?;
    let dtype = plan.spec.dtype;

    // The pipeline's model of an elementwise kernel over the segment's shape: the last axis
    // is the columns, the others are kept; every value spans them all.
    let mut shape: SmallVec<[i64; 4]> = plan.spec.shape.iter().map(|&d| d as i64).collect();
    if shape.is_empty() {
        shape.push(1);
    }
    let n = shape.len();
    let kept: SmallVec<[usize; 4]> = (0..n - 1).collect();
    let cols = shape[n - 1];
    let layout = Layout { rows: kept.iter().any(|&a| shape[a] > 1), cols: cols > 1, elem: dtype };
    let steps: Vec<Step<'_, DType>> = plan
        .steps
        .iter()
        .map(|(reads, imm)| Step {
            operands: reads,
            result: (!imm).then_some(layout),
            reuse: Reuse::InPlace,
            temp: None,
        })
        .collect();
    let whole = assign_buffers(&vec![layout; plan.inputs.len()], &steps, &plan.outputs);
    let stage = || stage_buffers(&whole, |_| layout, |_| None, &[]);
    let dom = TileDomain {
        domain: &shape,
        kept: &kept,
        cols,
        chunk_axis_len: if cols > 1 { cols } else { 1 },
        col_view_dims: [usize::from(cols > 1), 1],
    };
    let tiling = Tiling::choose_in(target, &dom, &whole.specs, || Some(stage().specs), 1).ok()?;

    // The tiles, flat: `groups` runs of `group` elements, each `full` tiles of `t` elements
    // and a tail of `u`. Whole rows: a group is the key axis (a row of the outer axes), a tile
    // `block` indices of it with the inner axes. Column chunks: a group is a row, a tile a chunk
    // of it (a tile of several rows would not be contiguous: the pipeline then).
    let staged = tiling.col_block < cols;
    let in_kept =
        |pick: &dyn Fn(usize) -> bool| kept.iter().filter(|&&a| pick(a)).map(|&a| shape[a]).product::<i64>();
    let key_len = if kept.contains(&tiling.key) { shape[tiling.key] } else { 1 };
    let (outer, inner) = (in_kept(&|a| a < tiling.key), in_kept(&|a| a > tiling.key));
    let rows = tiling.block * inner;
    let (groups, group, t, full, u) = if staged {
        if rows > 1 {
            return None;
        }
        let c = tiling.col_block;
        (outer * key_len, cols, c, cols / c, cols % c)
    } else {
        let row = inner * cols;
        (outer, key_len * row, tiling.block * row, key_len / tiling.block, key_len % tiling.block * row)
    };
    let bufs = if staged { stage() } else { whole };
    let (offsets, peak) = tile_placement(target, &bufs.specs, rows, if staged { t } else { cols });
    // (Every offset is below the peak.)
    let ub_bytes = u32::try_from(peak).ok()?;
    let buf = |v: usize, cols: u32| Buf {
        space: Space::Ub,
        dtype,
        addr: offsets[bufs.of[v].expect("inputs and results have buffers")] as u32,
        rows: 1,
        cols,
        pitch: kiln_emit::pitch(target, cols, dtype),
    };
    let (t32, u32_) = (u32::try_from(t).ok()?, u32::try_from(u).ok()?);
    // The `groups * full` whole tiles, then the tail of each group: the tiles of the grid (a
    // chunk of a row is a tile of it here), spread over as many cores as there are tiles.
    let (whole, tails) = (groups * full, if u > 0 { groups } else { 0 });
    let block_dim = (whole + tails).clamp(1, i64::from(target.cores.vector.max(1)));

    let (idx, num) = (Reg(0), Reg(1));
    let mut code = Vec::with_capacity(16 + plan.inputs.len() + plan.ops.len() + plan.outputs.len());
    code.extend([Code::Inst(Inst::BlockIdx { dst: idx }), Code::Inst(Inst::BlockNum { dst: num })]);
    let mut next = 2;
    let mut sc = Scalars { code: &mut code, next: &mut next };
    if whole + tails == 1 {
        let (n, c) = if whole == 1 { (t32, 0) } else { (u32_, full * t) };
        plan.tile_code(n, None, c, &buf, sc.code);
    } else {
        // Each core runs tiles `idx`, `idx + block_dim`, ... of the round robin: in a loop, or,
        // when there are no more tiles than cores, just tile `idx`.
        let size = sc.konst(t);
        let per = (groups > 1).then(|| (sc.konst(full), sc.konst(group)));
        let whole_tile = |sc: &mut Scalars<'_>, i: Reg| {
            let off = match per {
                Some((per, stride)) => {
                    let (g, j) = (sc.op(ScalarOp::DivU, i, per), sc.op(ScalarOp::RemU, i, per));
                    let (a, b) = (sc.op(ScalarOp::Mul, g, stride), sc.op(ScalarOp::Mul, j, size));
                    sc.op(ScalarOp::Add, a, b)
                }
                None => sc.op(ScalarOp::Mul, i, size),
            };
            plan.tile_code(t32, Some(off), 0, &buf, sc.code);
        };
        let stride = per.map(|(_, stride)| stride);
        let tail_tile = |sc: &mut Scalars<'_>, g: Reg| {
            let base = stride.map(|stride| sc.op(ScalarOp::Mul, g, stride));
            plan.tile_code(u32_, base, full * t, &buf, sc.code);
        };
        if whole + tails <= block_dim {
            if tails == 0 {
                whole_tile(&mut sc, idx);
            } else {
                // Core `idx` has whole tile `idx` or the tail of group `idx - whole`.
                let w = sc.konst(whole);
                let cond = sc.op(ScalarOp::Lt, idx, w);
                let (mut then, mut other) = (Vec::new(), Vec::new());
                whole_tile(&mut Scalars { code: &mut then, next: sc.next }, idx);
                let mut sc2 = Scalars { code: &mut other, next: sc.next };
                let g = sc2.op(ScalarOp::Sub, idx, w);
                tail_tile(&mut sc2, g);
                sc.code.push(Code::Branch(Inst::If { cond, then_len: 0, else_len: 0 }, then, other));
            }
        } else {
            let hi = sc.konst(whole);
            sc.for_loop((idx, hi, num), (None, Some(whole)), |sc, i| whole_tile(sc, i));
            if tails > 0 {
                // The tail of group `g` is tile `whole + g` of the round robin.
                let (shift, bd) = (sc.konst(block_dim - whole % block_dim), sc.konst(block_dim));
                let shifted = sc.op(ScalarOp::Add, idx, shift);
                let lo = sc.op(ScalarOp::RemU, shifted, bd);
                let hi = sc.konst(tails);
                sc.for_loop((lo, hi, num), (None, Some(tails)), |sc, g| tail_tile(sc, g));
            }
        }
    }
    let mut sync = sync::plan(&items(&code, &mut 0));
    if sync.carried.iter().any(|c| c.event >= i64::from(target.sync.event_ids)) {
        return None;
    }
    sync.pairs.sort_by_key(|&(id, p, q)| (id, p, q));
    sync.pairs.dedup();
    let mut insts = Vec::with_capacity(4 * code.len() + 2 * sync.pairs.len() + 4 * sync.carried.len() + 1);
    write(code, &sync, &mut 0, &mut 0, &mut insts);
    insts.push(Inst::Barrier { pipe: Pipe::All });

    let n_out = plan.outputs.len() as u32;
    let mut args: Vec<BufferRef> = plan.inputs.iter().map(|&j| BufferRef::Input(j)).collect();
    args.extend((0..n_out).map(BufferRef::Temp));
    Some(Module {
        target: target.name.clone(),
        kernels: vec![Kernel {
            name: "segment_kernel0".to_string(),
            core: Core::Aiv,
            block_dim: u32::try_from(block_dim).ok()?,
            ub_bytes,
            num_args: u16::try_from(args.len()).ok()?,
            code: insts,
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

/// Checks that segment `key` takes the direct path and numbers its values.
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

    // Which nodes the outputs need.
    let mut needed: SmallVec<[bool; 32]> = smallvec::smallvec![false; key.nodes.len()];
    for &o in &key.outputs {
        needed[o as usize] = true;
    }
    for i in (0..key.nodes.len()).rev() {
        if needed[i] {
            for o in &key.nodes[i].operands {
                if let Operand::Node(k) = *o {
                    needed[k as usize] = true;
                }
            }
        }
    }
    let mut inputs: SmallVec<[u32; 4]> = SmallVec::new();
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

    // Values: immediates for constants, the next value number for the rest.
    let mut value: SmallVec<[Option<Value>; 32]> = smallvec::smallvec![None; key.nodes.len()];
    let mut steps = Vec::with_capacity(key.nodes.len());
    let mut ops = Vec::with_capacity(key.nodes.len());
    for (i, node) in key.nodes.iter().enumerate().filter(|&(i, _)| needed[i]) {
        let number = inputs.len() + steps.len();
        if is_const(i) {
            let [(_, AttrValue::Splat(bits))] = &node.attrs[..] else { return None };
            if !node.ty.shape.is_empty() || node.ty.dtype != dtype || key.outputs.contains(&(i as u32)) {
                return None;
            }
            // The VM rounds an immediate to the op's type as `hl::builder::splat` rounds the
            // pipeline's constant (straight from `f64`), so the raw value gives its bits.
            value[i] = Some(Value::Imm(Scalar::Float(f64::from_bits(*bits))));
            steps.push((SmallVec::new(), true));
            continue;
        }
        if !node.attrs.is_empty() || !same(&node.ty) {
            return None;
        }
        let operand = |o: Operand| match o {
            Operand::Input(j) => inputs.iter().position(|&k| k == j).map(Value::Buf),
            Operand::Node(k) => value[k as usize],
        };
        let srcs: SmallVec<[Value; 2]> = node.operands.iter().map(|&o| operand(o)).collect::<Option<_>>()?;
        let reads = srcs.iter().filter_map(|v| if let Value::Buf(b) = *v { Some(b) } else { None }).collect();
        let inst = instruction(vector_lowering(node.kind.0)?)?;
        ops.push(match (&srcs[..], inst) {
            // A unary op of an immediate, or an op of two, is folded by the pipeline: not here.
            (&[Value::Buf(src)], InstKind::Unary(op)) => Op::Unary { op, src, dst: number },
            (&[a, b], InstKind::Binary(op)) if matches!((a, b), (Value::Buf(_), _) | (_, Value::Buf(_))) => {
                Op::Binary { op, a, b, dst: number }
            }
            _ => return None,
        });
        value[i] = Some(Value::Buf(number));
        steps.push((reads, false));
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
    Some(Plan { spec, inputs, steps, ops, outputs })
}

impl Plan {
    /// Appends to `code` the code of one tile of `cols` elements at GM element `base + offset`:
    /// load, compute, store. `buf(v, cols)`: the buffer of value `v`.
    fn tile_code(
        &self,
        cols: u32,
        offset: Option<Reg>,
        base: i64,
        buf: &dyn Fn(usize, u32) -> Buf,
        code: &mut Vec<Code>,
    ) {
        let view =
            |arg: usize| GmView { arg: arg as u16, offset, base, dims: vec![Dim { size: cols, stride: 1 }] };
        let src = |v: Value| match v {
            Value::Buf(n) => Src::Buf(buf(n, cols)),
            Value::Imm(s) => Src::Imm(s),
        };
        let loads =
            (0..self.inputs.len()).map(|a| Inst::Load { dst: buf(a, cols), src: view(a), zero_pad: false });
        let ops = self.ops.iter().map(|op| match *op {
            Op::Unary { op, src, dst } => Inst::Unary { op, dst: buf(dst, cols), src: buf(src, cols) },
            Op::Binary { op, a, b, dst } => Inst::Binary { op, dst: buf(dst, cols), a: src(a), b: src(b) },
        });
        let stores = self.outputs.iter().enumerate().map(|(k, &v)| Inst::Store {
            dst: view(self.inputs.len() + k),
            src: buf(v, cols),
            atomic: Atomic::None,
        });
        code.extend(loads.chain(ops).chain(stores).map(Code::Inst));
    }
}

/// The items of `code` for the sync rules, numbered in program order from `next`: its loop
/// (which may run no iteration: it starts at the core's index), its branch (taken on one core)
/// and its pipe instructions with what they touch.
fn items(code: &[Code], next: &mut usize) -> Vec<Item<usize>> {
    let mut out = Vec::with_capacity(code.len());
    for c in code {
        let id = *next;
        *next += 1;
        match c {
            Code::Inst(inst) => push_item(inst, id, &mut out),
            Code::Loop(_, may_skip, body) => {
                out.push(Item::Loop { id, may_skip: *may_skip, body: items(body, next) })
            }
            Code::Branch(_, then, other) => {
                let then = items(then, next);
                out.push(Item::Branch { id, branches: vec![then, items(other, next)] });
            }
        }
    }
    out
}

/// Pushes the item of pipe instruction `inst` to `out`: the bytes of its buffers and the GM
/// of its views (nothing for scalar, control and sync instructions).
fn push_item(inst: &Inst, id: usize, out: &mut Vec<Item<usize>>) {
    if inst.opcode().info().operands.is_empty() {
        return;
    }
    let mut touches = SmallVec::new();
    for (role, operand) in inst.operands_with_roles() {
        let Some((_, write)) = role_access(role, inst.reads_destination()) else { continue };
        touches.push(match operand {
            InstOperand::Buf(b) | InstOperand::Src(Src::Buf(b)) => {
                let start = u64::from(b.addr);
                Touch { memory: Memory::Planned(b.space), start, end: start + b.padded_bytes(), write }
            }
            InstOperand::View(v) => Touch::gm(usize::from(v.arg), write),
            _ => continue,
        });
    }
    out.push(Item::Inst { id, pipe: inst.pipe(), touches });
}

/// Writes `code` (numbered from `next` as [`items`] numbers it) to `out` with the flag pairs
/// and barriers of `sync` (its pairs sorted, from `pair` on): a loop-carried pair's wait before
/// its consumer, its set after its producer, one set before the loop and one wait after it; an
/// adjacent pair (event 0) or a barrier just before its instruction.
fn write(code: Vec<Code>, sync: &sync::Plan<usize>, next: &mut usize, pair: &mut usize, out: &mut Vec<Inst>) {
    let flag = |set: bool, c: &sync::Carried<usize>| {
        let event = c.event as u8;
        if set {
            Inst::SetFlag { src: c.src, dst: c.dst, event }
        } else {
            Inst::WaitFlag { src: c.src, dst: c.dst, event }
        }
    };
    for c in code {
        let id = *next;
        *next += 1;
        out.extend(sync.carried.iter().filter(|k| k.consumer == id).map(|k| flag(false, k)));
        out.extend(sync.carried.iter().filter(|k| k.looped == id).map(|k| flag(true, k)));
        while let Some(&(_, p, q)) = sync.pairs.get(*pair).filter(|r| r.0 == id) {
            *pair += 1;
            if p == q {
                out.push(Inst::Barrier { pipe: q });
            } else {
                out.extend([
                    Inst::SetFlag { src: p, dst: q, event: 0 },
                    Inst::WaitFlag { src: p, dst: q, event: 0 },
                ]);
            }
        }
        match c {
            Code::Inst(inst) => out.push(inst),
            Code::Loop(head, _, body) => {
                let at = out.len();
                out.push(head);
                write(body, sync, next, pair, out);
                let len = (out.len() - at - 1) as u32;
                if let Inst::For { body, .. } = &mut out[at] {
                    *body = len;
                }
            }
            Code::Branch(head, then, other) => {
                let at = out.len();
                out.push(head);
                write(then, sync, next, pair, out);
                let then_at = out.len();
                write(other, sync, next, pair, out);
                let lens = ((then_at - at - 1) as u32, (out.len() - then_at) as u32);
                if let Inst::If { then_len, else_len, .. } = &mut out[at] {
                    (*then_len, *else_len) = lens;
                }
            }
        }
        out.extend(sync.carried.iter().filter(|k| k.producer == id).map(|k| flag(true, k)));
        out.extend(sync.carried.iter().filter(|k| k.looped == id).map(|k| flag(false, k)));
    }
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

    /// `exp(x + y) * 2 - x` over f32 tensors of `shape`, output the last and (with `both`) the
    /// sum.
    fn key(shape: &[i64], flags: &str, both: bool) -> SegmentKey {
        let t = TensorType::new(DType::F32, shape);
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
        let inputs = vec![TensorType::new(DType::F32, shape), TensorType::new(DType::F32, shape)];
        let hash = fold(&nodes, &inputs);
        let outputs = if both { vec![0, 4] } else { vec![4] };
        let fusion = Rc::new(Flags::parse(flags).unwrap().flags.fusion_key());
        SegmentKey::new(nodes, hash, inputs, outputs, fusion)
    }

    fn host(v: &[f32], shape: &[i64]) -> HostTensor {
        let spec = kiln_bytecode::module::TensorSpec {
            dtype: DType::F32,
            shape: shape.iter().map(|&d| d as u64).collect(),
        };
        HostTensor { spec, bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect() }
    }

    fn floats(t: &HostTensor) -> Vec<f32> {
        t.bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
    }

    /// Shapes: one tile, tiles with a tail, rows in column chunks, a tail only, many tiles on
    /// several cores, tiles of several rows, tiles of a key axis inside outer ones (with tails,
    /// one tile a core and several), rows in column chunks on several cores.
    #[test]
    fn kernels_validate_have_no_hazards_and_compute_the_segment() {
        for name in [kiln_targets::DEFAULT_TARGET, "tiny-npu"] {
            sizes_on(&kiln_targets::Target::load(name).unwrap());
        }
    }

    fn sizes_on(target: &kiln_targets::Target) {
        let config = kiln_vm::VmConfig { exact_transcendentals: true, ..kiln_vm::VmConfig::default() };
        let shapes: [(&[i64], bool); 10] = [
            (&[1], false),
            (&[1000], true),
            (&[40_000], false),
            (&[50_003], true),
            (&[16_321], false),
            (&[40, 1000], false),
            (&[3, 5, 1001], true),
            (&[5, 101, 1000], false),
            (&[2, 5000], true),
            (&[7, 50_003], false),
        ];
        for (shape, both) in shapes {
            let n: i64 = shape.iter().product();
            let module =
                compile(&key(shape, "--opt_level=2", both), target).expect("a plain elementwise segment");
            let bytes = kiln_bytecode::encode(&module);
            assert_eq!(kiln_bytecode::load(&bytes, target).unwrap(), module, "the loader validates it");
            let x: Vec<f32> = (0..n).map(|i| (i % 97) as f32 * 0.03 - 1.5).collect();
            let y: Vec<f32> = (0..n).map(|i| (i % 89) as f32 * -0.02 + 0.7).collect();
            let inputs = [host(&x, shape), host(&y, shape)];
            let reports = kiln_vm::sync_check::check(target, &module, &inputs).unwrap();
            assert!(reports.is_empty(), "{}: {shape:?}: {reports:?}", target.name);
            let out = kiln_vm::Vm::with_config(target, config).run(&module, &inputs).unwrap();
            let last = floats(&out.tensors[both as usize]);
            for i in 0..n as usize {
                let sum = x[i] + y[i];
                let expect = ((f64::from(sum).exp() as f32) * 2.0) - x[i];
                assert_eq!(last[i].to_bits(), expect.to_bits(), "{shape:?}, element {i}");
                if both {
                    assert_eq!(floats(&out.tensors[0])[i], sum);
                }
            }
            let k = &module.kernels[0];
            assert!(k.ub_bytes as u64 <= target.memory.ub_usable_bytes);
            if n >= 40_000 {
                assert!(k.block_dim > 1, "{shape:?}: several tiles run on several cores");
            }
        }
    }

    /// Random segments (one to three inputs, up to eight unary and binary ops, scalars on
    /// either side, one to three outputs, f32 and f16) of many sizes: every kernel validates
    /// and runs without hazards on both targets.
    #[test]
    fn random_kernels_validate_and_have_no_hazards() {
        let unary = [&hl::EXP, &hl::NEG, &hl::ABS, &hl::TANH, &hl::SQRT];
        let binary = [&hl::ADD, &hl::SUB, &hl::MUL, &hl::MAXIMUM, &hl::DIV];
        let targets =
            [kiln_targets::DEFAULT_TARGET, "tiny-npu"].map(|t| kiln_targets::Target::load(t).unwrap());
        let mut rng = kiln_dialects::hl::interp::SplitMix64(0xd1ec7);
        for case in 0..100 {
            let shapes: [&[i64]; 10] = [
                &[1],
                &[5],
                &[9],
                &[1000],
                &[4097],
                &[40_000],
                &[3, 1000],
                &[7, 9],
                &[2, 3, 4],
                &[5, 40_001],
            ];
            let shape = shapes[rng.below(shapes.len())];
            let n: i64 = shape.iter().product();
            let dtype = [DType::F32, DType::F16][rng.below(2)];
            let t = TensorType::new(dtype, shape);
            let n_in = 1 + rng.below(3);
            let mut values: Vec<Operand> = (0..n_in as u32).map(Operand::Input).collect();
            let mut nodes = Vec::new();
            for _ in 0..1 + rng.below(8) {
                let a = values[rng.below(values.len())];
                if rng.below(3) == 0 {
                    nodes.push(node(unary[rng.below(unary.len())], &[a], &t));
                } else {
                    let mut b = values[rng.below(values.len())];
                    if rng.below(4) == 0 {
                        nodes.push(Node {
                            kind: OpKind(&hl::CONSTANT),
                            operands: smallvec![],
                            attrs: Box::new([("value", AttrValue::Splat(0.75f64.to_bits()))]),
                            ty: TensorType::new(dtype, &[]),
                            declared: false,
                        });
                        b = Operand::Node(nodes.len() as u32 - 1);
                    }
                    let (a, b) = if rng.below(2) == 0 { (a, b) } else { (b, a) };
                    nodes.push(node(binary[rng.below(binary.len())], &[a, b], &t));
                }
                values.push(Operand::Node(nodes.len() as u32 - 1));
            }
            let last = nodes.len() as u32 - 1;
            let mut outputs = vec![last];
            for _ in 0..rng.below(3) {
                if let Operand::Node(k) = values[rng.below(values.len())] {
                    if !outputs.contains(&k) && !nodes[k as usize].ty.shape.is_empty() {
                        outputs.push(k);
                    }
                }
            }
            let inputs: Vec<TensorType> = (0..n_in).map(|_| TensorType::new(dtype, shape)).collect();
            let hash = fold(&nodes, &inputs);
            let fusion = Rc::new(Flags::parse("--opt_level=2").unwrap().flags.fusion_key());
            let key = SegmentKey::new(nodes, hash, inputs, outputs, fusion);
            let spec =
                kiln_bytecode::module::TensorSpec { dtype, shape: shape.iter().map(|&d| d as u64).collect() };
            let one = match dtype {
                DType::F32 => 0.5f32.to_le_bytes().to_vec(),
                _ => half::f16::from_f32(0.5).to_le_bytes().to_vec(),
            };
            let host = HostTensor { spec, bytes: one.repeat(n as usize) };
            for target in &targets {
                let module = compile(&key, target).expect("a plain elementwise segment");
                let bytes = kiln_bytecode::encode(&module);
                assert_eq!(kiln_bytecode::load(&bytes, target).unwrap(), module, "case {case}");
                let inputs = vec![host.clone(); key.inputs.len()];
                let reports = kiln_vm::sync_check::check(target, &module, &inputs).unwrap();
                assert!(reports.is_empty(), "{}: case {case}, {shape:?}: {reports:?}", target.name);
            }
        }
    }

    #[test]
    fn other_segments_and_flags_take_the_pipeline() {
        let target = kiln_targets::Target::load(kiln_targets::DEFAULT_TARGET).unwrap();
        assert!(compile(&key(&[64], "--opt_level=0", false), &target).is_none());
        assert!(compile(&key(&[64], "--opt_level=1", true), &target).is_none(), "two outputs at level 1");
        assert!(compile(&key(&[64], "--opt_level=1", false), &target).is_some());
        assert!(compile(&key(&[64], "--direct_emit=false", false), &target).is_none());
        assert!(compile(&key(&[64], "--dump_as_text", false), &target).is_none());
        assert!(compile(&key(&[64], "--disable_ops=Exp", false), &target).is_none());
    }
}
