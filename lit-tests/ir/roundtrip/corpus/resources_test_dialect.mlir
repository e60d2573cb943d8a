"builtin.module"() ({
  "test.op"() {v = dense_resource<raw> : tensor<3xi8>} : () -> ()
}) {kiln.dense = dense_resource<raw> : tensor<3xi8>, test.first = #test.e1di64_elements<"with space"> : tensor<*xi1>, test.second = #test.e1di64_elements<second> : tensor<*xi1>} : () -> ()

{-#
  dialect_resources: {
    test: {
      "with space": "0x08000000010000000000000002000000000000000300000000000000",
      second: "0x080000000200000000000000"
    },
    builtin: {
      raw: "0x01000000070809"
    }
  },
  external_resources: {
    tool: {
      flag: false,
      "a key": "text"
    }
  }
#-}

