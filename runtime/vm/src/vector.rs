//! Elementwise vector ops (`Unary`, `Binary`, `Cmp`, `Select`, `Fill`) over UB rows with
//! numpy broadcasting of the sources.
//!
//! Each instruction is dispatched once on (op, domain); the chosen closure is monomorphised
//! into a blocked row loop ([`crate::blocks`]) and a lane loop compiled for the host's widest
//! vectors ([`crate::simd`]); [`crate::lanes`] has the rounding rules. Transcendentals call
//! `libm` in `f64` and round to `f32` through `kiln_numerics::float`, exactly as the interpreter
//! does, except `exp`, `tanh` and `sigmoid`, which use [`crate::approx`] unless the run asks for
//! exact transcendentals; the integer rules and NaN-propagating max/min are `kiln_numerics`'
//! too.

use kiln_bytecode::isa::{BinaryOp, Buf, CmpPred, DType, Scalar, Src, UnaryOp};

use crate::blocks::{map_rows, plan, select_rows, zip_rows, Plan};
use crate::lanes::{Int, Lane};
use crate::mem::{Mem, Region};
use kiln_numerics::float as kf;
use kiln_numerics::int;
use kiln_numerics::order::{nan_max, nan_min, relu, sign};

/// Per-core scratch lane vectors, reused across instructions.
#[derive(Default)]
pub(crate) struct Scratch {
    pub fa: Vec<f32>,
    pub fb: Vec<f32>,
    pub fc: Vec<f32>,
    pub ia: Vec<i32>,
    pub ib: Vec<i32>,
    pub ic: Vec<i32>,
    pub la: Vec<i64>,
    pub lb: Vec<i64>,
    pub lc: Vec<i64>,
    pub mask: Vec<i32>,
    pub bytes: Vec<u8>,
}

/// Something that applies a lane function of one `f32` source: a row loop over UB rows, or
/// one block of an elementwise group ([`crate::group`]).
pub(crate) trait FloatMap {
    /// Applies `f` to every lane.
    fn apply(self, f: impl Fn(f32) -> f32 + Copy);
}

/// Something that applies a lane function of two `f32` sources (see [`FloatMap`]).
pub(crate) trait FloatZip {
    /// Applies `f` to every pair of lanes.
    fn apply(self, f: impl Fn(f32, f32) -> f32 + Copy);
}

/// The lane function of float `op` applied by `k`: the one table of float unary ops, shared by
/// the row loops and the elementwise groups. With `exact`, `exp`, `tanh` and `sigmoid` call
/// `libm` as the interpreter does; otherwise they use the vectorizable [`crate::approx`] forms
/// (at most one `f32` ulp from `libm`; `sigmoid` identical). False when `op` has no float form.
pub(crate) fn float_unary(op: UnaryOp, exact: bool, k: impl FloatMap) -> bool {
    match op {
        UnaryOp::Neg => k.apply(|x| -x),
        UnaryOp::Abs => k.apply(f32::abs),
        UnaryOp::Exp if exact => k.apply(kf::exp),
        UnaryOp::Exp => k.apply(crate::approx::exp),
        UnaryOp::Log => k.apply(kf::log),
        UnaryOp::Sqrt => k.apply(f32::sqrt),
        UnaryOp::Rsqrt => k.apply(kf::rsqrt),
        UnaryOp::Recip => k.apply(|x| 1.0 / x),
        UnaryOp::Tanh if exact => k.apply(kf::tanh),
        UnaryOp::Tanh => k.apply(crate::approx::tanh),
        UnaryOp::Erf => k.apply(kf::erf),
        UnaryOp::Sigmoid if exact => k.apply(kf::sigmoid),
        UnaryOp::Sigmoid => k.apply(crate::approx::sigmoid),
        UnaryOp::Relu => k.apply(relu),
        UnaryOp::Floor => k.apply(f32::floor),
        UnaryOp::Ceil => k.apply(f32::ceil),
        UnaryOp::Round => k.apply(f32::round_ties_even),
        UnaryOp::Sign => k.apply(sign),
        UnaryOp::Sin => k.apply(kf::sin),
        UnaryOp::Cos => k.apply(kf::cos),
        UnaryOp::Tan => k.apply(kf::tan),
        UnaryOp::Asin => k.apply(kf::asin),
        UnaryOp::Acos => k.apply(kf::acos),
        UnaryOp::Atan => k.apply(kf::atan),
        UnaryOp::Sinh => k.apply(kf::sinh),
        UnaryOp::Cosh => k.apply(kf::cosh),
        UnaryOp::Asinh => k.apply(kf::asinh),
        UnaryOp::Acosh => k.apply(kf::acosh),
        UnaryOp::Atanh => k.apply(kf::atanh),
        UnaryOp::Not => return false,
    }
    true
}

/// The lane function of float `op` applied by `k` (see [`float_unary`]). False when `op` has
/// no float form.
pub(crate) fn float_binary(op: BinaryOp, k: impl FloatZip) -> bool {
    match op {
        BinaryOp::Add => k.apply(|x, y| x + y),
        BinaryOp::Sub => k.apply(|x, y| x - y),
        BinaryOp::Mul => k.apply(|x, y| x * y),
        BinaryOp::Div => k.apply(|x, y| x / y),
        BinaryOp::Max => k.apply(nan_max),
        BinaryOp::Min => k.apply(nan_min),
        BinaryOp::Pow => k.apply(kf::pow),
        BinaryOp::Rem => k.apply(kf::fmod),
        BinaryOp::And | BinaryOp::Or | BinaryOp::Xor | BinaryOp::Shl | BinaryOp::Shr => return false,
    }
    true
}

/// [`FloatMap`] over the rows of a destination.
struct MapRows<'a> {
    mem: &'a mut Mem,
    scratch: &'a mut Vec<f32>,
    dst: (&'a Region, DType),
    src: &'a Plan<f32>,
}

impl FloatMap for MapRows<'_> {
    fn apply(self, f: impl Fn(f32) -> f32 + Copy) {
        map_rows::<f32>(self.mem, self.scratch, self.dst, self.src, |a, o| crate::simd::map(a, o, f));
    }
}

/// [`FloatZip`] over the rows of a destination.
struct ZipRows<'a> {
    mem: &'a mut Mem,
    scratch: (&'a mut Vec<f32>, &'a mut Vec<f32>),
    dst: (&'a Region, DType),
    srcs: (&'a Plan<f32>, &'a Plan<f32>, DType),
}

impl FloatZip for ZipRows<'_> {
    fn apply(self, f: impl Fn(f32, f32) -> f32 + Copy) {
        zip_rows::<f32, f32>(self.mem, self.scratch, self.dst, self.srcs, f);
    }
}

fn op_name(op: UnaryOp) -> String {
    format!("{op:?}").to_lowercase()
}

/// `Unary`: `dst = op(src)` (float ops as [`float_unary`] defines them).
pub(crate) fn unary(
    mem: &mut Mem,
    s: &mut Scratch,
    op: UnaryOp,
    dst: &Buf,
    src: &Buf,
    exact: bool,
) -> Result<(), String> {
    crate::mem::expect_same_shape(dst, src, "unary")?;
    crate::mem::expect_same_dtype(dst, src, "unary")?;
    let d = mem.region(dst)?;
    let dtype = dst.dtype;
    if dtype.is_float() {
        let p = plan::<f32>(mem, &Src::Buf(*src), dst, dtype, "the source")?;
        let rows = MapRows { mem, scratch: &mut s.fa, dst: (&d, dtype), src: &p };
        if !float_unary(op, exact, rows) {
            return Err(format!("`{}` requires an integer operand, got {}", op_name(op), dtype.name()));
        }
        return Ok(());
    }
    if dtype == DType::I64 {
        int_unary::<i64>(mem, &mut s.la, op, (&d, dst), src)
    } else {
        int_unary::<i32>(mem, &mut s.ia, op, (&d, dst), src)
    }
}

/// [`unary`] on integer lanes `T`.
fn int_unary<T: Int>(
    mem: &mut Mem,
    scratch: &mut Vec<T>,
    op: UnaryOp,
    (d, dst): (&Region, &Buf),
    src: &Buf,
) -> Result<(), String> {
    let dtype = dst.dtype;
    let p = plan::<T>(mem, &Src::Buf(*src), dst, dtype, "the source")?;
    macro_rules! go {
        ($f:expr) => {
            map_rows::<T>(mem, scratch, (d, dtype), &p, |a, o| crate::simd::map(a, o, $f))
        };
    }
    match op {
        UnaryOp::Not if dtype == DType::I1 => go!(|x| T::of_bool(x == T::ZERO)),
        UnaryOp::Not => go!(|x: T| !x),
        UnaryOp::Neg => go!(int::neg),
        UnaryOp::Abs => go!(int::abs),
        UnaryOp::Relu => go!(relu),
        UnaryOp::Sign => go!(sign),
        UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Round => go!(|x| x),
        _ => return Err(format!("`{}` requires a float operand, got {}", op_name(op), dtype.name())),
    }
    Ok(())
}

/// `Binary`: `dst = a op b` with broadcasting.
pub(crate) fn binary(
    mem: &mut Mem,
    s: &mut Scratch,
    op: BinaryOp,
    dst: &Buf,
    a: &Src,
    b: &Src,
) -> Result<(), String> {
    let d = mem.region(dst)?;
    let dtype = dst.dtype;
    if dtype.is_float() {
        let pa = plan::<f32>(mem, a, dst, dtype, "operand #0")?;
        let pb = plan::<f32>(mem, b, dst, dtype, "operand #1")?;
        let rows =
            ZipRows { mem, scratch: (&mut s.fa, &mut s.fb), dst: (&d, dtype), srcs: (&pa, &pb, dtype) };
        if !float_binary(op, rows) {
            return Err(format!("`{op:?}` requires integer operands, got {}", dtype.name()).to_lowercase());
        }
        return Ok(());
    }
    if dtype == DType::I64 {
        int_binary::<i64>(mem, (&mut s.la, &mut s.lb), op, (&d, dst), (a, b))
    } else {
        int_binary::<i32>(mem, (&mut s.ia, &mut s.ib), op, (&d, dst), (a, b))
    }
}

/// [`binary`] on integer lanes `T`.
fn int_binary<T: Int>(
    mem: &mut Mem,
    scratch: (&mut Vec<T>, &mut Vec<T>),
    op: BinaryOp,
    (d, dst): (&Region, &Buf),
    (a, b): (&Src, &Src),
) -> Result<(), String> {
    let dtype = dst.dtype;
    let pa = plan::<T>(mem, a, dst, dtype, "operand #0")?;
    let pb = plan::<T>(mem, b, dst, dtype, "operand #1")?;
    macro_rules! go {
        ($f:expr) => {
            zip_rows::<T, T>(mem, scratch, (d, dtype), (&pa, &pb, dtype), $f)
        };
    }
    match op {
        BinaryOp::Add => go!(int::add),
        BinaryOp::Sub => go!(int::sub),
        BinaryOp::Mul => go!(int::mul),
        BinaryOp::Div => go!(int::div),
        BinaryOp::Max => go!(|x: T, y: T| x.max(y)),
        BinaryOp::Min => go!(|x: T, y: T| x.min(y)),
        BinaryOp::Pow => go!(int::pow),
        BinaryOp::And => go!(|x: T, y: T| x & y),
        BinaryOp::Or => go!(|x: T, y: T| x | y),
        BinaryOp::Rem => go!(int::rem),
        BinaryOp::Xor => go!(|x: T, y: T| x ^ y),
        BinaryOp::Shl => go!(int::shl),
        BinaryOp::Shr => go!(int::shr),
    }
    Ok(())
}

/// The element type of a compare's sources (from its buffer operands).
fn source_dtype(a: &Src, b: &Src) -> Result<DType, String> {
    match (a, b) {
        (Src::Buf(x), _) | (Src::Imm(_), Src::Buf(x)) => Ok(x.dtype),
        _ => Err("a compare of two immediates has no element type".into()),
    }
}

/// `Cmp`: `dst = a pred b` as an `i1` mask.
pub(crate) fn cmp(
    mem: &mut Mem,
    s: &mut Scratch,
    pred: CmpPred,
    dst: &Buf,
    a: &Src,
    b: &Src,
) -> Result<(), String> {
    if dst.dtype != DType::I1 {
        return Err(format!("cmp destination must be i1, got {}", dst.dtype.name()));
    }
    let d = mem.region(dst)?;
    let dtype = source_dtype(a, b)?;
    if dtype.is_float() {
        cmp_lanes::<f32>(mem, (&mut s.fa, &mut s.fb), pred, (&d, dst), (a, b, dtype))
    } else if dtype == DType::I64 {
        cmp_lanes::<i64>(mem, (&mut s.la, &mut s.lb), pred, (&d, dst), (a, b, dtype))
    } else {
        cmp_lanes::<i32>(mem, (&mut s.ia, &mut s.ib), pred, (&d, dst), (a, b, dtype))
    }
}

/// [`cmp`] of sources of `dtype` in lanes `T`.
fn cmp_lanes<T: Lane + PartialOrd>(
    mem: &mut Mem,
    scratch: (&mut Vec<T>, &mut Vec<T>),
    pred: CmpPred,
    (d, dst): (&Region, &Buf),
    (a, b, dtype): (&Src, &Src, DType),
) -> Result<(), String> {
    let pa = plan::<T>(mem, a, dst, dtype, "operand #0")?;
    let pb = plan::<T>(mem, b, dst, dtype, "operand #1")?;
    macro_rules! go {
        ($f:expr) => {
            zip_rows::<T, i32>(mem, scratch, (d, DType::I1), (&pa, &pb, dtype), $f)
        };
    }
    match pred {
        CmpPred::Eq => go!(|x, y| i32::from(x == y)),
        CmpPred::Ne => go!(|x, y| i32::from(x != y)),
        CmpPred::Lt => go!(|x, y| i32::from(x < y)),
        CmpPred::Le => go!(|x, y| i32::from(x <= y)),
        CmpPred::Gt => go!(|x, y| i32::from(x > y)),
        CmpPred::Ge => go!(|x, y| i32::from(x >= y)),
    }
    Ok(())
}

/// `Select`: `dst = mask ? a : b`.
pub(crate) fn select(
    mem: &mut Mem,
    s: &mut Scratch,
    dst: &Buf,
    mask: &Buf,
    a: &Src,
    b: &Src,
) -> Result<(), String> {
    let d = mem.region(dst)?;
    let dtype = dst.dtype;
    let pm = plan::<i32>(mem, &Src::Buf(*mask), dst, DType::I1, "the mask")?;
    if dtype.is_float() {
        let pa = plan::<f32>(mem, a, dst, dtype, "operand #1")?;
        let pb = plan::<f32>(mem, b, dst, dtype, "operand #2")?;
        select_rows(mem, (&mut s.mask, &mut s.fa, &mut s.fb), (&d, dtype), (&pm, &pa, &pb));
    } else if dtype == DType::I64 {
        let pa = plan::<i64>(mem, a, dst, dtype, "operand #1")?;
        let pb = plan::<i64>(mem, b, dst, dtype, "operand #2")?;
        select_rows(mem, (&mut s.mask, &mut s.la, &mut s.lb), (&d, dtype), (&pm, &pa, &pb));
    } else {
        let pa = plan::<i32>(mem, a, dst, dtype, "operand #1")?;
        let pb = plan::<i32>(mem, b, dst, dtype, "operand #2")?;
        select_rows(mem, (&mut s.mask, &mut s.ia, &mut s.ib), (&d, dtype), (&pm, &pa, &pb));
    }
    Ok(())
}

/// `Fill`: every element of `dst` set to `value` rounded to its type.
pub(crate) fn fill(mem: &mut Mem, s: &mut Scratch, dst: &Buf, value: Scalar) -> Result<(), String> {
    let d = mem.region(dst)?;
    let cols = dst.cols as usize;
    s.bytes.clear();
    s.bytes.resize(d.row_bytes, 0);
    if dst.dtype.is_float() {
        let v = f32::imm(dst.dtype, value)?;
        f32::encode(dst.dtype, &vec![v; cols], &mut s.bytes);
    } else {
        let v = i64::imm(dst.dtype, value)?;
        i64::encode(dst.dtype, &vec![v; cols], &mut s.bytes);
    }
    for r in 0..d.rows {
        mem.row_mut(&d, r).copy_from_slice(&s.bytes);
    }
    Ok(())
}
