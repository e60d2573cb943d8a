func.func @vectors(%a: vector<4xf32>, %b: vector<[4]xf32>, %m: memref<?xf32>, %s: f32, %mask: vector<[4]xi1>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %bc = vector.broadcast %s : f32 to vector<4xf32>
  %add = arith.addf %a, %bc : vector<4xf32>
  %sh = vector.shuffle %a, %add [0, 4, 1, 5] : vector<4xf32>, vector<4xf32>
  %ex = vector.extract %sh[2] : f32 from vector<4xf32>
  %in = vector.insert %ex, %a [0] : f32 into vector<4xf32>
  %fma = vector.fma %a, %in, %add : vector<4xf32>
  %red = vector.reduction <add>, %fma : vector<4xf32> into f32
  %ld = vector.load %m[%c0] : memref<?xf32>, vector<[4]xf32>
  %sadd = arith.addf %ld, %b : vector<[4]xf32>
  vector.store %sadd, %m[%c0] : memref<?xf32>, vector<[4]xf32>
  %ml = vector.maskedload %m[%c0], %mask, %b : memref<?xf32>, vector<[4]xi1>, vector<[4]xf32> into vector<[4]xf32>
  %tr = vector.transfer_read %m[%c0], %s {in_bounds = [true]} : memref<?xf32>, vector<4xf32>
  %v2d = vector.broadcast %s : f32 to vector<2x[8]xf32>
  %t2 = vector.transpose %v2d, [1, 0] : vector<2x[8]xf32> to vector<[8]x2xf32>
  %vs = vector.vscale
  %cm = vector.create_mask %c0 : vector<[4]xi1>
  %sc = vector.broadcast %s : f32 to vector<[2]x[2]xf32>
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %cst2 = arith.constant dense<0.0> : vector<[4]xf32>
  %st = vector.step : vector<[4]xindex>
  %ct = vector.contract {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %cst, %s : vector<4xf32>, vector<4xf32> into f32
  %z = vector.extract %v2d[0, 0] : f32 from vector<2x[8]xf32>
  return %tr : vector<4xf32>
}
