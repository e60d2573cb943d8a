func.func @arith_ops(%a: i32, %b: i32, %x: f32, %y: f32, %i: index) -> (i32, f32, i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %cf = arith.constant 2.5 : f32
  %ct = arith.constant true
  %cv = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %0 = arith.addi %a, %b : i32
  %1 = arith.subi %0, %c0 overflow<nsw> : i32
  %2 = arith.muli %1, %b overflow<nsw, nuw> : i32
  %3 = arith.divsi %2, %a : i32
  %4 = arith.divui %3, %a : i32
  %5 = arith.remsi %4, %b : i32
  %6 = arith.andi %5, %a : i32
  %7 = arith.ori %6, %b : i32
  %8 = arith.xori %7, %a : i32
  %9 = arith.shli %8, %b : i32
  %10 = arith.shrsi %9, %a : i32
  %11 = arith.maxsi %10, %a : i32
  %12 = arith.minui %11, %b : i32
  %f0 = arith.addf %x, %y : f32
  %f1 = arith.mulf %f0, %cf fastmath<fast> : f32
  %f2 = arith.divf %f1, %y fastmath<nnan, ninf> : f32
  %f3 = arith.negf %f2 : f32
  %f4 = arith.maximumf %f3, %x : f32
  %c = arith.cmpi sge, %12, %a : i32
  %cf1 = arith.cmpf olt, %f4, %y : f32
  %cf2 = arith.cmpf une, %f4, %y fastmath<nnan> : f32
  %s = arith.select %c, %12, %a : i32
  %e = arith.extsi %s : i32 to i64
  %t = arith.trunci %e : i64 to i16
  %u = arith.extui %t : i16 to i32
  %fp = arith.sitofp %u : i32 to f32
  %fi = arith.fptosi %fp : f32 to i32
  %ix = arith.index_cast %fi : i32 to index
  %ix2 = arith.addi %ix, %c1 : index
  %bc = arith.bitcast %fp : f32 to i32
  %ext = arith.extf %f4 : f32 to f64
  %tr = arith.truncf %ext : f64 to f16
  %r = arith.andi %cf1, %cf2 : i1
  %r2 = arith.xori %r, %ct : i1
  return %bc, %f4, %r2 : i32, f32, i1
}
func.func @arith_constants() {
  %0 = arith.constant 0.1 : f64
  %1 = arith.constant -0.0 : f32
  %2 = arith.constant 65504.0 : f16
  %3 = arith.constant 1.0e-3 : bf16
  %4 = arith.constant 0x7FC00000 : f32
  %5 = arith.constant 0xFF800000 : f32
  %6 = arith.constant -9223372036854775808 : i64
  %7 = arith.constant 255 : i8
  %8 = arith.constant dense<0.5> : tensor<2x3xf32>
  %9 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
  %10 = arith.constant 12345678901234567890 : i128
  %11 = arith.constant 3.14159265358979 : f64
  return
}
