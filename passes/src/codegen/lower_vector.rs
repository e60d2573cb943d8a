//! Lowering one vector kernel (after bufferization) to a tile loop of `npuvec` ops.
//!
//! ```text
//! %ub.. = npuvec.alloc                     // one per model buffer (body and tail tiles)
//! npuvec.load ..                          // inputs without rows: loaded once
//! scf.for %t = block_idx to tiles step block_num {
//!   // key-axis block j = t % blocks, outer indices from t / blocks; GM offsets per stride
//!   scf.if j == blocks - 1 { tail tile } else { body tile }   // only when there is a tail
//! }
//! ```
//! A tile loads its row inputs through strided GM views, runs the patterns of
//! `vector_ops.rs` on UB buffers and stores its outputs through views of the output buffers.
//!
//! A row-class kernel (`row_class.rs`) takes `N` and the tile count as launch parameters: the
//! loop runs to the count, tile `t` is rows `t * rows ..` of the flattened row axis, and its
//! row loads and stores are bounded by the extent `min(N - t * rows, rows)` (no tail variant).

use kiln_compiler::InsertPoint;
use kiln_dialects::hl::canonicalize::Splat;
use kiln_dialects::npuvec::Space;
use kiln_dialects::{arith, bufferization, func, npuvec, scf};
use rustc_hash::FxHashMap;

use kiln_compiler::{Context, Ir, OpId, ValueId};

use kiln_dialects::func::conversion::set_signature;

use super::build::{i64_array, memref_type, Build, Builder};
use super::model::{is_view, merge_dims, Buffers, VectorModel, View};
use super::row_class::{self, RowClass, MAX_ROWS};
use super::tiling::{cdiv, Tiling};
use super::vector_ops::{lower_op, TileOp};

/// The buffer of each (model buffer, rows, cols) variant.
type BufTable = FxHashMap<(usize, i64, i64), ValueId>;

/// A view of a value onto its GM buffer: the element stride of each domain axis (0 where the
/// value does not span it), then the element offset of its first element.
pub(super) type Strides = Vec<i64>;

/// A kernel body's boundary after bufferization: its tensor inputs and their GM buffers, its
/// `hl` ops, its outputs and their GM buffers.
pub(super) struct KernelIo {
    /// The body's ops, the terminator included.
    pub(super) old: Vec<OpId>,
    /// The tensors the body reads (`bufferization.to_tensor` results).
    pub(super) inputs: Vec<ValueId>,
    /// The GM buffer of each input.
    pub(super) gm_of: FxHashMap<ValueId, ValueId>,
    /// The `hl` ops, in order.
    pub(super) ops: Vec<OpId>,
    /// The values written to the outputs, in order.
    pub(super) outputs: Vec<ValueId>,
    /// The GM buffer of each output.
    pub(super) out_gm: Vec<ValueId>,
}

impl KernelIo {
    /// The boundary of `kernel`'s body, with the kernel's tile.
    pub(super) fn of(ir: &Ir<'_>, kernel: OpId) -> Result<(KernelIo, Tiling), String> {
        let body =
            ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)).ok_or("a kernel without a body")?;
        let tiling = ir
            .attr(kernel, "npuvec.tile")
            .and_then(Tiling::from_attr)
            .ok_or("the kernel has no npuvec.tile (run kiln-codegen-tile)")?;
        let old: Vec<OpId> = ir.block_ops(body).collect();
        let mut io = KernelIo {
            old,
            inputs: vec![],
            gm_of: FxHashMap::default(),
            ops: vec![],
            outputs: vec![],
            out_gm: vec![],
        };
        for &op in &io.old {
            if ir.is(op, &bufferization::TO_TENSOR_OP) {
                let t = ir.results(op)[0];
                io.inputs.push(t);
                io.gm_of.insert(t, ir.operands(op)[0]);
            } else if ir.is(op, &bufferization::MATERIALIZE_IN_DESTINATION_OP) {
                io.outputs.push(ir.operands(op)[0]);
                io.out_gm.push(ir.operands(op)[1]);
            } else if !ir.is(op, &func::RETURN_OP) {
                io.ops.push(op);
            }
        }
        if io.old.is_empty() {
            return Err("an empty kernel".into());
        }
        Ok((io, tiling))
    }

    /// Erases the tensor body (everything but the terminator).
    pub(super) fn erase(&self, ir: &mut Ir<'_>) {
        for &op in self.old.iter().rev() {
            if !ir.is(op, &func::RETURN_OP) {
                ir.erase_op(op);
            }
        }
    }
}

/// Lowers the vector kernel `kernel` in place.
pub fn lower_vector_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId) -> Result<(), String> {
    let (io, tiling) = KernelIo::of(ir, kernel)?;
    let model = VectorModel::analyze_ops(ir, io.ops.clone(), &io.inputs, io.outputs.clone())?;
    let params = RowClass::of(ir, kernel).map(|class| launch_params(ctx, ir, kernel, &class));
    let feeds: FxHashMap<ValueId, Feed> = io.gm_of.iter().map(|(&v, &gm)| (v, Feed::Gm(gm))).collect();
    let mut b = Builder::new(ctx, ir, InsertPoint::Before(io.old[0]), ir.op(kernel).loc);
    let tile_loop = TileLoop {
        model: &model,
        tiling: &tiling,
        feeds: &feeds,
        out_gm: &io.out_gm,
        out_views: &FxHashMap::default(),
        params,
    };
    tile_loop.emit(&mut b)?;
    io.erase(ir);
    Ok(())
}

/// Gives row-class `kernel` its launch parameters `N` and the tile count (trailing `index`
/// arguments, with `npuvec.param_ranges`: `1..=MAX_ROWS` rows, as many tiles as they take).
fn launch_params<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId, class: &RowClass) -> [ValueId; 2] {
    let body = ir.regions(kernel)[0];
    let entry = ir.entry_block(body).expect("a lowered kernel has a body");
    let loc = ir.op(kernel).loc;
    let index = ctx.index_type();
    let params = [ir.add_block_arg(entry, index, Some(loc)), ir.add_block_arg(entry, index, Some(loc))];
    let inputs: Vec<_> = ir.block_args(entry).iter().map(|&v| ir.value_type(v)).collect();
    set_signature(ctx, ir.op_mut(kernel), &inputs, &[]);
    let ranges = i64_array(ctx, &[1, MAX_ROWS, 1, cdiv(MAX_ROWS, class.rows)]);
    super::build::set_attr(ctx, ir, kernel, npuvec::PARAM_RANGES_ATTR, ranges);
    params
}

/// Where a tile loop's input comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Feed {
    /// Loaded from this GM buffer (through the input's view, if it has one).
    Gm(ValueId),
    /// Filled with this scalar (a constant part of a layout kernel's output).
    Fill(Splat),
}

/// One tile loop over a model's domain: what [`TileLoop::emit`] needs.
pub(super) struct TileLoop<'m> {
    /// The model of the loop's values.
    pub(super) model: &'m VectorModel,
    /// The tile (sized for the model's domain or a larger one).
    pub(super) tiling: &'m Tiling,
    /// Where each input comes from.
    pub(super) feeds: &'m FxHashMap<ValueId, Feed>,
    /// The GM buffer of each of the model's outputs.
    pub(super) out_gm: &'m [ValueId],
    /// Outputs stored through a view of their GM buffer (a part of a layout kernel's output);
    /// the others are stored densely.
    pub(super) out_views: &'m FxHashMap<ValueId, View>,
    /// A row class's launch parameters, `N` and the tile count (`row_class.rs`): the tile
    /// loop runs to the count, and bounds its row loads and stores by the tile's extent.
    pub(super) params: Option<[ValueId; 2]>,
}

impl TileLoop<'_> {
    /// Emits the loop's buffers, its hoisted loads and the loop at `b`.
    pub(super) fn emit<'c>(&self, b: &mut Builder<'_, 'c>) -> Result<(), String> {
        let (model, tiling) = (self.model, self.tiling);
        let ctx = b.ctx;
        let outputs = &model.outputs;
        let staged = tiling.col_block < model.cols();
        let bufs = if staged { model.staged_buffers(ctx, b.ir) } else { model.buffers(ctx, b.ir) };
        if outputs.iter().any(|o| !bufs.of.contains_key(o)) {
            return Err("a kernel output that is a constant".into());
        }
        let geo = Geometry::new(model, tiling, self.params.is_some());
        let loc = b.loc;

        // Buffers: one per (spec, rows, cols) variant of a tile: body and tail rows, whole rows
        // or column chunks (a buffer without rows or cols has one variant).
        let mut row_variants = vec![geo.rows];
        if geo.tail_rows > 0 {
            row_variants.push(geo.tail_rows);
        }
        let cols = model.cols();
        let mut col_variants = vec![tiling.col_block];
        let chunked = if staged { model.chunk_axis_len() } else { cols };
        if chunked % tiling.col_block != 0 {
            col_variants.push(chunked % tiling.col_block);
        }
        let mut table: BufTable = FxHashMap::default();
        for (k, spec) in bufs.specs.iter().enumerate() {
            for &r in &row_variants {
                for &c in &col_variants {
                    let key = (k, if spec.rows { r } else { 1 }, if spec.cols { c } else { 1 });
                    if let std::collections::hash_map::Entry::Vacant(e) = table.entry(key) {
                        let ty = memref_type(b.ctx, &[key.1, key.2], spec.elem, Space::Ub);
                        e.insert(b.value(&npuvec::ALLOC_OP, &[], &[], ty));
                    }
                }
            }
        }
        let set_of = |rows: i64, c: i64| -> Vec<ValueId> {
            bufs.specs
                .iter()
                .enumerate()
                .map(|(k, spec)| table[&(k, if spec.rows { rows } else { 1 }, if spec.cols { c } else { 1 })])
                .collect()
        };
        // Strides of every input and output on its GM buffer: loads read a value through its
        // view, stores write an output through its store view, else densely.
        let strides_of = |ir: &Ir<'_>, v: ValueId, store: bool| -> Strides {
            let view = if store { self.out_views.get(&v) } else { model.views.get(&v) };
            model.gm_strides(ir, v, view)
        };
        let mut feeds = self.feeds.clone();
        for (&v, view) in &model.views {
            let feed = feeds[&view.source];
            feeds.insert(v, feed);
        }
        // Inputs without rows (nor cols, when the cols come in chunks): loaded once.
        let zero = b.index(0);
        let hoisted = set_of(geo.rows, tiling.col_block);
        for &v in &model.inputs {
            let Some(&k) = bufs.of.get(&v) else { continue };
            if !(bufs.specs[k].rows || staged && bufs.specs[k].cols) {
                let strides = strides_of(b.ir, v, false);
                let (sizes, st) = geo.view(model, &strides, false, bufs.specs[k].cols, 0, None);
                let start = match strides.last() {
                    Some(&base) if base != 0 => b.index(base),
                    _ => zero,
                };
                feed(b, v, feeds[&v], start, hoisted[k], &sizes, &st)?;
            }
        }
        // The tile loop.
        let bid = b.value(&npuvec::BLOCK_IDX_OP, &[], &[], ctx.index_type());
        let nb = b.value(&npuvec::BLOCK_NUM_OP, &[], &[], ctx.index_type());
        let tiles = match self.params {
            Some([_, tiles]) => tiles,
            None => b.index(geo.tiles),
        };
        let for_op = b.op(&scf::FOR_OP, &[bid, tiles, nb], &[], &[], 1);
        let lb = b.ir.create_block();
        b.ir.append_block(b.ir.regions(for_op)[0], lb);
        let t = b.ir.add_block_arg(lb, ctx.index_type(), Some(loc));
        let mut lbuild = b.at_end(lb);
        let (j, outer) = geo.indices(&mut lbuild, t);
        let extent = self.params.map(|[n, _]| row_class::extent(&mut lbuild, t, n, geo.rows));
        // GM offsets of each row value, by stride vector.
        let mut offsets: FxHashMap<Strides, ValueId> = FxHashMap::default();
        let mut row_values: Vec<(ValueId, bool)> = model
            .inputs
            .iter()
            .filter(|v| bufs.of.get(v).is_some_and(|&k| bufs.specs[k].rows))
            .map(|&v| (v, false))
            .collect();
        row_values.extend(outputs.iter().map(|&v| (v, true)));
        for &(v, store) in &row_values {
            let s = strides_of(lbuild.ir, v, store);
            if let std::collections::hash_map::Entry::Vacant(e) = offsets.entry(s) {
                let off = geo.offset(&mut lbuild, e.key(), j, &outer);
                e.insert(off);
            }
        }
        let tile = Tile {
            model,
            geo: &geo,
            inputs: &model.inputs,
            outputs,
            feeds: &feeds,
            out_gm: self.out_gm,
            extent,
        };
        let emit = |bb: &mut Builder<'_, 'c>, rows: i64| -> Result<(), String> {
            if staged {
                let sets: Vec<(i64, Vec<ValueId>)> =
                    col_variants.iter().map(|&c| (c, set_of(rows, c))).collect();
                tile.emit_staged(bb, &bufs, &sets, rows, tiling.col_block, &offsets, &strides_of)
            } else {
                tile.emit(bb, &bufs, &set_of(rows, cols), rows, &offsets, &strides_of)
            }
        };
        if geo.tail_rows > 0 {
            let last = lbuild.index(geo.key_blocks - 1);
            let is_tail =
                lbuild.value(&arith::CMPI_OP, &[j, last], &[("predicate", cmpi_eq(ctx))], ctx.int_type(1));
            let if_op = lbuild.op(&scf::IF_OP, &[is_tail], &[], &[], 2);
            for (region, rows) in [geo.tail_rows, geo.rows].into_iter().enumerate() {
                let blk = lbuild.ir.create_block();
                lbuild.ir.append_block(lbuild.ir.regions(if_op)[region], blk);
                let mut bb = lbuild.at_end(blk);
                emit(&mut bb, rows)?;
                bb.op(&scf::YIELD_OP, &[], &[], &[], 0);
            }
        } else {
            emit(&mut lbuild, geo.rows)?;
        }
        lbuild.op(&scf::YIELD_OP, &[], &[], &[], 0);
        Ok(())
    }
}

/// Brings input `v` into `dst`: a load of the view (`sizes`, `strides` from `offset`) of its GM
/// buffer (returned), or a fill.
pub(super) fn feed(
    b: &mut Builder<'_, '_>,
    v: ValueId,
    feed: Feed,
    offset: ValueId,
    dst: ValueId,
    sizes: &[i64],
    strides: &[i64],
) -> Result<Option<OpId>, String> {
    match feed {
        Feed::Gm(gm) => Ok(Some(load(b, gm, offset, dst, sizes, strides))),
        Feed::Fill(x) => {
            let elem = b.ir.value_type(v).element_type().ok_or("a non-tensor value")?;
            let scalar = b.immediate(elem, x);
            b.op(&npuvec::FILL_OP, &[scalar, dst], &[], &[], 0);
            Ok(None)
        }
    }
}

/// `predicate = 0` (`eq`) of `arith.cmpi`.
fn cmpi_eq<'c>(ctx: &Context<'c>) -> kiln_compiler::Attribute<'c> {
    super::build::i64_attr(ctx, 0)
}

/// `npuvec.load %gm[%offset] -> %dst` with a view.
pub(super) fn load(
    b: &mut Builder<'_, '_>,
    gm: ValueId,
    offset: ValueId,
    dst: ValueId,
    sizes: &[i64],
    strides: &[i64],
) -> OpId {
    let (s, t) = (i64_array(b.ctx, sizes), i64_array(b.ctx, strides));
    b.op(&npuvec::LOAD_OP, &[gm, offset, dst], &[("sizes", s), ("strides", t)], &[], 0)
}

/// The shape of the tile grid.
pub(super) struct Geometry {
    /// Kept axes outside the key axis, outermost first.
    outer: Vec<usize>,
    /// Their sizes.
    outer_dims: Vec<i64>,
    /// The key axis.
    key: usize,
    /// Key-axis elements per tile.
    block: i64,
    /// Blocks along the key axis.
    key_blocks: i64,
    /// Rows of a body tile.
    rows: i64,
    /// Rows of the tail tile (0: no tail).
    tail_rows: i64,
    /// Key-axis elements of the tail tile.
    tail_block: i64,
    /// Tiles in all.
    tiles: i64,
    /// A row class's tile (`row_class.rs`): the kept axes flatten into one row axis whose
    /// length comes at launch, `rows` of it at a time (no tail variant, no outer axes).
    class: bool,
}

impl Geometry {
    fn new(model: &VectorModel, tiling: &Tiling, class: bool) -> Geometry {
        let key = tiling.key;
        if class {
            let (rows, outer) = (tiling.block, Vec::new());
            let (key_blocks, tail_rows, tail_block, tiles) = (1, 0, 0, 0);
            let (outer_dims, block) = (Vec::new(), rows);
            return Geometry {
                outer,
                outer_dims,
                key,
                block,
                key_blocks,
                rows,
                tail_rows,
                tail_block,
                tiles,
                class,
            };
        }
        let key_len = model.domain.get(key).copied().unwrap_or(1);
        let block = tiling.block.min(key_len).max(1);
        let outer: Vec<usize> = model.kept.iter().copied().filter(|&a| a < key).collect();
        let inner: i64 = model.kept.iter().filter(|&&a| a > key).map(|&a| model.domain[a]).product();
        let key_is_kept = model.kept.contains(&key);
        // Without kept axes there is one tile, of one row.
        let key_blocks = if key_is_kept { cdiv(key_len, block) } else { 1 };
        let tail_block = if key_is_kept { key_len % block } else { 0 };
        let tiles = outer.iter().map(|&a| model.domain[a]).product::<i64>() * key_blocks;
        let (rows, tail_rows) = if key_is_kept { (block * inner, tail_block * inner) } else { (inner, 0) };
        let outer_dims = outer.iter().map(|&a| model.domain[a]).collect();
        Geometry { outer, outer_dims, key, block, key_blocks, rows, tail_rows, tail_block, tiles, class }
    }

    /// The key-axis block index and the outer axes' indices (outermost first) of tile `t`.
    fn indices(&self, b: &mut Builder<'_, '_>, t: ValueId) -> (ValueId, Vec<ValueId>) {
        if self.class {
            return (t, Vec::new());
        }
        let kb = b.index(self.key_blocks);
        let j = b.index_op(&arith::REMUI_OP, t, kb);
        if self.outer.is_empty() {
            return (j, Vec::new());
        }
        let mut rest = b.index_op(&arith::DIVUI_OP, t, kb);
        let mut idx = vec![rest; self.outer.len()];
        for slot in (0..self.outer.len()).rev() {
            let d = b.index(self.outer_dims[slot]);
            idx[slot] = b.index_op(&arith::REMUI_OP, rest, d);
            if slot > 0 {
                rest = b.index_op(&arith::DIVUI_OP, rest, d);
            }
        }
        (j, idx)
    }

    /// The GM element offset of a tile for a value with `strides`.
    fn offset(&self, b: &mut Builder<'_, '_>, strides: &[i64], j: ValueId, outer: &[ValueId]) -> ValueId {
        let step = b.index(self.block * strides[self.key]);
        let mut off = b.index_op(&arith::MULI_OP, j, step);
        if let Some(&base) = strides.last().filter(|&&base| base != 0) {
            let base = b.index(base);
            off = b.index_op(&arith::ADDI_OP, off, base);
        }
        for (&a, &i) in self.outer.iter().zip(outer) {
            if strides[a] != 0 {
                let s = b.index(strides[a]);
                let term = b.index_op(&arith::MULI_OP, i, s);
                off = b.index_op(&arith::ADDI_OP, off, term);
            }
        }
        off
    }

    /// The view (sizes, strides) of a value with `strides` for a tile of `rows` rows (`with_rows`:
    /// the value's buffer has rows; `with_cols`: it has cols), adjacent dims merged.
    pub(super) fn view(
        &self,
        model: &VectorModel,
        strides: &[i64],
        with_rows: bool,
        with_cols: bool,
        rows: i64,
        chunk: Option<i64>,
    ) -> (Vec<i64>, Vec<i64>) {
        let mut dims: Vec<(i64, i64)> = Vec::new();
        // A row class's row dim stays a dim of its own: the tile's extent bounds it.
        let row_dim = (self.class && with_rows).then_some((self.rows, strides[self.key]));
        if with_rows && !self.class {
            for &a in &model.kept {
                let size = if a < self.key {
                    1
                } else if a == self.key {
                    if rows == self.rows {
                        self.block
                    } else {
                        self.tail_block
                    }
                } else {
                    model.domain[a]
                };
                if size > 1 {
                    dims.push((size, strides[a]));
                }
            }
        }
        if with_cols {
            let chunked = model.col_axes().last().copied();
            for &a in &model.reduced {
                // A chunk is `chunk` columns of the last long reduced axis, one of the others.
                let size = match chunk {
                    Some(c) if Some(a) == chunked => c,
                    Some(_) => 1,
                    None => model.domain[a],
                };
                if size > 1 {
                    dims.push((size, strides[a]));
                }
            }
        }
        let mut merged: Vec<(i64, i64)> = row_dim.into_iter().chain(merge_dims(dims)).collect();
        if merged.is_empty() {
            merged.push((1, 1));
        }
        merged.into_iter().unzip()
    }
}

/// What one tile's emission needs.
pub(super) struct Tile<'m> {
    pub(super) model: &'m VectorModel,
    pub(super) geo: &'m Geometry,
    pub(super) inputs: &'m [ValueId],
    pub(super) outputs: &'m [ValueId],
    pub(super) feeds: &'m FxHashMap<ValueId, Feed>,
    pub(super) out_gm: &'m [ValueId],
    /// A row class's extent of the tile's rows, bounding its row loads and stores.
    pub(super) extent: Option<ValueId>,
}

impl Tile<'_> {
    /// Loads the row inputs, runs the ops and stores the outputs of a tile of `rows` rows
    /// whose buffers are `set`.
    fn emit<'c>(
        &self,
        b: &mut Builder<'_, 'c>,
        bufs: &Buffers<'c>,
        set: &[ValueId],
        rows: i64,
        offsets: &FxHashMap<Strides, ValueId>,
        strides_of: &dyn Fn(&Ir<'c>, ValueId, bool) -> Strides,
    ) -> Result<(), String> {
        for &v in self.inputs {
            let Some(&k) = bufs.of.get(&v) else { continue };
            let spec = &bufs.specs[k];
            if spec.rows {
                let strides = strides_of(b.ir, v, false);
                let (sizes, st) = self.geo.view(self.model, &strides, true, spec.cols, rows, None);
                let load = feed(b, v, self.feeds[&v], offsets[&strides], set[k], &sizes, &st)?;
                if let (Some(op), Some(e)) = (load, self.extent) {
                    row_class::bound_rows(b, op, e);
                }
            }
        }
        for &op in &self.model.ops {
            let result = b.ir.results(op)[0];
            if self.model.info[&result].splat.is_some() {
                continue;
            }
            let operands = b.ir.operands(op).to_vec();
            if operands.first().and_then(|x| bufs.of.get(x)) == bufs.of.get(&result) && is_view(b.ir, op) {
                continue;
            }
            let mut srcs = Vec::with_capacity(operands.len());
            for &x in &operands {
                srcs.push(match self.model.info[&x].splat {
                    Some(v) => {
                        let elem = b.ir.value_type(x).element_type().ok_or("a non-tensor operand")?;
                        b.immediate(elem, v)
                    }
                    None => set[bufs.of[&x]],
                });
            }
            let t = TileOp {
                op,
                srcs: &srcs,
                dst: set[bufs.of[&result]],
                temp: bufs.temp.get(&op).map(|&k| set[k]),
            };
            lower_op(b, &t).map_err(|e| format!("{e} (at {})", b.ir.op(op).loc))?;
        }
        for (&v, &gm) in self.outputs.iter().zip(self.out_gm) {
            let k = bufs.of[&v];
            let spec = &bufs.specs[k];
            let strides = strides_of(b.ir, v, true);
            let (sizes, st) = self.geo.view(self.model, &strides, spec.rows, spec.cols, rows, None);
            let offset = match offsets.get(&strides) {
                Some(&o) if spec.rows => o,
                _ => b.index(strides.last().copied().unwrap_or(0)),
            };
            let (s, t) = (i64_array(b.ctx, &sizes), i64_array(b.ctx, &st));
            let store =
                b.op(&npuvec::STORE_OP, &[set[k], gm, offset], &[("sizes", s), ("strides", t)], &[], 0);
            if let Some(e) = self.extent.filter(|_| spec.rows) {
                row_class::bound_rows(b, store, e);
            }
        }
        Ok(())
    }
}
