"builtin.module"() ({
  "func.func"() <{function_type = (i32, i1) -> i32, sym_name = "deep"}> ({
  ^bb0(%arg0: i32, %arg1: i1):
    %0 = "scf.execute_region"() ({
      %1 = "scf.if"(%arg1) ({
        %3 = "scf.execute_region"() ({
          %4 = "scf.if"(%arg1) ({
            %5 = "kiln.region"(%arg0) ({
            ^bb0(%arg2: i32):
              %6 = "kiln.region"(%arg2) ({
              ^bb0(%arg5: i32):
                %7 = "arith.addi"(%arg2, %arg5) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
                "kiln.yield"(%7) : (i32) -> ()
              }, {
              ^bb0(%arg3: i32, %arg4: i32):
                "kiln.yield"(%arg3) : (i32) -> ()
              }) : (i32) -> i32
              "kiln.yield"(%6) : (i32) -> ()
            }) : (i32) -> i32
            "scf.yield"(%5) : (i32) -> ()
          }, {
            "scf.yield"(%arg0) : (i32) -> ()
          }) : (i1) -> i32
          "scf.yield"(%4) : (i32) -> ()
        }) : () -> i32
        "scf.yield"(%3) : (i32) -> ()
      }, {
        %2 = "kiln.graph"() ({
          "kiln.inner"() ({
            "kiln.innermost"() ({
              "kiln.leaf"() : () -> ()
            }) : () -> ()
          }) : () -> ()
        }) : () -> i32
        "scf.yield"(%2) : (i32) -> ()
      }) : (i1) -> i32
      "scf.yield"(%1) : (i32) -> ()
    }) : () -> i32
    "func.return"(%0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()

