#!/usr/bin/env python3
"""Writes the golden data that dialects/tests/hl_golden.rs checks the `hl` interpreter against.

Usage: python3 gen_goldens.py  (needs numpy; the Rust test itself needs no Python)

Output, next to this script: data/*.npy (inputs and expected outputs, named by dtype, shape
and a content hash so that shared inputs are stored once) and manifest.txt, one case a line:

    <name> op=<op> cmp=<exact|ulp:N|close:RTOL:ATOL> in=<dtype>:<file>,... out=<dtype>:<file> [key=value ...]

An absent optional input is written `-`. List parameters are comma-separated (`axes=` is the
empty list), booleans are 0/1.

How expected values are computed, independently of the Rust code where possible:
* f32 and f16 arithmetic (add sub mul div maximum minimum neg abs floor ceil rint sign clamp
  comparisons) use numpy's own float32/float16 loops (numpy computes f16 in f32 and rounds);
* bf16 (which numpy lacks) is computed in float32 and rounded to bf16 with explicit
  round-to-nearest-even bit manipulation; it is stored as `<u2` raw bits;
* transcendental ops and composites are computed in float64, rounded to float32, then to the
  dtype (the interpreter's definition), and compared within 1 ulp of the result dtype;
* reductions, matmul and conv2d are computed in float64 and compared with a tolerance that
  bounds the interpreter's sequential f32 accumulation error (numpy/BLAS sum in other orders);
* integer results wrap (two's complement), computed in int64 / Python ints and wrapped.
"""

import hashlib
import math
import os
import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
FLOATS = ["f16", "bf16", "f32"]
INTS = ["i8", "i32", "i64"]
NATIVE = {"f16": np.float16, "f32": np.float32, "i1": np.bool_, "i8": np.int8, "i32": np.int32, "i64": np.int64}
GRID_BITS = {"f16": 10, "bf16": 7, "f32": 22}
ULP_REL = {"f16": 2.0**-10, "bf16": 2.0**-7, "f32": 2.0**-23}
U32 = 2.0**-24

rng = np.random.default_rng(20240607)
lines = []


# ---------------------------------------------------------------------------- bf16 and rounding


def bf16_bits(x):
    """float32 values -> bf16 bits, round to nearest even (NaN stays a quiet NaN)."""
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF
    quiet = ((u >> 16) | 0x40) & 0xFFFF
    return np.where(np.isnan(x), quiet, rounded).astype(np.uint16)


def bf16_values(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def rnd(x, dt):
    """float values -> dt, through float32 (the interpreter's rounding for float results)."""
    x = np.asarray(x, dtype=np.float64).astype(np.float32)
    if dt == "f16":
        return x.astype(np.float16)
    if dt == "bf16":
        return bf16_values(bf16_bits(x))
    return x


def wrap(values, dt):
    """Python ints -> dt with two's-complement wrap."""
    bits = {"i8": 8, "i32": 32, "i64": 64}[dt]
    out = []
    for v in values:
        v &= (1 << bits) - 1
        out.append(v - (1 << bits) if v >= 1 << (bits - 1) else v)
    return np.array(out, dtype=NATIVE[dt])


def int_to_float(values, dt):
    """Exact integers rounded once (nearest, ties to even) to dt, via Python ints."""
    bits = {"f16": 11, "bf16": 8, "f32": 24}[dt]
    out = []
    for v in values:
        m = abs(int(v))
        shift = max(m.bit_length() - bits, 0)
        q, r = m >> shift, m & ((1 << shift) - 1)
        half = (1 << (shift - 1)) if shift else 0
        if shift and (r > half or (r == half and q & 1)):
            q += 1
        out.append(math.copysign(float(q << shift), v) if v else 0.0)
    with np.errstate(over="ignore"):
        if dt == "f16":
            return np.array(out, dtype=np.float64).astype(np.float16)
        if dt == "bf16":
            return bf16_values(bf16_bits(np.array(out, dtype=np.float64).astype(np.float32)))
        return np.array(out, dtype=np.float32)


# ---------------------------------------------------------------------------- tensors and cases


def rand(dt, shape, lo=-2.0, hi=2.0):
    """Uniform values on a grid the dtype represents exactly (floats), or small ints."""
    if dt in FLOATS:
        k = GRID_BITS[dt]
        m = rng.integers(int(lo * 2**k), int(hi * 2**k), size=shape)
        return (dt, rnd(m * 2.0**-k, dt))
    if dt == "i1":
        return (dt, rng.integers(0, 2, size=shape).astype(np.bool_))
    span = 10 if dt == "i8" else 100
    return (dt, rng.integers(-span, span + 1, size=shape).astype(NATIVE[dt]))


def const(dt, values):
    if dt in FLOATS:
        return (dt, rnd(np.array(values, dtype=np.float64), dt))
    return (dt, np.array(values, dtype=NATIVE[dt]))


def save(t):
    dt, arr = t
    arr = np.asarray(arr)
    stored = bf16_bits(arr) if dt == "bf16" else arr.astype(NATIVE[dt])
    digest = hashlib.sha1(dt.encode() + str(stored.shape).encode() + stored.tobytes()).hexdigest()[:10]
    shape = "x".join(map(str, stored.shape)) or "s"
    name = f"{dt}_{shape}_{digest}.npy"
    path = os.path.join(DATA, name)
    if not os.path.exists(path):
        np.save(path, np.ascontiguousarray(stored), allow_pickle=False)
    return f"{dt}:{name}"


def fmt(v):
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, (list, tuple)):
        return ",".join(fmt(x) for x in v)
    return str(v)


def case(name, op, inputs, out, cmp="exact", **params):
    ins = ",".join("-" if t is None else save(t) for t in inputs)
    extra = "".join(f" {k}={fmt(v)}" for k, v in params.items())
    lines.append(f"{name} op={op} cmp={cmp} in={ins} out={save(out)}{extra}")


def arith(dt, fn, *arrays):
    """fn on the dtype's own numpy arrays (f16/f32/ints); bf16 computed in f32 and rounded."""
    if dt == "bf16":
        return rnd(fn(*[np.asarray(a, np.float32) for a in arrays]), "bf16")
    return fn(*arrays)


def exact64(dt, fn, *arrays):
    """fn in float64, rounded to f32 and then to dt."""
    return rnd(fn(*[np.asarray(a, np.float64) for a in arrays]), dt)


def close(dt, rtol, atol):
    return f"close:{rtol:.3e}:{atol:.3e}"


def shape_tag(*shapes):
    return "_".join("x".join(map(str, s)) or "s" for s in shapes)


# ---------------------------------------------------------------------------- elementwise

erf64 = np.vectorize(math.erf, otypes=[np.float64])
UNARY_EXACT = {
    "neg": np.negative,
    "abs": np.abs,
    "relu": lambda x: np.maximum(x, np.zeros_like(x)),
    "floor": np.floor,
    "ceil": np.ceil,
    "round": np.rint,
    "sign": np.sign,
    "reciprocal": lambda x: np.ones_like(x) / x,
}
SQRT2_PI = math.sqrt(2.0 / math.pi)
UNARY_64 = {
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
    "tanh": np.tanh,
    "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "silu": lambda x: x / (1.0 + np.exp(-x)),
    "erf": erf64,
    "gelu_none": lambda x: 0.5 * x * (1.0 + erf64(x / math.sqrt(2.0))),
    "gelu_tanh": lambda x: 0.5 * x * (1.0 + np.tanh(SQRT2_PI * (x + 0.044715 * x**3))),
}
POSITIVE = {"log", "sqrt", "rsqrt"}
BINARY_EXACT = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "maximum": np.maximum,
    "minimum": np.minimum,
}
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 1e-3, 3.0, -7.25, 100.0]


def unary_case(dt, op, x, tag):
    params = {}
    name_op = op
    if op.startswith("gelu"):
        name_op, params["approx"] = "gelu", op.split("_")[1]
    if op in UNARY_EXACT:
        case(f"{op}_{dt}_{tag}", name_op, [x], (dt, arith(dt, UNARY_EXACT[op], x[1])), **params)
    else:
        case(f"{op}_{dt}_{tag}", name_op, [x], (dt, exact64(dt, UNARY_64[op], x[1])), "ulp:1", **params)


def elementwise():
    pairs = [((13, 17), (13, 17)), ((3, 1, 5), (4, 1)), ((1, 7), (7,)), ((), (2, 3))]
    for dt in FLOATS:
        for sa, sb in pairs:
            a, b = rand(dt, sa), rand(dt, sb)
            tag = shape_tag(sa, sb)
            for op, fn in BINARY_EXACT.items():
                case(f"{op}_{dt}_{tag}", op, [a, b], (dt, arith(dt, fn, a[1], b[1])))
            base, expo = rand(dt, sa, 0.25, 2.0), rand(dt, sb, -2.0, 2.0)
            case(f"pow_{dt}_{tag}", "pow", [base, expo], (dt, exact64(dt, np.power, base[1], expo[1])), "ulp:1")
        x, wide, pos = rand(dt, (13, 17)), rand(dt, (61,), -12.0, 12.0), rand(dt, (13, 17), 0.0625, 2.0)
        special = const(dt, SPECIALS)
        for op in list(UNARY_EXACT) + list(UNARY_64):
            unary_case(dt, op, pos if op in POSITIVE else x, "13x17")
            if op in ("exp", "tanh", "sigmoid", "silu", "gelu_none", "gelu_tanh", "erf"):
                unary_case(dt, op, wide, "wide")
            if op not in POSITIVE:
                unary_case(dt, op, special, "special")
        lo, hi = rand(dt, (17,), -1.0, 0.5), rand(dt, (), 0.0, 1.0)
        clamp_fn = lambda v, l, h: np.minimum(np.maximum(v, l), h)
        case(f"clamp_{dt}", "clamp", [x, lo, hi], (dt, arith(dt, clamp_fn, x[1], lo[1], hi[1])))
    for dt in INTS:
        top = {"i8": 127, "i32": 2**31 - 1, "i64": 2**63 - 1}[dt]
        a = const(dt, [-top - 1, -top - 1, 7, -7, 7, 0, top, top, 100, -100, 5, -3])
        b = const(dt, [-1, 1, 0, 2, -2, 5, 1, 2, 100, 3, -4, 7])
        pairs_int = [("edge", a, b), ("bcast", rand(dt, (3, 1, 5)), rand(dt, (4, 1)))]
        for tag, a, b in pairs_int:
            wide_a, wide_b = np.broadcast_arrays(a[1], b[1])
            av, bv = [int(v) for v in wide_a.ravel()], [int(v) for v in wide_b.ravel()]
            shape = wide_a.shape
            ops = {
                "add": lambda x, y: x + y,
                "sub": lambda x, y: x - y,
                "mul": lambda x, y: x * y,
                "div": lambda x, y: 0 if y == 0 else (abs(x) // abs(y)) * (1 if (x < 0) == (y < 0) else -1),
                "maximum": max,
                "minimum": min,
            }
            for op, fn in ops.items():
                out = wrap([fn(x, y) for x, y in zip(av, bv)], dt).reshape(shape)
                case(f"{op}_{dt}_{tag}", op, [a, b], (dt, out))
            expo = [abs(y) % 9 for y in bv]
            out = wrap([x**e for x, e in zip(av, expo)], dt).reshape(shape)
            case(f"pow_{dt}_{tag}", "pow", [a, (dt, np.array(expo, dtype=NATIVE[dt]).reshape(shape))], (dt, out))
            for op, fn in [("neg", lambda x: -x), ("abs", abs), ("sign", lambda x: (x > 0) - (x < 0)), ("relu", lambda x: max(x, 0))]:
                flat = [int(v) for v in a[1].ravel()]
                case(f"{op}_{dt}_{tag}", op, [a], (dt, wrap([fn(v) for v in flat], dt).reshape(a[1].shape)))
        x, lo, hi = rand(dt, (13, 17)), rand(dt, (17,)), const(dt, 40)
        case(f"clamp_{dt}", "clamp", [x, lo, hi], (dt, np.minimum(np.maximum(x[1], lo[1]), hi[1])))


def compare_select_logic():
    preds = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}
    for dt in FLOATS + INTS + ["i1"]:
        if dt == "i1":
            a, b = rand(dt, (13, 17)), rand(dt, (17,))
        else:
            a = const(dt, rng.integers(-3, 4, size=(13, 17)) * (0.5 if dt in FLOATS else 1))
            b = const(dt, rng.integers(-3, 4, size=(17,)) * (0.5 if dt in FLOATS else 1))
        for pred, fn in preds.items():
            case(f"cmp_{pred}_{dt}", "cmp", [a, b], ("i1", fn(a[1], b[1])), pred=pred)
        if dt in FLOATS:
            s = const(dt, SPECIALS)
            t = const(dt, SPECIALS[::-1])
            for pred, fn in preds.items():
                case(f"cmp_{pred}_{dt}_special", "cmp", [s, t], ("i1", fn(s[1], t[1])), pred=pred)
        c, x, y = rand("i1", (3, 1, 5)), rand(dt, (4, 1)), rand(dt, (5,))
        case(f"select_{dt}", "select", [c, x, y], (dt, np.where(c[1], x[1], y[1])))
    a, b = rand("i1", (13, 17)), rand("i1", (17,))
    case("and_i1", "and", [a, b], ("i1", a[1] & b[1]))
    case("or_i1", "or", [a, b], ("i1", a[1] | b[1]))
    case("not_i1", "not", [a], ("i1", ~a[1]))


def casts():
    big = [0, 1, -1, 2047, 2049, 4097, 65504, 65519, 65520, 70000, -70001, 2**24 + 1, 2**24 + 3, -(2**31), 2**31 - 1]
    huge = big + [2**40 + 2**32 + 1, -(2**63), 2**63 - 1, 2**53 + 1, 3 * 2**60 + 2**52]
    for src, values in [("i32", big), ("i64", huge), ("i8", [-128, -1, 0, 1, 127])]:
        x = const(src, values)
        for dst in FLOATS:
            case(f"cast_{src}_{dst}", "cast", [x], (dst, int_to_float(values, dst)), to=dst)
        for dst in INTS:
            if dst != src:
                case(f"cast_{src}_{dst}", "cast", [x], (dst, wrap(values, dst)), to=dst)
        case(f"cast_{src}_i1", "cast", [x], ("i1", np.array(values) != 0), to="i1")
    floats = SPECIALS + [-200.7, 300.2, 127.9, -128.9, 3e9, -3e9, 65519.0, 1e-8, 0.1]
    for src in FLOATS:
        x = const(src, floats)
        v64 = x[1].astype(np.float64)
        for dst in FLOATS:
            if dst != src:
                case(f"cast_{src}_{dst}", "cast", [x], (dst, rnd(v64, dst)), to=dst)
        for dst in INTS:
            info = np.iinfo(NATIVE[dst])
            with np.errstate(invalid="ignore"):
                t = np.clip(np.trunc(np.nan_to_num(v64, nan=0.0, posinf=np.inf, neginf=-np.inf)), info.min, info.max)
            out = [int(info.max) if v >= info.max else int(info.min) if v <= info.min else int(v) for v in t]
            case(f"cast_{src}_{dst}", "cast", [x], (dst, np.array(out, dtype=NATIVE[dst])), to=dst)
        case(f"cast_{src}_i1", "cast", [x], ("i1", v64 != 0), to="i1")
    flags = rand("i1", (9,))
    for dst in FLOATS + INTS:
        out = const(dst, flags[1].astype(np.int64)) if dst in FLOATS else (dst, flags[1].astype(NATIVE[dst]))
        case(f"cast_i1_{dst}", "cast", [flags], out, to=dst)
    for dt, src, shape in [("f16", (3, 1), (2, 3, 4)), ("i1", (1,), (5,)), ("bf16", (), (2, 2)), ("i64", (4,), (3, 4))]:
        x = rand(dt, src)
        case(f"broadcast_to_{dt}", "broadcast_to", [x], (dt, np.broadcast_to(x[1], shape)), shape=list(shape))


# ---------------------------------------------------------------------------- reductions


def reductions():
    layouts = [((3, 4, 5), [1], False), ((3, 4, 5), [0, 2], False), ((3, 4, 5), [-1], True),
               ((3, 4, 5), [], False), ((3, 4, 5), [0, 1, 2], True), ((13, 17), [0], False), ((13, 17), [1], True)]
    for dt in FLOATS + INTS:
        for shape, axes, keep in layouts:
            tag = f"{shape_tag(shape)}_ax{'_'.join(map(str, axes)) or 'none'}{'_keep' if keep else ''}"
            x = rand(dt, shape)
            ax = tuple(axes)
            n = int(np.prod([shape[a] for a in axes])) if axes else 1
            if dt in FLOATS:
                v = x[1].astype(np.float64)
                bound = n * U32 * (np.max(np.sum(np.abs(v), axis=ax)) if axes else np.max(np.abs(v), initial=0))
                tol = close(dt, ULP_REL[dt], bound + 2.0**-24)
                case(f"reduce_sum_{dt}_{tag}", "reduce_sum", [x], (dt, rnd(np.sum(v, axis=ax, keepdims=keep), dt)), tol, axes=axes, keep_dims=keep)
                case(f"reduce_mean_{dt}_{tag}", "reduce_mean", [x], (dt, rnd(np.sum(v, axis=ax, keepdims=keep) / n, dt)), close(dt, ULP_REL[dt], bound / n + 2.0**-24), axes=axes, keep_dims=keep)
                p = rand(dt, shape, 0.5, 1.5)
                pv = p[1].astype(np.float64)
                case(f"reduce_prod_{dt}_{tag}", "reduce_prod", [p], (dt, rnd(np.prod(pv, axis=ax, keepdims=keep), dt)), close(dt, ULP_REL[dt] + (n + 1) * U32, 1e-30), axes=axes, keep_dims=keep)
            else:
                wide = x[1].astype(np.int64)
                case(f"reduce_sum_{dt}_{tag}", "reduce_sum", [x], (dt, np.sum(wide, axis=ax, keepdims=keep).astype(NATIVE[dt])), axes=axes, keep_dims=keep)
                case(f"reduce_prod_{dt}_{tag}", "reduce_prod", [x], (dt, np.prod(wide, axis=ax, keepdims=keep).astype(NATIVE[dt])), axes=axes, keep_dims=keep)
            case(f"reduce_max_{dt}_{tag}", "reduce_max", [x], (dt, np.max(x[1], axis=ax, keepdims=keep)), axes=axes, keep_dims=keep)
            case(f"reduce_min_{dt}_{tag}", "reduce_min", [x], (dt, np.min(x[1], axis=ax, keepdims=keep)), axes=axes, keep_dims=keep)
        ties = const(dt, rng.integers(-2, 3, size=(3, 4, 5)))
        for axis, keep in [(1, False), (-1, True), (0, False)]:
            for op, fn in [("argmax", np.argmax), ("argmin", np.argmin)]:
                out = fn(ties[1], axis=axis, keepdims=keep).astype(np.int64)
                case(f"{op}_{dt}_ax{axis}{'_keep' if keep else ''}", op, [ties], ("i64", out), axis=axis, keep_dims=keep)
        if dt in FLOATS:
            nan = const(dt, [[1.0, np.nan, 3.0, np.nan], [2.0, 2.0, -1.0, -1.0]])
            for op, fn in [("argmax", np.argmax), ("argmin", np.argmin)]:
                case(f"{op}_{dt}_nan", op, [nan], ("i64", fn(nan[1], axis=1).astype(np.int64)), axis=1, keep_dims=False)
            for op, fn in [("reduce_max", np.max), ("reduce_min", np.min)]:
                case(f"{op}_{dt}_nan", op, [nan], (dt, fn(nan[1], axis=1)), axes=[1], keep_dims=False)


# ---------------------------------------------------------------------------- contractions


def matmul_expected(dt, a, b, bias, k):
    if dt in FLOATS:
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        out = a64 @ b64 + (0 if bias is None else bias.astype(np.float64))
        bound = k * U32 * np.max(np.abs(a64) @ np.abs(b64), initial=0) * 2 + 2.0**-24
        return (dt, rnd(out, dt)), close(dt, ULP_REL[dt], bound)
    out = a.astype(np.int64) @ b.astype(np.int64) + (0 if bias is None else bias.astype(np.int64))
    return (dt, out.astype(NATIVE[dt])), "exact"


def contractions():
    for dt in FLOATS + ["i8", "i32"]:
        m, k, n = 7, 13, 5
        a, b = rand(dt, (m, k)), rand(dt, (k, n))
        for ta in (False, True):
            for tb in (False, True):
                sa = (dt, np.ascontiguousarray(a[1].T)) if ta else a
                sb = (dt, np.ascontiguousarray(b[1].T)) if tb else b
                out, cmp = matmul_expected(dt, a[1], b[1], None, k)
                case(f"matmul_{dt}_t{int(ta)}{int(tb)}", "matmul", [sa, sb, None], out, cmp, transpose_a=ta, transpose_b=tb)
        bias = rand(dt, (n,))
        out, cmp = matmul_expected(dt, a[1], b[1], bias[1], k)
        case(f"matmul_{dt}_bias", "matmul", [a, b, bias], out, cmp, transpose_a=False, transpose_b=False)
        ba, bb, bbias = rand(dt, (2, 1, 3, 4)), rand(dt, (3, 4, 6)), rand(dt, (6,))
        out, cmp = matmul_expected(dt, ba[1], bb[1], bbias[1], 4)
        case(f"batch_matmul_{dt}_bcast", "batch_matmul", [ba, bb, bbias], out, cmp, transpose_a=False, transpose_b=False)
        tb_ = (dt, np.ascontiguousarray(np.swapaxes(bb[1], -1, -2)))
        ta_ = (dt, np.ascontiguousarray(np.swapaxes(ba[1], -1, -2)))
        out, cmp = matmul_expected(dt, ba[1], bb[1], None, 4)
        case(f"batch_matmul_{dt}_t11", "batch_matmul", [ta_, tb_, None], out, cmp, transpose_a=True, transpose_b=True)
        convs = [
            ((2, 4, 7, 6), (6, 2, 3, 3), (2, 1), (1, 0, 2, 1), (1, 2), 2, True),
            ((1, 3, 5, 5), (4, 3, 1, 1), (1, 1), (0, 0, 0, 0), (1, 1), 1, False),
            ((1, 4, 6, 6), (4, 1, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 4, True),
        ]
        for i, (xs, ws, strides, pad, dil, groups, with_bias) in enumerate(convs):
            x, w = rand(dt, xs), rand(dt, ws)
            bias = rand(dt, (ws[0],)) if with_bias else None
            out, cmp = conv_expected(dt, x[1], w[1], None if bias is None else bias[1], strides, pad, dil, groups)
            case(f"conv2d_{dt}_{i}", "conv2d", [x, w, bias], out, cmp, strides=strides, padding=pad, dilation=dil, groups=groups)


def conv_expected(dt, x, w, bias, strides, pad, dil, groups):
    wide = np.float64 if dt in FLOATS else np.int64
    x, w = x.astype(wide), w.astype(wide)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])))
    oh = (h + pad[0] + pad[2] - dil[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd + pad[1] + pad[3] - dil[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, o, oh, ow), dtype=wide)
    absout = np.zeros((n, o, oh, ow), dtype=np.float64)
    per = o // groups
    for oc in range(o):
        g = oc // per
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg, i * dil[0]:i * dil[0] + strides[0] * (oh - 1) + 1:strides[0], j * dil[1]:j * dil[1] + strides[1] * (ow - 1) + 1:strides[1]]
                out[:, oc] += np.einsum("nchw,c->nhw", patch, w[oc, :, i, j])
                absout[:, oc] += np.einsum("nchw,c->nhw", np.abs(patch), np.abs(w[oc, :, i, j]).astype(np.float64))
    if bias is not None:
        out += bias.astype(wide)[None, :, None, None]
    if dt in FLOATS:
        bound = cg * kh * kw * U32 * np.max(absout, initial=0) * 2 + 2.0**-24
        return (dt, rnd(out, dt)), close(dt, ULP_REL[dt], bound)
    return (dt, out.astype(NATIVE[dt])), "exact"


# ---------------------------------------------------------------------------- layout, composites


def layout():
    for dt in FLOATS + INTS + ["i1"]:
        x = rand(dt, (3, 4, 5))
        case(f"reshape_{dt}", "reshape", [x], (dt, x[1].reshape(5, 12)), shape=[5, 12])
        case(f"transpose_{dt}", "transpose", [x], (dt, np.transpose(x[1], (2, 0, 1))), perm=[2, 0, 1])
        case(f"slice_{dt}", "slice", [x], (dt, x[1][1:3, 0:4:2, 1:5:3]), starts=[1, 0, 1], limits=[3, 4, 5], strides=[1, 2, 3])
        y, z = rand(dt, (3, 2, 5)), rand(dt, (3, 1, 5))
        case(f"concat_{dt}", "concat", [x, y, z], (dt, np.concatenate([x[1], y[1], z[1]], axis=1)), axis=1)
        case(f"concat_{dt}_neg", "concat", [x, x], (dt, np.concatenate([x[1], x[1]], axis=-1)), axis=-1)
        case(f"expand_dims_{dt}", "expand_dims", [x], (dt, np.expand_dims(x[1], -1)), axis=-1)
        case(f"expand_dims_{dt}_0", "expand_dims", [x], (dt, np.expand_dims(x[1], 0)), axis=0)
        s = rand(dt, (1, 3, 1, 5))
        case(f"squeeze_{dt}", "squeeze", [s], (dt, np.squeeze(s[1], axis=(0,))), axes=[0])
        case(f"squeeze_{dt}_all", "squeeze", [s], (dt, np.squeeze(s[1])), axes=[0, 2])


def softmax64(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax64(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def norm64(x, axis, eps, gamma, beta, rms):
    axes = tuple(range(axis % x.ndim, x.ndim))
    if rms:
        y = x / np.sqrt(np.mean(x * x, axis=axes, keepdims=True) + eps)
    else:
        mean = np.mean(x, axis=axes, keepdims=True)
        y = (x - mean) / np.sqrt(np.mean((x - mean) ** 2, axis=axes, keepdims=True) + eps)
    y = y if gamma is None else y * gamma
    return y if beta is None else y + beta


def composites():
    for dt in FLOATS:
        x = rand(dt, (4, 13), -4.0, 4.0)
        v = x[1].astype(np.float64)
        for axis in (-1, 0):
            case(f"softmax_{dt}_ax{axis}", "softmax", [x], (dt, rnd(softmax64(v, axis), dt)), "ulp:1", axis=axis)
            case(f"log_softmax_{dt}_ax{axis}", "log_softmax", [x], (dt, rnd(log_softmax64(v, axis), dt)), "ulp:1", axis=axis)
        x = rand(dt, (3, 4, 16))
        v = x[1].astype(np.float64)
        g16, b16, g416 = rand(dt, (16,)), rand(dt, (16,)), rand(dt, (4, 16))
        for tag, axis, gamma, beta in [("gb", -1, g16, b16), ("g", 1, g416, None), ("none", -1, None, None)]:
            out = norm64(v, axis, 1e-5, None if gamma is None else gamma[1].astype(np.float64), None if beta is None else beta[1].astype(np.float64), False)
            case(f"layer_norm_{dt}_{tag}", "layer_norm", [x, gamma, beta], (dt, rnd(out, dt)), "ulp:1", axis=axis, epsilon=1e-5)
        for tag, gamma in [("g", g16), ("none", None)]:
            out = norm64(v, -1, 1e-6, None if gamma is None else gamma[1].astype(np.float64), None, True)
            case(f"rms_norm_{dt}_{tag}", "rms_norm", [x, gamma], (dt, rnd(out, dt)), "ulp:1", axis=-1, epsilon=1e-6)
        x = rand(dt, (2, 3, 4, 5))
        mean, var, gamma, beta = rand(dt, (3,)), rand(dt, (3,), 0.25, 2.0), rand(dt, (3,)), rand(dt, (3,))
        c = lambda t: t[1].astype(np.float64)[None, :, None, None]
        out = (x[1].astype(np.float64) - c(mean)) / np.sqrt(c(var) + 1e-5) * c(gamma) + c(beta)
        case(f"batch_norm_{dt}", "batch_norm", [x, mean, var, gamma, beta], (dt, rnd(out, dt)), "ulp:1", epsilon=1e-5)
        x, bias = rand(dt, (2, 3, 4)), rand(dt, (3,))
        case(f"bias_add_{dt}", "bias_add", [x, bias], (dt, arith(dt, np.add, x[1], bias[1][:, None])), axis=1)
        case(f"dropout_{dt}", "dropout", [x], x)
        for shape, axis in [((3, 8), -1), ((4, 5), 0)]:
            x = rand(dt, shape)
            v = x[1].astype(np.float64)
            a, b = np.split(v, 2, axis=axis)
            out = a / (1.0 + np.exp(-a)) * b
            case(f"swiglu_{dt}_ax{axis}", "swiglu", [x], (dt, rnd(out, dt)), "ulp:1", axis=axis)


def main():
    shutil.rmtree(DATA, ignore_errors=True)
    os.makedirs(DATA)
    with np.errstate(all="ignore"):
        elementwise()
        compare_select_logic()
        casts()
        reductions()
        contractions()
        layout()
        composites()
    with open(os.path.join(HERE, "manifest.txt"), "w") as f:
        f.write("# generated by gen_goldens.py; one case a line, see its docstring\n")
        f.write("\n".join(lines) + "\n")
    size = sum(os.path.getsize(os.path.join(DATA, n)) for n in os.listdir(DATA))
    print(f"{len(lines)} cases, {len(os.listdir(DATA))} files, {size} bytes")


if __name__ == "__main__":
    main()
