//! The instruction set: what one `npuvec` op becomes and what the VM executes.
//!
//! A kernel is a flat list of [`Inst`]s. Structured control flow is kept (`For` and `If` count
//! the instructions of their bodies), so the loader can check loop structure without a control
//! flow graph and the VM needs no jumps.
//!
//! Data lives in on-chip buffers ([`Buf`]: a 2-D `[rows, cols]` array at a planned byte
//! address of a memory [`Space`], rows `pitch` elements apart) and in GM buffers (kernel
//! arguments, addressed through a strided [`GmView`]). Scalars (loop counters, offsets) live in
//! 64-bit registers ([`Reg`]).
//!
//! Every instruction runs on one [`Pipe`] ([`Inst::pipe`]): MTE2 loads, V vector, MTE3 stores,
//! MTE1 L1 -> L0 moves, M cube, FIX fixpipe, S scalar. Pipes run in parallel on the device;
//! `SetFlag` / `WaitFlag` order them, `Barrier` orders one pipe (or all).

use crate::opcode::{Opcode, PipeRule, Role};

/// The number of scalar registers of a core.
pub const NUM_REGS: usize = 64;
/// The most dims of a [`GmView`].
pub const MAX_VIEW_DIMS: usize = 4;
/// The block edge of [`Inst::Transpose`]: both dims of its source are multiples of it.
pub const TRANSPOSE_BLOCK: u32 = 16;

/// A pipe: an in-order queue of one core that runs in parallel with the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pipe {
    /// Scalar unit: registers, loops, branches.
    S,
    /// Vector unit: arithmetic on UB buffers.
    V,
    /// L1 -> L0A / L0B moves.
    Mte1,
    /// GM -> UB / L1 loads.
    Mte2,
    /// UB -> GM stores.
    Mte3,
    /// The cube (matrix) unit.
    M,
    /// Fixpipe: L0C -> UB with cast / relu.
    Fix,
    /// Every pipe (only as the pipe of a `Barrier`).
    All,
}

impl Pipe {
    /// Every pipe, in encoding order.
    pub const ALL: [Pipe; 8] =
        [Pipe::S, Pipe::V, Pipe::Mte1, Pipe::Mte2, Pipe::Mte3, Pipe::M, Pipe::Fix, Pipe::All];

    /// The pipe's name as `npuvec` spells it (`#npuvec.pipe<mte2>`).
    pub fn name(self) -> &'static str {
        match self {
            Pipe::S => "s",
            Pipe::V => "v",
            Pipe::Mte1 => "mte1",
            Pipe::Mte2 => "mte2",
            Pipe::Mte3 => "mte3",
            Pipe::M => "m",
            Pipe::Fix => "fix",
            Pipe::All => "all",
        }
    }
}

/// A memory space (the memref memory space `#npuvec.space<..>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    /// Global memory (HBM): kernel arguments.
    Gm,
    /// Unified Buffer of a vector core.
    Ub,
    /// L1 buffer of a cube core.
    L1,
    /// Left cube operand.
    L0a,
    /// Right cube operand.
    L0b,
    /// Cube accumulator.
    L0c,
}

impl Space {
    /// Every space, in encoding order.
    pub const ALL: [Space; 6] = [Space::Gm, Space::Ub, Space::L1, Space::L0a, Space::L0b, Space::L0c];

    /// The space's name as `npuvec` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Space::Gm => "gm",
            Space::Ub => "ub",
            Space::L1 => "l1",
            Space::L0a => "l0a",
            Space::L0b => "l0b",
            Space::L0c => "l0c",
        }
    }
}

/// An element type the VM computes with. `I1` masks take one byte per element (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// IEEE binary32.
    F32,
    /// IEEE binary16.
    F16,
    /// bfloat16.
    BF16,
    /// 32-bit two's complement.
    I32,
    /// 8-bit two's complement.
    I8,
    /// Boolean, one byte (0 or 1).
    I1,
    /// 64-bit two's complement: in GM, and in on-chip buffers on targets whose vector unit
    /// has it (`vector.int64`).
    I64,
}

impl DType {
    /// Every element type, in encoding order.
    pub const ALL: [DType; 7] =
        [DType::F32, DType::F16, DType::BF16, DType::I32, DType::I8, DType::I1, DType::I64];

    /// Bytes per element.
    pub fn bytes(self) -> u32 {
        match self {
            DType::I64 => 8,
            DType::F32 | DType::I32 => 4,
            DType::F16 | DType::BF16 => 2,
            DType::I8 | DType::I1 => 1,
        }
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F16 | DType::BF16)
    }

    /// The MLIR spelling (`f32`, `bf16`, `i1`).
    pub fn name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::I32 => "i32",
            DType::I8 => "i8",
            DType::I1 => "i1",
            DType::I64 => "i64",
        }
    }
}

/// A scalar register `r0 .. r63`, holding a 64-bit signed integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u8);

/// An on-chip buffer operand: `rows x cols` elements of `dtype` at byte address `addr` of
/// `space`; element `(r, c)` is at `addr + (r * pitch + c) * dtype.bytes()`.
///
/// `pitch >= cols`; the emitter pads rows to the target's alignment (32 B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Buf {
    /// The memory space (never `Gm`).
    pub space: Space,
    /// The element type.
    pub dtype: DType,
    /// Byte address within the space.
    pub addr: u32,
    /// Rows.
    pub rows: u32,
    /// Elements per row.
    pub cols: u32,
    /// Elements from one row to the next.
    pub pitch: u32,
}

impl Buf {
    /// Bytes spanned from the first element to one past the last: `((rows - 1) * pitch +
    /// cols) * bytes` (0 when empty; `u64::MAX` when that does not fit, which no memory
    /// holds).
    pub fn span_bytes(&self) -> u64 {
        if self.rows == 0 || self.cols == 0 {
            return 0;
        }
        // `(rows - 1) * pitch + cols` fits in a u64 for any u32 fields; times 8 may not.
        ((self.rows as u64 - 1) * self.pitch as u64 + self.cols as u64)
            .saturating_mul(self.dtype.bytes() as u64)
    }

    /// Whether its rows follow one another with no gap (`pitch == cols`, or a single row): its
    /// elements are one run of `rows * cols`.
    pub fn is_dense(&self) -> bool {
        self.rows <= 1 || self.pitch == self.cols
    }

    /// Bytes of all `rows` rows at the full pitch, `rows * pitch * bytes` (what a zero-padded
    /// load clears; `u64::MAX` when that does not fit).
    pub fn padded_bytes(&self) -> u64 {
        (self.rows as u64 * self.pitch as u64).saturating_mul(self.dtype.bytes() as u64)
    }
}

/// An immediate scalar operand (a splat constant). Floats are given as `f64` and rounded to
/// the operation's element type; integers as `i64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A floating-point value.
    Float(f64),
    /// An integer (or boolean: 0 / 1) value.
    Int(i64),
}

/// A source operand of a vector op: a buffer or an immediate.
///
/// A buffer source broadcasts against the destination `[rows, cols]` as numpy does: its rows
/// are `rows` or 1 and its cols `cols` or 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Src {
    /// A buffer.
    Buf(Buf),
    /// An immediate.
    Imm(Scalar),
}

/// One dim of a [`GmView`]: `size` elements, `stride` elements apart (0 broadcasts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim {
    /// Elements along the dim (at least 1).
    pub size: u32,
    /// Distance in elements between neighbours along the dim.
    pub stride: i64,
}

/// A strided view of a GM buffer: kernel argument `arg`, starting at element `base +
/// reg(offset)`, with 1 to [`MAX_VIEW_DIMS`] dims. Its elements, taken in row-major order,
/// are the elements of the on-chip buffer in row-major order (`e` -> row `e / cols`, col
/// `e % cols`), so the view's element count equals the buffer's `rows * cols`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GmView {
    /// The kernel argument (GM buffer) index.
    pub arg: u16,
    /// The register holding the dynamic part of the start offset (in elements), or `None`.
    pub offset: Option<Reg>,
    /// The static part of the start offset, in elements.
    pub base: i64,
    /// The dims, outermost first.
    pub dims: Vec<Dim>,
}

/// Integer arithmetic of the scalar unit (on `index` values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// Unsigned division (`arith.divui`); division by zero is a run-time error.
    DivU,
    /// Unsigned remainder (`arith.remui`).
    RemU,
    /// Signed minimum (`arith.minsi`).
    MinS,
    /// Signed maximum (`arith.maxsi`).
    MaxS,
    /// `a == b` as 0 / 1.
    Eq,
    /// `a != b`.
    Ne,
    /// Signed `a < b`.
    Lt,
    /// Signed `a <= b`.
    Le,
    /// Signed `a > b`.
    Gt,
    /// Signed `a >= b`.
    Ge,
}

impl ScalarOp {
    /// Every value, in encoding order.
    pub const ALL: [ScalarOp; 13] = [
        ScalarOp::Add,
        ScalarOp::Sub,
        ScalarOp::Mul,
        ScalarOp::DivU,
        ScalarOp::RemU,
        ScalarOp::MinS,
        ScalarOp::MaxS,
        ScalarOp::Eq,
        ScalarOp::Ne,
        ScalarOp::Lt,
        ScalarOp::Le,
        ScalarOp::Gt,
        ScalarOp::Ge,
    ];
}

/// Calls macro `$then` with the tokens after its name (`unary_instructions!(m, a b)` calls
/// `m! { a b ... }`) and then every unary vector instruction, in encoding order, one
/// `Member, OP_STATIC, "npuvec.name", "summary";` each: the ISA's [`UnaryOp`] and the
/// `npuvec` dialect's unary ops are both declared from this list, so an instruction is one
/// line here plus its semantics in the VM. Append only: the position is the encoding.
#[macro_export]
macro_rules! unary_instructions {
    ($then:ident $(, $($head:tt)*)?) => {
        $then! {
            $($($head)*)?
            Neg, NEG_OP, "npuvec.neg", "negation";
            Abs, ABS_OP, "npuvec.abs", "absolute value";
            Exp, EXP_OP, "npuvec.exp", "natural exponential";
            Log, LOG_OP, "npuvec.log", "natural logarithm";
            Sqrt, SQRT_OP, "npuvec.sqrt", "square root (exact)";
            Rsqrt, RSQRT_OP, "npuvec.rsqrt", "reciprocal square root";
            Recip, RECIP_OP, "npuvec.recip", "reciprocal";
            Tanh, TANH_OP, "npuvec.tanh", "hyperbolic tangent";
            Erf, ERF_OP, "npuvec.erf", "error function";
            Sigmoid, SIGMOID_OP, "npuvec.sigmoid", "logistic sigmoid `1 / (1 + e^-x)`";
            Relu, RELU_OP, "npuvec.relu", "rectifier `max(x, 0)`";
            Floor, FLOOR_OP, "npuvec.floor", "rounding toward -inf";
            Ceil, CEIL_OP, "npuvec.ceil", "rounding toward +inf";
            Round, ROUND_OP, "npuvec.round", "rounding to nearest, ties to even";
            Sign, SIGN_OP, "npuvec.sign", "sign (-1, 0 or 1)";
            Not, NOT_OP, "npuvec.not", "logical not of a mask, bitwise not of integers";
            Sin, SIN_OP, "npuvec.sin", "sine";
            Cos, COS_OP, "npuvec.cos", "cosine";
            Tan, TAN_OP, "npuvec.tan", "tangent";
            Asin, ASIN_OP, "npuvec.asin", "arcsine";
            Acos, ACOS_OP, "npuvec.acos", "arccosine";
            Atan, ATAN_OP, "npuvec.atan", "arctangent";
            Sinh, SINH_OP, "npuvec.sinh", "hyperbolic sine";
            Cosh, COSH_OP, "npuvec.cosh", "hyperbolic cosine";
            Asinh, ASINH_OP, "npuvec.asinh", "inverse hyperbolic sine";
            Acosh, ACOSH_OP, "npuvec.acosh", "inverse hyperbolic cosine";
            Atanh, ATANH_OP, "npuvec.atanh", "inverse hyperbolic tangent";
        }
    };
}

/// Calls macro `$then` with every binary vector instruction, in encoding order, as
/// [`unary_instructions!`] does for the unary ones ([`BinaryOp`] and the `npuvec` binary ops).
#[macro_export]
macro_rules! binary_instructions {
    ($then:ident $(, $($head:tt)*)?) => {
        $then! {
            $($($head)*)?
            Add, ADD_OP, "npuvec.add", "addition";
            Sub, SUB_OP, "npuvec.sub", "subtraction";
            Mul, MUL_OP, "npuvec.mul", "multiplication";
            Div, DIV_OP, "npuvec.div", "division (integers truncate; division by zero gives 0)";
            Max, MAX_OP, "npuvec.max", "maximum (NaN propagates)";
            Min, MIN_OP, "npuvec.min", "minimum (NaN propagates)";
            Pow, POW_OP, "npuvec.pow", "power `lhs ^ rhs`";
            And, AND_OP, "npuvec.and", "logical and of masks, bitwise and of integers";
            Or, OR_OP, "npuvec.or", "logical or of masks, bitwise or of integers";
            Rem, REM_OP, "npuvec.rem",
                "remainder of truncated division, with the dividend's sign (integers: 0 for a zero divisor; floats: `fmod`)";
            Xor, XOR_OP, "npuvec.xor", "bitwise exclusive or of integers";
            Shl, SHL_OP, "npuvec.shl",
                "left shift of integers (0 for a shift outside `0..64`; the result narrowed to the type)";
            Shr, SHR_OP, "npuvec.shr", "arithmetic right shift of integers (0 for a negative shift; at most 63)";
        }
    };
}

/// Declares an instruction family's enum from its list: the members in encoding order and
/// `ALL`.
macro_rules! family_enum {
    ($(#[$doc:meta])* $enum:ident: $($member:ident, $op:ident, $name:literal, $summary:literal;)+) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $enum {
            $(#[doc = concat!($summary, " (`", $name, "`).")] $member,)+
        }

        impl $enum {
            /// Every value, in encoding order.
            pub const ALL: [$enum; [$(stringify!($member)),+].len()] = [$($enum::$member),+];
        }
    };
}

unary_instructions!(family_enum,
    /// Elementwise unary vector ops.
    UnaryOp:
);
binary_instructions!(family_enum,
    /// Elementwise binary vector ops.
    BinaryOp:
);

impl UnaryOp {
    /// Whether the op computes on floats (`Not` takes masks and integers only).
    pub fn takes_floats(self) -> bool {
        self != UnaryOp::Not
    }
}

impl BinaryOp {
    /// Whether the op computes on floats (the bitwise ops and shifts take integers only).
    pub fn takes_floats(self) -> bool {
        !matches!(self, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor | BinaryOp::Shl | BinaryOp::Shr)
    }
}

/// Comparison predicates (`cmp` writes an `i1` mask). Float comparisons are ordered: false
/// when either side is NaN, except `Ne`, which is true.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpPred {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl CmpPred {
    /// Every value, in encoding order.
    pub const ALL: [CmpPred; 6] =
        [CmpPred::Eq, CmpPred::Ne, CmpPred::Lt, CmpPred::Le, CmpPred::Gt, CmpPred::Ge];
}

/// Reductions along the cols of a buffer (`[rows, cols]` -> `[rows, 1]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Sum.
    Sum,
    /// Maximum.
    Max,
    /// Minimum.
    Min,
    /// Product.
    Prod,
}

impl ReduceOp {
    /// Every value, in encoding order.
    pub const ALL: [ReduceOp; 4] = [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod];
}

/// How a cast rounds when the value does not fit the destination exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    /// To nearest, ties to even (float -> narrower float).
    Rint,
    /// Toward zero (float -> int, as C does; out-of-range values saturate).
    Trunc,
    /// Toward -inf.
    Floor,
    /// Toward +inf.
    Ceil,
}

impl Round {
    /// Every value, in encoding order.
    pub const ALL: [Round; 4] = [Round::Rint, Round::Trunc, Round::Floor, Round::Ceil];
}

/// The read-modify-write a store does at its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atomic {
    /// Plain store.
    None,
    /// `gm += value`.
    Add,
    /// `gm = max(gm, value)`.
    Max,
    /// `gm = min(gm, value)`.
    Min,
}

impl Atomic {
    /// Every value, in encoding order.
    pub const ALL: [Atomic; 4] = [Atomic::None, Atomic::Add, Atomic::Max, Atomic::Min];
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    /// `dst = value` (S).
    Const {
        /// Destination register.
        dst: Reg,
        /// The value.
        value: i64,
    },
    /// `dst = a op b` (S); arithmetic wraps nowhere: an overflow is a run-time error.
    Scalar {
        /// The operation.
        op: ScalarOp,
        /// Destination register.
        dst: Reg,
        /// Left operand.
        a: Reg,
        /// Right operand.
        b: Reg,
    },
    /// `dst = ` this core's block index, `0 .. block_num` (S).
    BlockIdx {
        /// Destination register.
        dst: Reg,
    },
    /// `dst = ` the kernel's `block_dim` (S).
    BlockNum {
        /// Destination register.
        dst: Reg,
    },
    /// `for iv = lo; iv < hi; iv += step` over the next `body` instructions (S). A step that
    /// is not positive is a run-time error.
    For {
        /// Induction register.
        iv: Reg,
        /// Lower bound.
        lo: Reg,
        /// Upper bound (exclusive).
        hi: Reg,
        /// Step.
        step: Reg,
        /// Instructions in the body (which follow this one).
        body: u32,
    },
    /// Runs the next `then_len` instructions when `cond != 0`, else the `else_len` after them.
    If {
        /// Condition register.
        cond: Reg,
        /// Instructions in the then-branch.
        then_len: u32,
        /// Instructions in the else-branch (after the then-branch).
        else_len: u32,
    },
    /// DMA GM -> UB or L1 (MTE2). With `zero_pad`, the view is a block at the destination's
    /// top left: its last dim gives the block's cols (at most `cols`), the product of the
    /// others its rows (at most `rows`); the destination's `rows x pitch` elements are zeroed
    /// first (cube operands padded to whole fractals).
    Load {
        /// Destination buffer (UB or L1).
        dst: Buf,
        /// Source view.
        src: GmView,
        /// Zero the destination's padding.
        zero_pad: bool,
    },
    /// DMA UB -> GM (MTE3), optionally atomic.
    Store {
        /// Destination view.
        dst: GmView,
        /// Source buffer (UB).
        src: Buf,
        /// Read-modify-write at the destination.
        atomic: Atomic,
    },
    /// Indexed DMA GM -> UB (MTE2): the scalar unit reads `dst.rows` indices (of type
    /// `index`, `I32` or `I64`) from the GM view `indices`, and the DMA engine copies, for
    /// each index `i`, the slice `i` of `table`'s first dim into the next row of `dst` (an
    /// embedding lookup). `table`'s first dim has the table's `size` (the bound) and the
    /// stride between its slices; its other dims are one slice, in row-major order, of
    /// `dst.cols` elements. A negative index counts from the end (`i + size`, as `hl.gather`);
    /// an index outside `[-size, size)` is a run-time error.
    Gather {
        /// Destination (UB), one row per index.
        dst: Buf,
        /// The table: dim 0 is the indexed one.
        table: GmView,
        /// The indices, `dst.rows` elements in row-major order.
        indices: GmView,
        /// The indices' element type (`I32` or `I64`).
        index: DType,
    },
    /// UB -> UB copy of equal shapes and types (V).
    Copy {
        /// Destination.
        dst: Buf,
        /// Source.
        src: Buf,
    },
    /// `dst = op(src)` elementwise (V); same shape and type.
    Unary {
        /// The operation.
        op: UnaryOp,
        /// Destination.
        dst: Buf,
        /// Source.
        src: Buf,
    },
    /// `dst = a op b` elementwise with broadcasting (V); sources of `dst`'s type.
    Binary {
        /// The operation.
        op: BinaryOp,
        /// Destination.
        dst: Buf,
        /// Left source.
        a: Src,
        /// Right source.
        b: Src,
    },
    /// `dst = a pred b` as an `i1` mask (V); sources of one type.
    Cmp {
        /// The predicate.
        pred: CmpPred,
        /// Destination (`I1`).
        dst: Buf,
        /// Left source.
        a: Src,
        /// Right source.
        b: Src,
    },
    /// `dst = mask ? a : b` (V); the mask broadcasts as a source does.
    Select {
        /// Destination.
        dst: Buf,
        /// The `I1` mask.
        mask: Buf,
        /// Value where the mask is set.
        a: Src,
        /// Value where it is not.
        b: Src,
    },
    /// Reduces each row of `src` (`[rows, cols]`) into `dst` (`[rows, 1]`) (V), as the
    /// interpreter does: sequentially in column order, floats in `f32` (rounded once to
    /// `dst`'s type, which may be `F32` for an `F16` / `BF16` source: a wide accumulator),
    /// integers wrapping. With `accumulate` the fold starts from `dst`'s value instead of the
    /// first element, so a row split into column tiles reduces in the same order as a whole row.
    Reduce {
        /// The reduction.
        op: ReduceOp,
        /// Destination, `[rows, 1]`.
        dst: Buf,
        /// Source.
        src: Buf,
        /// Continue from `dst`'s value.
        accumulate: bool,
    },
    /// Broadcasts `src` (`[rows, 1]`, `[1, cols]` or `[1, 1]`) to `dst` (V).
    Broadcast {
        /// Destination.
        dst: Buf,
        /// Source.
        src: Buf,
    },
    /// Sets every element of `dst` to `value` (V).
    Fill {
        /// Destination.
        dst: Buf,
        /// The value, rounded to `dst`'s type.
        value: Scalar,
    },
    /// Converts `src` to `dst`'s element type (V).
    Cast {
        /// Destination.
        dst: Buf,
        /// Source (same shape).
        src: Buf,
        /// Rounding when inexact.
        round: Round,
    },
    /// Transposes `src` (`[r, c]`, both multiples of 16) into `dst` (`[c, r]`) in 16x16 blocks (V).
    Transpose {
        /// Destination.
        dst: Buf,
        /// Source.
        src: Buf,
    },
    /// Moves an L1 tile into L0A or L0B (MTE1); same shape and type.
    MoveL1 {
        /// Destination (L0A or L0B).
        dst: Buf,
        /// Source (L1).
        src: Buf,
    },
    /// `c (+)= a x b` on the cube (M): `a` `[m, k]` in L0A, `b` `[k, n]` in L0B, `c` `[m, n]`
    /// `F32` in L0C; m, k, n multiples of the target's fractal (16).
    Mmad {
        /// Accumulator (L0C).
        c: Buf,
        /// Left operand (L0A).
        a: Buf,
        /// Right operand (L0B).
        b: Buf,
        /// Add to `c` instead of overwriting it.
        accumulate: bool,
    },
    /// L0C -> UB (FIX), casting to `dst`'s type, optionally applying relu. `dst` may be
    /// smaller than `src` (a tail tile): it takes `src`'s top-left `dst.rows x dst.cols` block.
    Fixpipe {
        /// Destination (UB).
        dst: Buf,
        /// Source (L0C).
        src: Buf,
        /// Apply `max(x, 0)` on the way.
        relu: bool,
    },
    /// Signals event `event` from pipe `src` to pipe `dst` once `src` has finished everything
    /// issued before.
    SetFlag {
        /// The signalling pipe.
        src: Pipe,
        /// The waiting pipe.
        dst: Pipe,
        /// Event id, below the target's `sync.event_ids`.
        event: u8,
    },
    /// Blocks pipe `dst` until event `event` from `src` has been set (and consumes it).
    WaitFlag {
        /// The signalling pipe.
        src: Pipe,
        /// The waiting pipe.
        dst: Pipe,
        /// Event id.
        event: u8,
    },
    /// Orders everything issued on `pipe` (`All`: on every pipe) before what follows.
    Barrier {
        /// The pipe.
        pipe: Pipe,
    },
}

/// One operand of an instruction, as [`Inst::operands`] lists them (assembly order; see
/// [`OpcodeInfo::operands`](crate::opcode::OpcodeInfo) for what the instruction does with each).
#[derive(Clone, Copy, Debug)]
pub enum Operand<'a> {
    /// An on-chip buffer.
    Buf(&'a Buf),
    /// A source: a buffer or an immediate.
    Src(&'a Src),
    /// A GM view.
    View(&'a GmView),
    /// The offset register of the GM view before it.
    Offset(&'a GmView),
    /// An immediate.
    Imm(&'a Scalar),
}

impl Inst {
    /// The instruction's opcode.
    pub fn opcode(&self) -> Opcode {
        match self {
            Inst::Const { .. } => Opcode::Const,
            Inst::Scalar { .. } => Opcode::Scalar,
            Inst::BlockIdx { .. } => Opcode::BlockIdx,
            Inst::BlockNum { .. } => Opcode::BlockNum,
            Inst::For { .. } => Opcode::For,
            Inst::If { .. } => Opcode::If,
            Inst::Load { .. } => Opcode::Load,
            Inst::Store { .. } => Opcode::Store,
            Inst::Gather { .. } => Opcode::Gather,
            Inst::Copy { .. } => Opcode::Copy,
            Inst::Unary { .. } => Opcode::Unary,
            Inst::Binary { .. } => Opcode::Binary,
            Inst::Cmp { .. } => Opcode::Cmp,
            Inst::Select { .. } => Opcode::Select,
            Inst::Reduce { .. } => Opcode::Reduce,
            Inst::Broadcast { .. } => Opcode::Broadcast,
            Inst::Fill { .. } => Opcode::Fill,
            Inst::Cast { .. } => Opcode::Cast,
            Inst::Transpose { .. } => Opcode::Transpose,
            Inst::MoveL1 { .. } => Opcode::MoveL1,
            Inst::Mmad { .. } => Opcode::Mmad,
            Inst::Fixpipe { .. } => Opcode::Fixpipe,
            Inst::SetFlag { .. } => Opcode::SetFlag,
            Inst::WaitFlag { .. } => Opcode::WaitFlag,
            Inst::Barrier { .. } => Opcode::Barrier,
        }
    }

    /// The operands in assembly order, one per role of the opcode's
    /// [`operands`](crate::opcode::OpcodeInfo) (at most five, so nothing is allocated).
    pub fn operands(&self) -> impl Iterator<Item = Operand<'_>> {
        use Operand::{Buf as B, Imm, Offset, Src as S, View};
        let ops: [Option<Operand<'_>>; 5] = match self {
            Inst::Load { dst, src, .. } => [Some(View(src)), Some(Offset(src)), Some(B(dst)), None, None],
            Inst::Store { dst, src, .. } => [Some(B(src)), Some(View(dst)), Some(Offset(dst)), None, None],
            Inst::Gather { dst, table, indices, .. } => [
                Some(View(table)),
                Some(Offset(table)),
                Some(View(indices)),
                Some(Offset(indices)),
                Some(B(dst)),
            ],
            Inst::Copy { dst, src }
            | Inst::Unary { dst, src, .. }
            | Inst::Reduce { dst, src, .. }
            | Inst::Broadcast { dst, src }
            | Inst::Cast { dst, src, .. }
            | Inst::Transpose { dst, src }
            | Inst::MoveL1 { dst, src }
            | Inst::Fixpipe { dst, src, .. } => [Some(B(src)), Some(B(dst)), None, None, None],
            Inst::Binary { dst, a, b, .. } | Inst::Cmp { dst, a, b, .. } => {
                [Some(S(a)), Some(S(b)), Some(B(dst)), None, None]
            }
            Inst::Select { dst, mask, a, b } => [Some(B(mask)), Some(S(a)), Some(S(b)), Some(B(dst)), None],
            Inst::Fill { dst, value } => [Some(Imm(value)), Some(B(dst)), None, None, None],
            Inst::Mmad { c, a, b, .. } => [Some(B(a)), Some(B(b)), Some(B(c)), None, None],
            Inst::Const { .. }
            | Inst::Scalar { .. }
            | Inst::BlockIdx { .. }
            | Inst::BlockNum { .. }
            | Inst::For { .. }
            | Inst::If { .. }
            | Inst::SetFlag { .. }
            | Inst::WaitFlag { .. }
            | Inst::Barrier { .. } => [None; 5],
        };
        ops.into_iter().flatten()
    }

    /// The operands with what the instruction does with each (see [`Inst::operands`]).
    pub fn operands_with_roles(&self) -> impl Iterator<Item = (Role, Operand<'_>)> {
        self.opcode().info().operands.iter().copied().zip(self.operands())
    }

    /// The on-chip buffers the instruction names (sources, mask and destination); none for
    /// scalar, control and sync instructions.
    pub fn bufs(&self) -> impl Iterator<Item = &Buf> {
        self.operands().filter_map(|o| match o {
            Operand::Buf(b) | Operand::Src(Src::Buf(b)) => Some(b),
            _ => None,
        })
    }

    /// The arguments whose GM the instruction reads: a load's source, a gather's table and
    /// indices, an atomic store's destination (read-modify-write); none for the others (a
    /// plain store only writes).
    pub fn gm_reads(&self) -> [Option<u16>; 2] {
        let mut reads = self.operands_with_roles().filter_map(|(role, o)| match (role, o) {
            (Role::GmRead, Operand::View(v)) => Some(v.arg),
            (Role::GmWrite, Operand::View(v)) if self.reads_destination() => Some(v.arg),
            _ => None,
        });
        [reads.next(), reads.next()]
    }

    /// Whether the instruction reads its destination before writing it: an accumulating
    /// `Reduce` or `Mmad` (role `Accumulate`), an atomic `Store` (role `GmWrite`).
    pub fn reads_destination(&self) -> bool {
        match self {
            Inst::Reduce { accumulate, .. } | Inst::Mmad { accumulate, .. } => *accumulate,
            Inst::Store { atomic, .. } => *atomic != Atomic::None,
            _ => false,
        }
    }

    /// The instruction's mnemonic, for messages and traces (`load`, `set_flag`).
    pub fn mnemonic(&self) -> &'static str {
        self.opcode().info().mnemonic
    }

    /// The pipe the instruction runs on (for a flag wait: the waiting pipe).
    pub fn pipe(&self) -> Pipe {
        match (self.opcode().info().pipe, self) {
            (PipeRule::Fixed(pipe), _) => pipe,
            (PipeRule::Named, Inst::SetFlag { src, .. }) => *src,
            (PipeRule::Named, Inst::WaitFlag { dst, .. }) => *dst,
            (PipeRule::Named, Inst::Barrier { pipe }) => *pipe,
            (PipeRule::Named, _) => unreachable!("only flags and barriers name their pipe"),
        }
    }
}
