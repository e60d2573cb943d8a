//! Lowering one matmul or mix kernel (after bufferization) to cube tiles.
//!
//! ```text
//! %a1, %b1 = npuvec.alloc (l1)   %a0 (l0a)  %b0 (l0b)  %c0 (l0c, f32)  %out.. (ub, per tail)
//! scf.for %t = block_idx to tiles step block_num {       // t -> (batch, m block, n block)
//!   [scf.if on the m / n tail]
//!     chunk 0:  load A[m.., k..] -> %a1 (zero padded to fractals); load B -> %b1;
//!               move -> %a0, %b0; mmad %a0, %b0 -> %c0
//!     scf.for chunks 1 .. K / k: the same with `accumulate`; then the K tail chunk
//!     fixpipe %c0 -> %out; [epilogue: load input tiles; vector ops on %out..]
//!     store each output's slot -> its GM buffer [m.., n..]
//! }
//! ```
//! A mix kernel's epilogue (`epilogue.rs`) runs on the vector unit over the tile in UB, so
//! its result never goes back to GM in between. The contraction runs in ascending `k` with `f32` accumulation, as the interpreter's. The
//! kernel reading, the cube buffers and their load / move / mmad step, the drain and the tail
//! branches are shared with the conv2d lowering (`lower_conv.rs`).

use kiln_compiler::InsertPoint;
use kiln_compiler::{Attribute, Context, FloatKind, Ir, OpId, Type, ValueId};
use kiln_dialects::npuvec::Space;
use kiln_dialects::{arith, bufferization, func, npuvec, scf};

use super::build::{i64_array, memref_type, split_index, Build, Builder};
use super::epilogue::{Epilogue, Operand as EpOperand};
use super::store_view::{Cols, StoreView};
use super::tiling::{cdiv, MatmulShape, MatmulTiling};
use super::vector_ops::{lower_op, TileOp};

/// Lowers the matmul kernel `kernel` in place.
pub fn lower_matmul_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId) -> Result<(), String> {
    let k = CubeKernel::of(ir, kernel)?;
    let shape = MatmulShape::of_op(ir, k.op)?;
    let mut b = Builder::new(ctx, ir, InsertPoint::Before(k.old[0]), k.loc);
    let g = Grid::new(&shape, &k.tiling);
    let bufs = CubeBufs::alloc(&mut b, &k.tiling, k.in_elem);
    let mut tiles_bufs = Vec::new();
    for vm in g.m_variants() {
        for vn in g.n_variants() {
            let ty = memref_type(ctx, &[vm, vn], k.out_elem, Space::Ub);
            let slots = (0..k.epilogue.slots).map(|_| b.value(&npuvec::ALLOC_OP, &[], &[], ty)).collect();
            let inputs = k
                .epilogue
                .inputs
                .iter()
                .map(|i| {
                    let shape = [if i.rows { vm } else { 1 }, if i.cols { vn } else { 1 }];
                    b.value(&npuvec::ALLOC_OP, &[], &[], memref_type(ctx, &shape, k.out_elem, Space::Ub))
                })
                .collect();
            tiles_bufs.push(((vm, vn), TileBufs { slots, inputs }));
        }
    }
    let bid = b.value(&npuvec::BLOCK_IDX_OP, &[], &[], ctx.index_type());
    let nb = b.value(&npuvec::BLOCK_NUM_OP, &[], &[], ctx.index_type());
    let tiles = b.index(g.tiles());
    b.for_loop([bid, tiles, nb], |lb, t| {
        let idx = g.indices(lb, t);
        let ops = Operands { k: &k, bufs, idx, tiles: tiles_bufs };
        with_tail(lb, Some(idx.1), shape.m, g.tm, &mut |b, vm| {
            with_tail(b, Some(idx.2), shape.n, g.tn, &mut |b, vn| g.emit_tile(b, &ops, vm, vn))
        })
    })?;
    k.finish(ir);
    Ok(())
}

/// What the lowerings of cube kernels read from a bufferized kernel: one cube op and, for a
/// mix kernel, the elementwise epilogue on its result.
pub(super) struct CubeKernel<'c> {
    /// The body's ops before lowering.
    pub old: Vec<OpId>,
    /// The `hl` op.
    pub op: OpId,
    /// The GM buffer of its operand 0.
    pub lhs: ValueId,
    /// The GM buffer of its operand 1.
    pub rhs: ValueId,
    /// The GM buffer of its result (of the first output, when the epilogue has several).
    pub out: ValueId,
    /// The epilogue (no ops for a plain cube kernel).
    pub epilogue: Epilogue,
    /// The GM buffer of each epilogue input.
    pub inputs_gm: Vec<ValueId>,
    /// The kernel outputs: (epilogue slot, GM buffer).
    pub stores: Vec<(usize, ValueId)>,
    /// The layout the result is stored in when views and transposes follow the matmul
    /// (`store_view.rs`); dense otherwise.
    pub view: Option<StoreView>,
    /// The operands' element type.
    pub in_elem: Type<'c>,
    /// The result's element type.
    pub out_elem: Type<'c>,
    /// The kernel's tiles.
    pub tiling: MatmulTiling,
    /// The kernel's location.
    pub loc: Attribute<'c>,
}

impl<'c> CubeKernel<'c> {
    /// Reads kernel `kernel`.
    pub fn of(ir: &Ir<'c>, kernel: OpId) -> Result<CubeKernel<'c>, String> {
        let body =
            ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)).ok_or("a kernel without a body")?;
        let tiling = ir
            .attr(kernel, "npuvec.tile")
            .and_then(MatmulTiling::from_attr)
            .ok_or("the kernel has no npuvec.tile (run kiln-codegen-tile)")?;
        let old: Vec<OpId> = ir.block_ops(body).collect();
        let viewed = StoreView::of_body(ir, body);
        let (op, epilogue) = match &viewed {
            Some((chain, _)) => {
                let mm = ir.defining_op(ir.operands(chain[0])[0]).ok_or("a view of no matmul")?;
                (mm, Epilogue::analyze(ir, mm, &[])?)
            }
            None => Epilogue::of_kernel(ir, body)?,
        };
        let chain_end = viewed.as_ref().and_then(|(chain, _)| chain.last()).map(|&o| ir.results(o)[0]);
        let gm_of = |v: ValueId| -> Result<ValueId, String> {
            let def = ir
                .defining_op(v)
                .filter(|&d| ir.is(d, &bufferization::TO_TENSOR_OP))
                .ok_or("a cube operand that is not a kernel input")?;
            Ok(ir.operands(def)[0])
        };
        let (lhs, rhs) = (gm_of(ir.operands(op)[0])?, gm_of(ir.operands(op)[1])?);
        let inputs_gm = epilogue.inputs.iter().map(|i| gm_of(i.value)).collect::<Result<_, _>>()?;
        let mut stores = Vec::new();
        for &o in old.iter().filter(|&&o| ir.is(o, &bufferization::MATERIALIZE_IN_DESTINATION_OP)) {
            let v = ir.operands(o)[0];
            let slot = match epilogue.slot_of.get(&v) {
                Some(&slot) => slot,
                None if Some(v) == chain_end => 0,
                None => return Err("a kernel output the cube op does not compute".into()),
            };
            stores.push((slot, ir.operands(o)[1]));
        }
        let out = stores.first().map(|&(_, gm)| gm).ok_or("a cube kernel without an output")?;
        let in_elem = ir.value_type(ir.operands(op)[0]).element_type().ok_or("a non-tensor operand")?;
        let out_elem = ir.value_type(ir.results(op)[0]).element_type().ok_or("a non-tensor result")?;
        for t in [in_elem, out_elem] {
            if !t.is_float() || t.bit_width() == Some(64) {
                return Err(format!("element type {t} is not supported by the cube (f32, f16, bf16)"));
            }
        }
        Ok(CubeKernel {
            old,
            op,
            lhs,
            rhs,
            out,
            epilogue,
            inputs_gm,
            stores,
            view: viewed.map(|(_, view)| view),
            in_elem,
            out_elem,
            tiling,
            loc: ir.op(kernel).loc,
        })
    }

    /// Erases the old body (but its return).
    pub fn finish(&self, ir: &mut Ir<'c>) {
        for &op in self.old.iter().rev() {
            if !ir.is(op, &func::RETURN_OP) {
                ir.erase_op(op);
            }
        }
    }
}

/// Emits `body(b, v)` for the valid extent `v` of block `index` of an axis of `len` in tiles of
/// `tile`: the body tile's, and when there is a tail, under an `scf.if` on the last block, the
/// tail's (`index` is `None` only for an axis of one block).
pub(super) fn with_tail(
    b: &mut Builder<'_, '_>,
    index: Option<ValueId>,
    len: i64,
    tile: i64,
    body: &mut dyn FnMut(&mut Builder<'_, '_>, i64) -> Result<(), String>,
) -> Result<(), String> {
    let v = variants(len, tile);
    let Some(index) = index.filter(|_| v.len() > 1) else { return body(b, v[0]) };
    let last = b.index(cdiv(len, tile) - 1);
    let eq = super::build::i64_attr(b.ctx, 0);
    let cond = b.value(&arith::CMPI_OP, &[index, last], &[("predicate", eq)], b.ctx.int_type(1));
    let if_op = b.op(&scf::IF_OP, &[cond], &[], &[], 2);
    for (region, &e) in [v[1], v[0]].iter().enumerate() {
        let blk = b.ir.create_block();
        b.ir.append_block(b.ir.regions(if_op)[region], blk);
        let mut bb = b.at_end(blk);
        body(&mut bb, e)?;
        bb.op(&scf::YIELD_OP, &[], &[], &[], 0);
    }
    Ok(())
}

/// A cube kernel's on-chip buffers: `A` and `B` in L1 and L0A / L0B, the `f32` accumulator.
#[derive(Clone, Copy)]
pub(super) struct CubeBufs {
    /// `A` in L1.
    pub a1: ValueId,
    /// `B` in L1.
    pub b1: ValueId,
    /// `A` in L0A.
    pub a0: ValueId,
    /// `B` in L0B.
    pub b0: ValueId,
    /// The accumulator in L0C.
    pub c0: ValueId,
}

impl CubeBufs {
    /// Allocates the buffers of tiles `t` with operands of `elem`.
    pub fn alloc<'c>(b: &mut Builder<'_, 'c>, t: &MatmulTiling, elem: Type<'c>) -> CubeBufs {
        let ctx = b.ctx;
        let f32t = ctx.float_type(FloatKind::F32);
        let mut alloc = |shape: &[i64], elem, space| {
            b.value(&npuvec::ALLOC_OP, &[], &[], memref_type(ctx, shape, elem, space))
        };
        CubeBufs {
            a1: alloc(&[t.m, t.k], elem, Space::L1),
            b1: alloc(&[t.k, t.n], elem, Space::L1),
            a0: alloc(&[t.m, t.k], elem, Space::L0a),
            b0: alloc(&[t.k, t.n], elem, Space::L0b),
            c0: alloc(&[t.m, t.n], f32t, Space::L0c),
        }
    }

    /// Loads `A` and `B` blocks (zero-padded) through their views, moves them to L0 and
    /// multiplies them into the accumulator.
    pub fn step(
        &self,
        b: &mut Builder<'_, '_>,
        loads: [(ValueId, ValueId, &[i64], &[i64]); 2],
        accumulate: bool,
    ) {
        let pad = b.ctx.unit_attr();
        for ((gm, off, sizes, strides), dst) in loads.into_iter().zip([self.a1, self.b1]) {
            let (sz, st) = (i64_array(b.ctx, sizes), i64_array(b.ctx, strides));
            b.op(
                &npuvec::LOAD_OP,
                &[gm, off, dst],
                &[("sizes", sz), ("strides", st), ("zero_pad", pad)],
                &[],
                0,
            );
        }
        b.op(&npuvec::MOVE_OP, &[self.a1, self.a0], &[], &[], 0);
        b.op(&npuvec::MOVE_OP, &[self.b1, self.b0], &[], &[], 0);
        let attrs: Vec<(&str, kiln_compiler::Attribute<'_>)> =
            if accumulate { vec![("accumulate", pad)] } else { vec![] };
        b.op(&npuvec::MMAD_OP, &[self.a0, self.b0, self.c0], &attrs, &[], 0);
    }

    /// `fixpipe` of the accumulator to `out` and its store to `gm` at the element `offset`
    /// (the terms and constant of [`Builder::linear`]) with `strides` (rows, cols).
    pub fn drain(
        &self,
        b: &mut Builder<'_, '_>,
        out: ValueId,
        gm: ValueId,
        offset: (&[(Option<ValueId>, i64)], i64),
        block: [i64; 2],
        strides: [i64; 2],
    ) {
        b.op(&npuvec::FIXPIPE_OP, &[self.c0, out], &[], &[], 0);
        let off = b.linear(offset.0, offset.1);
        store(b, out, gm, off, &block, &strides);
    }
}

/// The store of the `block` (rows, cols; or rows, heads, cols of a head) in `out` to `gm` at
/// element `off` with `strides`.
fn store(b: &mut Builder<'_, '_>, out: ValueId, gm: ValueId, off: ValueId, block: &[i64], strides: &[i64]) {
    let (sz, st) = (i64_array(b.ctx, block), i64_array(b.ctx, strides));
    b.op(&npuvec::STORE_OP, &[out, gm, off], &[("sizes", sz), ("strides", st)], &[], 0);
}

/// The UB buffers of one tile variant: the epilogue's slots (slot 0: the fixpipe's output) and
/// its input tiles.
struct TileBufs {
    slots: Vec<ValueId>,
    inputs: Vec<ValueId>,
}

/// What every tile variant uses.
struct Operands<'k, 'c> {
    k: &'k CubeKernel<'c>,
    bufs: CubeBufs,
    /// Batch, m-block and n-block index of the tile.
    idx: (Option<ValueId>, ValueId, ValueId),
    /// The UB buffers of each (rows, cols) variant.
    tiles: Vec<((i64, i64), TileBufs)>,
}

/// The tile grid of a matmul.
struct Grid {
    s: MatmulShape,
    tm: i64,
    tn: i64,
    tk: i64,
}

impl Grid {
    fn new(s: &MatmulShape, t: &MatmulTiling) -> Grid {
        Grid { s: s.clone(), tm: t.m, tn: t.n, tk: t.k }
    }

    fn batch(&self) -> i64 {
        self.s.batch.iter().product()
    }

    fn tiles(&self) -> i64 {
        self.batch() * cdiv(self.s.m, self.tm) * cdiv(self.s.n, self.tn)
    }

    /// Valid rows of a body tile, then of the tail tile when there is one.
    fn m_variants(&self) -> Vec<i64> {
        variants(self.s.m, self.tm)
    }

    fn n_variants(&self) -> Vec<i64> {
        variants(self.s.n, self.tn)
    }

    /// (batch, m block, n block) of tile `t`.
    fn indices(&self, b: &mut Builder<'_, '_>, t: ValueId) -> (Option<ValueId>, ValueId, ValueId) {
        let nt = b.index(cdiv(self.s.n, self.tn));
        let ni = b.index_op(&arith::REMUI_OP, t, nt);
        let r = b.index_op(&arith::DIVUI_OP, t, nt);
        let mt = b.index(cdiv(self.s.m, self.tm));
        let mi = b.index_op(&arith::REMUI_OP, r, mt);
        let bi = (self.batch() > 1).then(|| b.index_op(&arith::DIVUI_OP, r, mt));
        (bi, mi, ni)
    }

    /// One tile of `vm x vn` valid results.
    fn emit_tile(
        &self,
        b: &mut Builder<'_, '_>,
        o: &Operands<'_, '_>,
        vm: i64,
        vn: i64,
    ) -> Result<(), String> {
        let s = &self.s;
        let full = s.k / self.tk;
        let tail = s.k % self.tk;
        let first = if full >= 1 { self.tk } else { tail };
        let zero = b.index(0);
        self.chunk(b, o, zero, first, vm, vn, false);
        if full > 1 {
            let (one, end, step) = (b.index(1), b.index(full), b.index(1));
            b.for_loop([one, end, step], |bb, kk| self.chunk(bb, o, kk, self.tk, vm, vn, true));
        }
        if tail > 0 && full >= 1 {
            let kk = b.index(full);
            self.chunk(b, o, kk, tail, vm, vn, true);
        }
        let bufs =
            o.tiles.iter().find(|(shape, _)| *shape == (vm, vn)).map(|(_, t)| t).ok_or("no UB tile")?;
        b.op(&npuvec::FIXPIPE_OP, &[o.bufs.c0, bufs.slots[0]], &[], &[], 0);
        let dense = StoreView { batch: vec![], m: s.n, n: Cols::One(1) };
        let view = o.k.view.as_ref().unwrap_or(&dense);
        let (off, sizes, strides) = self.store_block(b, view, o.idx, vm, vn);
        self.epilogue(b, o, bufs, vm, vn)?;
        for &(slot, gm) in &o.k.stores {
            store(b, bufs.slots[slot], gm, off, &sizes, &strides);
        }
        Ok(())
    }

    /// The GM offset, sizes and strides of the store of a `vm x vn` result tile at `idx`
    /// (batch, m block, n block) in layout `view` (dense when it has no batch strides: batch
    /// elements `m * n` apart).
    fn store_block(
        &self,
        b: &mut Builder<'_, '_>,
        view: &StoreView,
        idx: (Option<ValueId>, ValueId, ValueId),
        vm: i64,
        vn: i64,
    ) -> (ValueId, Vec<i64>, Vec<i64>) {
        let s = &self.s;
        let (bi, mi, ni) = idx;
        let mut terms: Vec<(Option<ValueId>, i64)> = Vec::new();
        match (bi, view.batch.as_slice()) {
            (Some(bi), []) => terms.push((Some(bi), s.m * s.n)),
            (Some(bi), strides) => {
                // The flattened batch index split into the batch dims (row-major).
                for (j, i) in split_index(b, bi, &s.batch) {
                    terms.push((Some(i), strides[j]));
                }
            }
            (None, _) => {}
        }
        terms.push((Some(mi), self.tm * view.m));
        let (sizes, strides) = match view.n {
            Cols::One(stride) => {
                terms.push((Some(ni), self.tn * stride));
                (vec![vm, vn], vec![view.m, stride])
            }
            Cols::Heads { d, head_stride, stride } if self.tn % d == 0 || self.tn >= s.n => {
                // Whole heads: [rows, heads, d].
                terms.push((Some(ni), self.tn / d * head_stride));
                (vec![vm, vn / d, d], vec![view.m, head_stride, stride])
            }
            Cols::Heads { d, head_stride, stride } => {
                // Inside one head (`d % tn == 0`): head `ni / (d / tn)`, at column
                // `(ni % (d / tn)) * tn` of it.
                let per = b.index(d / self.tn);
                let head = b.index_op(&arith::DIVUI_OP, ni, per);
                let at = b.index_op(&arith::REMUI_OP, ni, per);
                terms.push((Some(head), head_stride));
                terms.push((Some(at), self.tn * stride));
                (vec![vm, vn], vec![view.m, stride])
            }
        };
        (b.linear(&terms, 0), sizes, strides)
    }

    /// The epilogue on a `vm x vn` result tile in slot 0: its input tiles loaded, then its ops.
    fn epilogue(
        &self,
        b: &mut Builder<'_, '_>,
        o: &Operands<'_, '_>,
        bufs: &TileBufs,
        vm: i64,
        vn: i64,
    ) -> Result<(), String> {
        let s = &self.s;
        let (bi, mi, ni) = o.idx;
        let e = &o.k.epilogue;
        for ((input, &gm), &dst) in e.inputs.iter().zip(&o.k.inputs_gm).zip(&bufs.inputs) {
            let cols = if input.cols { s.n } else { 1 };
            let rows = if input.rows { s.m } else { 1 };
            let terms = [
                (bi.filter(|_| input.batch), rows * cols),
                (Some(mi).filter(|_| input.rows), self.tm * cols),
                (Some(ni).filter(|_| input.cols), self.tn),
            ];
            let off = b.linear(&terms, 0);
            let sizes = [if input.rows { vm } else { 1 }, if input.cols { vn } else { 1 }];
            let (sz, st) = (i64_array(b.ctx, &sizes), i64_array(b.ctx, &[cols, 1]));
            b.op(&npuvec::LOAD_OP, &[gm, off, dst], &[("sizes", sz), ("strides", st)], &[], 0);
        }
        for (op, operands, slot) in &e.ops {
            let elem = b.ir.value_type(b.ir.results(*op)[0]).element_type().ok_or("a non-tensor epilogue")?;
            let srcs: Vec<ValueId> = operands
                .iter()
                .map(|x| match *x {
                    EpOperand::Slot(n) => bufs.slots[n],
                    EpOperand::Input(n) => bufs.inputs[n],
                    EpOperand::Splat(v) => b.scalar(elem, v),
                })
                .collect();
            lower_op(b, &TileOp { op: *op, srcs: &srcs, dst: bufs.slots[*slot], temp: None })?;
        }
        Ok(())
    }

    /// One contraction chunk `kk` of `vk` valid elements.
    #[allow(clippy::too_many_arguments)]
    fn chunk(
        &self,
        b: &mut Builder<'_, '_>,
        o: &Operands<'_, '_>,
        kk: ValueId,
        vk: i64,
        vm: i64,
        vn: i64,
        accumulate: bool,
    ) {
        let s = &self.s;
        let (bi, mi, ni) = o.idx;
        let (m, k, n, tk) = (s.m, s.k, s.n, self.tk);
        let (a_strides, a_terms) = if s.transpose_a {
            ([1, m], [(bi, k * m), (Some(mi), self.tm), (Some(kk), tk * m)])
        } else {
            ([k, 1], [(bi, m * k), (Some(mi), self.tm * k), (Some(kk), tk)])
        };
        let (b_strides, b_terms) = if s.transpose_b {
            ([1, k], [(bi, n * k), (Some(ni), self.tn * k), (Some(kk), tk)])
        } else {
            ([n, 1], [(bi, k * n), (Some(kk), tk * n), (Some(ni), self.tn)])
        };
        let a_off = b.linear(&a_terms, 0);
        let b_off = b.linear(&b_terms, 0);
        o.bufs.step(
            b,
            [(o.k.lhs, a_off, &[vm, vk], &a_strides), (o.k.rhs, b_off, &[vk, vn], &b_strides)],
            accumulate,
        );
    }
}

/// The valid extents of a body tile of `tile` and of the tail (when `len % tile != 0`).
pub(super) fn variants(len: i64, tile: i64) -> Vec<i64> {
    let body = len.min(tile);
    match len % tile {
        r if r != 0 && len > tile => vec![body, r],
        _ => vec![body],
    }
}
