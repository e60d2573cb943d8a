#!/usr/bin/env python3
"""A random op-stream fuzzer of the ``kiln`` package against numpy.

Each stream (one seed) is a random program of the package's public API: ``kiln.__all__``, the
operators (``+ - * / // % ** @``, comparisons, ``& | ^ ~``, unary ``- + abs``) and the array
methods and conversions (``astype``, ``reshape``, ``transpose``/``.T``, ``sum/max/min/mean``,
``bool/float/int/len``, ``item``, ``tolist``, ``np.array``, ``repr``), over random shapes
(rank 0 to 6, size-1 dims anywhere, broadcasting pairs, now and then arrays of 10^5
elements), the five dtypes, Python and numpy scalars and numpy arrays as operands, NaN / inf /
-0.0 / huge values, random flags (``kiln.set_flags``:
``opt_level`` 0/1/2, ``flush_threshold``, ``cache_size``, ``enable_ops`` / ``disable_ops`` /
``enable_ops_only``, ``direct_emit``, ``dump_as_text``), random flush points (``sync``,
``.numpy()`` in the middle), values dropped after their last use (so that they stay inside
the kernels), and hostile calls (bad axes, shapes that do not broadcast, wrong dtypes, float64
and int64 input, size 0, Python ints that do not fit, results of terabytes that must be
refused, not allocated).

Every op's result is checked against an oracle: numpy on the same inputs, with the documented
differences below. Floats within ``|kiln - ref| <= atol + rtol * scale`` (f32: rtol 1e-4, atol
1e-5; f16: 1e-2, 1e-3; ``scale`` is ``|ref|``, or for sums, means, matmuls and layer_norm the
same computation on absolute values, which bounds their rounding), NaN where the oracle has
NaN, infinities of the same sign; ints and bools exactly. A float computed from a float16 one
is held to float16's tolerance (its rounding stays in it). When a value differs, the op is
checked again on kiln's own operand values (a dropped operand: the oracle of kiln's values of
the nearest live ones), so that an f32 ulp that an earlier transcendental left is not taken
for a wrong op; the operands of discontinuous ops (comparisons, floor, casts to int, where)
and of ops that amplify their operands' relative errors (``/``, ``**``, log: a denormal that
passed its own check by the absolute tolerance may be far from the oracle's in relative
terms) are never dropped, so that they are always checked this way. An op must raise where the oracle
raises (any exception type, or the documented one) and nowhere else; a value whose op did not
raise must be readable (no error held back for a later call); a ``BaseException`` that is not an
``Exception`` (pyo3's ``PanicException``) is always a failure.

The oracle's documented differences from numpy (the ``kiln`` module docstring and
``docs/eager.md`` list them for users):

- no float64 / int64: numpy's float64 results are float32 and int64 results int32 (``/`` of
  ints, a float scalar with an int array, ``where(c, 1.0, 0.0)``, ``sum`` of ints, ``mean`` of
  ints); exp/log/tanh/sigmoid/sqrt/softmax/layer_norm of bool and int8 arrays are float32
  (numpy: float16); Python data is float32 / int32 (an int outside int32 raises
  OverflowError); numpy float64 / int64 arrays and scalars raise TypeError in ``asarray``
  unless ``dtype=`` converts them; numpy scalars in ops are weak, as Python scalars;
- raises where numpy computes: int32 with a float array (numpy: float64), ``//`` and ``%`` of
  float or bool arrays, ``**`` of bool arrays, ``& | ^ ~`` of int arrays, int matmul, size-0
  arrays (ValueError), values past 1 GiB (MemoryError: numpy makes a broadcast view or
  allocates), a Python int that does not fit an int8 array in ``where`` (numpy wraps it);
- computes where numpy raises: int ``**`` a negative exponent array gives ``trunc(b ** e)``;
- ``**`` an exponent array of one element 0.5 is C's pow, not numpy's sqrt (``(-inf) ** e``
  is inf, not NaN);
- ``astype`` from float to int truncates and saturates, NaN gives 0 (numpy: undefined);
- an int ``axis`` 0 or -1 of a 0-d array is an AxisError (numpy's sum, max and min take it,
  its mean does not);
- ``maximum`` / ``minimum`` of +0.0 and -0.0 may give either zero (kiln gives the first
  operand, numpy the second): their results stay alive, so that an op that divides by such a
  zero is checked on kiln's zero; and a float16 or float32 result within rounding of the
  dtype's largest value may be that value or an infinity of its sign.

Usage::

    python3 python/tests/fuzz_ops.py --streams 10000          # seeds 0..9999
    python3 python/tests/fuzz_ops.py --seed 1234 --verbose     # one stream, printed
    python3 python/tests/fuzz_ops.py --minimize 1234           # the smallest failing program

A failing stream prints its seed and a Python snippet that replays it (run it from
``python/tests``: big inputs are made by ``fuzz_ops.data``); the session is shared by the
streams of a run, as a program's would be, so a failure may need the streams before it (rerun
with ``--start``). ``test_fuzz.py`` runs 400 streams under pytest.
"""

import argparse
import builtins
import math
import sys
import tempfile
import time
import traceback
import warnings

import numpy as np

import kiln

# Back-end bugs the generator avoids until they are fixed (issue 43; see the report of the
# session that found them). Each entry: name -> whether the pattern is excluded.
# The highest rank an array gets (the back end's limit: 8, as numpy's own are much higher).
MAX_RANK = 8

F32, F16, I32, I8, BOOL, F64 = (np.dtype(t) for t in (np.float32, np.float16, np.int32, np.int8, np.bool_, np.float64))
DTYPES = (BOOL, I8, I32, F16, F32)
KIND = {BOOL: 0, I8: 1, I32: 1, F16: 2, F32: 2}
DEFAULT = {0: BOOL, 1: I32, 2: F32}
TOL = {F32: (1e-4, 1e-5), F16: (1e-2, 1e-3)}
NP_NAME = {F32: "np.float32", F16: "np.float16", I32: "np.int32", I8: "np.int8", BOOL: "np.bool_",
           F64: "np.float64", np.dtype(np.int64): "np.int64"}
GIB = 1 << 30


class Refused(Exception):
    """The oracle's verdict that kiln raises (a documented difference from numpy); ``exc`` is
    the exception type kiln must raise."""

    def __init__(self, reason, exc=Exception):
        super().__init__(reason)
        self.exc = exc


# Errors numpy (or the oracle's documented rules) raises for bad calls; any other exception in
# the oracle is a bug of the fuzzer and stops it.
EXPECTED = (Refused, ValueError, TypeError, IndexError, OverflowError, MemoryError, ZeroDivisionError)


# The oracle ---------------------------------------------------------------------------------


def scalar_kind(v):
    if isinstance(v, (bool, np.bool_)):
        return 0
    if isinstance(v, (int, np.integer)):
        return 1
    return 2


def common(ops):
    """The dtype kiln computes ``ops`` in (at least one array): numpy's promotion of the arrays
    (refused where it leaves Kiln's dtypes), raised to a scalar's default dtype when the scalar
    is of a higher kind."""
    arrays = [o for o in ops if isinstance(o, np.ndarray)]
    d = arrays[0].dtype
    for a in arrays[1:]:
        d = np.result_type(d, a.dtype)
        if d not in DTYPES:
            raise Refused(f"int32 with a float array promotes to {d}", TypeError)
    for s in ops:
        if not isinstance(s, np.ndarray) and scalar_kind(s) > KIND[d]:
            d = DEFAULT[scalar_kind(s)]
    return d


def conv(x, d):
    """Operand ``x`` (array or scalar) in dtype ``d``, as kiln converts it."""
    if isinstance(x, np.ndarray):
        return x.astype(d)
    if d.kind == "i" and not isinstance(x, (bool, np.bool_)):
        info = np.iinfo(d)
        if not info.min <= int(x) <= info.max:
            raise Refused(f"Python integer {x} out of bounds for {d}", OverflowError)
        return np.array(int(x), d)
    return np.array(x).astype(d)


def prepare(ops):
    """As ``kiln._prepare``: if every operand is a scalar, the one of the highest kind is a 0-d
    array of its default dtype."""
    ops = list(ops)
    if not any(isinstance(o, np.ndarray) for o in ops):
        i = builtins.max(range(len(ops)), key=lambda i: scalar_kind(ops[i]))
        ops[i] = conv(ops[i], DEFAULT[scalar_kind(ops[i])])
    return ops, common(ops)


def f64(x):
    return x.astype(np.float64)


def check_size(r):
    r = np.asarray(r)
    if r.size == 0:
        raise Refused("size-0 arrays", ValueError)
    if r.nbytes > GIB:
        raise Refused("values past 1 GiB", MemoryError)
    return r


def float_result(fn, d, *xs):
    """``fn`` of float64 ``xs``, rounded to ``d``."""
    return check_size(np.asarray(fn(*[f64(x) for x in xs])).astype(d))


BINARY_FLOAT = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide, "pow": np.power,
    "maximum": np.maximum, "minimum": np.minimum,
}
COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def int_pow(b, e, d):
    """kiln's ``**`` of ints: numpy's (wrapping) where ``e >= 0``, ``trunc(b ** e)`` elsewhere."""
    b, e = np.broadcast_arrays(b.astype(d), e.astype(d))
    out = np.power(b, np.where(e < 0, 0, e)).astype(d)
    neg = np.where(b == 1, 1, np.where(b == -1, np.where(e % 2 == 0, 1, -1), 0)).astype(d)
    return np.where(e < 0, neg, out)


def o_binary(name, a, b):
    """kiln's binary op ``name`` (``add``, ``floordiv``, ``eq``, ``and``, ...)."""
    (a, b), d = prepare([a, b])
    if name in COMPARE:
        return check_size(COMPARE[name](conv(a, d), conv(b, d)))
    if name in ("and", "or", "xor"):
        if d != BOOL:
            raise Refused("bitwise ops of int arrays", TypeError)
        f = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}[name]
        return check_size(f(conv(a, d), conv(b, d)))
    if name == "div":
        d = d if d.kind == "f" else F32
        return float_result(np.true_divide, d, conv(a, d), conv(b, d))
    if name in ("floordiv", "mod"):
        if d.kind != "i":
            raise Refused("// and % of float or bool arrays", TypeError)
        f = np.floor_divide if name == "floordiv" else np.remainder
        return check_size(f(conv(a, d), conv(b, d)).astype(d))
    if d == BOOL:
        if name == "pow":
            raise Refused("** of bool arrays", TypeError)
        f = {"add": np.logical_or, "maximum": np.logical_or, "mul": np.logical_and, "minimum": np.logical_and}.get(name)
        if f is None:
            raise TypeError("numpy boolean subtract is not supported")
        return check_size(f(conv(a, d), conv(b, d)))
    if d.kind == "i":
        if name == "pow":
            if not isinstance(b, np.ndarray) and int(b) < 0:
                raise ValueError("Integers to negative integer powers are not allowed.")
            return check_size(int_pow(conv(a, d), conv(b, d), d))
        f = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "maximum": np.maximum, "minimum": np.minimum}[name]
        return check_size(f(conv(a, d), conv(b, d)).astype(d))
    if name == "pow" and isinstance(b, np.ndarray):
        # C's pow elementwise: numpy takes an exponent of one element 0.5 as sqrt (documented),
        # so the operands get one more element.
        x, e = np.broadcast_arrays(f64(conv(a, d)), f64(conv(b, d)))
        r = np.power(np.append(x.ravel(), 1.0), np.append(e.ravel(), 1.0))[:-1].reshape(x.shape)
        return check_size(r.astype(d))
    return float_result(BINARY_FLOAT[name], d, conv(a, d), conv(b, d))


def numpy_binary(name, a, b):
    """numpy's own result of binary op ``name`` on the raw operands (Python scalars stay
    Python scalars)."""
    f = {**BINARY_FLOAT, **COMPARE, "floordiv": np.floor_divide, "mod": np.remainder,
         "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[name]
    return f(a, b)


def allowed_dtype(kiln_d, numpy_d):
    """Whether kiln's dtype ``kiln_d`` is numpy's ``numpy_d`` up to the documented narrowing."""
    return kiln_d == numpy_d or (numpy_d == F64 and kiln_d == F32) or (numpy_d == np.int64 and kiln_d == I32)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


UNARY_FLOAT = {"exp": np.exp, "log": np.log, "tanh": np.tanh, "sigmoid": sigmoid, "sqrt": np.sqrt}


def as_float(x):
    return x if x.dtype.kind == "f" else x.astype(F32)


def o_unary(name, x):
    if name in UNARY_FLOAT:
        x = as_float(x)
        return float_result(UNARY_FLOAT[name], x.dtype, x)
    if name in ("floor", "ceil"):
        return x if x.dtype.kind != "f" else check_size(getattr(np, name)(x))
    if name == "abs":
        return x if x.dtype == BOOL else check_size(np.abs(x))
    if name == "negative":
        return check_size(np.negative(x))  # numpy raises for bool, as kiln
    if name == "positive":
        return check_size(np.positive(x))
    if name == "relu":
        return x if x.dtype == BOOL else check_size(np.maximum(x, np.zeros((), x.dtype)))
    if name == "invert":
        if x.dtype != BOOL:
            raise Refused("bitwise not of int arrays", TypeError)
        return check_size(~x)
    raise KeyError(name)


def o_where(c, a, b):
    c = c if c.dtype == BOOL else (c != 0)
    (a, b), d = prepare([a, b])
    return check_size(np.where(c, conv(a, d), conv(b, d)))


def o_reduce(name, x, axis, keepdims):
    f = {"sum": np.sum, "max": np.max, "min": np.min, "mean": np.mean}[name]
    # numpy's axis errors (an int axis as a tuple: numpy's sum/max/min take axis 0 of a 0-d
    # array, its mean and every tuple do not; kiln never does).
    f(np.zeros(x.shape, np.int8), axis=(axis,) if isinstance(axis, int) else axis)
    if name == "sum":
        d = x.dtype if x.dtype.kind == "f" else I32
        r = np.sum(x.astype(np.float64 if d.kind == "f" else np.int64), axis=axis, keepdims=keepdims).astype(d)
        scale = np.sum(np.abs(f64(x)), axis=axis, keepdims=keepdims) if d.kind == "f" else None
        return check_size(r), scale
    if name == "mean":
        x = as_float(x)
        r = np.mean(f64(x), axis=axis, keepdims=keepdims).astype(x.dtype)
        return check_size(r), np.mean(np.abs(f64(x)), axis=axis, keepdims=keepdims)
    return check_size(f(x, axis=axis, keepdims=keepdims)), None


def o_matmul(a, b):
    (a, b), d = prepare([a, b])
    a, b = conv(a, d), conv(b, d)
    np.matmul(np.zeros(a.shape, np.int8), np.zeros(b.shape, np.int8))  # numpy's shape errors
    if d.kind != "f":
        raise Refused("int matmul", TypeError)
    r = float_result(np.matmul, d, a, b)
    return r, np.matmul(np.abs(f64(a)), np.abs(f64(b)))


def o_softmax(x, axis):
    x = as_float(x)
    y = f64(x)
    m = np.max(y, axis=(axis,), keepdims=True)
    with np.errstate(all="ignore"):
        e = np.exp(y - m)
        r = e / np.sum(e, axis=axis, keepdims=True)
    return check_size(r.astype(x.dtype)), None


def o_layer_norm(x, g, b, eps):
    """kiln's decomposition, ``c = x - mean(x)``, ``c * rsqrt(mean(c * c) + eps) * g + b``, each
    op rounded to x's dtype (means in float64, rounded once): float32 squares of 1e30 overflow,
    as kiln's (and numpy's float32 var) do."""
    x = as_float(x)
    if x.ndim == 0:
        raise Refused("layer_norm of a 0-d array", ValueError)
    d = x.dtype
    g, b = (conv(v, d) for v in (g, b))
    for v in (g, b):
        if v.ndim > x.ndim or np.broadcast_shapes(x.shape, v.shape) != x.shape:
            raise ValueError("gamma and beta must broadcast to x")
    mean = lambda v: np.mean(f64(v), -1, keepdims=True).astype(d)
    c = (x - mean(x)).astype(d)
    var = mean((c * c).astype(d))
    inv = (1 / np.sqrt(f64(var) + np.float64(np.float32(eps)))).astype(d)
    r = (((c * inv).astype(d) * g).astype(d) + b).astype(d)
    # The rounding of mean(x) is amplified by 1 / sqrt(var + eps). Where it decides whether
    # an infinite gamma meets a zero (NaN) or not (an infinity), the result is not checked
    # (NaN scale).
    y = f64(x)
    bound = np.abs(y).max(-1, keepdims=True)
    with np.errstate(all="ignore"):
        scale = (np.abs(f64(c)) + bound) * np.abs(f64(inv)) * np.abs(f64(g)) + np.abs(f64(b))
        scale = np.where(np.isinf(f64(g)) & (np.abs(f64(c)) <= 1e-6 * bound + 1e-30), np.nan, scale)
    return check_size(r), scale


def o_astype(x, d):
    if x.dtype.kind == "f" and d.kind == "i":
        info = np.iinfo(d)
        t = np.trunc(f64(x))
        return check_size(np.where(np.isnan(t), 0, np.clip(t, info.min, info.max)).astype(d))
    return check_size(x.astype(d))


def o_reshape(x, shape):
    return check_size(np.reshape(x, shape))


def o_transpose(x, axes):
    return check_size(np.transpose(x, axes))


def o_broadcast_to(x, shape):
    if math.prod(shape) * x.itemsize > GIB and builtins.all(s >= 0 for s in shape):
        np.broadcast_to(np.zeros(x.shape, np.int8), shape)  # numpy's error first, if any (a view)
        raise Refused("values past 1 GiB", MemoryError)
    return check_size(np.broadcast_to(x, shape))


# Values and steps ---------------------------------------------------------------------------


class Val:
    """A value of the stream: its variable, the oracle's array, whether it stays alive to the
    end (else it is deleted after its last use), and the dtype whose tolerance it is checked
    with: the loosest of the floats it was computed from (a float16 value's rounding stays in
    the float32 values made of it)."""

    def __init__(self, index, ref, keep, tol=None):
        self.index, self.ref, self.keep = index, ref, keep
        self.name = f"v{index}"
        self.scaled = False
        self.tol = tol if ref.dtype.kind == "f" else None
        if self.tol is None and ref.dtype.kind == "f":
            self.tol = ref.dtype


class Lit:
    """A scalar operand: its value and how the snippet spells it."""

    def __init__(self, value, code):
        self.value = value
        self.code = f"({code})" if code.startswith("-") else code


class Step:
    """One line of the stream. ``kind``: ``value`` (defines ``out``, checked against ``ref``),
    ``raise`` (must raise: ``exc``), ``conv`` (a Python value, checked by ``check``), ``effect``
    (must not raise)."""

    def __init__(self, code, kind, out=None, fn=None, operands=(), scale=None, exc=None, check=None, exact_operands=False):
        self.code, self.kind, self.out, self.fn = code, kind, out, fn
        self.operands, self.scale, self.exc, self.check = list(operands), scale, exc, check
        self.exact_operands = exact_operands


def fmt_float(v):
    v = float(v)
    if math.isnan(v):
        return "np.nan"
    if math.isinf(v):
        return "np.inf" if v > 0 else "-np.inf"
    return repr(v)


def pylist(a):
    """Python source of ``a`` as (nested) Python lists."""
    if a.dtype.kind != "f":
        return repr(a.tolist())
    return np.array2string(a, separator=", ", threshold=sys.maxsize, formatter={"float_kind": fmt_float})


def literal(a):
    """Python source that makes numpy array ``a``."""
    return f"np.array({pylist(a)}, dtype={NP_NAME[a.dtype]})"


def data(seed, index, shape, dtype, flavor):
    """Input ``index`` of stream ``seed`` (the generator makes its inputs with it, so that a
    snippet can remake a big one)."""
    rng = np.random.default_rng([seed, index])
    n = math.prod(shape)
    d = np.dtype(dtype)
    if d == BOOL:
        return (rng.random(n) < 0.5).reshape(shape)
    if d.kind == "i":
        if flavor == "wide":
            info = np.iinfo(d)
            return rng.integers(info.min, info.max, n, endpoint=True).astype(d).reshape(shape)
        return rng.integers(-9, 10, n).astype(d).reshape(shape)
    scale = {"unit": 1.0, "wide": 100.0, "tiny": 0.01, "positive": 1.0, "special": 3.0}[flavor]
    x = rng.standard_normal(n) * scale
    if flavor == "positive":
        x = np.abs(x) + 0.1
    if flavor == "special":
        specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-30, 1e30, 65504.0, -1.0, 1.0]
        for i in rng.choice(n, size=builtins.min(n, 1 + n // 8), replace=False):
            x[i] = specials[rng.integers(len(specials))]
    with np.errstate(all="ignore"):
        return x.astype(d).reshape(shape)


# The generator ------------------------------------------------------------------------------

DIMS = [1, 1, 1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 64, 100, 128]
BAD_FLAGS = ["--opt_level=7", "opt_level=1", "--flush_threshold=0", "--enable_ops=NoSuchOp", "--direct_emit=maybe",
             "--cache_size=-1", "--opt_level"]
OP_NAMES = ["MatMul", "BatchMatMul", "Exp", "Add", "Mul", "Sub", "Div", "ReduceSum", "ReduceMax", "ReduceMean",
            "Softmax", "LayerNorm", "Transpose", "Select", "Cmp", "Cast", "Tanh", "Maximum", "BroadcastTo"]


class Gen:
    def __init__(self, seed, dump_dir):
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.steps = []
        self.vals = []
        self.inputs = 0
        self.dump_dir = dump_dir
        self.big = self.rng.random() < 0.03
        self.opt2 = self.rng.random() < 0.6  # whether the stream's flags may set opt_level 2

    # random helpers
    def chance(self, p):
        return self.rng.random() < p

    def choice(self, seq, p=None):
        return seq[self.rng.choice(len(seq), p=p)]

    def shape(self, max_elems=2048):
        for _ in range(20):
            rank = self.choice([0, 1, 2, 3, 4, 5, 6], p=[0.1, 0.25, 0.33, 0.2, 0.07, 0.03, 0.02])
            rank = builtins.min(rank, MAX_RANK)
            s = tuple(int(self.choice(DIMS)) for _ in range(rank))
            if math.prod(s) <= max_elems:
                return s
        return (3,)

    def dtype(self):
        return self.choice(list(DTYPES), p=[0.12, 0.1, 0.13, 0.15, 0.5])

    def broadcast_partner(self, s):
        """A shape that broadcasts with ``s``."""
        r = self.rng.random()
        if r < 0.3:
            return s
        if r < 0.55:
            return tuple(1 if self.chance(0.5) else d for d in s)
        if r < 0.75:
            return s[int(self.rng.integers(0, len(s) + 1)):]
        if r < 0.9 and len(s) < MAX_RANK:
            lead = tuple(int(self.choice([1, 2, 3])) for _ in range(int(self.rng.integers(1, MAX_RANK - len(s) + 1))))
            t = lead + tuple(1 if self.chance(0.3) else d for d in s)
            return t if math.prod(t) <= 8192 else s
        return ()

    # values
    def add_val(self, ref, keep, tol=None):
        v = Val(len(self.vals), ref, keep, tol)
        self.vals.append(v)
        return v

    def pick(self, pred=lambda v: True):
        live = [v for v in self.vals if pred(v)]
        if not live:
            return None
        # Recent values more often.
        w = np.array([1.0 + i for i in range(len(live))])
        return live[self.rng.choice(len(live), p=w / w.sum())]

    def new_input(self, shape=None, dtype=None, keep=None, flavor=None):
        shape = self.shape() if shape is None else tuple(shape)
        dtype = self.dtype() if dtype is None else np.dtype(dtype)
        if dtype.kind == "f" and flavor is None:
            flavor = self.choice(["unit", "unit", "wide", "tiny", "positive", "special", "special"])
        elif dtype.kind == "i":
            flavor = "wide" if flavor is None and self.chance(0.25) else "small"
        flavor = flavor or "unit"
        a = data(self.seed, self.inputs, shape, dtype, flavor)
        src = literal(a) if a.size <= 64 else f"fuzz_ops.data({self.seed}, {self.inputs}, {shape}, {NP_NAME[dtype]}, {flavor!r})"
        self.inputs += 1
        # The ways of making an array: numpy data, Python lists and scalars (float32, int32 and
        # bool are what Python data becomes).
        form = self.rng.random()
        if dtype in (F32, I32, BOOL) and a.size <= 64 and form < 0.3:
            src = pylist(a) if a.ndim else pylist(a.reshape(1))[1:-1]
            if dtype == F32 and a.ndim == 0 and form < 0.1:
                src = f"np.float32({src})"
        v = self.add_val(a, True if keep is None else keep)
        self.steps.append(Step(f"{v.name} = kiln.asarray({src})", "value", out=v, fn=lambda: a, operands=[]))
        return v

    def operand(self, v):
        return v.ref if isinstance(v, Val) else v.value

    def emit(self, code, fn, operands, keep=None, sensitive=False):
        """Adds a step computing ``fn`` of ``operands`` (Vals and Lits); ``code`` has ``{out}``
        and ``{0}``, ``{1}``... for the operands. Returns the new Val, or None if the oracle
        says the call raises."""
        args = [self.operand(o) for o in operands]
        names = [o.name if isinstance(o, Val) else o.code for o in operands]
        if sensitive:  # discontinuous, or amplifying its operands' relative errors
            for o in operands:
                if isinstance(o, Val):
                    o.keep = True
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                res = fn(*args)
            except EXPECTED as e:
                exc = e.exc if isinstance(e, Refused) else Exception
                vals = [o for o in operands if isinstance(o, Val)]
                self.steps.append(Step(code.format(*names, out="_"), "raise", exc=exc, operands=vals))
                return None
        ref, scale = res if isinstance(res, tuple) else (res, None)
        ref = np.asarray(ref)
        arrays = [o for o in operands if isinstance(o, Val)]
        for o in arrays:
            # A value checked within a computed error bound (a sum, a layer_norm) stays alive
            # where an op reads it: the op's check again on kiln's operands then takes kiln's
            # value, not the oracle's, which may be as far from it as that bound.
            if o.scaled:
                o.keep = True

        def refn(*values, fn=fn, operands=operands):
            it = iter(values)
            return fn(*[next(it) if isinstance(o, Val) else o.value for o in operands])

        keep = self.chance(0.6) if keep is None else keep
        tol = F16 if ref.dtype == F16 or builtins.any(o.tol == F16 for o in arrays) else None
        v = self.add_val(ref, keep, tol)
        v.scaled = scale is not None
        self.steps.append(Step(code.format(*names, out=v.name), "value", out=v, fn=refn, operands=arrays, scale=scale))
        return v

    def scalar(self, kind=None, for_dtype=None):
        """A Python or numpy scalar operand."""
        kind = self.choice([0, 1, 2], p=[0.1, 0.35, 0.55]) if kind is None else kind
        if kind == 0:
            v = bool(self.chance(0.5))
            return Lit(v, repr(v))
        if kind == 1:
            if for_dtype == I8 and self.chance(0.1):
                v = int(self.choice([128, 300, -129, 1000]))
            elif self.chance(0.05):
                v = int(self.choice([1 << 31, -(1 << 31) - 1, 1 << 40]))
            else:
                v = int(self.rng.integers(-5, 6))
            if self.chance(0.15):
                return Lit(np.int32(v) if -(1 << 31) <= v < (1 << 31) else v, f"np.int32({v})" if -(1 << 31) <= v < (1 << 31) else repr(v))
            return Lit(v, repr(v))
        v = float(self.choice([0.5, 1.5, -2.0, 3.0, 0.0, -0.0, 1e-3, 100.0, np.nan, np.inf, -np.inf, 1e6, 2.0]))
        if self.chance(0.15):
            return Lit(np.float64(v), f"np.float64({fmt_float(v)})")
        return Lit(v, fmt_float(v))

    # ops
    def op_unary(self):
        x = self.pick()
        name = self.choice(["exp", "log", "tanh", "sigmoid", "sqrt", "abs", "negative", "relu", "floor", "ceil",
                            "neg_op", "abs_op", "pos_op", "invert"])
        code = {"neg_op": "{out} = -{0}", "abs_op": "{out} = abs({0})", "pos_op": "{out} = +{0}",
                "invert": "{out} = ~{0}"}.get(name, f"{{out}} = kiln.{name}({{0}})")
        oname = {"neg_op": "negative", "abs_op": "abs", "pos_op": "positive"}.get(name, name)
        disc = oname in ("floor", "ceil", "log")
        self.emit(code, lambda a: o_unary(oname, a), [x], sensitive=disc)

    def binary_operands(self, hostile=False):
        a = self.pick()
        if self.chance(0.4):
            b = self.scalar(for_dtype=a.ref.dtype)
        elif self.chance(0.05):
            # A numpy array operand (kiln.asarray'd: it keeps its dtype, float64 included).
            shape = self.broadcast_partner(a.ref.shape)
            d = self.choice([a.ref.dtype, F32, I32, F64, np.dtype(np.int64)])
            arr = data(self.seed, 30_000 + len(self.steps), shape, d if d != np.int64 else I32, "unit").astype(d)
            b = Lit(arr, literal(arr) if arr.size <= 64 else f"fuzz_ops.data({self.seed}, {30_000 + len(self.steps)}, {shape}, {NP_NAME[d if d != np.int64 else I32]}, 'unit').astype({NP_NAME[d]})")
        else:
            if hostile and a.ref.ndim >= 1:
                s = list(a.ref.shape)
                i = int(self.rng.integers(len(s)))
                s[i] = s[i] + 1 if s[i] != 1 else 2
                s[i] = s[i] if s[i] != a.ref.shape[i] else s[i] + 1
                b = self.new_input(tuple(s), a.ref.dtype if self.chance(0.7) else None)
            else:
                want = self.broadcast_partner(a.ref.shape)
                b = self.pick(lambda v: v is not a and v.ref.shape == want)
                if b is None or self.chance(0.3):
                    d = a.ref.dtype if self.chance(0.75) else self.dtype()
                    b = self.new_input(want, d)
        if self.chance(0.3):
            a, b = b, a
        return a, b

    def op_binary(self, hostile=False):
        a, b = self.binary_operands(hostile)
        name = self.choice(["add", "sub", "mul", "div", "floordiv", "mod", "pow", "maximum", "minimum",
                            "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor"],
                           p=np.array([3, 2, 3, 2, 1, 1, 1, 1.5, 1.5, 1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5]) / 23.5)
        sym = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%", "pow": "**",
               "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "and": "&", "or": "|", "xor": "^"}
        keep = None
        if name in ("maximum", "minimum"):
            code = f"{{out}} = kiln.{name}({{0}}, {{1}})"
            keep = True  # the sign of its zeros is open (the module docstring)
        else:
            if isinstance(a, Lit) and name in COMPARE:
                a, b = b, a  # a scalar on the left of a comparison is Python's reflected op
            code = f"{{out}} = {{0}} {sym[name]} {{1}}"
        disc = name in COMPARE or name in ("floordiv", "mod", "div", "pow")
        v = self.emit(code, lambda x, y: o_binary(name, x, y), [a, b], keep=keep, sensitive=disc)
        if v is not None and not hostile:
            self.conformance(name, a, b, v)

    def conformance(self, name, a, b, v):
        """The oracle's dtype against numpy's own, up to the documented narrowing (a check of
        the documented rules, not of kiln)."""
        # numpy scalars are weak in kiln (documented): as Python scalars here.
        x, y = (o.item() if isinstance(o, np.generic) else o for o in (self.operand(a), self.operand(b)))
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                n = np.asarray(numpy_binary(name, x, y))
            except Exception:
                if name == "pow":  # documented: int ** negative exponent arrays compute
                    return
                raise AssertionError(f"the oracle computes {name} where numpy raises: {self.steps[-1].code}")
        if not allowed_dtype(v.ref.dtype, n.dtype):
            raise AssertionError(f"undocumented dtype: kiln {v.ref.dtype}, numpy {n.dtype}: {self.steps[-1].code}")

    def op_where(self):
        if self.chance(0.3):
            a, b = self.scalar(), self.scalar()
            shape = self.pick().ref.shape
        else:
            a, b = self.binary_operands()
            shape = (a if isinstance(a, Val) else b).ref.shape
        want = self.broadcast_partner(shape)
        c = self.pick(lambda v: v.ref.shape == want)
        if c is None or self.chance(0.3):
            c = self.new_input(want, BOOL if self.chance(0.8) else None)
        self.emit("{out} = kiln.where({0}, {1}, {2})", o_where, [c, a, b], sensitive=True)

    def axis_arg(self, rank, hostile=False):
        r = self.rng.random()
        if hostile:
            return int(self.choice([rank, -rank - 1, rank + 3])) if rank or self.chance(0.5) else 0
        if r < 0.3 or rank == 0:
            return None if rank == 0 or self.chance(0.7) else ()
        if r < 0.7:
            a = int(self.rng.integers(rank))
            return a - rank if self.chance(0.3) else a
        k = int(self.rng.integers(1, rank + 1))
        axes = [int(a) for a in self.rng.choice(rank, size=k, replace=False)]
        return tuple(a - rank if self.chance(0.3) else a for a in axes)

    def op_reduce(self, hostile=False):
        x = self.pick()
        name = self.choice(["sum", "max", "min", "mean"])
        axis = self.axis_arg(x.ref.ndim, hostile)
        if hostile and self.chance(0.3) and x.ref.ndim >= 1:
            axis = (0, -x.ref.ndim)  # duplicate
        keepdims = bool(self.chance(0.3))
        r = self.rng.random()
        if r < 0.4:
            code = f"{{out}} = {{0}}.{name}(axis={axis!r}, keepdims={keepdims})"
        elif r < 0.8:
            code = f"{{out}} = kiln.{name}({{0}}, {axis!r}, {keepdims})"
        else:
            code = f"{{out}} = kiln.{name}({{0}}, axis={axis!r})"
            keepdims = False
        self.emit(code, lambda a: o_reduce(name, a, axis, keepdims), [x])

    def op_layout(self, hostile=False):
        x = self.pick()
        s = x.ref.shape
        r = self.rng.random()
        if r < 0.4:
            n = x.ref.size
            if hostile:
                shape = (n + 1,) if self.chance(0.5) else (-1, -1)
            else:
                shape = self.factor(n)
                if shape and self.chance(0.3):
                    i = int(self.rng.integers(len(shape)))
                    shape = shape[:i] + (-1,) + shape[i + 1:]
            form = self.rng.random()
            code = ("{out} = {0}.reshape(%r)" if form < 0.4 else "{out} = kiln.reshape({0}, %r)" if form < 0.8
                    else "{out} = {0}.reshape(%s)" % ", ".join(map(str, shape)) if shape else "{out} = {0}.reshape(())")
            if "%" in code:
                code = code % (shape,)
            self.emit(code, lambda a: o_reshape(a, shape), [x])
        elif r < 0.75:
            if hostile:
                axes = tuple([0] * len(s)) if len(s) >= 2 else (0, 1)
            elif self.chance(0.2):
                axes = None
            else:
                axes = tuple(int(a) for a in self.rng.permutation(len(s)))
                axes = tuple(a - len(s) if self.chance(0.2) else a for a in axes)
            form = self.rng.random()
            code = ("{out} = {0}.T" if axes is None and form < 0.5 else
                    f"{{out}} = kiln.transpose({{0}}, {axes!r})" if form < 0.75 else
                    f"{{out}} = {{0}}.transpose({axes!r})")
            self.emit(code, lambda a: o_transpose(a, axes), [x])
        else:
            if hostile:
                shape = (1 << 20, 1 << 20) + s if self.chance(0.5) else s[:-1] + (s[-1] + 1,) if s else (0,)
            else:
                lead = builtins.min(int(self.rng.integers(0, 3)), MAX_RANK - len(s))
                shape = tuple(int(self.choice([1, 2, 3])) for _ in range(builtins.max(lead, 0))) + tuple(
                    d if d != 1 or self.chance(0.5) else int(self.choice([2, 3, 5])) for d in s)
                if math.prod(shape) > 20000:
                    shape = s
            self.emit(f"{{out}} = kiln.broadcast_to({{0}}, {shape!r})", lambda a: o_broadcast_to(a, shape), [x])

    def factor(self, n):
        """A random shape of ``n`` elements (rank 0 to 4)."""
        dims = []
        rest = n
        for _ in range(int(self.rng.integers(0, 4))):
            divisors = [d for d in range(1, builtins.min(rest, 64) + 1) if rest % d == 0]
            d = int(self.choice(divisors))
            dims.append(d)
            rest //= d
        if rest != 1 or not dims and n != 1:
            dims.append(rest)
        self.rng.shuffle(dims)
        if self.chance(0.2):
            dims.insert(int(self.rng.integers(len(dims) + 1)), 1)
        return tuple(dims)

    def op_matmul(self, hostile=False):
        r = self.rng.random()
        m, k, n = (int(self.choice([1, 2, 3, 4, 8, 16, 33])) for _ in range(3))
        batch = tuple(int(self.choice([1, 2, 3])) for _ in range(int(self.choice([0, 0, 1, 1, 2]))))
        ba = tuple(d if self.chance(0.7) else 1 for d in batch)
        bb = tuple(d if self.chance(0.7) else 1 for d in batch)
        if self.chance(0.3):
            ba = ba[int(self.rng.integers(len(ba) + 1)):]
        sa, sb = ba + (m, k), bb + (k + (1 if hostile else 0), n)
        if r < 0.15:
            sa = (k,)
        elif r < 0.3:
            sb = (k + (1 if hostile else 0),)
        d = self.choice([F32, F32, F16, I32]) if self.chance(0.9) else self.dtype()
        # Finite, moderate operands: with infinities or overflowing products the result depends
        # on the order of the accumulation.
        moderate = lambda v: v.ref.dtype.kind != "f" or bool(np.all(np.abs(f64(v.ref)) < 1e3))
        a = self.pick(lambda v: v.ref.shape == sa and moderate(v)) if self.chance(0.3) else None
        a = a or self.new_input(sa, d, flavor="unit")
        b = self.new_input(sb, d if self.chance(0.9) else self.dtype(), flavor="unit")
        code = "{out} = {0} @ {1}" if self.chance(0.5) else "{out} = kiln.matmul({0}, {1})"
        self.emit(code, o_matmul, [a, b])

    def op_softmax(self, hostile=False):
        x = self.pick()
        rank = x.ref.ndim
        axis = int(self.rng.integers(-rank, rank)) if rank and not hostile else int(self.choice([rank, -rank - 1, 0]))
        code = f"{{out}} = kiln.softmax({{0}}, {axis})" if self.chance(0.7) else f"{{out}} = kiln.softmax({{0}}, axis={axis})"
        self.emit(code, lambda a: o_softmax(a, axis), [x])

    def op_layer_norm(self, hostile=False):
        x = self.pick(lambda v: v.ref.ndim >= 1 and v.ref.dtype.kind == "f") if not hostile else self.pick()
        if x is None:
            x = self.new_input(self.shape(), F32)
        s = x.ref.shape
        last = s[-1:] if s else (1,)

        def param():
            r = self.rng.random()
            if r < 0.2:
                v = float(self.choice([1.0, 0.5, 0.0, -2.0]))
                return Lit(v, fmt_float(v))
            shape = last if r < 0.7 else s if r < 0.85 else (last[0] + 1,) if hostile else (1,)
            return self.new_input(shape, x.ref.dtype if x.ref.dtype.kind == "f" and self.chance(0.9) else F32, keep=True)

        g, b = param(), param()
        if self.chance(0.5):
            eps = float(self.choice([1e-5, 1e-3, 0.1]))
            code = f"{{out}} = kiln.layer_norm({{0}}, {{1}}, {{2}}, {eps!r})"
        else:
            eps = 1e-5
            code = "{out} = kiln.layer_norm({0}, {1}, {2})"
        self.emit(code, lambda a, gg, bb: o_layer_norm(a, gg, bb, eps), [x, g, b])

    def op_astype(self):
        x = self.pick()
        d = self.dtype()
        form = self.rng.random()
        code = (f"{{out}} = {{0}}.astype({NP_NAME[d]})" if form < 0.7 else
                f"{{out}} = kiln.asarray({{0}}, dtype={NP_NAME[d]})")
        disc = x.ref.dtype.kind == "f" and d.kind != "f"
        self.emit(code, lambda a: o_astype(a, d), [x], sensitive=disc)

    def op_conversion(self):
        x = self.pick()
        x.keep = True
        what = self.choice(["bool", "float", "int", "len", "item", "tolist", "props", "array", "repr"])
        code = {"bool": "r = bool({0})", "float": "r = float({0})", "int": "r = int({0})", "len": "r = len({0})",
                "item": "r = {0}.item()", "tolist": "r = {0}.tolist()",
                "props": "r = ({0}.shape, {0}.dtype, {0}.ndim, {0}.size)",
                "array": "r = np.array({0})", "repr": "r = repr({0})"}[what]
        ref = x.ref
        if what in ("bool", "item") and ref.size != 1 or what in ("float", "int") and ref.size != 1:
            self.steps.append(Step(code.format(x.name), "raise", exc=(ValueError, TypeError), operands=[x]))
            return
        if what == "len" and ref.ndim == 0:
            self.steps.append(Step(code.format(x.name), "raise", exc=TypeError, operands=[x]))
            return
        if what == "int" and ref.dtype.kind == "f":
            # int() of NaN or inf raises: whether it does depends on the value kiln computed.
            self.steps.append(Step(code.format(x.name), "conv", operands=[x],
                                   check=lambda r, k: r is None and not np.isfinite(k.item()) or r == int(k.item())))
            return
        checks = {
            "bool": lambda r, k: r == bool(k.item()),
            "float": lambda r, k: r == float(k.item()) or math.isnan(r) and math.isnan(float(k.item())),
            "int": lambda r, k: r == int(k.item()),
            "len": lambda r, k: r == ref.shape[0],
            "item": lambda r, k: r == k.item() or isinstance(r, float) and math.isnan(r) and math.isnan(k.item()),
            "tolist": lambda r, k: np.array_equal(np.array(r, dtype=k.dtype), k, equal_nan=k.dtype.kind == "f"),
            "props": lambda r, k: r == (ref.shape, ref.dtype, ref.ndim, ref.size),
            "array": lambda r, k: r.flags.writeable and np.array_equal(r, k, equal_nan=k.dtype.kind == "f") and r.dtype == k.dtype,
            "repr": lambda r, k: r.startswith("kiln.ndarray("),
        }
        self.steps.append(Step(code.format(x.name), "conv", operands=[x], check=checks[what]))

    def op_asarray_hostile(self):
        r = self.rng.random()
        if r < 0.25:
            code, exc = "_ = kiln.asarray(np.ones(%r))" % (self.shape(),), TypeError
        elif r < 0.4:
            code, exc = "_ = kiln.asarray(np.arange(3, dtype=np.int64))", TypeError
        elif r < 0.55:
            code, exc = f"_ = kiln.asarray(np.zeros({self.choice([(0,), (2, 0), (0, 3, 1)])!r}, dtype=np.float32))", ValueError
        elif r < 0.7:
            code, exc = f"_ = kiln.asarray([1, {self.choice([1 << 31, -(1 << 31) - 1, 1 << 63])}])", OverflowError
        elif r < 0.8:
            code, exc = "_ = kiln.asarray(np.float64(1.5))", TypeError
        elif r < 0.9:
            code, exc = "_ = kiln.asarray(np.ones(2, dtype=np.complex64))", TypeError
        else:
            code, exc = "_ = kiln.asarray(['a', 'b'])", TypeError
        self.steps.append(Step(code, "raise", exc=exc))

    def op_asarray_converting(self):
        """asarray of float64 data with ``dtype=``, and of Python lists of ints."""
        shape = self.shape(256)
        if self.chance(0.5):
            d = self.choice([F32, F16])
            src = data(self.seed, self.inputs, shape, F64, "unit")
            code = literal(src) if src.size <= 64 else f"fuzz_ops.data({self.seed}, {self.inputs}, {shape}, np.float64, 'unit')"
            self.inputs += 1
            code = f"{{out}} = kiln.asarray({code}, dtype={NP_NAME[d]})"
            a = src.astype(d)
        else:
            vals = np.random.default_rng([self.seed, 20_000 + len(self.steps)]).integers(-50, 50, shape)
            code = f"{{out}} = kiln.asarray({vals.tolist()!r})"
            a = vals.astype(I32)
        v = self.add_val(a, True)
        self.steps.append(Step(code.format(out=v.name), "value", out=v, fn=lambda a=a: a, operands=[]))

    def op_flush(self):
        r = self.rng.random()
        if r < 0.5:
            self.steps.append(Step("kiln.sync()", "effect"))
        elif r < 0.9:
            x = self.pick()
            self.steps.append(Step(f"_ = {x.name}.numpy()", "effect", operands=[x]))
        else:
            self.steps.append(Step("_ = kiln.stats()", "effect"))

    def flags(self):
        parts = [f"--opt_level={int(self.choice([0, 1, 2, 2] if self.opt2 else [0, 1]))}",
                 f"--flush_threshold={int(self.choice([1, 2, 3, 8, 64, 64]))}",
                 f"--cache_size={int(self.choice([1, 4, 256, 256]))}",
                 f"--direct_emit={'true' if self.chance(0.8) else 'false'}"]
        ops = lambda p: ",".join(sorted({str(self.choice(OP_NAMES)) for _ in range(3)})) if self.chance(p) else ""
        enable = ops(0.4)
        if self.chance(0.3):
            enable = ",".join(x for x in ("MatMul", "BatchMatMul", enable) if x)
        parts += [f"--enable_ops={enable}", f"--disable_ops={ops(0.15)}", f"--enable_ops_only={ops(0.05)}"]
        dump = self.chance(0.02) and self.dump_dir is not None  # the draw keeps seeds reproducible
        parts.append(f"--dump_as_text={'true' if dump else 'false'}")
        if dump:
            parts.append(f"--dump_dir={self.dump_dir}")
        return " ".join(parts)

    def generate(self):
        self.steps.append(Step(f"kiln.set_flags({self.flags()!r})", "effect"))
        for _ in range(int(self.rng.integers(1, 4))):
            s = self.shape(200_000) if self.big and self.chance(0.5) else self.shape()
            self.new_input(s)
        n = int(self.rng.integers(6, 40))
        table = [
            (self.op_unary, 3), (self.op_binary, 8), (self.op_where, 1.5), (self.op_reduce, 3),
            (self.op_layout, 2.5), (self.op_matmul, 1), (self.op_softmax, 1), (self.op_layer_norm, 0.7),
            (self.op_astype, 1.5), (self.op_conversion, 0.5), (self.op_flush, 1), (self.op_asarray_converting, 0.3),
            (lambda: self.new_input(self.broadcast_partner(self.pick().ref.shape)), 1),
            (lambda: self.steps.append(Step(f"kiln.set_flags({self.flags()!r})", "effect")), 0.2),
            # hostile calls
            (lambda: self.op_binary(hostile=True), 0.4), (lambda: self.op_reduce(hostile=True), 0.25),
            (lambda: self.op_layout(hostile=True), 0.3), (lambda: self.op_matmul(hostile=True), 0.15),
            (lambda: self.op_softmax(hostile=True), 0.1), (lambda: self.op_layer_norm(hostile=True), 0.1),
            (self.op_asarray_hostile, 0.3),
            (lambda: self.steps.append(Step(f"kiln.set_flags({self.choice(BAD_FLAGS)!r})", "raise", exc=ValueError)), 0.05),
        ]
        weights = np.array([w for _, w in table])
        for _ in range(n):
            f = table[self.rng.choice(len(table), p=weights / weights.sum())][0]
            f()
        self.steps.append(Step("kiln.sync()", "effect"))
        return self


# Running and checking ------------------------------------------------------------------------


def last_uses(steps):
    last = {}
    for i, st in enumerate(steps):
        for o in st.operands:
            last[o.index] = i
    return last


def program(gen):
    """The stream's lines, with ``del`` after the last use of values not kept."""
    last = last_uses(gen.steps)
    lines = []
    for i, st in enumerate(gen.steps):
        lines.append((st, st.code))
        dead = [o for o in st.operands if not o.keep and last.get(o.index) == i]
        for o in {o.index: o for o in dead}.values():
            lines.append((None, f"del {o.name}"))
        if st.kind == "value" and not st.out.keep and st.out.index not in last:
            lines.append((None, f"del {st.out.name}"))
    return lines


def snippet(gen, lines):
    out = ["import numpy as np, kiln", "import fuzz_ops  # python/tests, for big inputs", ""]
    out += [code for _, code in lines]
    return "\n".join(out)


def close(k, ref, scale=None, tol=None):
    """Whether kiln's ``k`` matches the oracle's ``ref`` (floats within the tolerance of dtype
    ``tol``, by default ``ref``'s); a message if not."""
    k = np.asarray(k)
    if k.dtype != ref.dtype:
        return f"dtype {k.dtype}, expected {ref.dtype}"
    if k.shape != ref.shape:
        return f"shape {k.shape}, expected {ref.shape}"
    if ref.dtype.kind != "f":
        bad = k != ref
    else:
        rtol, atol = TOL[tol or ref.dtype]
        kf, rf = f64(k), f64(ref)
        mag = np.abs(rf)
        if scale is not None:
            scale = np.broadcast_to(np.abs(np.asarray(scale, np.float64)), rf.shape)
            mag = np.maximum(mag, scale)
        with np.errstate(all="ignore"):
            near = np.abs(kf - rf) <= atol + rtol * mag
            # NaN where the oracle has NaN; an infinity of the same sign; else within tolerance.
            ok = np.where(np.isnan(rf), np.isnan(kf), np.where(np.isinf(rf), kf == rf, np.isfinite(kf) & near))
            # Within rounding of the largest finite value, an infinity of the same sign or
            # that value (rounding in another order may overflow, or not).
            top = float(np.finfo(ref.dtype).max)
            edge = np.abs(rf) + atol + rtol * mag >= top
            ok |= edge & np.isinf(kf) & (np.sign(kf) == np.sign(rf))
            ok |= np.isinf(rf) & (np.abs(kf) >= top * (1 - rtol)) & (np.sign(kf) == np.sign(rf))
            if scale is not None:
                ok |= np.isnan(scale)  # an oracle's "any value" (see o_layer_norm)
        bad = ~ok
    if bad.any():
        idx = tuple(int(i[0]) for i in np.nonzero(bad)) if bad.ndim else ()
        return f"{int(bad.sum())} of {bad.size} elements differ; first at {idx}: kiln {k[idx]!r}, expected {ref[idx]!r}"
    return None


def run_stream(seed, dump_dir=None, verbose=False):
    """Runs stream ``seed``; returns None or a failure report."""
    gen = Gen(seed, dump_dir).generate()
    lines = program(gen)
    if verbose:
        print(snippet(gen, lines))
    ns = {"kiln": kiln, "np": np, "fuzz_ops": sys.modules[__name__]}
    problems = []
    step_no = {}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n, (st, code) in enumerate(lines):
            ns["r"] = None
            try:
                exec(code, ns)
            except KeyboardInterrupt:
                raise
            except Exception as e:
                if st is not None and st.kind == "raise":
                    if not isinstance(e, st.exc):
                        problems.append(f"line {n + 1} `{code}` raised {type(e).__name__} ({e}), expected {st.exc}")
                        break
                    continue
                if st is None or st.kind != "conv" or not isinstance(e, (ValueError, OverflowError)):
                    problems.append(f"line {n + 1} `{code}` raised {type(e).__name__}: {e}")
                    break
            except BaseException as e:  # a panic across the boundary
                problems.append(f"line {n + 1} `{code}` PANICKED: {type(e).__name__}: {e}")
                break
            else:
                if st is not None and st.kind == "raise":
                    problems.append(f"line {n + 1} `{code}` did not raise (expected {st.exc})")
                    break
            if st is None:
                continue
            if st.kind == "value":
                step_no[st.out.index] = n
            if st.kind == "conv":
                r = ns.get("r")
                try:
                    # The line read the value already (len and the properties need no value).
                    k = ns[st.operands[0].name].numpy() if not code.startswith(("r = len", "r = (")) else None
                    good = st.check(r, k)
                except Exception as e:
                    problems.append(f"line {n + 1} `{code}`: reading its operand raised {type(e).__name__}: {e}")
                    break
                if not good:
                    problems.append(f"line {n + 1} `{code}` gave {r!r}; the array is {k!r}")
                    break
        # Every value alive at the end, against the oracle.
        producer = {st.out.index: st for st in gen.steps if st.kind == "value"}
        if not problems:
            for st in gen.steps:
                if st.kind != "value" or not st.out.keep:
                    continue
                v = st.out
                line = step_no.get(v.index)
                try:
                    k = ns[v.name].numpy()
                except BaseException as e:
                    kind = "PANICKED" if not isinstance(e, Exception) else "raised"
                    problems.append(f"reading {v.name} (line {line + 1} `{lines[line][1]}`) {kind} {type(e).__name__}: {e}")
                    break
                msg = close(k, v.ref, st.scale, v.tol)
                if msg and st.operands:
                    # Again on kiln's own operand values (an earlier op's last-ulp rounding is
                    # not this op's mistake); a dropped operand is the oracle of kiln's values
                    # of the nearest live ones.
                    def own_value(o):
                        if o.keep:
                            return ns[o.name].numpy()
                        src = producer[o.index]
                        res = src.fn(*[own_value(p) for p in src.operands])
                        return np.asarray(res[0] if isinstance(res, tuple) else res)

                    try:
                        own = [own_value(o) for o in st.operands]
                        with np.errstate(all="ignore"):
                            res = st.fn(*own)
                        ref, scale = res if isinstance(res, tuple) else (res, None)
                        msg = msg if close(k, np.asarray(ref), scale, v.tol) else None
                    except EXPECTED:
                        pass
                if msg:
                    problems.append(f"{v.name} (line {line + 1} `{lines[line][1]}`): {msg}")
    ns.clear()
    if problems:
        return f"seed {seed}: " + "; ".join(problems) + "\n--- replay (from python/tests) ---\n" + snippet(gen, lines)
    return None


def replay(lines, target=None):
    """Runs ``lines`` ((step, code) pairs) in a fresh namespace; returns a failure signature:
    the message of the first unexpected exception, or, if ``target`` (a value Step) is given
    and its variable differs from the oracle, ``"mismatch"``."""
    ns = {"kiln": kiln, "np": np, "fuzz_ops": sys.modules[__name__]}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for st, code in lines:
            try:
                exec(code, ns)
            except NameError:
                return None
            except Exception as e:
                if st is not None and st.kind in ("raise", "conv"):
                    continue
                return None if target is not None else f"{type(e).__name__}: {e}"
        if target is not None and target.out.name in ns:
            try:
                k = ns[target.out.name].numpy()
            except Exception as e:
                return f"{type(e).__name__}: {e}"
            return "mismatch" if close(k, target.out.ref, target.scale, target.out.tol) else None
    return None


def minimize(seed):
    """The smallest program (lines removed one at a time, to a fixed point) of stream ``seed``
    that fails the same way: an exception with the same message, or the same value wrong."""
    gen = Gen(seed, None).generate()
    report = run_stream(seed)
    if report is None:
        return f"seed {seed} does not fail"
    lines = program(gen)
    target = None
    for st in gen.steps:
        if st.kind == "value" and f"{st.out.name} (line" in report.split("\n")[0] and report.split("\n")[0].find(f" {st.out.name} (line") >= 0:
            target = st
    want = replay(lines, target)
    if want is None:
        return f"seed {seed}: the failure does not replay without the stream's checks\n{report}"
    changed = True
    while changed:
        changed = False
        for i in range(len(lines) - 1, -1, -1):
            trial = lines[:i] + lines[i + 1:]
            if replay(trial, target) == want:
                lines, changed = trial, True
    code = [c for _, c in lines]
    if target is not None:
        code.append(f"print({target.out.name}.numpy())  # expected: {target.out.ref!r}")
    return "import numpy as np, kiln\nimport fuzz_ops\n\n" + "\n".join(code) + f"\n# fails with: {want}"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--streams", type=int, default=1000, help="streams to run (seeds start..start+streams-1)")
    p.add_argument("--start", type=int, default=0, help="the first seed")
    p.add_argument("--seed", type=int, help="run this one stream")
    p.add_argument("--verbose", action="store_true", help="print each stream's program")
    p.add_argument("--max-failures", type=int, default=20, help="stop after this many failing streams")
    p.add_argument("--minimize", type=int, metavar="SEED", help="print the smallest program that fails as stream SEED does")
    args = p.parse_args(argv)
    if args.minimize is not None:
        print(minimize(args.minimize))
        return 0
    seeds = [args.seed] if args.seed is not None else range(args.start, args.start + args.streams)
    dump_dir = tempfile.mkdtemp(prefix="kiln_fuzz_dump_")
    failures, t0 = 0, time.time()
    for i, seed in enumerate(seeds):
        try:
            report = run_stream(seed, dump_dir, args.verbose)
        except Exception:
            report = f"seed {seed}: the fuzzer itself failed:\n{traceback.format_exc()}"
        if report:
            failures += 1
            print(report, flush=True)
            print(flush=True)
            if failures >= args.max_failures:
                break
        if (i + 1) % 500 == 0:
            print(f"... {i + 1} streams, {failures} failing, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    n = i + 1
    print(f"{n} streams, {failures} failing, {time.time() - t0:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
