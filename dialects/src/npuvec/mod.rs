//! The `npuvec` dialect: the buffer-level NPU dialect, one op per kernel instruction (see
//! `docs/backend.md` and `kiln_bytecode::isa`), each on a fixed pipe.
//!
//! Memory spaces are memref memory spaces (`memref<8x64xf32, #npuvec.space<ub>>`): GM buffers
//! are memrefs in `gm`, static but for the `?` dims of a shape class's (`npuvec.load` /
//! `npuvec.store` with extents); on-chip buffers are static 2-D memrefs (`R` rows of `C`
//! elements) in `ub`, `l1`, `l0a`, `l0b` or `l0c`. Ops are in destination style (sources,
//! then the destination) and carry memory effects on their operands' spaces; a kernel is a
//! `func.func` with `npuvec.core`, `npuvec.block_dim` and (once planned) `npuvec.ub_bytes`,
//! which the host function runs with `npuvec.launch`.
//!
//! ```mlir
//! func.func @k(%x: memref<8x64xf32, #npuvec.space<gm>>, %y: memref<8x64xf32, #npuvec.space<gm>>)
//!     attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>} {
//!   %c0 = arith.constant 0 : index
//!   %b = npuvec.alloc : memref<8x64xf32, #npuvec.space<ub>>
//!   npuvec.load ins(%x[%c0] : memref<8x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
//!   npuvec.exp ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>)
//!   npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%c0] : memref<8x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
//!   return
//! }
//! ```

pub mod attrs;
pub mod interfaces;
mod ops;
mod syntax;
mod verify;

pub use attrs::{AtomicKind, CmpPredicate, Core, Pipe, ReduceKind, RoundMode, Space};
pub use ops::*;
pub use verify::class::{
    kernel_params, string_list, symbols, text, KernelParams, INPUT_SYMBOLS_ATTR, LAUNCH_PARAMS_ATTR,
    OUTPUT_SIZES_ATTR, PARAM_RANGES_ATTR, SIZE_ATTR, SYMBOLS_ATTR,
};
pub use verify::dma::view_extents;
pub use verify::host::{BLOCK_DIM_ATTR, CORE_ATTR, UB_BYTES_ATTR};

use kiln_compiler::{Dialect, OpDef};

/// Event ids of `npuvec.set_flag` / `npuvec.wait_flag` are below this.
pub const EVENT_IDS: i64 = 8;
/// `npuvec.buffer` offsets are multiples of this many bytes.
pub const BUFFER_ALIGN: i64 = 32;
/// The side of the cube's fractal and of `npuvec.transpose`'s blocks, in elements.
pub const FRACTAL: i64 = 16;
/// The most dims of a GM view (`sizes` / `strides` of `npuvec.load` / `npuvec.store`).
pub const MAX_VIEW_DIMS: usize = 4;

/// The dialect's ops: the instruction families declared from the ISA's lists
/// ([`UNARY_OPS`], [`BINARY_OPS`]) among the others.
const OP_PARTS: &[&[&OpDef]] = &[
    &[&BLOCK_IDX_OP, &BLOCK_NUM_OP, &ALLOC_OP, &BUFFER_OP, &LOAD_OP, &GATHER_OP, &STORE_OP, &COPY_OP],
    UNARY_OPS,
    BINARY_OPS,
    &[
        &CMP_OP,
        &SELECT_OP,
        &REDUCE_OP,
        &BROADCAST_OP,
        &FILL_OP,
        &CAST_OP,
        &TRANSPOSE_OP,
        &MOVE_OP,
        &MMAD_OP,
        &FIXPIPE_OP,
        &SET_FLAG_OP,
        &WAIT_FLAG_OP,
        &BARRIER_OP,
        &LAUNCH_OP,
        &RESHAPE_OP,
        &CONSTANT_OP,
    ],
];

/// The number of ops in `parts`.
const fn count(parts: &[&[&OpDef]]) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

/// `parts` end to end (`N` is their total count).
const fn concat<const N: usize>(parts: &[&[&'static OpDef]]) -> [&'static OpDef; N] {
    let mut out = [parts[0][0]; N];
    let (mut i, mut n) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[n] = parts[i][j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

static OPS: [&OpDef; count(OP_PARTS)] = concat(OP_PARTS);

/// The `npuvec` dialect.
pub static NPUVEC: Dialect = Dialect {
    name: "npuvec",
    summary: "buffer-level NPU ops, one per kernel instruction",
    ops: &OPS,
    attrs: &[
        &attrs::SPACE,
        &attrs::PIPE,
        &attrs::CORE,
        &attrs::REDUCE_KIND,
        &attrs::CMP_PREDICATE,
        &attrs::ROUND_MODE,
        &attrs::ATOMIC_KIND,
    ],
    types: &[],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: Some(verify::class::verify_op_attr),
};
