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
//! its result never goes back to GM in between.
//! The contraction runs in ascending `k` with `f32` accumulation, as the interpreter's.

use kiln_compiler::{Context, FloatKind, Ir, OpId, ValueId};

use super::build::{i64_array, memref_type, At, Builder};
use super::epilogue::{Epilogue, Operand as EpOperand};
use super::tiling::{cdiv, MatmulShape, MatmulTiling};
use super::vector_ops::{lower_op, TileOp};

/// Lowers the matmul kernel `kernel` in place.
pub fn lower_matmul_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId) -> Result<(), String> {
    let body =
        ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)).ok_or("a kernel without a body")?;
    let tiling = ir
        .attr(kernel, "npuvec.tile")
        .and_then(MatmulTiling::from_attr)
        .ok_or("the kernel has no npuvec.tile (run kiln-codegen-tile)")?;
    let old: Vec<OpId> = ir.block_ops(body).collect();
    let (mm, epilogue) = Epilogue::of_kernel(ir, body)?;
    let gm_of = |v: ValueId| -> Result<ValueId, String> {
        let def = ir
            .defining_op(v)
            .filter(|&d| ir.op(d).name == "bufferization.to_tensor")
            .ok_or("a matmul operand that is not a kernel input")?;
        Ok(ir.operands(def)[0])
    };
    let (a_gm, b_gm) = (gm_of(ir.operands(mm)[0])?, gm_of(ir.operands(mm)[1])?);
    let inputs_gm: Vec<ValueId> = epilogue.inputs.iter().map(|i| gm_of(i.value)).collect::<Result<_, _>>()?;
    let mut stores = Vec::new();
    for &o in old.iter().filter(|&&o| ir.op(o).name == "bufferization.materialize_in_destination") {
        let slot =
            epilogue.slot_of.get(&ir.operands(o)[0]).ok_or("a kernel output the matmul does not compute")?;
        stores.push((*slot, ir.operands(o)[1]));
    }
    if stores.is_empty() {
        return Err("a matmul kernel without an output".into());
    }
    let shape = MatmulShape::of_op(ir, mm)?;
    let in_elem = ir.value_type(ir.operands(mm)[0]).element_type().ok_or("a non-tensor operand")?;
    let out_elem = ir.value_type(ir.results(mm)[0]).element_type().ok_or("a non-tensor result")?;
    for t in [in_elem, out_elem] {
        if !t.is_float() || t.bit_width() == Some(64) {
            return Err(format!("element type {t} is not supported by the cube (f32, f16, bf16)"));
        }
    }
    let loc = ir.op(kernel).loc;
    let mut b = Builder::new(ctx, ir, At::Before(old[0]), loc);
    let g = Grid::new(&shape, &tiling);
    let f32t = ctx.float_type(FloatKind::F32);
    let bufs = CubeBufs {
        a1: b.value("npuvec.alloc", &[], &[], memref_type(ctx, &[g.tm, g.tk], in_elem, "l1")),
        b1: b.value("npuvec.alloc", &[], &[], memref_type(ctx, &[g.tk, g.tn], in_elem, "l1")),
        a0: b.value("npuvec.alloc", &[], &[], memref_type(ctx, &[g.tm, g.tk], in_elem, "l0a")),
        b0: b.value("npuvec.alloc", &[], &[], memref_type(ctx, &[g.tk, g.tn], in_elem, "l0b")),
        c0: b.value("npuvec.alloc", &[], &[], memref_type(ctx, &[g.tm, g.tn], f32t, "l0c")),
    };
    let mut tile_bufs = Vec::new();
    for vm in g.m_variants() {
        for vn in g.n_variants() {
            let ty = memref_type(ctx, &[vm, vn], out_elem, "ub");
            let slots = (0..epilogue.slots).map(|_| b.value("npuvec.alloc", &[], &[], ty)).collect();
            let inputs = epilogue
                .inputs
                .iter()
                .map(|i| {
                    let shape = [if i.rows { vm } else { 1 }, if i.cols { vn } else { 1 }];
                    b.value("npuvec.alloc", &[], &[], memref_type(ctx, &shape, out_elem, "ub"))
                })
                .collect();
            tile_bufs.push(((vm, vn), TileBufs { slots, inputs }));
        }
    }
    let bid = b.value("npuvec.block_idx", &[], &[], ctx.index_type());
    let nb = b.value("npuvec.block_num", &[], &[], ctx.index_type());
    let tiles = b.index(g.tiles());
    let for_op = b.op("scf.for", &[bid, tiles, nb], &[], &[], 1);
    let lb = b.ir.create_block();
    b.ir.append_block(b.ir.regions(for_op)[0], lb);
    let t = b.ir.add_block_arg(lb, ctx.index_type(), Some(loc));
    let mut lb_build = b.at_end(lb);
    let idx = g.indices(&mut lb_build, t);
    let ops = Operands { a: a_gm, b: b_gm, bufs, idx, tiles: tile_bufs, epilogue, inputs_gm, stores };
    g.emit_variants(&mut lb_build, &ops, None, None)?;
    lb_build.op("scf.yield", &[], &[], &[], 0);
    for &op in old.iter().rev() {
        if ir.op(op).name != "func.return" {
            ir.erase_op(op);
        }
    }
    Ok(())
}

/// The kernel's on-chip cube buffers.
struct CubeBufs {
    a1: ValueId,
    b1: ValueId,
    a0: ValueId,
    b0: ValueId,
    c0: ValueId,
}

/// What every tile variant uses.
struct Operands {
    a: ValueId,
    b: ValueId,
    bufs: CubeBufs,
    /// Batch, m-block and n-block index of the tile.
    idx: (Option<ValueId>, ValueId, ValueId),
    /// The UB buffers of each (rows, cols) variant.
    tiles: Vec<((i64, i64), TileBufs)>,
    epilogue: Epilogue,
    /// The GM buffer of each epilogue input.
    inputs_gm: Vec<ValueId>,
    /// The kernel outputs: (slot, GM buffer).
    stores: Vec<(usize, ValueId)>,
}

/// The UB buffers of one tile variant: the epilogue's slots (slot 0: the fixpipe's output) and
/// its input tiles.
struct TileBufs {
    slots: Vec<ValueId>,
    inputs: Vec<ValueId>,
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
        let ni = b.index_op("arith.remui", t, nt);
        let r = b.index_op("arith.divui", t, nt);
        let mt = b.index(cdiv(self.s.m, self.tm));
        let mi = b.index_op("arith.remui", r, mt);
        let bi = (self.batch() > 1).then(|| b.index_op("arith.divui", r, mt));
        (bi, mi, ni)
    }

    /// Emits the tile, branching on the m and n tails (`vm` / `vn` fixed once chosen).
    fn emit_variants(
        &self,
        b: &mut Builder<'_, '_>,
        o: &Operands,
        vm: Option<i64>,
        vn: Option<i64>,
    ) -> Result<(), String> {
        let (mv, nv) = (self.m_variants(), self.n_variants());
        let (axis, variants, index, blocks) = match (vm, vn) {
            (None, _) => (0, &mv, o.idx.1, cdiv(self.s.m, self.tm)),
            (Some(_), None) => (1, &nv, o.idx.2, cdiv(self.s.n, self.tn)),
            (Some(m), Some(n)) => return self.emit_tile(b, o, m, n),
        };
        let pick = |v: i64| if axis == 0 { (Some(v), vn) } else { (vm, Some(v)) };
        if variants.len() == 1 {
            let (m, n) = pick(variants[0]);
            return self.emit_variants(b, o, m, n);
        }
        let last = b.index(blocks - 1);
        let eq = super::build::i64_attr(b.ctx, 0);
        let cond = b.value("arith.cmpi", &[index, last], &[("predicate", eq)], b.ctx.int_type(1));
        let if_op = b.op("scf.if", &[cond], &[], &[], 2);
        for (region, &v) in [variants[1], variants[0]].iter().enumerate() {
            let blk = b.ir.create_block();
            b.ir.append_block(b.ir.regions(if_op)[region], blk);
            let mut bb = b.at_end(blk);
            let (m, n) = pick(v);
            self.emit_variants(&mut bb, o, m, n)?;
            bb.op("scf.yield", &[], &[], &[], 0);
        }
        Ok(())
    }

    /// One tile of `vm x vn` valid results.
    fn emit_tile(&self, b: &mut Builder<'_, '_>, o: &Operands, vm: i64, vn: i64) -> Result<(), String> {
        let s = &self.s;
        let (bi, mi, ni) = o.idx;
        let full = s.k / self.tk;
        let tail = s.k % self.tk;
        let first = if full >= 1 { self.tk } else { tail };
        let zero = b.index(0);
        self.chunk(b, o, zero, first, vm, vn, false, (bi, mi, ni));
        if full > 1 {
            let (one, end) = (b.index(1), b.index(full));
            let step = b.index(1);
            let for_op = b.op("scf.for", &[one, end, step], &[], &[], 1);
            let blk = b.ir.create_block();
            b.ir.append_block(b.ir.regions(for_op)[0], blk);
            let kk = b.ir.add_block_arg(blk, b.ctx.index_type(), Some(b.loc));
            let mut bb = b.at_end(blk);
            self.chunk(&mut bb, o, kk, self.tk, vm, vn, true, (bi, mi, ni));
            bb.op("scf.yield", &[], &[], &[], 0);
        }
        if tail > 0 && full >= 1 {
            let kk = b.index(full);
            self.chunk(b, o, kk, tail, vm, vn, true, (bi, mi, ni));
        }
        let bufs =
            o.tiles.iter().find(|(shape, _)| *shape == (vm, vn)).map(|(_, t)| t).ok_or("no UB tile")?;
        b.op("npuvec.fixpipe", &[o.bufs.c0, bufs.slots[0]], &[], &[], 0);
        let out_off = self.offset(b, &[(bi, s.m * s.n), (Some(mi), self.tm * s.n), (Some(ni), self.tn)]);
        self.epilogue(b, o, bufs, vm, vn)?;
        let (sz, st) = (i64_array(b.ctx, &[vm, vn]), i64_array(b.ctx, &[s.n, 1]));
        for &(slot, gm) in &o.stores {
            b.op("npuvec.store", &[bufs.slots[slot], gm, out_off], &[("sizes", sz), ("strides", st)], &[], 0);
        }
        Ok(())
    }

    /// The epilogue on a `vm x vn` result tile in slot 0: its input tiles loaded, then its ops.
    fn epilogue(
        &self,
        b: &mut Builder<'_, '_>,
        o: &Operands,
        bufs: &TileBufs,
        vm: i64,
        vn: i64,
    ) -> Result<(), String> {
        let s = &self.s;
        let (bi, mi, ni) = o.idx;
        for ((input, &gm), &dst) in o.epilogue.inputs.iter().zip(&o.inputs_gm).zip(&bufs.inputs) {
            let cols = if input.cols { s.n } else { 1 };
            let rows = if input.rows { s.m } else { 1 };
            let terms = [
                (bi.filter(|_| input.batch), rows * cols),
                (Some(mi).filter(|_| input.rows), self.tm * cols),
                (Some(ni).filter(|_| input.cols), self.tn),
            ];
            let off = self.offset(b, &terms);
            let sizes = [if input.rows { vm } else { 1 }, if input.cols { vn } else { 1 }];
            let (sz, st) = (i64_array(b.ctx, &sizes), i64_array(b.ctx, &[cols, 1]));
            b.op("npuvec.load", &[gm, off, dst], &[("sizes", sz), ("strides", st)], &[], 0);
        }
        for (op, operands, slot) in &o.epilogue.ops {
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
        o: &Operands,
        kk: ValueId,
        vk: i64,
        vm: i64,
        vn: i64,
        accumulate: bool,
        (bi, mi, ni): (Option<ValueId>, ValueId, ValueId),
    ) {
        let s = &self.s;
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
        let a_off = self.offset(b, &a_terms);
        let b_off = self.offset(b, &b_terms);
        let pad = b.ctx.unit_attr();
        for (gm, off, dst, sizes, strides) in
            [(o.a, a_off, o.bufs.a1, [vm, vk], a_strides), (o.b, b_off, o.bufs.b1, [vk, vn], b_strides)]
        {
            let (sz, st) = (i64_array(b.ctx, &sizes), i64_array(b.ctx, &strides));
            b.op(
                "npuvec.load",
                &[gm, off, dst],
                &[("sizes", sz), ("strides", st), ("zero_pad", pad)],
                &[],
                0,
            );
        }
        b.op("npuvec.move", &[o.bufs.a1, o.bufs.a0], &[], &[], 0);
        b.op("npuvec.move", &[o.bufs.b1, o.bufs.b0], &[], &[], 0);
        let attrs: Vec<(&str, kiln_compiler::Attribute<'_>)> =
            if accumulate { vec![("accumulate", pad)] } else { vec![] };
        b.op("npuvec.mmad", &[o.bufs.a0, o.bufs.b0, o.bufs.c0], &attrs, &[], 0);
    }

    /// `sum(index * scale)` over the terms that have an index.
    fn offset(&self, b: &mut Builder<'_, '_>, terms: &[(Option<ValueId>, i64)]) -> ValueId {
        let mut acc = None;
        for &(i, scale) in terms {
            let Some(i) = i else { continue };
            let c = b.index(scale);
            let term = b.index_op("arith.muli", i, c);
            acc = Some(match acc {
                Some(a) => b.index_op("arith.addi", a, term),
                None => term,
            });
        }
        acc.unwrap_or_else(|| b.index(0))
    }
}

/// The valid extents of a body tile of `tile` and of the tail (when `len % tile != 0`).
fn variants(len: i64, tile: i64) -> Vec<i64> {
    let body = len.min(tile);
    match len % tile {
        r if r != 0 && len > tile => vec![body, r],
        _ => vec![body],
    }
}
