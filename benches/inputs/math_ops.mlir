func.func @math(%x: f32, %y: f32, %v: vector<4xf64>, %i: i32) -> f32 {
  %0 = math.sqrt %x : f32
  %1 = math.exp %0 fastmath<fast> : f32
  %2 = math.log %1 : f32
  %3 = math.powf %2, %y : f32
  %4 = math.absf %3 : f32
  %5 = math.sin %4 : f32
  %6 = math.cos %5 : f32
  %7 = math.tanh %6 : f32
  %8 = math.fma %7, %x, %y : f32
  %9 = math.rsqrt %8 : f32
  %10 = math.floor %9 : f32
  %11 = math.ceil %10 : f32
  %12 = math.atan2 %11, %x : f32
  %vv = math.exp2 %v : vector<4xf64>
  %ia = math.absi %i : i32
  %ic = math.ctlz %ia : i32
  %ip = math.ipowi %ic, %i : i32
  %fp = math.fpowi %12, %ip : f32, i32
  %r = math.roundeven %fp : f32
  return %r : f32
}
