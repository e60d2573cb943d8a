"builtin.module"() ({
  "func.func"() <{function_type = () -> (tensor<3xi32>, tensor<2xf32>), sym_name = "resources"}> ({
    %0 = "arith.constant"() <{value = dense_resource<weights_a> : tensor<3xi32>}> : () -> tensor<3xi32>
    %1 = "arith.constant"() <{value = dense_resource<weights_b> : tensor<2xf32>}> : () -> tensor<2xf32>
    %2 = "arith.constant"() <{value = dense_resource<weights_a> : tensor<3xi32>}> : () -> tensor<3xi32>
    "kiln.use"() {e = dense_resource<__elided__> : tensor<2xi32>, r = dense_resource<bias.1> : tensor<4xi8>} : () -> ()
    "func.return"(%0, %1) : (tensor<3xi32>, tensor<2xf32>) -> ()
  }) : () -> ()
}) : () -> ()

{-#
  dialect_resources: {
    builtin: {
      weights_a: "0x04000000010000000200000003000000",
      weights_b: "0x040000000000803F0000C0BF",
      bias.1: "0x0800000001020304"
    }
  }
#-}

