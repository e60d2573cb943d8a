"builtin.module"() ({
  "func.func"() <{function_type = (vector<4x!llvm.ptr>, vector<[2]x!llvm.ptr<3>>) -> vector<2x!llvm.ppc_fp128>, sym_name = "v"}> ({
  ^bb0(%arg0: vector<4x!llvm.ptr>, %arg1: vector<[2]x!llvm.ptr<3>>):
    %0 = "test.mk"(%arg0, %arg1) : (vector<4x!llvm.ptr>, vector<[2]x!llvm.ptr<3>>) -> vector<2x!llvm.ppc_fp128>
    %1 = "test.mk"() {t = vector<8x!llvm.ptr<1>>} : () -> vector<1x[2]x!llvm.ptr>
    "func.return"(%0) : (vector<2x!llvm.ppc_fp128>) -> ()
  }) : () -> ()
}) : () -> ()

