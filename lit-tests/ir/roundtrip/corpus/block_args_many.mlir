"builtin.module"() ({
  "func.func"() <{function_type = (i32, f32, index, i1, tensor<?xf32>, memref<4xi8>, vector<[4]xf32>, !kiln.t, i32, f32, index, i1, tensor<?xf32>, memref<4xi8>, vector<[4]xf32>, !kiln.t, i32, f32, index, i1) -> i32, sym_name = "many_args"}> ({
  ^bb0(%arg0: i32, %arg1: f32, %arg2: index, %arg3: i1, %arg4: tensor<?xf32>, %arg5: memref<4xi8>, %arg6: vector<[4]xf32>, %arg7: !kiln.t, %arg8: i32, %arg9: f32, %arg10: index, %arg11: i1, %arg12: tensor<?xf32>, %arg13: memref<4xi8>, %arg14: vector<[4]xf32>, %arg15: !kiln.t, %arg16: i32, %arg17: f32, %arg18: index, %arg19: i1):
    "cf.br"(%arg0, %arg1, %arg2, %arg3, %arg8, %arg9)[^bb1] : (i32, f32, index, i1, i32, f32) -> ()
  ^bb1(%0: i32, %1: f32, %2: index, %3: i1, %4: i32, %5: f32):  // pred: ^bb0
    "kiln.use"(%0, %1, %2, %3, %4, %5, %arg15, %arg14) : (i32, f32, index, i1, i32, f32, !kiln.t, vector<[4]xf32>) -> ()
    "cf.cond_br"(%3, %0)[^bb2, ^bb3] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
  ^bb2(%6: i32):  // pred: ^bb1
    "func.return"(%6) : (i32) -> ()
  ^bb3:  // pred: ^bb1
    %7 = "kiln.region_args"() ({
    ^bb0(%arg20: i1, %arg21: i2, %arg22: i3, %arg23: i4, %arg24: i5, %arg25: i6, %arg26: i7, %arg27: i8, %arg28: i9, %arg29: i10, %arg30: i11, %arg31: i12):
      "kiln.y"(%arg20, %arg31) : (i1, i12) -> ()
    ^bb1(%8: i64, %9: i64):  // no predecessors
      "kiln.y"(%8) : (i64) -> ()
    }) : () -> i32
    "func.return"(%7) : (i32) -> ()
  }) : () -> ()
}) : () -> ()

