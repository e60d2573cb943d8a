"builtin.module"() ({
  "func.func"() <{function_type = (complex<f32>, complex<f32>, f64, f64) -> complex<f64>, sym_name = "complex_math"}> ({
  ^bb0(%arg0: complex<f32>, %arg1: complex<f32>, %arg2: f64, %arg3: f64):
    %0 = "complex.add"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (complex<f32>, complex<f32>) -> complex<f32>
    %1 = "complex.mul"(%0, %arg1) <{fastmath = #arith.fastmath<none>}> : (complex<f32>, complex<f32>) -> complex<f32>
    %2 = "complex.abs"(%1) <{fastmath = #arith.fastmath<none>}> : (complex<f32>) -> f32
    %3 = "complex.re"(%1) <{fastmath = #arith.fastmath<none>}> : (complex<f32>) -> f32
    %4 = "complex.im"(%1) <{fastmath = #arith.fastmath<none>}> : (complex<f32>) -> f32
    %5 = "complex.create"(%arg2, %arg3) : (f64, f64) -> complex<f64>
    %6 = "complex.exp"(%5) <{fastmath = #arith.fastmath<none>}> : (complex<f64>) -> complex<f64>
    %7 = "complex.conj"(%6) <{fastmath = #arith.fastmath<none>}> : (complex<f64>) -> complex<f64>
    %8 = "complex.constant"() <{value = [1.500000e+00, -2.000000e+00]}> : () -> complex<f64>
    %9 = "complex.div"(%7, %8) <{fastmath = #arith.fastmath<none>}> : (complex<f64>, complex<f64>) -> complex<f64>
    %10 = "arith.constant"() <{value = dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f32>>}> : () -> tensor<2xcomplex<f32>>
    %11 = "arith.constant"() <{value = dense<[(1.000000e+00,5.000000e-01), (1.000000e-01,-3.000000e+00)]> : tensor<2xcomplex<f64>>}> : () -> tensor<2xcomplex<f64>>
    %12 = "arith.constant"() <{value = dense<[(1,2), (3,-4)]> : tensor<2xcomplex<i16>>}> : () -> tensor<2xcomplex<i16>>
    "func.return"(%9) : (complex<f64>) -> ()
  }) : () -> ()
}) : () -> ()

