"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32, f32, f32, index) -> (i32, f32, i1), sym_name = "arith_ops"}> ({
  ^bb0(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: f32, %arg4: index):
    %12 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %13 = "arith.constant"() <{value = 1 : index}> : () -> index
    %14 = "arith.constant"() <{value = 2.500000e+00 : f32}> : () -> f32
    %15 = "arith.constant"() <{value = true}> : () -> i1
    %16 = "arith.constant"() <{value = dense<[1, 2, 3, 4]> : vector<4xi32>}> : () -> vector<4xi32>
    %17 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %18 = "arith.subi"(%17, %12) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
    %19 = "arith.muli"(%18, %arg1) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32
    %20 = "arith.divsi"(%19, %arg0) : (i32, i32) -> i32
    %21 = "arith.divui"(%20, %arg0) : (i32, i32) -> i32
    %22 = "arith.remsi"(%21, %arg1) : (i32, i32) -> i32
    %23 = "arith.andi"(%22, %arg0) : (i32, i32) -> i32
    %24 = "arith.ori"(%23, %arg1) : (i32, i32) -> i32
    %25 = "arith.xori"(%24, %arg0) : (i32, i32) -> i32
    %26 = "arith.shli"(%25, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %27 = "arith.shrsi"(%26, %arg0) : (i32, i32) -> i32
    %28 = "arith.maxsi"(%27, %arg0) : (i32, i32) -> i32
    %29 = "arith.minui"(%28, %arg1) : (i32, i32) -> i32
    %30 = "arith.addf"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %31 = "arith.mulf"(%30, %14) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
    %32 = "arith.divf"(%31, %arg3) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
    %33 = "arith.negf"(%32) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %34 = "arith.maximumf"(%33, %arg2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %35 = "arith.cmpi"(%29, %arg0) <{predicate = 5 : i64}> : (i32, i32) -> i1
    %36 = "arith.cmpf"(%34, %arg3) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
    %37 = "arith.cmpf"(%34, %arg3) <{fastmath = #arith.fastmath<nnan>, predicate = 13 : i64}> : (f32, f32) -> i1
    %38 = "arith.select"(%35, %29, %arg0) : (i1, i32, i32) -> i32
    %39 = "arith.extsi"(%38) : (i32) -> i64
    %40 = "arith.trunci"(%39) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i16
    %41 = "arith.extui"(%40) : (i16) -> i32
    %42 = "arith.sitofp"(%41) : (i32) -> f32
    %43 = "arith.fptosi"(%42) : (f32) -> i32
    %44 = "arith.index_cast"(%43) : (i32) -> index
    %45 = "arith.addi"(%44, %13) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    %46 = "arith.bitcast"(%42) : (f32) -> i32
    %47 = "arith.extf"(%34) : (f32) -> f64
    %48 = "arith.truncf"(%47) : (f64) -> f16
    %49 = "arith.andi"(%36, %37) : (i1, i1) -> i1
    %50 = "arith.xori"(%49, %15) : (i1, i1) -> i1
    "func.return"(%46, %34, %50) : (i32, f32, i1) -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "arith_constants"}> ({
    %0 = "arith.constant"() <{value = 1.000000e-01 : f64}> : () -> f64
    %1 = "arith.constant"() <{value = -0.000000e+00 : f32}> : () -> f32
    %2 = "arith.constant"() <{value = 6.550400e+04 : f16}> : () -> f16
    %3 = "arith.constant"() <{value = 9.994500e-04 : bf16}> : () -> bf16
    %4 = "arith.constant"() <{value = 0x7FC00000 : f32}> : () -> f32
    %5 = "arith.constant"() <{value = 0xFF800000 : f32}> : () -> f32
    %6 = "arith.constant"() <{value = -9223372036854775808 : i64}> : () -> i64
    %7 = "arith.constant"() <{value = -1 : i8}> : () -> i8
    %8 = "arith.constant"() <{value = dense<5.000000e-01> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %9 = "arith.constant"() <{value = dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf64>}> : () -> tensor<2x2xf64>
    %10 = "arith.constant"() <{value = 12345678901234567890 : i128}> : () -> i128
    %11 = "arith.constant"() <{value = 3.14159265358979 : f64}> : () -> f64
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

