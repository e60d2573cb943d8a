//! Gather kernels (`npuvec.kind = "gather"`): one `hl.gather` as tiles of indexed DMA.
//!
//! A table `[..outer, size, ..inner]` gathered along `axis` by `n` indices (any shape, read
//! flat) is `[outer, n, inner]`. A tile is a block of `rows` consecutive indices of one outer
//! index: `npuvec.gather` reads the indices from GM and copies the `inner`-element slices they
//! pick into a `[rows, inner]` UB buffer, `npuvec.store` writes it to the result (contiguous).
//! Indices are data: the row addresses are computed when the kernel runs, and an index out of
//! range is a run-time error of the VM.
//!
//! ```text
//! %ub = npuvec.alloc : memref<rows x inner>          // and one for the tail block
//! scf.for %t = block_idx to outer * blocks step block_num {
//!   o = t / blocks, j = t % blocks
//!   scf.if j == blocks - 1 { tail tile } else { body tile }   // only when there is a tail
//! }
//! ```
//! `kiln-codegen-plan-ub` places the buffers and `kiln-codegen-insert-sync` orders the gather
//! (MTE2) before the store (MTE3) and the store before the next gather into the buffer.

use kiln_compiler::InsertPoint;
use kiln_compiler::{Attribute, Context, Ir, NamedAttr, OpId, Type, ValueId};
use kiln_dialects::hl::GATHER;
use kiln_dialects::npuvec::Space;
use kiln_dialects::{arith, bufferization, func, npuvec, scf};
use kiln_targets::Target;

use super::build::{i64_array, i64_attr, memref_type, Build, Builder};
use super::tiling::cdiv;

/// The sizes of one `hl.gather`: `[outer, size, inner]` table, `n` indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherShape {
    /// The product of the table's dims before the axis.
    pub outer: i64,
    /// The gathered dim (the bound of the indices).
    pub size: i64,
    /// The product of the dims after the axis (one slice).
    pub inner: i64,
    /// The number of indices.
    pub n: i64,
    /// Bytes per table element.
    pub elem_bytes: i64,
}

impl GatherShape {
    /// The shape of `op`, an `hl.gather` with static shapes.
    pub fn of_op(ir: &Ir<'_>, op: OpId) -> Result<GatherShape, String> {
        let (data, indices) = match ir.operands(op) {
            &[d, i] if ir.is(op, &GATHER) => (ir.value_type(d), ir.value_type(i)),
            _ => return Err("a gather kernel holds one `hl.gather`".into()),
        };
        let (Some(shape), Some(ishape)) = (data.shape(), indices.shape()) else {
            return Err("`hl.gather` needs ranked tensors".into());
        };
        let rank = shape.len() as i64;
        let axis = ir.attr(op, "axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
        let axis = if axis < 0 { axis + rank } else { axis };
        if !(0..rank).contains(&axis) {
            return Err(format!("`hl.gather` axis {axis} is out of range for rank {rank}"));
        }
        let axis = axis as usize;
        let bits =
            data.element_type().and_then(|e| e.bit_width()).ok_or("a gather of non-scalar elements")?;
        Ok(GatherShape {
            outer: shape[..axis].iter().product(),
            size: shape[axis],
            inner: shape[axis + 1..].iter().product(),
            n: ishape.iter().product(),
            elem_bytes: cdiv(bits as i64, 8),
        })
    }

    /// The bytes of one UB row of a slice (rows padded to `align` bytes).
    fn row_bytes(&self, align: i64) -> i64 {
        cdiv(self.inner * self.elem_bytes, align.max(1)) * align.max(1)
    }
}

/// The tiles of a gather kernel: `rows` indices per tile, on `block_dim` cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherTiling {
    /// Indices per tile.
    pub rows: i64,
    /// Cores.
    pub block_dim: i64,
}

impl GatherTiling {
    /// The tiling of `shape` within the usable UB divided by `shrink`: as many rows as fit
    /// beside the buffer of a tail tile, fewer when that leaves cores idle.
    pub fn choose(shape: &GatherShape, target: &Target, shrink: u64) -> Result<GatherTiling, String> {
        let budget = (target.memory.ub_usable_bytes / shrink.max(1)) as i64;
        let row = shape.row_bytes(target.memory.alignment_bytes as i64);
        let cap = budget / row;
        if cap < 1 {
            return Err(format!(
                "kiln-codegen cannot tile a gather whose slices of {} elements ({row} bytes) do not fit the UB budget of {budget} bytes",
                shape.inner
            ));
        }
        // The most rows that fit beside the tail block's buffer (none when they divide `n`).
        let mut rows = if shape.n <= cap {
            shape.n
        } else {
            (1..=cap).rev().find(|&r| shape.n % r == 0 || r + shape.n % r <= cap).unwrap_or(1)
        };
        let cores = i64::from(target.cores.vector.max(1));
        let wanted = cdiv(cores, shape.outer.max(1));
        if shape.outer * cdiv(shape.n, rows) < cores && wanted > 1 {
            rows = cdiv(shape.n, wanted.min(shape.n)).max(1);
        }
        let tiles = shape.outer * cdiv(shape.n, rows);
        Ok(GatherTiling { rows, block_dim: tiles.clamp(1, cores) })
    }

    /// The `npuvec.tile` attribute: `{block_dim = N, rows = R}`.
    pub fn attr<'c>(&self, ctx: &Context<'c>) -> Attribute<'c> {
        let e = |n: &str, v: i64| NamedAttr { name: ctx.intern_str(n), value: i64_attr(ctx, v) };
        ctx.dict_attr(&[e("block_dim", self.block_dim), e("rows", self.rows)])
    }

    /// Reads the `npuvec.tile` attribute of a gather kernel.
    pub fn from_attr(attr: Attribute<'_>) -> Option<GatherTiling> {
        let get = |n: &str| attr.dict_get(n).and_then(|a| a.as_int()).map(|v| v as i64).filter(|&v| v >= 1);
        Some(GatherTiling { rows: get("rows")?, block_dim: get("block_dim")? })
    }
}

/// The `hl.gather` of a gather kernel's body.
pub fn gather_op(ir: &Ir<'_>, body: kiln_compiler::BlockId) -> Result<OpId, String> {
    ir.block_ops(body)
        .find(|&o| ir.is(o, &GATHER))
        .ok_or_else(|| "a gather kernel without `hl.gather`".into())
}

/// The GM operands and offsets of one tile, and its UB buffer.
struct TileArgs {
    table: ValueId,
    indices: ValueId,
    out: ValueId,
    table_off: ValueId,
    index_off: ValueId,
    out_off: ValueId,
}

/// Emits one tile of `rows` indices into `buf`.
fn emit_tile(b: &mut Builder<'_, '_>, s: &GatherShape, a: &TileArgs, buf: ValueId, rows: i64) {
    let ctx = b.ctx;
    let (sizes, strides) =
        if s.inner > 1 { (vec![s.size, s.inner], vec![s.inner, 1]) } else { (vec![s.size], vec![1]) };
    let attrs = [
        ("sizes", i64_array(ctx, &sizes)),
        ("strides", i64_array(ctx, &strides)),
        ("index_sizes", i64_array(ctx, &[rows])),
        ("index_strides", i64_array(ctx, &[1])),
    ];
    b.op(&npuvec::GATHER_OP, &[a.table, a.table_off, a.indices, a.index_off, buf], &attrs, &[], 0);
    let attrs = [("sizes", i64_array(ctx, &[rows * s.inner])), ("strides", i64_array(ctx, &[1]))];
    b.op(&npuvec::STORE_OP, &[buf, a.out, a.out_off], &attrs, &[], 0);
}

/// Lowers the gather kernel `kernel` (bufferized, tiled) in place.
pub fn lower_gather_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId) -> Result<(), String> {
    let body =
        ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)).ok_or("a kernel without a body")?;
    let tiling = ir
        .attr(kernel, "npuvec.tile")
        .and_then(GatherTiling::from_attr)
        .ok_or("the kernel has no npuvec.tile (run kiln-codegen-tile)")?;
    let old: Vec<OpId> = ir.block_ops(body).collect();
    let gather = gather_op(ir, body)?;
    let shape = GatherShape::of_op(ir, gather)?;
    // The GM buffer behind each tensor operand, and the output buffer.
    let gm_of = |ir: &Ir<'c>, v: ValueId| -> Result<ValueId, String> {
        ir.defining_op(v)
            .filter(|&d| ir.is(d, &bufferization::TO_TENSOR_OP))
            .map(|d| ir.operands(d)[0])
            .ok_or_else(|| "`hl.gather` of a value computed in the kernel".to_string())
    };
    let table = gm_of(ir, ir.operands(gather)[0])?;
    let indices = gm_of(ir, ir.operands(gather)[1])?;
    let result = ir.results(gather)[0];
    let out = old
        .iter()
        .find(|&&o| ir.is(o, &bufferization::MATERIALIZE_IN_DESTINATION_OP) && ir.operands(o)[0] == result)
        .map(|&o| ir.operands(o)[1])
        .ok_or("the gather's result is not the kernel's output")?;
    let elem: Type<'c> = ir.value_type(result).element_type().ok_or("a non-tensor gather")?;
    let (rows, blocks) = (tiling.rows, cdiv(shape.n, tiling.rows));
    let tail = shape.n - (blocks - 1) * rows;
    let loc = ir.op(kernel).loc;
    let first = *old.first().ok_or("an empty kernel")?;
    let mut b = Builder::new(ctx, ir, InsertPoint::Before(first), loc);
    let alloc = |b: &mut Builder<'_, 'c>, r: i64| {
        let ty = memref_type(ctx, &[r, shape.inner], elem, Space::Ub);
        b.value(&npuvec::ALLOC_OP, &[], &[], ty)
    };
    let body_buf = alloc(&mut b, rows);
    let tail_buf = (tail != rows).then(|| alloc(&mut b, tail));
    let bid = b.value(&npuvec::BLOCK_IDX_OP, &[], &[], ctx.index_type());
    let nb = b.value(&npuvec::BLOCK_NUM_OP, &[], &[], ctx.index_type());
    let tiles = b.index(shape.outer * blocks);
    b.for_loop([bid, tiles, nb], |lb, t| {
        let (o, j) = match (shape.outer > 1, blocks > 1) {
            (true, true) => {
                let k = lb.index(blocks);
                (Some(lb.index_op(&arith::DIVUI_OP, t, k)), Some(lb.index_op(&arith::REMUI_OP, t, k)))
            }
            (true, false) => (Some(t), None),
            (false, _) => (None, Some(t)),
        };
        let args = TileArgs {
            table,
            indices,
            out,
            table_off: lb.linear(&[(o, shape.size * shape.inner)], 0),
            index_off: lb.linear(&[(j, rows)], 0),
            out_off: lb.linear(&[(o, shape.n * shape.inner), (j, rows * shape.inner)], 0),
        };
        match (tail_buf, j) {
            (Some(tail_buf), Some(j)) => {
                let last = lb.index(blocks - 1);
                let pred = i64_attr(ctx, 0);
                let is_tail = lb.value(&arith::CMPI_OP, &[j, last], &[("predicate", pred)], ctx.int_type(1));
                let if_op = lb.op(&scf::IF_OP, &[is_tail], &[], &[], 2);
                for (region, (buf, r)) in [(tail_buf, tail), (body_buf, rows)].into_iter().enumerate() {
                    let blk = lb.ir.create_block();
                    lb.ir.append_block(lb.ir.regions(if_op)[region], blk);
                    let mut bb = lb.at_end(blk);
                    emit_tile(&mut bb, &shape, &args, buf, r);
                    bb.op(&scf::YIELD_OP, &[], &[], &[], 0);
                }
            }
            _ => emit_tile(lb, &shape, &args, body_buf, rows),
        }
    });
    // The tensor body is gone.
    for &op in old.iter().rev() {
        if !ir.is(op, &func::RETURN_OP) {
            ir.erase_op(op);
        }
    }
    Ok(())
}
