// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// The `npuvec` verifiers, one case per rule: on-chip buffers, vector ops, DMA spaces and views,
// cube shapes, sync operands, host ops and kernel references (dialects/src/npuvec/verify/),
// then the custom parsers' errors.

// An on-chip buffer is 2-D.
func.func @case() {
  // expected-error @+1 {{'npuvec.alloc' op result #0 must be a static 2-D memref in #npuvec.space<ub> or #npuvec.space<l1> or #npuvec.space<l0a> or #npuvec.space<l0b> or #npuvec.space<l0c>, but got 'memref<512xf32, #npuvec.space<ub>>'}}
  %0 = npuvec.alloc : memref<512xf32, #npuvec.space<ub>>
  return
}

// -----

// `npuvec.alloc` is on chip, not in GM.
func.func @case() {
  // expected-error @+1 {{'npuvec.alloc' op result #0 must be a static 2-D memref in #npuvec.space<ub> or #npuvec.space<l1> or #npuvec.space<l0a> or #npuvec.space<l0b> or #npuvec.space<l0c>, but got 'memref<8x64xf32, #npuvec.space<gm>>'}}
  %0 = npuvec.alloc : memref<8x64xf32, #npuvec.space<gm>>
  return
}

// -----

// An on-chip buffer is static.
func.func @case() {
  // expected-error @+1 {{'npuvec.alloc' op result #0 must be a static 2-D memref in #npuvec.space<ub> or #npuvec.space<l1> or #npuvec.space<l0a> or #npuvec.space<l0b> or #npuvec.space<l0c>, but got 'memref<?x64xf32, #npuvec.space<ub>>'}}
  %0 = npuvec.alloc : memref<?x64xf32, #npuvec.space<ub>>
  return
}

// -----

// An integer memory space is one of the lowered npuvec spaces (0 to 5).
func.func @case() {
  // expected-error @+1 {{'npuvec.alloc' op result #0 must be a static 2-D memref in #npuvec.space<ub> or #npuvec.space<l1> or #npuvec.space<l0a> or #npuvec.space<l0b> or #npuvec.space<l0c>, but got 'memref<8x64xf32, 9>'}}
  %0 = npuvec.alloc : memref<8x64xf32, 9>
  return
}

// -----

// An on-chip buffer is not in GM (the default memory space, integer space 0).
func.func @case() {
  // expected-error @+1 {{'npuvec.alloc' op result #0 must be a static 2-D memref in #npuvec.space<ub> or #npuvec.space<l1> or #npuvec.space<l0a> or #npuvec.space<l0b> or #npuvec.space<l0c>, but got 'memref<8x64xf32>'}}
  %0 = npuvec.alloc : memref<8x64xf32>
  return
}

// -----

// Planned offsets are multiples of 32 bytes.
func.func @case() {
  // expected-error @+1 {{'npuvec.buffer' op expected offsets that are non-negative multiples of 32 bytes, but got 16}}
  %0 = npuvec.buffer [16] : memref<8x64xf32, #npuvec.space<ub>>
  return
}

// -----

// Planned offsets are not negative.
func.func @case() {
  // expected-error @+1 {{'npuvec.buffer' op expected offsets that are non-negative multiples of 32 bytes, but got -32}}
  %0:2 = npuvec.buffer [0, -32] : memref<8x64xf32, #npuvec.space<ub>>
  return
}

// -----

// One offset per result.
func.func @case() {
  // expected-error @+1 {{'npuvec.buffer' op expected one offset per result (1), but got 2}}
  %0 = "npuvec.buffer"() <{offsets = array<i64: 0, 64>}> : () -> memref<8x64xf32, #npuvec.space<ub>>
  return
}

// -----

// The results of a double buffer share one type.
func.func @case() {
  // expected-error @+1 {{'npuvec.buffer' op failed to verify that all of {ping, pong} have same type}}
  %0:2 = "npuvec.buffer"() <{offsets = array<i64: 0, 4096>}> : () -> (memref<8x64xf32, #npuvec.space<ub>>, memref<8x32xf32, #npuvec.space<ub>>)
  return
}

// -----

// Offsets are an `array<i64>`.
func.func @case() {
  // expected-error @+1 {{'npuvec.buffer' op attribute 'offsets' failed to satisfy constraint: i64 dense array attribute}}
  %0 = "npuvec.buffer"() <{offsets = [0]}> : () -> memref<8x64xf32, #npuvec.space<ub>>
  return
}

// -----

// At most two results.
func.func @case() {
  // expected-error @+1 {{'npuvec.buffer' op result group starting at #1 requires 0 or 1 element, but found 2}}
  %0:3 = "npuvec.buffer"() <{offsets = array<i64: 0, 2048, 4096>}> : () -> (memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// Vector ops work on UB buffers.
func.func @case(%a: memref<8x64xf32, #npuvec.space<l1>>) {
  // expected-error @+1 {{'npuvec.exp' op operand #0 ('src') must be a static 2-D memref in #npuvec.space<ub>, but got 'memref<8x64xf32, #npuvec.space<l1>>'}}
  npuvec.exp ins(%a : memref<8x64xf32, #npuvec.space<l1>>) outs(%a : memref<8x64xf32, #npuvec.space<l1>>)
  return
}

// -----

// A unary op keeps the type.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %b: memref<8x64xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.exp' op failed to verify that all of {src, dst} have same type}}
  npuvec.exp ins(%a : memref<8x64xf32, #npuvec.space<ub>>) outs(%b : memref<8x64xf16, #npuvec.space<ub>>)
  return
}

// -----

// A source broadcasts to the destination.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %b: memref<8x2xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.add' op operand #1 ('rhs') of shape [8, 2] does not broadcast to the destination shape [8, 64]}}
  npuvec.add ins(%a, %b : memref<8x64xf32, #npuvec.space<ub>>, memref<8x2xf32, #npuvec.space<ub>>) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// A scalar source has the destination's element type.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %s: f16) {
  // expected-error @+1 {{'npuvec.mul' op operand #1 ('rhs') must have element type 'f32', but got 'f16'}}
  npuvec.mul ins(%a, %s : memref<8x64xf32, #npuvec.space<ub>>, f16) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// A buffer source has the destination's element type.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %b: memref<8x64xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.sub' op operand #1 ('rhs') must have element type 'f32', but got 'f16'}}
  npuvec.sub ins(%a, %b : memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf16, #npuvec.space<ub>>) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// The destination of a vector op is a UB buffer.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %s: f32) {
  // expected-error @+1 {{'npuvec.add' op operand #2 must be memref of any type values, but got 'f32'}}
  npuvec.add ins(%a, %s : memref<8x64xf32, #npuvec.space<ub>>, f32) outs(%s : f32)
  return
}

// -----

// `npuvec.cmp` writes an i1 mask.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.cmp' op operand #2 ('dst') must have element type 'i1', but got 'f32'}}
  npuvec.cmp lt ins(%a, %a : memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.cmp` compares one element type.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %s: f16, %m: memref<8x64xi1, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.cmp' op operand #1 ('rhs') must have element type 'f32', but got 'f16'}}
  npuvec.cmp eq ins(%a, %s : memref<8x64xf32, #npuvec.space<ub>>, f16) outs(%m : memref<8x64xi1, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.select`'s mask is a buffer (the instruction has no immediate mask).
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>) {
  %m = arith.constant true
  // expected-error @+1 {{'npuvec.select' op operand #0 ('mask') must be a static 2-D memref in #npuvec.space<ub>, but got 'i1'}}
  npuvec.select ins(%m, %a, %a : i1, memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.select` takes an i1 mask.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.select' op operand #0 ('mask') must have element type 'i1', but got 'f32'}}
  npuvec.select ins(%a, %a, %a : memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.reduce` writes [R, 1].
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %r: memref<1x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.reduce' op expected destination shape [8, 1] for a source of shape [8, 64], but got [1, 64]}}
  npuvec.reduce sum ins(%a : memref<8x64xf32, #npuvec.space<ub>>) outs(%r : memref<1x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.reduce` keeps the element type.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %r: memref<8x1xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.reduce' op operand #1 ('dst') must have element type 'f32', but got 'f16'}}
  npuvec.reduce max ins(%a : memref<8x64xf32, #npuvec.space<ub>>) outs(%r : memref<8x1xf16, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.reduce` needs its kind.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %r: memref<8x1xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.reduce' op requires attribute 'kind'}}
  "npuvec.reduce"(%a, %r) : (memref<8x64xf32, #npuvec.space<ub>>, memref<8x1xf32, #npuvec.space<ub>>) -> ()
  return
}

// -----

// `npuvec.broadcast` broadcasts a buffer.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %s: f32) {
  // expected-error @+1 {{'npuvec.broadcast' op operand #0 must be memref of any type values, but got 'f32'}}
  npuvec.broadcast ins(%s : f32) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.broadcast` source shape.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %r: memref<4x1xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.broadcast' op operand #0 ('src') of shape [4, 1] does not broadcast to the destination shape [8, 64]}}
  npuvec.broadcast ins(%r : memref<4x1xf32, #npuvec.space<ub>>) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.fill` takes a scalar of the element type.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %s: i32) {
  // expected-error @+1 {{'npuvec.fill' op failed to verify that type of 'value' matches element type of 'dst'}}
  npuvec.fill ins(%s : i32) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.cast` keeps the shape.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %h: memref<8x32xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.cast' op expected source and destination of one shape, but got [8, 64] and [8, 32]}}
  npuvec.cast rint ins(%a : memref<8x64xf32, #npuvec.space<ub>>) outs(%h : memref<8x32xf16, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.cast` needs a rounding mode.
func.func @case(%a: memref<8x64xf32, #npuvec.space<ub>>, %h: memref<8x64xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.cast' op requires attribute 'round'}}
  "npuvec.cast"(%a, %h) : (memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf16, #npuvec.space<ub>>) -> ()
  return
}

// -----

// `npuvec.transpose` works on 16x16 blocks.
func.func @case(%a: memref<8x32xf16, #npuvec.space<ub>>, %t: memref<32x8xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.transpose' op expected source dims that are multiples of 16, but got [8, 32]}}
  npuvec.transpose ins(%a : memref<8x32xf16, #npuvec.space<ub>>) outs(%t : memref<32x8xf16, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.transpose` swaps the dims.
func.func @case(%a: memref<16x32xf16, #npuvec.space<ub>>, %t: memref<16x32xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.transpose' op expected destination shape [32, 16] for a source of shape [16, 32], but got [16, 32]}}
  npuvec.transpose ins(%a : memref<16x32xf16, #npuvec.space<ub>>) outs(%t : memref<16x32xf16, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.copy` is UB -> UB.
func.func @case(%l: memref<8x64xf32, #npuvec.space<l1>>) {
  // expected-error @+1 {{'npuvec.copy' op operand #0 ('src') must be a static 2-D memref in #npuvec.space<ub>, but got 'memref<8x64xf32, #npuvec.space<l1>>'}}
  npuvec.copy ins(%l : memref<8x64xf32, #npuvec.space<l1>>) outs(%l : memref<8x64xf32, #npuvec.space<l1>>)
  return
}

// -----

// `npuvec.gather` indices are i32 or i64.
func.func @case(%t: memref<50x16xf32, #npuvec.space<gm>>, %i: memref<7xi8, #npuvec.space<gm>>, %o: index, %b: memref<7x16xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.gather' op operand #2 ('indices') must have element type 'i32' or 'i64', but got 'i8'}}
  npuvec.gather ins(%t[%o], %i[%o] : memref<50x16xf32, #npuvec.space<gm>>, memref<7xi8, #npuvec.space<gm>>) outs(%b : memref<7x16xf32, #npuvec.space<ub>>) sizes [50, 16] strides [16, 1] {index_sizes = array<i64: 7>, index_strides = array<i64: 1>}
  return
}

// -----

// `npuvec.gather` reads its table from GM.
func.func @case(%t: memref<50x16xf32, #npuvec.space<ub>>, %i: memref<7xi32, #npuvec.space<gm>>, %o: index, %b: memref<7x16xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.gather' op operand #0 ('table') must be a static memref in #npuvec.space<gm>, but got 'memref<50x16xf32, #npuvec.space<ub>>'}}
  npuvec.gather ins(%t[%o], %i[%o] : memref<50x16xf32, #npuvec.space<ub>>, memref<7xi32, #npuvec.space<gm>>) outs(%b : memref<7x16xf32, #npuvec.space<ub>>) sizes [50, 16] strides [16, 1] {index_sizes = array<i64: 7>, index_strides = array<i64: 1>}
  return
}

// -----

// A slice of the table is a row of the destination.
func.func @case(%t: memref<50x16xf32, #npuvec.space<gm>>, %i: memref<7xi32, #npuvec.space<gm>>, %o: index, %b: memref<7x16xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.gather' op table view sizes [50, 8] have slices of a different number of elements than the destination's 16 cols}}
  npuvec.gather ins(%t[%o], %i[%o] : memref<50x16xf32, #npuvec.space<gm>>, memref<7xi32, #npuvec.space<gm>>) outs(%b : memref<7x16xf32, #npuvec.space<ub>>) sizes [50, 8] strides [16, 1] {index_sizes = array<i64: 7>, index_strides = array<i64: 1>}
  return
}

// -----

// One index per row of the destination.
func.func @case(%t: memref<50x16xf32, #npuvec.space<gm>>, %i: memref<7xi32, #npuvec.space<gm>>, %o: index, %b: memref<7x16xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.gather' op index view sizes [6] hold a different number of indices than the destination's 7 rows}}
  npuvec.gather ins(%t[%o], %i[%o] : memref<50x16xf32, #npuvec.space<gm>>, memref<7xi32, #npuvec.space<gm>>) outs(%b : memref<7x16xf32, #npuvec.space<ub>>) sizes [50, 16] strides [16, 1] {index_sizes = array<i64: 6>, index_strides = array<i64: 1>}
  return
}

// -----

// The index view has one stride per size.
func.func @case(%t: memref<50x16xf32, #npuvec.space<gm>>, %i: memref<7xi32, #npuvec.space<gm>>, %o: index, %b: memref<7x16xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.gather' op expected 1 strides (one per size), but got 2}}
  npuvec.gather ins(%t[%o], %i[%o] : memref<50x16xf32, #npuvec.space<gm>>, memref<7xi32, #npuvec.space<gm>>) outs(%b : memref<7x16xf32, #npuvec.space<ub>>) sizes [50, 16] strides [16, 1] {index_sizes = array<i64: 7>, index_strides = array<i64: 1, 1>}
  return
}

// -----

// The index view needs its strides.
func.func @case(%t: memref<50x16xf32, #npuvec.space<gm>>, %i: memref<7xi32, #npuvec.space<gm>>, %o: index, %b: memref<7x16xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.gather' op requires attribute 'index_strides'}}
  npuvec.gather ins(%t[%o], %i[%o] : memref<50x16xf32, #npuvec.space<gm>>, memref<7xi32, #npuvec.space<gm>>) outs(%b : memref<7x16xf32, #npuvec.space<ub>>) sizes [50, 16] strides [16, 1] {index_sizes = array<i64: 7>}
  return
}

// -----

// `npuvec.load` reads GM.
func.func @case(%x: memref<8x64xf32, #npuvec.space<ub>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op operand #0 ('source') must be a memref in #npuvec.space<gm>, but got 'memref<8x64xf32, #npuvec.space<ub>>'}}
  npuvec.load ins(%x[%o] : memref<8x64xf32, #npuvec.space<ub>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
  return
}

// -----

// `npuvec.load` writes UB or L1.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<l0a>>) {
  // expected-error @+1 {{'npuvec.load' op operand #2 ('dst') must be a static 2-D memref in #npuvec.space<ub> or #npuvec.space<l1>, but got 'memref<8x64xf32, #npuvec.space<l0a>>'}}
  npuvec.load ins(%x[%o] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<l0a>>) sizes [8, 64] strides [64, 1]
  return
}

// -----

// The GM buffer of a view has an identity layout.
func.func @case(%x: memref<?x64xf32, strided<[64, 1]>, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op operand #0 ('source') must be a memref in #npuvec.space<gm>, but got 'memref<?x64xf32, strided<[64, 1]>, #npuvec.space<gm>>'}}
  npuvec.load ins(%x[%o] : memref<?x64xf32, strided<[64, 1]>, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
  return
}

// -----

// One extent dim per extent operand.
func.func @case(%x: memref<?x64xf32, #npuvec.space<gm>>, %o: index, %n: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op expected 1 'extent_dims' (one per extent operand), but got 2}}
  npuvec.load ins(%x[%o] : memref<?x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1] extents [%n] dims [0, 1]
  return
}

// -----

// Extents need their dims.
func.func @case(%y: memref<?x64xf32, #npuvec.space<gm>>, %o: index, %n: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.store' op expected 1 'extent_dims' (one per extent operand), but got 0}}
  "npuvec.store"(%b, %y, %o, %n) <{sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<8x64xf32, #npuvec.space<ub>>, memref<?x64xf32, #npuvec.space<gm>>, index, index) -> ()
  return
}

// -----

// Extent dims are strictly increasing.
func.func @case(%x: memref<?x64xf32, #npuvec.space<gm>>, %o: index, %n: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op expected strictly increasing 'extent_dims', but got [1, 0]}}
  npuvec.load ins(%x[%o] : memref<?x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1] extents [%n, %n] dims [1, 0]
  return
}

// -----

// A dim is not given twice.
func.func @case(%y: memref<?x64xf32, #npuvec.space<gm>>, %o: index, %n: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.store' op expected strictly increasing 'extent_dims', but got [0, 0]}}
  npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%o] : memref<?x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1] extents [%n, %n] dims [0, 0]
  return
}

// -----

// An extent dim is a dim of the view.
func.func @case(%x: memref<?x64xf32, #npuvec.space<gm>>, %o: index, %n: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op expected 'extent_dims' to be dims of the view (0 to 1), but got 2}}
  npuvec.load ins(%x[%o] : memref<?x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1] extents [%n] dims [2]
  return
}

// -----

// Not a negative one either.
func.func @case(%x: memref<?x64xf32, #npuvec.space<gm>>, %o: index, %n: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op expected 'extent_dims' to be dims of the view (0 to 1), but got -1}}
  npuvec.load ins(%x[%o] : memref<?x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1] extents [%n] dims [-1]
  return
}

// -----

// The extent dims are an `array<i64>`.
func.func @case(%x: memref<?x64xf32, #npuvec.space<gm>>, %o: index, %n: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op attribute 'extent_dims' failed to satisfy constraint: i64 dense array attribute}}
  "npuvec.load"(%x, %o, %b, %n) <{extent_dims = [0], sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<?x64xf32, #npuvec.space<gm>>, index, memref<8x64xf32, #npuvec.space<ub>>, index) -> ()
  return
}

// -----

// An extent is an `index`.
func.func @case(%x: memref<?x64xf32, #npuvec.space<gm>>, %o: index, %n: i64, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op operand #3 must be variadic of index, but got 'i64'}}
  "npuvec.load"(%x, %o, %b, %n) <{extent_dims = array<i64: 0>, sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<?x64xf32, #npuvec.space<gm>>, index, memref<8x64xf32, #npuvec.space<ub>>, i64) -> ()
  return
}

// -----

// One stride per size.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op expected 2 strides (one per size), but got 1}}
  npuvec.load ins(%x[%o] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [1]
  return
}

// -----

// A view has 1 to 4 dims.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op expected 1 to 4 view dims, but got 5}}
  npuvec.load ins(%x[%o] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [1, 1, 1, 8, 64] strides [0, 0, 0, 64, 1]
  return
}

// -----

// A view has at least one dim.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op expected 1 to 4 view dims, but got 0}}
  npuvec.load ins(%x[%o] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [] strides []
  return
}

// -----

// View sizes are at least 1.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op expected view sizes of at least 1, but got 0}}
  npuvec.load ins(%x[%o] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [0, 64] strides [64, 1]
  return
}

// -----

// View strides are not negative.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op expected non-negative view strides, but got -64}}
  npuvec.load ins(%x[%o] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [-64, 1]
  return
}

// -----

// The view holds the buffer's elements.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op view sizes [16, 64] hold a different number of elements than the buffer's 8x64}}
  npuvec.load ins(%x[%o] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [16, 64] strides [64, 1]
  return
}

// -----

// `npuvec.load` keeps the element type.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op operand #2 ('dst') must have element type 'f32', but got 'f16'}}
  npuvec.load ins(%x[%o] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf16, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
  return
}

// -----

// `sizes` is an `array<i64>`.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op attribute 'sizes' failed to satisfy constraint: i64 dense array attribute}}
  "npuvec.load"(%x, %o, %b) <{sizes = [8, 64], strides = array<i64: 64, 1>}> : (memref<16x64xf32, #npuvec.space<gm>>, index, memref<8x64xf32, #npuvec.space<ub>>) -> ()
  return
}

// -----

// The view offset is an index.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: i64, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.load' op operand #1 must be index, but got 'i64'}}
  "npuvec.load"(%x, %o, %b) <{sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<16x64xf32, #npuvec.space<gm>>, i64, memref<8x64xf32, #npuvec.space<ub>>) -> ()
  return
}

// -----

// `npuvec.store` reads UB.
func.func @case(%y: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<l1>>) {
  // expected-error @+1 {{'npuvec.store' op operand #0 ('src') must be a static 2-D memref in #npuvec.space<ub>, but got 'memref<8x64xf32, #npuvec.space<l1>>'}}
  npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<l1>>) outs(%y[%o] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
  return
}

// -----

// `npuvec.store` writes GM.
func.func @case(%y: memref<8x64xf32, #npuvec.space<ub>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.store' op operand #1 ('dst') must be a memref in #npuvec.space<gm>, but got 'memref<8x64xf32, #npuvec.space<ub>>'}}
  npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%o] : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
  return
}

// -----

// `npuvec.store` keeps the element type.
func.func @case(%y: memref<16x64xf16, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.store' op operand #0 ('src') must have element type 'f16', but got 'f32'}}
  npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%o] : memref<16x64xf16, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
  return
}

// -----

// `atomic` is an atomic kind.
func.func @case(%y: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.store' op attribute 'atomic' failed to satisfy constraint: atomic store kind `#npuvec.atomic<add|max|min>`}}
  "npuvec.store"(%b, %y, %o) <{atomic = #npuvec.reduce<sum>, sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<8x64xf32, #npuvec.space<ub>>, memref<16x64xf32, #npuvec.space<gm>>, index) -> ()
  return
}

// -----

// `npuvec.move` reads L1.
func.func @case(%a: memref<16x16xf16, #npuvec.space<l0a>>, %b: memref<16x16xf16, #npuvec.space<l0a>>) {
  // expected-error @+1 {{'npuvec.move' op operand #0 ('src') must be a static 2-D memref in #npuvec.space<l1>, but got 'memref<16x16xf16, #npuvec.space<l0a>>'}}
  npuvec.move ins(%a : memref<16x16xf16, #npuvec.space<l0a>>) outs(%b : memref<16x16xf16, #npuvec.space<l0a>>)
  return
}

// -----

// `npuvec.move` writes L0A or L0B.
func.func @case(%a: memref<16x16xf16, #npuvec.space<l1>>, %b: memref<16x16xf16, #npuvec.space<l0c>>) {
  // expected-error @+1 {{'npuvec.move' op operand #1 ('dst') must be a static 2-D memref in #npuvec.space<l0a> or #npuvec.space<l0b>, but got 'memref<16x16xf16, #npuvec.space<l0c>>'}}
  npuvec.move ins(%a : memref<16x16xf16, #npuvec.space<l1>>) outs(%b : memref<16x16xf16, #npuvec.space<l0c>>)
  return
}

// -----

// `npuvec.move` keeps the shape.
func.func @case(%a: memref<16x16xf16, #npuvec.space<l1>>, %b: memref<16x32xf16, #npuvec.space<l0b>>) {
  // expected-error @+1 {{'npuvec.move' op expected source and destination of one shape, but got [16, 16] and [16, 32]}}
  npuvec.move ins(%a : memref<16x16xf16, #npuvec.space<l1>>) outs(%b : memref<16x32xf16, #npuvec.space<l0b>>)
  return
}

// -----

// `npuvec.move` keeps the element type.
func.func @case(%a: memref<16x16xf16, #npuvec.space<l1>>, %b: memref<16x16xf32, #npuvec.space<l0b>>) {
  // expected-error @+1 {{'npuvec.move' op operand #1 ('dst') must have element type 'f16', but got 'f32'}}
  npuvec.move ins(%a : memref<16x16xf16, #npuvec.space<l1>>) outs(%b : memref<16x16xf32, #npuvec.space<l0b>>)
  return
}

// -----

// `mmad`'s lhs is in L0A.
func.func @case(%a: memref<16x32xf16, #npuvec.space<l0b>>, %b: memref<32x16xf16, #npuvec.space<l0b>>, %c: memref<16x16xf32, #npuvec.space<l0c>>) {
  // expected-error @+1 {{'npuvec.mmad' op operand #0 ('lhs') must be a static 2-D memref in #npuvec.space<l0a>, but got 'memref<16x32xf16, #npuvec.space<l0b>>'}}
  npuvec.mmad ins(%a, %b : memref<16x32xf16, #npuvec.space<l0b>>, memref<32x16xf16, #npuvec.space<l0b>>) outs(%c : memref<16x16xf32, #npuvec.space<l0c>>)
  return
}

// -----

// `mmad` accumulates in f32.
func.func @case(%a: memref<16x32xf16, #npuvec.space<l0a>>, %b: memref<32x16xf16, #npuvec.space<l0b>>, %c: memref<16x16xf16, #npuvec.space<l0c>>) {
  // expected-error @+1 {{'npuvec.mmad' op operand #2 ('acc') must have element type 'f32', but got 'f16'}}
  npuvec.mmad ins(%a, %b : memref<16x32xf16, #npuvec.space<l0a>>, memref<32x16xf16, #npuvec.space<l0b>>) outs(%c : memref<16x16xf16, #npuvec.space<l0c>>)
  return
}

// -----

// `mmad`'s operands share one element type.
func.func @case(%a: memref<16x32xf16, #npuvec.space<l0a>>, %b: memref<32x16xf32, #npuvec.space<l0b>>, %c: memref<16x16xf32, #npuvec.space<l0c>>) {
  // expected-error @+1 {{'npuvec.mmad' op operand #1 ('rhs') must have element type 'f16', but got 'f32'}}
  npuvec.mmad ins(%a, %b : memref<16x32xf16, #npuvec.space<l0a>>, memref<32x16xf32, #npuvec.space<l0b>>) outs(%c : memref<16x16xf32, #npuvec.space<l0c>>)
  return
}

// -----

// `mmad`'s m, k and n agree.
func.func @case(%a: memref<16x32xf16, #npuvec.space<l0a>>, %b: memref<16x16xf16, #npuvec.space<l0b>>, %c: memref<16x16xf32, #npuvec.space<l0c>>) {
  // expected-error @+1 {{'npuvec.mmad' op expected operands of shapes [m, k], [k, n] and [m, n], but got [16, 32], [16, 16] and [16, 16]}}
  npuvec.mmad ins(%a, %b : memref<16x32xf16, #npuvec.space<l0a>>, memref<16x16xf16, #npuvec.space<l0b>>) outs(%c : memref<16x16xf32, #npuvec.space<l0c>>)
  return
}

// -----

// `mmad`'s dims are fractal multiples.
func.func @case(%a: memref<8x32xf16, #npuvec.space<l0a>>, %b: memref<32x16xf16, #npuvec.space<l0b>>, %c: memref<8x16xf32, #npuvec.space<l0c>>) {
  // expected-error @+1 {{'npuvec.mmad' op expected m, k and n to be multiples of 16, but got 8, 32 and 16}}
  npuvec.mmad ins(%a, %b : memref<8x32xf16, #npuvec.space<l0a>>, memref<32x16xf16, #npuvec.space<l0b>>) outs(%c : memref<8x16xf32, #npuvec.space<l0c>>)
  return
}

// -----

// `npuvec.fixpipe` reads L0C.
func.func @case(%c: memref<16x16xf32, #npuvec.space<ub>>, %u: memref<16x16xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.fixpipe' op operand #0 ('src') must be a static 2-D memref in #npuvec.space<l0c>, but got 'memref<16x16xf32, #npuvec.space<ub>>'}}
  npuvec.fixpipe ins(%c : memref<16x16xf32, #npuvec.space<ub>>) outs(%u : memref<16x16xf16, #npuvec.space<ub>>)
  return
}

// -----

// `npuvec.fixpipe` writes UB.
func.func @case(%c: memref<16x16xf32, #npuvec.space<l0c>>, %u: memref<16x16xf16, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.fixpipe' op operand #1 ('dst') must be a static 2-D memref in #npuvec.space<ub>, but got 'memref<16x16xf16, #npuvec.space<gm>>'}}
  npuvec.fixpipe ins(%c : memref<16x16xf32, #npuvec.space<l0c>>) outs(%u : memref<16x16xf16, #npuvec.space<gm>>)
  return
}

// -----

// `npuvec.fixpipe` keeps the shape.
func.func @case(%c: memref<16x16xf32, #npuvec.space<l0c>>, %u: memref<16x32xf16, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.fixpipe' op the destination 16x32 is larger than the source 16x16}}
  npuvec.fixpipe ins(%c : memref<16x16xf32, #npuvec.space<l0c>>) outs(%u : memref<16x32xf16, #npuvec.space<ub>>)
  return
}

// -----

// Event ids are 0..7.
func.func @case() {
  // expected-error @+1 {{'npuvec.set_flag' op expected `event` in 0..7, but got 8}}
  npuvec.set_flag mte2 -> v event 8
  return
}

// -----

// Event ids are not negative.
func.func @case() {
  // expected-error @+1 {{'npuvec.wait_flag' op expected `event` in 0..7, but got -1}}
  npuvec.wait_flag mte2 -> v event -1
  return
}

// -----

// A flag joins two different pipes.
func.func @case() {
  // expected-error @+1 {{'npuvec.set_flag' op expected different `src` and `dst` pipes, but both are `v`}}
  npuvec.set_flag v -> v event 0
  return
}

// -----

// A flag names two pipes, not `all`.
func.func @case() {
  // expected-error @+1 {{'npuvec.wait_flag' op expected `src` and `dst` pipes other than `all`}}
  npuvec.wait_flag all -> v event 0
  return
}

// -----

// `pipe` is a pipe.
func.func @case() {
  // expected-error @+1 {{'npuvec.barrier' op attribute 'pipe' failed to satisfy constraint: pipe `#npuvec.pipe<s|v|mte1|mte2|mte3|m|fix|all>`}}
  "npuvec.barrier"() <{pipe = #npuvec.space<ub>}> : () -> ()
  return
}

// -----

// A flag needs its event.
func.func @case() {
  // expected-error @+1 {{'npuvec.set_flag' op requires attribute 'event'}}
  "npuvec.set_flag"() <{dst = #npuvec.pipe<v>, src = #npuvec.pipe<mte2>}> : () -> ()
  return
}

// -----

// `npuvec.reshape` keeps the element count.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.reshape' op expected a result with as many elements as the source's [16, 64], but got [512]}}
  %r = npuvec.reshape %x : memref<16x64xf32, #npuvec.space<gm>> -> memref<512xf32, #npuvec.space<gm>>
  return
}

// -----

// `npuvec.reshape` keeps the element type.
func.func @case(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.reshape' op expected the source's element type 'f32', but the result has 'f16'}}
  %r = npuvec.reshape %x : memref<16x64xf32, #npuvec.space<gm>> -> memref<1024xf16, #npuvec.space<gm>>
  return
}

// -----

// `npuvec.reshape` aliases a GM buffer.
func.func @case(%x: memref<16x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{'npuvec.reshape' op operand #0 ('source') must be a static memref in #npuvec.space<gm>, but got 'memref<16x64xf32, #npuvec.space<ub>>'}}
  %r = npuvec.reshape %x : memref<16x64xf32, #npuvec.space<ub>> -> memref<1024xf32, #npuvec.space<gm>>
  return
}

// -----

// `npuvec.constant`'s value has the result's shape.
func.func @case() {
  // expected-error @+1 {{'npuvec.constant' op expected a value of the result's shape and element type, but got 'tensor<8xf32>'}}
  %c = npuvec.constant dense<1.0> : tensor<8xf32> -> memref<4xf32, #npuvec.space<gm>>
  return
}

// -----

// `npuvec.constant` holds dense elements.
func.func @case() {
  // expected-error @+1 {{'npuvec.constant' op attribute 'value' failed to satisfy constraint: dense elements attribute}}
  %c = "npuvec.constant"() <{value = 1.0 : f32}> : () -> memref<4xf32, #npuvec.space<gm>>
  return
}

// -----

// `npuvec.constant` is a GM buffer.
func.func @case() {
  // expected-error @+1 {{'npuvec.constant' op result #0 must be a static memref in #npuvec.space<gm>, but got 'memref<4xf32, #npuvec.space<ub>>'}}
  %c = npuvec.constant dense<1.0> : tensor<4xf32> -> memref<4xf32, #npuvec.space<ub>>
  return
}

// -----

// A launch names a function.
func.func @host(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.launch' op 'missing' does not reference a valid function}}
  npuvec.launch @missing(%x) : (memref<16x64xf32, #npuvec.space<gm>>) -> ()
  return
}

// -----

// A launched function is a kernel: it has `npuvec.core`.
// expected-note @+1 {{kernel defined here}}
func.func @plain(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  return
}
func.func @host(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.launch' op @plain is not a valid kernel: expected attribute 'npuvec.core' of kind #npuvec.core<aiv|aic|mix>}}
  npuvec.launch @plain(%x) : (memref<16x64xf32, #npuvec.space<gm>>) -> ()
  return
}

// -----

// `npuvec.core` is a core kind.
// expected-note @+1 {{kernel defined here}}
func.func @k(%x: memref<16x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 1 : i64, npuvec.core = "aiv"} {
  return
}
func.func @host(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.launch' op @k is not a valid kernel: expected attribute 'npuvec.core' of kind #npuvec.core<aiv|aic|mix>}}
  npuvec.launch @k(%x) : (memref<16x64xf32, #npuvec.space<gm>>) -> ()
  return
}

// -----

// A kernel runs on at least one core.
// expected-note @+1 {{kernel defined here}}
func.func @k(%x: memref<16x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 0 : i64, npuvec.core = #npuvec.core<aiv>} {
  return
}
func.func @host(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.launch' op @k is not a valid kernel: expected attribute 'npuvec.block_dim' to be an integer of at least 1}}
  npuvec.launch @k(%x) : (memref<16x64xf32, #npuvec.space<gm>>) -> ()
  return
}

// -----

// A kernel's planned UB bytes are not negative.
// expected-note @+1 {{kernel defined here}}
func.func @k(%x: memref<16x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<mix>, npuvec.ub_bytes = -1 : i64} {
  return
}
func.func @host(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.launch' op @k is not a valid kernel: expected attribute 'npuvec.ub_bytes' to be a non-negative integer}}
  npuvec.launch @k(%x) : (memref<16x64xf32, #npuvec.space<gm>>) -> ()
  return
}

// -----

// A kernel returns nothing.
// expected-note @+1 {{kernel defined here}}
func.func @k(%x: memref<16x64xf32, #npuvec.space<gm>>) -> memref<16x64xf32, #npuvec.space<gm>> attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>} {
  return %x : memref<16x64xf32, #npuvec.space<gm>>
}
func.func @host(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.launch' op @k is not a valid kernel: expected no results, but it returns 1}}
  npuvec.launch @k(%x) : (memref<16x64xf32, #npuvec.space<gm>>) -> ()
  return
}

// -----

// Operands match the kernel's arguments (MLIR's `func.call` wording).
func.func @k(%x: memref<16x64xf32, #npuvec.space<gm>>, %y: memref<16x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>} {
  return
}
func.func @host(%x: memref<16x64xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.launch' op incorrect number of operands for callee}}
  npuvec.launch @k(%x) : (memref<16x64xf32, #npuvec.space<gm>>) -> ()
  return
}

// -----

func.func @k(%x: memref<16x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aic>} {
  return
}
func.func @host(%x: memref<1024xf32, #npuvec.space<gm>>) {
  // expected-error @+1 {{'npuvec.launch' op operand type mismatch: expected operand type 'memref<16x64xf32, #npuvec.space<gm>>', but provided 'memref<1024xf32, #npuvec.space<gm>>' for operand number 0}}
  npuvec.launch @k(%x) : (memref<1024xf32, #npuvec.space<gm>>) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// Custom forms
//===----------------------------------------------------------------------===//

func.func @bad_predicate(%a: memref<8x64xf32, #npuvec.space<ub>>, %m: memref<8x64xi1, #npuvec.space<ub>>) {
  // expected-error @+1 {{expected a comparison predicate keyword (eq, ne, lt, le, gt, ge) or 'ins'}}
  npuvec.cmp less ins(%a, %a : memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>) outs(%m : memref<8x64xi1, #npuvec.space<ub>>)
  return
}

// -----

func.func @no_keyword_op(%a: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{expected 'ins'}}
  npuvec.exp sum ins(%a : memref<8x64xf32, #npuvec.space<ub>>) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

func.func @type_count(%a: memref<8x64xf32, #npuvec.space<ub>>, %s: f32) {
  // expected-error @+1 {{expected 2 types, but got 1}}
  npuvec.add ins(%a, %s : memref<8x64xf32, #npuvec.space<ub>>) outs(%a : memref<8x64xf32, #npuvec.space<ub>>)
  return
}

// -----

func.func @view_list(%x: memref<16x64xf32, #npuvec.space<gm>>, %o: index, %b: memref<8x64xf32, #npuvec.space<ub>>) {
  // expected-error @+1 {{expected an integer}}
  npuvec.load ins(%x[%o] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, "64"] strides [64, 1]
  return
}

// -----

func.func @bad_pipe() {
  // expected-error @+1 {{expected a pipe (s, v, mte1, mte2, mte3, m, fix, all)}}
  npuvec.set_flag mte2 -> vec event 0
  return
}
