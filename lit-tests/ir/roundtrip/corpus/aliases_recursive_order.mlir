#map = affine_map<(d0) -> (d0 * 2)>
!pc = !test.test_rec_alias<pc, !test.test_rec_alias<pa, !test.test_rec_alias<pb, !test.test_rec_alias<pc>>>>
!zeta = !test.test_rec_alias<zeta, !test.test_rec_alias<zeta>>
!beta = !test.test_rec_alias<beta, tuple<!test.test_rec_alias<beta>, f16>>
!pb = !test.test_rec_alias<pb, !pc>
!pa = !test.test_rec_alias<pa, !pb>
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "rec"}> ({
    %0 = "test.k"() : () -> !zeta
    %1 = "test.k"() : () -> !beta
    %2 = "test.k"() : () -> !pa
    %3 = "test.k"() : () -> !pc
    %4 = "test.k"() : () -> !test.test_rec<self_ref, test_rec<self_ref>>
    %5 = "test.k"() {m = #map} : () -> tuple<!zeta, i8>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

