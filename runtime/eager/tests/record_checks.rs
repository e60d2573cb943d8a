//! Everything the back end refuses is refused when the op is recorded (issue 43, class 4):
//! every op of `Tensor`'s API, on every element type and on shapes of rank 0 to 5 (size-1 dims
//! anywhere), at every `--opt_level`, either fails at the op or gives a value when read, never
//! an error at the read.

use kiln_eager::{CmpPredicate, DType, Flags, GeluApproximation, Result, Session, Tensor};

/// Little-endian bytes of `n` small values of `dtype` (nonzero, so that divisions compile the
/// way they do for real data).
fn bytes(dtype: DType, n: usize) -> Vec<u8> {
    let v = |i: usize| (i % 5) as f32 - 1.5;
    (0..n)
        .flat_map(|i| match dtype {
            DType::F32 => v(i).to_le_bytes().to_vec(),
            DType::F16 => half::f16::from_f32(v(i)).to_le_bytes().to_vec(),
            DType::BF16 => half::bf16::from_f32(v(i)).to_le_bytes().to_vec(),
            DType::I32 => ((i % 7) as i32 - 3).to_le_bytes().to_vec(),
            DType::I8 => vec![((i % 7) as i8 - 3) as u8],
            DType::I1 => vec![(i % 2) as u8],
            DType::I64 => ((i % 7) as i64 - 3).to_le_bytes().to_vec(),
        })
        .collect()
}

type Op = (&'static str, fn(&Session, &Tensor) -> Result<Tensor>);

fn ops() -> Vec<Op> {
    vec![
        ("add", |_, x| x.add(x)),
        ("sub", |_, x| x.sub(1.0)),
        ("mul", |_, x| x.mul(x)),
        ("div", |_, x| x.div(2.0)),
        ("pow", |_, x| x.pow(2.0)),
        ("maximum", |_, x| x.maximum(0.0)),
        ("minimum", |_, x| x.minimum(x)),
        ("and", |_, x| x.logical_and(x)),
        ("or", |_, x| x.logical_or(1.0)),
        ("neg", |_, x| x.neg()),
        ("abs", |_, x| x.abs()),
        ("exp", |_, x| x.exp()),
        ("log", |_, x| x.log()),
        ("sqrt", |_, x| x.sqrt()),
        ("rsqrt", |_, x| x.rsqrt()),
        ("reciprocal", |_, x| x.reciprocal()),
        ("tanh", |_, x| x.tanh()),
        ("sigmoid", |_, x| x.sigmoid()),
        ("relu", |_, x| x.relu()),
        ("silu", |_, x| x.silu()),
        ("erf", |_, x| x.erf()),
        ("floor", |_, x| x.floor()),
        ("ceil", |_, x| x.ceil()),
        ("round", |_, x| x.round()),
        ("sign", |_, x| x.sign()),
        ("not", |_, x| x.logical_not()),
        ("clamp", |_, x| x.clamp(Some(-1.0), Some(1.0))),
        ("gelu", |_, x| x.gelu(GeluApproximation::None)),
        ("gelu_tanh", |_, x| x.gelu(GeluApproximation::Tanh)),
        ("cmp", |_, x| x.cmp(CmpPredicate::Lt, 0.5)),
        ("select", |_, x| x.cmp(CmpPredicate::Ne, 0.0)?.select(x, 0.0)),
        ("select_scalars", |_, x| x.cmp(CmpPredicate::Ne, 0.0)?.select(1.0, 0.0)),
        ("sum_0", |_, x| x.sum(&[0], false)),
        ("sum_last_keep", |_, x| x.sum(&[-1], true)),
        ("max_all", |_, x| x.max(&(0..x.shape().len() as i64).collect::<Vec<_>>(), false)),
        ("min_0_keep", |_, x| x.min(&[0], true)),
        ("prod_last", |_, x| x.prod(&[-1], false)),
        ("mean_all_keep", |_, x| x.mean(&(0..x.shape().len() as i64).collect::<Vec<_>>(), true)),
        ("cast_f32", |_, x| x.cast(DType::F32)),
        ("cast_f16", |_, x| x.cast(DType::F16)),
        ("cast_bf16", |_, x| x.cast(DType::BF16)),
        ("cast_i32", |_, x| x.cast(DType::I32)),
        ("cast_i8", |_, x| x.cast(DType::I8)),
        ("cast_i1", |_, x| x.cast(DType::I1)),
        ("broadcast_to", |_, x| {
            let shape: Vec<i64> = std::iter::once(2).chain(x.shape().iter().map(|&d| d as i64)).collect();
            x.broadcast_to(&shape)
        }),
        ("reshape", |_, x| x.reshape(&[x.shape().iter().product::<usize>() as i64])),
        ("transpose", |_, x| x.transpose(&(0..x.shape().len() as i64).rev().collect::<Vec<_>>())),
        ("slice", |_, x| {
            let s = x.shape();
            let limits: Vec<i64> = s.iter().map(|&d| (d as i64 + 1) / 2).collect();
            x.slice(&vec![0; s.len()], &limits, &vec![1; s.len()])
        }),
        ("expand_dims", |_, x| x.expand_dims(0)),
        ("squeeze", |_, x| {
            let ones: Vec<i64> =
                x.shape().iter().enumerate().filter(|(_, &d)| d == 1).map(|(i, _)| i as i64).collect();
            x.squeeze(&ones)
        }),
        ("concat", |_, x| x.concat(&[x], 0)),
        ("matmul", |_, x| x.matmul(x, false, true)),
        ("batch_matmul", |_, x| x.batch_matmul(x, false, true)),
        ("batch_matmul_broadcast", |_, x| x.batch_matmul(&x.sum(&[0], true)?, false, true)),
        ("softmax", |_, x| x.softmax(-1)),
        ("layer_norm", |s, x| {
            let n = *x.shape().last().unwrap_or(&1);
            let g = s.tensor_from_bytes(bytes(x.dtype(), n), &[n], x.dtype())?;
            x.layer_norm(&g, &g, 1e-5)
        }),
        ("layer_norm_scalar_params", |s, x| {
            let g = s.tensor_from_bytes(bytes(x.dtype(), 1), &[], x.dtype())?;
            x.layer_norm(&g, &g, 1e-5)
        }),
    ]
}

#[test]
fn every_op_is_refused_at_the_op_or_computes() {
    let shapes: &[&[usize]] =
        &[&[], &[1], &[5], &[1, 3], &[4, 1], &[2, 3], &[1, 1, 3], &[2, 1, 4, 1], &[2, 3, 1, 2, 2]];
    let dtypes = [DType::F32, DType::F16, DType::BF16, DType::I32, DType::I8, DType::I1];
    let mut late = Vec::new();
    let (mut refused, mut computed) = (0, 0);
    for level in 0..=2 {
        let s = Session::new(Flags::parse(&format!("--opt_level={level}")).unwrap().flags).unwrap();
        for &shape in shapes {
            for dtype in dtypes {
                let n = shape.iter().product();
                let x = s.tensor_from_bytes(bytes(dtype, n), shape, dtype).unwrap();
                for (name, op) in ops() {
                    match op(&s, &x) {
                        Err(_) => refused += 1,
                        Ok(y) => match y.host() {
                            Ok(_) => computed += 1,
                            Err(e) => {
                                late.push(format!("--opt_level={level} {name} of {:?} {shape:?}: {e}", dtype))
                            }
                        },
                    }
                }
            }
        }
    }
    assert!(late.is_empty(), "{} ops failed at the read, not at the op:\n{}", late.len(), late.join("\n"));
    eprintln!("{computed} computed, {refused} refused at the op");
    assert!(computed > refused, "{computed} computed, {refused} refused");
}
