#sparse = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#sparse1 = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 3 : compressed, d0 mod 2 : dense, d1 mod 3 : dense), posWidth = 32, crdWidth = 8 }>
#sparse2 = #sparse_tensor.encoding<{ map = [s0](d0) -> (d0 : compressed(nonunique), d0 : singleton(soa)) }>
"builtin.module"() ({
  %0 = "test.t0"() : () -> !spirv.array<4 x f32>
  %1 = "test.t1"() : () -> !spirv.struct<(f32 [0], i32 [4])>
  %2 = "test.t2"() : () -> !spirv.ptr<f32, StorageBuffer>
  %3 = "test.t3"() : () -> !spirv.rtarray<i32, stride=4>
  %4 = "test.t4"() : () -> !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, SamplerUnknown, Unknown>
  %5 = "test.t5"() : () -> !spirv.coopmatrix<8x16xi32, Subgroup, MatrixA>
  %6 = "test.t6"() : () -> !emitc.opaque<"int">
  %7 = "test.t7"() : () -> !emitc.ptr<i32>
  %8 = "test.t8"() : () -> !emitc.array<2x3xf32>
  %9 = "test.t9"() : () -> !emitc.lvalue<i32>
  %10 = "test.t10"() : () -> !async.token
  %11 = "test.t11"() : () -> !async.value<f32>
  %12 = "test.t12"() : () -> !transform.any_op
  %13 = "test.t13"() : () -> !transform.op<"func.func">
  %14 = "test.t14"() : () -> !transform.param<i64>
  %15 = "test.t15"() : () -> !pdl.operation
  %16 = "test.t16"() : () -> !pdl.range<value>
  %17 = "test.t17"() : () -> !shape.shape
  %18 = "test.t18"() : () -> !gpu.async.token
  %19 = "test.t19"() : () -> !gpu.mma_matrix<16x16xf16, "AOp">
  %20 = "test.t20"() : () -> !ptr.ptr<#ptr.generic_space>
  %21 = "test.t21"() : () -> !smt.bv<32>
  %22 = "test.t22"() : () -> !smt.bool
  %23 = "test.t23"() : () -> !smt.array<[!smt.int -> !smt.bool]>
  %24 = "test.t24"() : () -> !xegpu.tensor_desc<8x16xf32>
  %25 = "test.t25"() : () -> !amx.tile<16x16xf32>
  %26 = "test.t26"() : () -> !llvm.array<4 x i32>
  %27 = "test.t27"() : () -> !llvm.func<void (i32, ...)>
  %28 = "test.t28"() : () -> !llvm.target<"spirv.Image", i32, 0>
  %29 = "test.t30"() : () -> !nvgpu.device.async.token
  %30 = "test.t31"() : () -> !irdl.attribute
  %31 = "test.t33"() : () -> !emitc.size_t
  %32 = "test.t34"() : () -> !sparse_tensor.storage_specifier<#sparse>
  %33 = "test.t35"() : () -> !gpu.sparse.spmat_handle
  %34 = "test.t36"() : () -> !acc.data_bounds_ty
  %35 = "test.t37"() : () -> !omp.map_bounds_ty
  %36 = "test.t38"() : () -> !mpi.comm
  %37 = "test.t39"() : () -> !tosa.shape<0>
  %38 = "test.t40"() : () -> !quant.uniform<i8<-8:7>:f32:0, {2.000000e+02:120,9.987200e-01:127}>
  %39 = "test.t41"() : () -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
  %40 = "test.t42"() : () -> !vcix.x
  %41 = "test.t43"() : () -> !llvm.ptr<270>
  %42 = "test.t44"() : () -> !shape.value_shape
  %43 = "test.t45"() : () -> !transform.affine_map
  "test.a0"() {v = #nvvm.target<chip = "sm_90", flags = {ptx = 1 : i64}>} : () -> ()
  "test.a1"() {v = #rocdl.target<chip = "gfx90a">} : () -> ()
  "test.a2"() {v = #spirv.resource_limits<>} : () -> ()
  "test.a3"() {v = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} : () -> ()
  "test.a4"() {v = #emitc.opaque<"x">} : () -> ()
  "test.a5"() {v = #ub.poison} : () -> ()
  "test.a6"() {v = #ub.poison} : () -> ()
  "test.a7"() {v = #gpu.address_space<private>} : () -> ()
  "test.a8"() {v = #gpu.block<z>} : () -> ()
  "test.a9"() {v = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>} : () -> ()
  "test.a10"() {v = #linalg.iterator_type<parallel>} : () -> ()
  "test.a11"() {v = #vector.kind<maxnumf>} : () -> ()
  "test.a12"() {v = #arith.fastmath<nnan,ninf>} : () -> ()
  "test.a13"() {v = #arith.overflow<nsw>} : () -> ()
  "test.a15"() {v = #llvm.fastmath<fast>} : () -> ()
  "test.a16"() {v = #llvm.cconv<fastcc>} : () -> ()
  "test.a17"() {v = #llvm.tailcallkind<musttail>} : () -> ()
  "test.a20"() {v = #sparse1} : () -> ()
  "test.a21"() {v = #sparse2} : () -> ()
  "test.a22"() {v = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], lane_layout = [1, 16], lane_data = [1, 1]>} : () -> ()
  "test.a25"() {v = #tosa.block_size<BLOCK_SIZE_32>} : () -> ()
  "test.a26"() {v = #dlti.map<"a" = 1 : i64>} : () -> ()
  "test.a27"() {v = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L1_cache_size_in_bytes" = 4096 : i32>>} : () -> ()
  "test.a29"() {v = #index<cmp_predicate ult>} : () -> ()
}) : () -> ()

