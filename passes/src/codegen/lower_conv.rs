//! Lowering one conv2d kernel (after bufferization) to cube tiles: an implicit im2col (the
//! plan and why it is bit-exact: `conv_plan.rs`). The weight (operand 1) is the cube's left
//! operand `A`, the input (operand 0) gives the right one, `B`.
//!
//! ```text
//! %a1, %b1 = npuvec.alloc (l1)   %a0 (l0a)  %b0 (l0b)  %c0 (l0c, f32)  %out (ub, per tail)
//! for each row class, for each column class:                 // static, unrolled
//!   scf.for %t = block_idx to tiles step block_num {  // t -> (n, g, o block, line, pixel block)
//!     [scf.if on the o / ow tail]
//!       chunks of the class, in ascending K:                 // the first without `accumulate`
//!         load W[o.., k..] -> %a1 (zero padded); load the input view -> %b1 (zero padded);
//!         move -> %a0, %b0; mmad %a0, %b0 -> %c0 [accumulate]
//!       (repeated over channels by an scf.for)
//!       fixpipe %c0 -> %out; store %out -> Y[n, o.., pixels of the line]
//!   }
//! ```

use kiln_compiler::InsertPoint;
use kiln_compiler::{Context, Ir, OpId, ValueId};
use kiln_dialects::npuvec::Space;
use kiln_dialects::{arith, npuvec};

use super::build::{memref_type, Build, Builder};
use super::conv_plan::{Class, ConvShape, Group, Lines};
use super::lower_matmul::{variants, with_tail, CubeBufs, CubeKernel};

/// Lowers the conv2d kernel `kernel` in place.
pub fn lower_conv_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId) -> Result<(), String> {
    let k = CubeKernel::of(ir, kernel)?;
    if !k.epilogue.ops.is_empty() || k.stores.len() != 1 {
        return Err("a conv2d kernel holds one conv2d and its one result".into());
    }
    let s = ConvShape::of_op(ir, k.op)?;
    let (rows, cols) = (s.classes(0)?, s.classes(1)?);
    let t = &k.tiling;
    let mut b = Builder::new(ctx, ir, InsertPoint::Before(k.old[0]), k.loc);
    let bufs = CubeBufs::alloc(&mut b, t, k.in_elem);
    let mut shapes: Vec<(i64, i64)> = Vec::new();
    for vm in variants(s.og(), t.m) {
        for r in &rows {
            for c in &cols {
                for vn in variants(Lines::of(r, c, t.n).pixels, t.n) {
                    if !shapes.contains(&(vm, vn)) {
                        shapes.push((vm, vn));
                    }
                }
            }
        }
    }
    let outs: Vec<((i64, i64), ValueId)> = shapes
        .into_iter()
        .map(|(vm, vn)| {
            (
                (vm, vn),
                b.value(&npuvec::ALLOC_OP, &[], &[], memref_type(ctx, &[vm, vn], k.out_elem, Space::Ub)),
            )
        })
        .collect();
    let bid = b.value(&npuvec::BLOCK_IDX_OP, &[], &[], ctx.index_type());
    let nb = b.value(&npuvec::BLOCK_NUM_OP, &[], &[], ctx.index_type());
    let e = Emitter { s: &s, k: &k, bufs, outs };
    // Tiles are numbered across the class pairs; core `block_idx` takes every `block_num`-th.
    let mut base = 0;
    for r in &rows {
        for c in &cols {
            base += e.class_loop(&mut b, r, c, base, [bid, nb])?;
        }
    }
    k.finish(ir);
    Ok(())
}

/// What every tile of a conv kernel uses.
struct Emitter<'a, 'c> {
    s: &'a ConvShape,
    k: &'a CubeKernel<'c>,
    bufs: CubeBufs,
    /// The UB output buffer of each (rows, cols) variant.
    outs: Vec<((i64, i64), ValueId)>,
}

/// The tile indices: pixel block, line (output row or column) in the class, output-channel
/// block, group, batch element (`None` for an axis of one).
type Indices = [Option<ValueId>; 5];

impl Emitter<'_, '_> {
    /// The tile loop of the row class `r` and column class `c`, whose tiles are numbered from
    /// `base`; returns how many there are.
    fn class_loop(
        &self,
        b: &mut Builder<'_, '_>,
        r: &Class,
        c: &Class,
        base: i64,
        [bid, nb]: [ValueId; 2],
    ) -> Result<i64, String> {
        let (s, t) = (self.s, &self.k.tiling);
        let l = Lines::of(r, c, t.n);
        let extents = s.tile_extents(&l, t);
        let count = extents.iter().product();
        // The first tile of this core: (block_idx - base) mod block_num.
        let first = if base == 0 {
            bid
        } else {
            let at = b.index(base);
            let shift = b.index_op(&arith::REMUI_OP, at, nb);
            let up = b.index_op(&arith::ADDI_OP, bid, nb);
            let d = b.index_op(&arith::SUBI_OP, up, shift);
            b.index_op(&arith::REMUI_OP, d, nb)
        };
        let tiles = b.index(count);
        b.for_loop([first, tiles, nb], |lb, tile| {
            let idx = split(lb, tile, &extents);
            with_tail(lb, idx[2], s.og(), t.m, &mut |b, vm| {
                with_tail(b, idx[0], l.pixels, t.n, &mut |b, vn| self.tile(b, r, c, l, &idx, vm, vn))
            })
        })?;
        Ok(count)
    }

    /// One tile of `vm` output channels and `vn` pixels of one line.
    #[allow(clippy::too_many_arguments)]
    fn tile(
        &self,
        b: &mut Builder<'_, '_>,
        r: &Class,
        c: &Class,
        l: Lines,
        idx: &Indices,
        vm: i64,
        vn: i64,
    ) -> Result<(), String> {
        let (s, t) = (self.s, &self.k.tiling);
        let [pb, line, ob, g, n] = *idx;
        let ([sh, sw], [dh, dw], hw, k) = (s.stride, s.dilation, s.h * s.w, s.k());
        // Input and output elements from one pixel to the next along the line, and between lines.
        let (x_step, x_line, y_step, y_line) =
            if l.vertical { (sh * s.w, sw, s.ow, 1) } else { (sw, sh * s.w, 1, s.ow) };
        // The input element of the class's first pixel at its first valid tap.
        let first = (r.start * sh + r.lo * dh - s.pad[0]) * s.w + c.start * sw + c.lo * dw - s.pad[1];
        let x = b.linear(&[(n, s.c * hw), (g, s.cg() * hw), (line, x_line), (pb, t.n * x_step)], first);
        let w = b.linear(&[(g, s.og() * k), (ob, t.m * k)], 0);
        let mut accumulate = false;
        for group in s.chunks(r, c, t.k, vn, x_step) {
            self.group(b, &group, x, w, vm, accumulate);
            accumulate = true;
        }
        let out =
            self.outs.iter().find(|(v, _)| *v == (vm, vn)).map(|(_, v)| *v).ok_or("no output buffer")?;
        let plane = s.oh * s.ow;
        let y =
            [(n, s.o * plane), (g, s.og() * plane), (ob, t.m * plane), (line, y_line), (pb, t.n * y_step)];
        self.bufs.drain(b, out, self.k.out, (&y, r.start * s.ow + c.start), [vm, vn], [plane, y_step]);
        Ok(())
    }

    /// The chunks of `group`: repetition 0, then the others in an `scf.for`.
    fn group(
        &self,
        b: &mut Builder<'_, '_>,
        group: &Group,
        x: ValueId,
        w: ValueId,
        vm: i64,
        accumulate: bool,
    ) {
        self.chunks(b, group, None, x, w, vm, accumulate);
        if group.reps > 1 {
            let (one, end, step) = (b.index(1), b.index(group.reps), b.index(1));
            b.for_loop([one, end, step], |bb, i| self.chunks(bb, group, Some(i), x, w, vm, true));
        }
    }

    /// The chunks of repetition `rep` (0 when `None`) of `group`.
    #[allow(clippy::too_many_arguments)]
    fn chunks(
        &self,
        b: &mut Builder<'_, '_>,
        group: &Group,
        rep: Option<ValueId>,
        x: ValueId,
        w: ValueId,
        vm: i64,
        accumulate: bool,
    ) {
        let k = self.s.k();
        for (j, ch) in group.chunks.iter().enumerate() {
            let a_off = b.linear(&[(Some(w), 1), (rep, group.a_step)], group.a + ch.a);
            let b_off = b.linear(&[(Some(x), 1), (rep, group.b_step)], group.b + ch.b);
            self.bufs.step(
                b,
                [(self.k.rhs, a_off, &[vm, ch.k], &[k, 1]), (self.k.lhs, b_off, &ch.sizes, &ch.strides)],
                accumulate || j > 0,
            );
        }
    }
}

/// The mixed-radix digits of `t` over `extents` (innermost first); `None` for extents of 1.
fn split(b: &mut Builder<'_, '_>, t: ValueId, extents: &[i64; 5]) -> Indices {
    let mut out = [None; 5];
    let mut rest = t;
    for (i, &e) in extents.iter().enumerate() {
        if e == 1 {
            continue;
        }
        if extents[i + 1..].iter().all(|&x| x == 1) {
            out[i] = Some(rest);
            break;
        }
        let c = b.index(e);
        out[i] = Some(b.index_op(&arith::REMUI_OP, rest, c));
        rest = b.index_op(&arith::DIVUI_OP, rest, c);
    }
    out
}
