//! The encoder: a [`Module`] to its canonical bytes (the layout is in [`crate::format`]).
//! Deterministic: the bytes depend on the module only.

use crate::format::{head, table_end, tag, Code, MAGIC, SECTIONS, SECTION_ALIGN, STATIC_SECTIONS, VERSION};
use crate::isa::{Buf, GmView, Inst, Scalar, Src, MAX_VIEW_DIMS};
use crate::module::{BufferRef, Host, Kernel, Module, TensorSpec};
use crate::shape::{ClassModule, ShapeClass};

/// Encodes a module as bytecode.
///
/// # Panics
///
/// When a GM view has more than [`MAX_VIEW_DIMS`] dims (the one limit of the format that the
/// types do not enforce; [`validate`](fn@crate::validate) reports it).
pub fn encode(module: &Module) -> Vec<u8> {
    encode_with_offsets(module, None).0
}

/// Encodes a program compiled for a shape class: the module's five sections and the class's
/// (none when the class is static, so that a static program has one encoding either way).
///
/// # Panics
///
/// As [`encode()`].
pub fn encode_class(program: &ClassModule) -> Vec<u8> {
    encode_with_offsets(&program.module, Some(&program.class)).0
}

/// Encodes a module (and a class that is not static) and returns, per kernel, the byte offset
/// of each instruction's head word (the loader's messages name them).
pub(crate) fn encode_with_offsets(module: &Module, class: Option<&ShapeClass>) -> (Vec<u8>, Vec<Vec<usize>>) {
    let mut names = Vec::new();
    put_u32(&mut names, (module.kernels.len() + 1) as u32);
    for kernel in &module.kernels {
        put_str(&mut names, &kernel.name);
    }
    put_str(&mut names, &module.host.name);
    let mut target = Vec::new();
    put_str(&mut target, &module.target);
    let mut kernels = Vec::new();
    let inst_offsets = put_kernels(&mut kernels, &module.kernels);
    let mut host = Vec::new();
    put_host(&mut host, &module.host);
    let mut constants = Vec::new();
    put_u32(&mut constants, module.constants.len() as u32);
    for (spec, data) in &module.constants {
        put_spec(&mut constants, spec);
        put_u64(&mut constants, data.len() as u64);
        constants.extend_from_slice(data);
    }

    let mut shape = Vec::new();
    let mut bodies: Vec<&[u8]> = vec![&target, &names, &kernels, &host, &constants];
    if let Some(class) = class.filter(|c| !c.is_static()) {
        crate::shape::codec::put_class(&mut shape, class);
        bodies.push(&shape);
    }
    debug_assert!(bodies.len() == STATIC_SECTIONS || bodies.len() == SECTIONS.len());
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    put_u32(&mut out, VERSION);
    put_u32(&mut out, bodies.len() as u32);
    let mut offset = table_end(bodies.len());
    let mut starts = vec![0; bodies.len()];
    for (kind, body) in bodies.iter().enumerate() {
        offset = offset.next_multiple_of(SECTION_ALIGN);
        starts[kind] = offset;
        put_u32(&mut out, kind as u32 + 1);
        put_u32(&mut out, 0);
        put_u64(&mut out, offset as u64);
        put_u64(&mut out, body.len() as u64);
        offset += body.len();
    }
    for (body, &start) in bodies.iter().zip(&starts) {
        out.resize(start, 0);
        out.extend_from_slice(body);
    }
    let kernels_start = starts[2];
    let inst_offsets =
        inst_offsets.into_iter().map(|k| k.into_iter().map(|o| o + kernels_start).collect()).collect();
    (out, inst_offsets)
}

pub(crate) fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u32(out, s.len() as u32);
    out.extend_from_slice(s.as_bytes());
}

fn put_spec(out: &mut Vec<u8>, spec: &TensorSpec) {
    put_u32(out, spec.dtype.code() as u32);
    put_u32(out, spec.shape.len() as u32);
    for &d in &spec.shape {
        put_u64(out, d);
    }
}

/// The (kind, index) pair of a buffer reference.
pub(crate) fn buffer_ref_code(r: BufferRef) -> (u32, u32) {
    match r {
        BufferRef::Input(i) => (0, i),
        BufferRef::Const(i) => (1, i),
        BufferRef::Temp(i) => (2, i),
    }
}

fn put_ref(out: &mut Vec<u8>, r: BufferRef) {
    let (kind, index) = buffer_ref_code(r);
    put_u32(out, kind);
    put_u32(out, index);
}

fn put_host(out: &mut Vec<u8>, host: &Host) {
    put_u32(out, host.inputs.len() as u32);
    for spec in &host.inputs {
        put_spec(out, spec);
    }
    put_u32(out, host.temps.len() as u32);
    for &t in &host.temps {
        put_u64(out, t);
    }
    put_u32(out, host.launches.len() as u32);
    for launch in &host.launches {
        put_u32(out, launch.kernel);
        put_u32(out, launch.args.len() as u32);
        for &r in &launch.args {
            put_ref(out, r);
        }
    }
    put_u32(out, host.outputs.len() as u32);
    for (spec, r) in &host.outputs {
        put_spec(out, spec);
        put_ref(out, *r);
    }
}

/// Writes the kernels section; returns each instruction's offset within it.
fn put_kernels(out: &mut Vec<u8>, kernels: &[Kernel]) -> Vec<Vec<usize>> {
    put_u64(out, kernels.len() as u64);
    let mut offsets = Vec::with_capacity(kernels.len());
    for k in kernels {
        let mut words = Vec::new();
        let mut starts = Vec::with_capacity(k.code.len());
        for inst in &k.code {
            starts.push(words.len());
            put_inst(&mut words, inst);
        }
        put_u64(out, k.core.code() as u64 | (k.num_args as u64) << 16 | (k.block_dim as u64) << 32);
        put_u64(out, k.ub_bytes as u64 | (k.code.len() as u64) << 32);
        put_u64(out, words.len() as u64);
        let code_start = out.len();
        offsets.push(starts.into_iter().map(|w| code_start + 8 * w).collect());
        for w in words {
            put_u64(out, w);
        }
    }
    offsets
}

/// The fields of a head word other than the length.
#[derive(Default)]
struct Head {
    flag: bool,
    sub: u8,
    regs: [u8; 4],
}

/// The head fields of `inst` besides its opcode and pipe.
fn head_fields(inst: &Inst) -> Head {
    let regs = |r: &[u8]| {
        let mut regs = [0; 4];
        regs[..r.len()].copy_from_slice(r);
        Head { regs, ..Head::default() }
    };
    let sub = |sub: u8| Head { sub, ..Head::default() };
    let flag = |flag: bool| Head { flag, ..Head::default() };
    match inst {
        Inst::Const { dst, .. } => regs(&[dst.0]),
        Inst::Scalar { op: o, dst, a, b } => Head { sub: o.code(), ..regs(&[dst.0, a.0, b.0]) },
        Inst::BlockIdx { dst } => regs(&[dst.0]),
        Inst::BlockNum { dst } => regs(&[dst.0]),
        Inst::For { iv, lo, hi, step, .. } => regs(&[iv.0, lo.0, hi.0, step.0]),
        Inst::If { cond, .. } => regs(&[cond.0]),
        Inst::Load { zero_pad, .. } => flag(*zero_pad),
        Inst::Store { atomic, .. } => sub(atomic.code()),
        Inst::Gather { index, .. } => sub(index.code()),
        Inst::Copy { .. } => Head::default(),
        Inst::Unary { op: o, .. } => sub(o.code()),
        Inst::Binary { op: o, .. } => sub(o.code()),
        Inst::Cmp { pred, .. } => sub(pred.code()),
        Inst::Select { .. } => Head::default(),
        Inst::Reduce { op: o, accumulate, .. } => Head { sub: o.code(), ..flag(*accumulate) },
        Inst::Broadcast { .. } => Head::default(),
        Inst::Fill { .. } => Head::default(),
        Inst::Cast { round, .. } => sub(round.code()),
        Inst::Transpose { .. } => Head::default(),
        Inst::MoveL1 { .. } => Head::default(),
        Inst::Mmad { accumulate, .. } => flag(*accumulate),
        Inst::Fixpipe { relu, .. } => flag(*relu),
        Inst::SetFlag { dst, event, .. } => Head { sub: dst.code(), ..regs(&[*event]) },
        Inst::WaitFlag { src, event, .. } => Head { sub: src.code(), ..regs(&[*event]) },
        Inst::Barrier { .. } => Head::default(),
    }
}

fn put_inst(words: &mut Vec<u64>, inst: &Inst) {
    let at = words.len();
    words.push(0);
    match inst {
        Inst::Const { value, .. } => words.push(*value as u64),
        Inst::For { body, .. } => words.push(*body as u64),
        Inst::If { then_len, else_len, .. } => words.push(*then_len as u64 | (*else_len as u64) << 32),
        Inst::Load { dst, src, .. } => {
            put_buf(words, dst);
            put_view(words, src);
        }
        Inst::Store { dst, src, .. } => {
            put_view(words, dst);
            put_buf(words, src);
        }
        Inst::Gather { dst, table, indices, .. } => {
            put_buf(words, dst);
            put_view(words, table);
            put_view(words, indices);
        }
        Inst::Copy { dst, src }
        | Inst::Unary { dst, src, .. }
        | Inst::Reduce { dst, src, .. }
        | Inst::Broadcast { dst, src }
        | Inst::Cast { dst, src, .. }
        | Inst::Transpose { dst, src }
        | Inst::MoveL1 { dst, src }
        | Inst::Fixpipe { dst, src, .. } => {
            put_buf(words, dst);
            put_buf(words, src);
        }
        Inst::Binary { dst, a, b, .. } | Inst::Cmp { dst, a, b, .. } => {
            put_buf(words, dst);
            put_src(words, a);
            put_src(words, b);
        }
        Inst::Select { dst, mask, a, b } => {
            put_buf(words, dst);
            put_buf(words, mask);
            put_src(words, a);
            put_src(words, b);
        }
        Inst::Fill { dst, value } => {
            put_buf(words, dst);
            put_imm(words, value);
        }
        Inst::Mmad { c, a, b, .. } => {
            put_buf(words, c);
            put_buf(words, a);
            put_buf(words, b);
        }
        Inst::Scalar { .. }
        | Inst::BlockIdx { .. }
        | Inst::BlockNum { .. }
        | Inst::SetFlag { .. }
        | Inst::WaitFlag { .. }
        | Inst::Barrier { .. } => {}
    }
    words[at] = head_word(inst, (words.len() - at - 1) as u64);
}

/// The head word of an instruction with `len` operand words.
pub(crate) fn head_word(inst: &Inst, len: u64) -> u64 {
    let h = head_fields(inst);
    let regs = u32::from_le_bytes(h.regs) as u64;
    inst.opcode().info().code as u64
        | (inst.pipe().code() as u64) << head::PIPE
        | if h.flag { head::FLAG_BOOL << head::FLAGS } else { 0 }
        | len << head::LEN
        | (h.sub as u64) << head::SUB
        | regs << head::REGS
}

fn put_buf(words: &mut Vec<u64>, b: &Buf) {
    words.push(
        tag::BUF as u64
            | (b.space.code() as u64) << 8
            | (b.dtype.code() as u64) << 12
            | (b.addr as u64) << 32,
    );
    words.push(b.rows as u64 | (b.cols as u64) << 32);
    words.push(b.pitch as u64);
}

fn put_imm(words: &mut Vec<u64>, s: &Scalar) {
    match s {
        Scalar::Float(v) => words.extend([tag::FLOAT as u64, v.to_bits()]),
        Scalar::Int(v) => words.extend([tag::INT as u64, *v as u64]),
    }
}

fn put_src(words: &mut Vec<u64>, s: &Src) {
    match s {
        Src::Buf(b) => put_buf(words, b),
        Src::Imm(v) => put_imm(words, v),
    }
}

fn put_view(words: &mut Vec<u64>, v: &GmView) {
    assert!(
        v.dims.len() <= MAX_VIEW_DIMS,
        "a GM view has {} dims, at most {MAX_VIEW_DIMS} can be encoded",
        v.dims.len()
    );
    let (has_offset, reg) = match v.offset {
        Some(r) => (1u64, r.0 as u64),
        None => (0, 0),
    };
    words.push(v.arg as u64 | has_offset << 16 | reg << 24 | (v.dims.len() as u64) << 32);
    words.push(v.base as u64);
    for d in &v.dims {
        words.push(d.size as u64);
        words.push(d.stride as u64);
    }
}
