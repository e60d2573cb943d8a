//! The enum attributes of `npuvec` (memory spaces, pipes, core kinds and the modes of
//! individual ops), and the `array<i64: ...>` helpers its ops' attributes use.

use kiln_compiler::{AttrKind, Attribute, Context};

kiln_compiler::enum_attr! {
    /// A memory space, used as the memref memory space (`memref<8x64xf32, #npuvec.space<ub>>`).
    pub enum Space, SPACE = ("npuvec", "space", "memory space") {
        /// Global memory (HBM): kernel arguments and host buffers.
        Gm = "gm",
        /// Unified Buffer of a vector core: operands of the vector ops.
        Ub = "ub",
        /// L1 buffer of a cube core: staging for cube operands.
        L1 = "l1",
        /// Left cube operand.
        L0a = "l0a",
        /// Right cube operand.
        L0b = "l0b",
        /// Cube accumulator.
        L0c = "l0c",
    }
}

impl Space {
    /// The integer memory space `npuvec-lower-memory-spaces` writes for this space (gm 0,
    /// ub 1, l1 2, l0a 3, l0b 4, l0c 5; space 0 is written as no memory space).
    pub fn integer(self) -> i64 {
        self as i64
    }

    /// The space of a memref memory-space attribute: `#npuvec.space<..>`, its integer code, or
    /// no attribute at all (GM, the default space, which is integer space 0), as MLIR's GPU
    /// dialect accepts both its address-space attribute and the lowered integer.
    pub fn of_memory_space(space: Option<Attribute<'_>>) -> Option<Space> {
        let Some(space) = space else { return Some(Space::Gm) };
        Space::of(space).or_else(|| {
            let code = space.as_int()?;
            Space::ALL.iter().copied().find(|s| i128::from(s.integer()) == code)
        })
    }
}

kiln_compiler::enum_attr! {
    /// A pipe: an in-order instruction queue of a core that runs in parallel with the others.
    pub enum Pipe, PIPE = ("npuvec", "pipe", "pipe") {
        /// Scalar unit.
        S = "s",
        /// Vector unit.
        V = "v",
        /// L1 -> L0A / L0B moves.
        Mte1 = "mte1",
        /// GM -> UB / L1 loads.
        Mte2 = "mte2",
        /// UB -> GM stores.
        Mte3 = "mte3",
        /// Cube unit.
        M = "m",
        /// Fixpipe (L0C -> UB).
        Fix = "fix",
        /// Every pipe (only as the pipe of `npuvec.barrier`).
        All = "all",
    }
}

impl PartialOrd for Pipe {
    fn partial_cmp(&self, other: &Pipe) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Pipes order by keyword (`fix < m < mte1 < ... < v`), the order in which
/// `kiln-codegen-insert-sync` has always emitted its flags.
impl Ord for Pipe {
    fn cmp(&self, other: &Pipe) -> std::cmp::Ordering {
        self.keyword().cmp(other.keyword())
    }
}

kiln_compiler::enum_attr! {
    /// Which cores a kernel runs on (`npuvec.core` of a kernel `func.func`).
    pub enum Core, CORE = ("npuvec", "core", "kernel core kind") {
        /// Vector cores only.
        Aiv = "aiv",
        /// Cube cores only.
        Aic = "aic",
        /// Cube and vector cores.
        Mix = "mix",
    }
}

kiln_compiler::enum_attr! {
    /// The reduction of `npuvec.reduce`.
    pub enum ReduceKind, REDUCE_KIND = ("npuvec", "reduce", "reduction kind") {
        /// Sum.
        Sum = "sum",
        /// Maximum.
        Max = "max",
        /// Minimum.
        Min = "min",
        /// Product.
        Prod = "prod",
    }
}

kiln_compiler::enum_attr! {
    /// The predicate of `npuvec.cmp`. Float comparisons are ordered (false with a NaN), except
    /// `ne`, which is true.
    pub enum CmpPredicate, CMP_PREDICATE = ("npuvec", "cmp", "comparison predicate") {
        /// `a == b`.
        Eq = "eq",
        /// `a != b`.
        Ne = "ne",
        /// `a < b`.
        Lt = "lt",
        /// `a <= b`.
        Le = "le",
        /// `a > b`.
        Gt = "gt",
        /// `a >= b`.
        Ge = "ge",
    }
}

kiln_compiler::enum_attr! {
    /// How `npuvec.cast` rounds a value the destination type cannot hold exactly.
    pub enum RoundMode, ROUND_MODE = ("npuvec", "round", "rounding mode") {
        /// To nearest, ties to even.
        Rint = "rint",
        /// Toward zero (float -> int saturates).
        Trunc = "trunc",
        /// Toward -inf.
        Floor = "floor",
        /// Toward +inf.
        Ceil = "ceil",
    }
}

kiln_compiler::enum_attr! {
    /// The read-modify-write of an atomic `npuvec.store`.
    pub enum AtomicKind, ATOMIC_KIND = ("npuvec", "atomic", "atomic store kind") {
        /// `gm += value`.
        Add = "add",
        /// `gm = max(gm, value)`.
        Max = "max",
        /// `gm = min(gm, value)`.
        Min = "min",
    }
}

/// The elements of an `array<i64: ...>` attribute (`None` for any other attribute).
pub fn i64_array(attr: Attribute<'_>) -> Option<Vec<i64>> {
    match *attr.kind() {
        AttrKind::DenseArray { elem, len, bytes } if elem.is_integer() && elem.bit_width() == Some(64) => {
            let values: Vec<i64> = bytes
                .chunks_exact(8)
                .map(|c| i64::from_le_bytes(c.try_into().expect("chunks of 8 bytes")))
                .collect();
            (values.len() == len).then_some(values)
        }
        _ => None,
    }
}

/// The attribute `array<i64: values...>`.
pub fn i64_array_attr<'c>(ctx: &Context<'c>, values: &[i64]) -> Attribute<'c> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    ctx.attr(AttrKind::DenseArray {
        elem: ctx.int_type(64),
        len: values.len(),
        bytes: ctx.alloc_bytes(&bytes),
    })
}
