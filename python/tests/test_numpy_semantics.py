"""Regression tests of issue 43's Python classes (4: errors at the op that caused them, 5:
where's dtype, 6: threads, 7: rank-0 arrays) and of the numpy semantics the module docstring
documents (promotion, scalars, integer division, bool(), float64 and int64 input)."""

import threading

import numpy as np
import pytest

import kiln


def k(a):
    return kiln.asarray(a)


def same(got, want):
    """``got`` (a kiln array) equals ``want`` in shape, dtype and values (NaN equal)."""
    assert isinstance(got, kiln.ndarray), type(got)
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


# Class 4: an error belongs to the op that caused it ----------------------------------------


def test_matmul_broadcasts_batch_dims_as_numpy():
    a = np.arange(4, dtype=np.float32).reshape(2, 1, 2)
    b = np.arange(2, dtype=np.float32).reshape(1, 2, 1)
    same(kiln.matmul(k(a), k(b)), a @ b)
    x = k(np.ones(3, np.float32)) * 2
    same(x, np.full(3, 2, np.float32))
    # numpy's other matmul cases: vectors, a 2-D operand against a batch, ranks 4 and 2.
    v, m, t = np.arange(3, dtype=np.float32), np.ones((3, 3), np.float32), np.ones((2, 3, 3), np.float32)
    same(k(v) @ k(v), v @ v)
    same(k(v) @ k(m), v @ m)
    same(k(m) @ k(v), m @ v)
    same(k(m) @ k(t), m @ t)
    q = np.arange(24, dtype=np.float32).reshape(2, 1, 3, 4)
    same(k(q) @ k(np.ones((4, 2), np.float32)), q @ np.ones((4, 2), np.float32))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        k(m) @ k(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        kiln.matmul(k(np.float32(1)), k(v))
    with pytest.raises(TypeError):
        k(np.ones((2, 2), np.int32)) @ k(np.ones((2, 2), np.int32))


def test_what_compile_would_refuse_raises_at_the_call_and_later_work_goes_on():
    s = k(np.float32(3))
    with pytest.raises(ValueError, match="layer_norm"):
        kiln.layer_norm(s, s, s)
    x = k(np.arange(3, dtype=np.float32))
    same(x * 2, np.arange(3, dtype=np.float32) * 2)
    same(k([1.0, 2.0]), np.array([1, 2], np.float32))
    with pytest.raises(MemoryError):
        kiln.broadcast_to(x, (1 << 20, 1 << 20, 3))
    with pytest.raises(ValueError, match="could not be broadcast"):
        k(np.ones((2, 3), np.float32)) + k(np.ones(4, np.float32))
    with pytest.raises(np.exceptions.AxisError):
        x.sum(axis=1)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        x.sum(axis=(0, -1))
    with pytest.raises(ValueError):
        kiln.transpose(k(np.ones((2, 3), np.float32)), (0, 0))
    with pytest.raises(ValueError):
        kiln.reshape(x, (2, -1))
    with pytest.raises(np.exceptions.AxisError):
        kiln.softmax(s)
    with pytest.raises(ValueError, match="zero-size"):
        k(np.ones((0, 3), np.float32))
    same(kiln.exp(x) + 1, np.exp(np.arange(3, dtype=np.float32)) + 1)


# Class 5: where's result dtype --------------------------------------------------------------


def test_where_with_scalar_branches_follows_the_branches_not_the_condition():
    x = np.array([1.0, -2.0, 3.0], np.float32)
    c = k(x) > 0
    same(kiln.where(c, 1.0, 0.0), np.array([1, 0, 1], np.float32))
    same(kiln.where(c, 1, 0), np.array([1, 0, 1], np.int32))
    same(kiln.where(c, True, False), np.array([True, False, True]))
    same(kiln.where(c, 1, 0.5), np.array([1, 0.5, 1], np.float32))
    same(kiln.where(c, k(x), 0), np.where(x > 0, x, 0).astype(np.float32))
    i8 = np.array([1, 2, 3], np.int8)
    same(kiln.where(c, k(i8), 7), np.where(x > 0, i8, np.int8(7)))
    same(kiln.where(c, k(i8), 0.5), np.where(x > 0, i8, 0.5).astype(np.float32))
    same(kiln.where(k(x), 1.0, 0.0), np.ones(3, np.float32))  # a float condition: nonzero
    with pytest.raises(OverflowError):
        kiln.where(c, k(i8), 300)


# Class 6: threads ---------------------------------------------------------------------------


def test_every_thread_uses_the_session_and_every_array():
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    shared = k(base)
    results, errors = {}, []

    def work(i):
        try:
            for j in range(20):
                y = kiln.tanh(shared * float(i) + j) - k(base)  # an array of another thread, and one of its own
                z = y.sum(axis=1)
                if j % 5 == 0:
                    kiln.sync()
            results[i] = (z.numpy().copy(), y.numpy())
        except BaseException as e:  # a PanicException is a BaseException
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i in range(4):
        want = np.tanh(base * i + 19) - base
        np.testing.assert_allclose(results[i][0], want.sum(axis=1), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(results[i][1], want, rtol=1e-5, atol=1e-6)
    # Views made in a thread outlive it and are dropped here; arrays made here are read there.
    made = k(base) * 3
    out = []
    t = threading.Thread(target=lambda: out.append((made + 1).numpy()))
    t.start()
    t.join()
    np.testing.assert_array_equal(out[0], base * 3 + 1)
    results.clear()  # the views made on other threads are dropped here
    out.clear()
    same(made, base * 3)


# Class 7: rank 0 ----------------------------------------------------------------------------


def test_rank_0_arrays_work_through_every_op():
    for v in (np.float32(2.5), np.array(2.5, np.float32), 2.5):
        assert k(v).shape == () and k(v).dtype == np.float32
    assert k(3).shape == () and k(3).dtype == np.int32
    assert k(True).shape == () and k(True).dtype == np.bool_
    f = np.float32(0.75)
    x = k(f)
    same(x + 1, f + np.float32(1))
    same(x * k(np.ones((2, 3), np.float32)), f * np.ones((2, 3), np.float32))
    for name in ["exp", "log", "tanh", "sqrt", "abs", "negative", "floor", "ceil"]:
        same(getattr(kiln, name)(x), getattr(np, name)(f))
    same(kiln.sigmoid(x), np.float32(1 / (1 + np.exp(-0.75))))
    same(kiln.relu(-x), np.float32(0))
    same(kiln.maximum(x, 1.0), np.float32(1))
    same(kiln.where(x > 0, x, 0.0), f)
    for name in ["sum", "max", "min", "mean"]:
        same(getattr(kiln, name)(x), getattr(np, name)(f))
        same(getattr(x, name)(axis=()), f)
    same(x.reshape(1, 1), np.full((1, 1), f))
    same(k(np.ones((1, 1), np.float32)).reshape(()), np.float32(1))
    same(x.T, f)
    same(x.astype(np.int32), np.int32(0))
    same(kiln.broadcast_to(x, (2,)), np.full(2, f))
    same(x > 0.5, np.True_)
    assert bool(x) and float(x) == 0.75 and int(k(7)) == 7 and x.item() == 0.75
    with pytest.raises(TypeError):
        len(x)


# Numpy semantics (the module docstring's list) ----------------------------------------------


def test_python_scalars_take_the_array_dtype_or_raise_when_they_do_not_fit():
    i8 = np.array([1, -2, 100], np.int8)
    same(k(i8) + 27, i8 + 27)
    same(k(i8) * 2, i8 * 2)  # wraps, as numpy
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        k(i8) + 300
    with pytest.raises(OverflowError):
        k(np.ones(2, np.int32)) * (1 << 40)
    same(k(i8) + 1.5, i8.astype(np.float32) + 1.5)  # float scalar: float32 (numpy: float64)
    same(k(np.array([True, False])) + 1, np.array([2, 1], np.int32))
    h = np.array([1, 2], np.float16)
    same(k(h) * 3, h * 3)
    same(k(h) + np.float64(0.5), h + np.float16(0.5))
    same(k(np.array([True, False])) + True, np.array([True, True]))


def test_arrays_promote_as_numpy_where_kiln_has_the_result():
    i8, i32 = np.array([1, 2], np.int8), np.array([3, 4], np.int32)
    f16, f32, b = np.array([0.5, 1.5], np.float16), np.array([2.0, 3.0], np.float32), np.array([True, False])
    same(k(i8) + k(i32), i8 + i32)
    same(k(i8) * k(f16), i8 * f16)
    same(k(f16) - k(f32), f16 - f32)
    same(k(f32) * k(b), f32 * b)
    same(k(b) * k(b), b * b)
    same(k(b) + k(b), b + b)
    same(k(f32) == k(i8), f32 == i8)
    with pytest.raises(TypeError, match="float64"):
        k(i32) + k(f32)
    with pytest.raises(TypeError):
        k(b) - k(b)
    with pytest.raises(TypeError):
        -k(b)
    same(k(b) ^ k(np.array([True, True])), np.array([False, True]))
    same(~k(b), ~b)
    with pytest.raises(TypeError):
        k(i32) & k(i32)


def test_integer_division():
    a = np.array([7, -7, 7, -7, 0, 5, -128], np.int32)
    b = np.array([2, 2, -2, -2, 3, 0, -1], np.int32)
    with np.errstate(divide="ignore"):
        same(k(a) / k(b), a.astype(np.float32) / b.astype(np.float32))  # float32 (numpy: float64)
        same(k(a) // k(b), a // b)
        same(k(a) % k(b), a % b)
        for s in (3, -3, 1, 0):
            same(k(a) // s, a // s)
            same(k(a) % s, a % s)
            same(s // k(b), s // b)
    i8 = np.array([-128, 127, -5], np.int8)
    with np.errstate(over="ignore"):
        same(k(i8) // k(np.array([-1, -1, 2], np.int8)), i8 // np.array([-1, -1, 2], np.int8))
    same(k(np.array([1, 2], np.int32)) / 2, np.array([0.5, 1.0], np.float32))
    with pytest.raises(TypeError):
        k(np.ones(2, np.float32)) // 2
    with pytest.raises(ValueError, match="negative integer powers"):
        k(np.ones(2, np.int32)) ** -1
    same(k(np.array([2, 3], np.int32)) ** 2, np.array([4, 9], np.int32))
    # numpy's x ** 0.5 is sqrt(x): NaN for -inf (C's pow gives inf), -0.0 for -0.0.
    x = np.array([-np.inf, -0.0, 4.0, -1.0], np.float32)
    with np.errstate(invalid="ignore"):
        got = (k(x) ** 0.5).numpy()
        np.testing.assert_array_equal(got, x ** 0.5)
    assert np.signbit(got[1])


def test_truth_values_and_conversions():
    assert bool(k(np.array([1.0], np.float32)))
    assert not bool(k(np.zeros((1, 1), np.float32)))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(k(np.ones(2, np.float32)))
    with pytest.raises(TypeError):
        float(k(np.ones(2, np.float32)))
    assert len(k(np.ones((3, 2), np.float32))) == 3


def test_float64_and_int64_input():
    same(k([1.5, 2.5]), np.array([1.5, 2.5], np.float32))
    same(k([1, 2]), np.array([1, 2], np.int32))
    with pytest.raises(OverflowError):
        k([1, 1 << 40])
    with pytest.raises(OverflowError):
        k([1, 1 << 63])  # numpy infers float64 for it: kiln made it float32 once
    same(k([True, 2]), np.array([1, 2], np.int32))
    with pytest.raises(TypeError, match="float64"):
        k(np.ones(2))
    with pytest.raises(TypeError, match="int64"):
        k(np.ones(2, np.int64))
    same(kiln.asarray(np.ones(2), dtype=np.float32), np.ones(2, np.float32))
    same(kiln.asarray(np.array([-3, 7], np.int64), dtype=np.int8), np.array([-3, 7], np.int8))
    same(kiln.asarray(np.array([2.9, -2.9]), dtype=np.int32), np.array([2, -2], np.int32))
    with pytest.raises(OverflowError):
        kiln.asarray(np.array([1 << 40], np.int64), dtype=np.int32)  # numpy's astype wraps it
    with pytest.raises(OverflowError):
        kiln.asarray(np.array([300.0]), dtype=np.int8)
    with pytest.raises(ValueError):
        kiln.asarray(np.array([np.nan]), dtype=np.int32)
    with pytest.raises(OverflowError):
        kiln.asarray([1 << 40], dtype=np.int32)
    same(k(np.array([1, 2], ">i4")), np.array([1, 2], np.int32))
    same(k(np.arange(6, dtype=np.float32).reshape(2, 3).T), np.arange(6, dtype=np.float32).reshape(2, 3).T)
