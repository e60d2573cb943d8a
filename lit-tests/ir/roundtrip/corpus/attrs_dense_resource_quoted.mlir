"builtin.module"() ({
  "func.func"() <{function_type = () -> tensor<2xi16>, sym_name = "f"}> ({
    %0 = "test.k"() {a = dense_resource<"with space"> : tensor<2xi16>, b = dense_resource<"q\22uote\\d"> : vector<1xi32>, c = dense_resource<plain.name$1> : tensor<1xi8>} : () -> tensor<2xi16>
    "func.return"(%0) : (tensor<2xi16>) -> ()
  }) : () -> ()
}) : () -> ()

{-#
  dialect_resources: {
    builtin: {
      "with space": "0x0200000001000200",
      "q\22uote\\d": "0x0400000007000000",
      plain.name$1: "0x0100000005"
    }
  }
#-}

