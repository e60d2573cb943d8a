//! Decoding the kernels section: kernel headers, instruction heads and operand words.

use crate::encode::head_word;
use crate::error::LoadError;
use crate::format::{head, tag};
use crate::isa::{Buf, Dim, GmView, Inst, Pipe, Reg, Scalar, Src, MAX_VIEW_DIMS};
use crate::module::{Core, Kernel};
use crate::opcode::Opcode;
use crate::reader::{decode_enum, Reader};

/// Bytes of a kernel header (three words).
const KERNEL_HEADER_BYTES: usize = 24;

/// The kernels section; `names` are the names section's entries (at `names_at`).
pub(super) fn kernels(r: &mut Reader, names: &[String], names_at: usize) -> Result<Vec<Kernel>, LoadError> {
    let n = r.u64("the kernel count")?;
    let n = r.count(n, KERNEL_HEADER_BYTES, "kernel")?;
    if names.len() != n + 1 {
        return Err(LoadError::at(
            names_at,
            format!(
                "the names section lists {} names, expected {} (one per kernel and the host's)",
                names.len(),
                n + 1
            ),
        ));
    }
    let mut kernels = Vec::with_capacity(n);
    for (index, name) in names[..n].iter().enumerate() {
        kernels.push(kernel(r, name).map_err(|e| e.in_kernel(index, name))?);
    }
    Ok(kernels)
}

fn kernel(r: &mut Reader, name: &str) -> Result<Kernel, LoadError> {
    let at = r.pos();
    let w0 = r.u64("a kernel header")?;
    let w1 = r.u64("a kernel header")?;
    let words = r.u64("a kernel header")?;
    let core: Core = decode_enum(w0 & 0xff, at)?;
    if w0 & 0xff00 != 0 {
        return Err(LoadError::at(at, "nonzero reserved bits in the kernel header"));
    }
    let words = r.count(words, 8, "code word")?;
    let mut code = r.sub(words * 8, "the kernel's code", "kernel's code")?;
    // Every instruction takes at least its head word.
    let insts = code.count(w1 >> 32, 8, "instruction")?;
    let mut out = Vec::with_capacity(insts);
    for i in 0..insts {
        out.push(inst(&mut code).map_err(|e| e.in_inst(i))?);
    }
    code.finish()?;
    Ok(Kernel {
        name: name.to_string(),
        core,
        block_dim: (w0 >> 32) as u32,
        ub_bytes: w1 as u32,
        num_args: (w0 >> 16) as u16,
        code: out,
    })
}

/// One instruction: its head word and operand words.
fn inst(r: &mut Reader) -> Result<Inst, LoadError> {
    let at = r.pos();
    let h = r.u64("an instruction head")?;
    let opcode = h as u8;
    let pipe: Pipe = decode_enum((h >> head::PIPE) & 0xf, at)?;
    let len = (h >> head::LEN) & 0xff;
    let sub = (h >> head::SUB) & 0xff;
    let regs = ((h >> head::REGS) as u32).to_le_bytes();
    let reg = |i: usize| Reg(regs[i]);
    let flag = (h >> head::FLAGS) & head::FLAG_BOOL != 0;
    let operands_at = r.pos();
    let inst = match Opcode::of_code(opcode) {
        Some(Opcode::Const) => Inst::Const { dst: reg(0), value: r.u64("an immediate")? as i64 },
        Some(Opcode::Scalar) => Inst::Scalar { op: decode_enum(sub, at)?, dst: reg(0), a: reg(1), b: reg(2) },
        Some(Opcode::BlockIdx) => Inst::BlockIdx { dst: reg(0) },
        Some(Opcode::BlockNum) => Inst::BlockNum { dst: reg(0) },
        Some(Opcode::For) => {
            let body = u32_word(r, "a loop body length")?;
            Inst::For { iv: reg(0), lo: reg(1), hi: reg(2), step: reg(3), body }
        }
        Some(Opcode::If) => {
            let w = r.u64("the branch lengths")?;
            Inst::If { cond: reg(0), then_len: w as u32, else_len: (w >> 32) as u32 }
        }
        Some(Opcode::Load) => Inst::Load { dst: buf(r)?, src: view(r)?, zero_pad: flag },
        Some(Opcode::Store) => Inst::Store { dst: view(r)?, src: buf(r)?, atomic: decode_enum(sub, at)? },
        Some(Opcode::Gather) => {
            Inst::Gather { index: decode_enum(sub, at)?, dst: buf(r)?, table: view(r)?, indices: view(r)? }
        }
        Some(Opcode::Copy) => Inst::Copy { dst: buf(r)?, src: buf(r)? },
        Some(Opcode::Unary) => Inst::Unary { op: decode_enum(sub, at)?, dst: buf(r)?, src: buf(r)? },
        Some(Opcode::Binary) => {
            Inst::Binary { op: decode_enum(sub, at)?, dst: buf(r)?, a: src(r)?, b: src(r)? }
        }
        Some(Opcode::Cmp) => Inst::Cmp { pred: decode_enum(sub, at)?, dst: buf(r)?, a: src(r)?, b: src(r)? },
        Some(Opcode::Select) => Inst::Select { dst: buf(r)?, mask: buf(r)?, a: src(r)?, b: src(r)? },
        Some(Opcode::Reduce) => {
            Inst::Reduce { op: decode_enum(sub, at)?, dst: buf(r)?, src: buf(r)?, accumulate: flag }
        }
        Some(Opcode::Broadcast) => Inst::Broadcast { dst: buf(r)?, src: buf(r)? },
        Some(Opcode::Fill) => Inst::Fill { dst: buf(r)?, value: imm(r)? },
        Some(Opcode::Cast) => Inst::Cast { round: decode_enum(sub, at)?, dst: buf(r)?, src: buf(r)? },
        Some(Opcode::Transpose) => Inst::Transpose { dst: buf(r)?, src: buf(r)? },
        Some(Opcode::MoveL1) => Inst::MoveL1 { dst: buf(r)?, src: buf(r)? },
        Some(Opcode::Mmad) => Inst::Mmad { c: buf(r)?, a: buf(r)?, b: buf(r)?, accumulate: flag },
        Some(Opcode::Fixpipe) => Inst::Fixpipe { dst: buf(r)?, src: buf(r)?, relu: flag },
        Some(Opcode::SetFlag) => Inst::SetFlag { src: pipe, dst: decode_enum(sub, at)?, event: regs[0] },
        Some(Opcode::WaitFlag) => Inst::WaitFlag { src: decode_enum(sub, at)?, dst: pipe, event: regs[0] },
        Some(Opcode::Barrier) => Inst::Barrier { pipe },
        None => return Err(LoadError::at(at, format!("unknown opcode {opcode:#04x}"))),
    };
    let error = |reason: String| {
        let mut e = LoadError::at(at, reason);
        e.mnemonic = Some(inst.mnemonic());
        e
    };
    let taken = ((r.pos() - operands_at) / 8) as u64;
    if taken != len {
        return Err(error(format!(
            "operand length mismatch: the head gives {len} operand words, the operands take {taken}"
        )));
    }
    if inst.pipe() != pipe {
        return Err(error(format!(
            "pipe field is `{}`, the instruction runs on `{}`",
            pipe.name(),
            inst.pipe().name()
        )));
    }
    let canonical = head_word(&inst, len);
    if canonical != h {
        return Err(error(format!("nonzero reserved bits {:#x} in the head word", h ^ canonical)));
    }
    Ok(inst)
}

/// A word holding a `u32`.
fn u32_word(r: &mut Reader, what: &str) -> Result<u32, LoadError> {
    let at = r.pos();
    let w = r.u64(what)?;
    u32::try_from(w).map_err(|_| LoadError::at(at, format!("{what} {w} does not fit 32 bits")))
}

fn reserved(at: usize, what: &str) -> LoadError {
    LoadError::at(at, format!("nonzero reserved bits in {what}"))
}

/// The operand tag of a first operand word, or an error for an unknown one.
fn operand_tag(w0: u64, at: usize) -> Result<u8, LoadError> {
    match w0 as u8 {
        t @ (tag::BUF | tag::FLOAT | tag::INT) => Ok(t),
        t => Err(LoadError::at(at, format!("unknown operand tag {t}"))),
    }
}

fn buf(r: &mut Reader) -> Result<Buf, LoadError> {
    let at = r.pos();
    let w0 = r.u64("a buffer operand")?;
    match operand_tag(w0, at)? {
        tag::BUF => buf_rest(r, w0, at),
        _ => Err(LoadError::at(at, "expected a buffer operand, found an immediate")),
    }
}

fn buf_rest(r: &mut Reader, w0: u64, at: usize) -> Result<Buf, LoadError> {
    let space = decode_enum((w0 >> 8) & 0xf, at)?;
    let dtype = decode_enum((w0 >> 12) & 0xf, at)?;
    if w0 & 0xffff_0000 != 0 {
        return Err(reserved(at, "a buffer operand"));
    }
    let w1 = r.u64("a buffer operand")?;
    let pitch = u32_word(r, "a buffer's pitch")?;
    Ok(Buf { space, dtype, addr: (w0 >> 32) as u32, rows: w1 as u32, cols: (w1 >> 32) as u32, pitch })
}

fn imm(r: &mut Reader) -> Result<Scalar, LoadError> {
    let at = r.pos();
    let w0 = r.u64("an immediate operand")?;
    match operand_tag(w0, at)? {
        tag::BUF => Err(LoadError::at(at, "expected an immediate operand, found a buffer")),
        _ => imm_rest(r, w0, at),
    }
}

fn imm_rest(r: &mut Reader, w0: u64, at: usize) -> Result<Scalar, LoadError> {
    if w0 >> 8 != 0 {
        return Err(reserved(at, "an immediate operand"));
    }
    let v = r.u64("an immediate value")?;
    Ok(if w0 as u8 == tag::FLOAT { Scalar::Float(f64::from_bits(v)) } else { Scalar::Int(v as i64) })
}

fn src(r: &mut Reader) -> Result<Src, LoadError> {
    let at = r.pos();
    let w0 = r.u64("a source operand")?;
    match operand_tag(w0, at)? {
        tag::BUF => Ok(Src::Buf(buf_rest(r, w0, at)?)),
        _ => Ok(Src::Imm(imm_rest(r, w0, at)?)),
    }
}

fn view(r: &mut Reader) -> Result<GmView, LoadError> {
    let at = r.pos();
    let w0 = r.u64("a GM view")?;
    let base = r.u64("a GM view")? as i64;
    let known = 0xffff | 1 << 16 | 0xff << 24 | 0xff << 32;
    let has_offset = w0 & 1 << 16 != 0;
    let reg = (w0 >> 24) as u8;
    if w0 & !known != 0 || (!has_offset && reg != 0) {
        return Err(reserved(at, "a GM view"));
    }
    let ndims = ((w0 >> 32) & 0xff) as usize;
    if ndims > MAX_VIEW_DIMS {
        return Err(LoadError::at(
            at,
            format!("a GM view has {ndims} dims, at most {MAX_VIEW_DIMS} are allowed"),
        ));
    }
    let mut dims = Vec::with_capacity(ndims);
    for _ in 0..ndims {
        let size = u32_word(r, "a view dim's size")?;
        dims.push(Dim { size, stride: r.u64("a view dim's stride")? as i64 });
    }
    Ok(GmView { arg: w0 as u16, offset: has_offset.then_some(Reg(reg)), base, dims })
}
