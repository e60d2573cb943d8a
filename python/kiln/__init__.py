"""Kiln's eager JIT for numpy users.

Arrays are recorded lazily: ``kiln.asarray(x) * 2 + 1`` runs nothing until a value is read
(``.numpy()``), ``kiln.sync()`` is called, or an eager-framework boundary flushes the ops; then
they are fused, compiled (or found in the compile cache) and run on the Kiln VM.

>>> import numpy as np, kiln
>>> x = kiln.asarray(np.arange(4, dtype=np.float32))
>>> y = kiln.exp(x * 2.0) - x
>>> y.numpy().shape
(4,)

Errors come from the call that caused them: shapes that do not fit are ``ValueError``
(numpy's messages where numpy has one), element types ``TypeError``, a value larger than the
session's memory (1 GiB) ``MemoryError``. Work that fails when it is compiled or run (a back-end
limit) fails the values it computes: reading one of them (or using it in an op) raises the
error, nothing else does.

Where Kiln differs from numpy, on purpose:

- dtypes are bool, int8, int32, float16 and float32; there is no float64 or int64. Python data
  (scalars, lists) becomes float32 / int32 (a Python int outside int32 is an OverflowError);
  numpy float64 / int64 arrays and scalars are a TypeError in ``asarray`` unless ``dtype=``
  says what to convert them to (to an int dtype, every value must fit it: an OverflowError or,
  for NaN, a ValueError, where numpy's conversion wraps or is undefined). Arrays of size 0 are a ValueError; indexing is not supported.
- Promotion: two arrays promote as numpy's ``result_type`` where that is a Kiln dtype (bool
  with anything, int8 with int32, float16 with float32, int8 with a float); int32 with a float
  array would be float64 in numpy and is a TypeError. A Python (or numpy) scalar takes the
  array's dtype when it is of the same kind or lower (bool < int < float), as numpy 2 (NEP 50)
  does for Python scalars; an int that does not fit the array's int dtype is an OverflowError
  (``int8 array + 300``), never saturated or wrapped. A float scalar with an int or bool array,
  or an int scalar with a bool array, gives float32 / int32 (numpy: float64 / int64). numpy
  scalars (``np.float64(2)``) count as Python scalars here. ``where(cond, 1.0, 0.0)`` is
  float32, ``where(cond, 1, 0)`` int32, ``where(cond, True, False)`` bool.
- ``/`` of int or bool arrays is float32 (numpy: float64). ``//`` and ``%`` take int arrays
  (numpy's results: floored, the remainder has the divisor's sign, ``x // 0 == x % 0 == 0``);
  on float or bool arrays they are a TypeError. ``**`` of ints with a negative scalar exponent
  is a ValueError as in numpy; with a negative exponent array the result is ``trunc(b ** e)``
  (1, -1 or 0) where numpy raises. ``x ** 0.5`` is ``sqrt(x)``, as numpy's; an exponent
  array is C's ``pow`` elementwise even where it holds one element 0.5 (numpy: sqrt there too,
  so ``(-inf) ** 0.5`` is inf in kiln, NaN in numpy). Integer arithmetic wraps, as numpy's.
- bool arrays: ``+``, ``*``, ``maximum``, ``minimum`` are logical or / and as in numpy; ``-``
  and unary ``-`` are TypeErrors as in numpy; ``**`` is a TypeError (numpy: int8); ``&``,
  ``|``, ``^`` and ``~`` are logical (on int arrays, bitwise ops are a TypeError).
- exp, log, tanh, sigmoid, sqrt, softmax and layer_norm of int or bool arrays compute in float32
  (numpy: float16 for bool and int8, float64 for int32). ``sum`` of bool or int8 arrays is int32
  and ``sum`` of int32 arrays int32, wrapping on overflow (numpy: int64); ``mean`` of int or
  bool arrays is float32 (numpy: float64).
- ``astype`` from float to int truncates and saturates at the int's bounds, NaN gives 0 (numpy
  leaves these undefined).
- ``matmul`` multiplies float arrays only (an int matmul is a TypeError).
- ``maximum`` / ``minimum`` of +0.0 and -0.0 may give either zero (numpy: the second operand).
- ``bool(a)``, ``float(a)`` and ``int(a)`` take arrays of one element, as numpy (a ValueError
  otherwise). An int ``axis`` 0 or -1 of a 0-d array is an AxisError (numpy's sum, max and
  min take it; its mean does not).
- One session serves the process; every thread may use every array (the GIL orders the
  calls). ``set_flags`` and ``stats`` are the session's, for all threads.
"""

import builtins
import threading
import warnings as _warnings

import numpy as np

from . import _kiln

__all__ = [
    "ndarray", "asarray", "sync", "set_flags", "stats",
    "exp", "log", "tanh", "sigmoid", "sqrt", "abs", "negative", "relu", "floor", "ceil",
    "maximum", "minimum", "where", "sum", "max", "min", "mean", "matmul", "reshape",
    "transpose", "broadcast_to", "softmax", "layer_norm",
]

_NUMPY_OF = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i8": np.int8, "i1": np.bool_}
_KILN_OF = {np.dtype(v): k for k, v in _NUMPY_OF.items()}
_F32, _I32, _BOOL = np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.bool_)

_session = None
_session_lock = threading.Lock()


def _get_session():
    global _session
    if _session is None:
        with _session_lock:
            if _session is None:
                session = _kiln.Session("")
                for w in session.warnings():
                    _warnings.warn(w, stacklevel=3)
                _session = session
    return _session


def _kiln_dtype(dtype):
    d = np.dtype(dtype)
    if d not in _KILN_OF:
        raise TypeError(f"kiln has no {d} arrays (float32, float16, int32, int8, bool)")
    return _KILN_OF[d]


def _kind(dtype):
    """'b', 'i' or 'f' (bool < int < float)."""
    return "b" if dtype == _BOOL else ("i" if dtype.kind in "iu" else "f")


_KIND_ORDER = {"b": 0, "i": 1, "f": 2}


def _shape_text(shape):
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


class ndarray:
    """A kiln array: a value of the session, computed when read."""

    __slots__ = ("_t", "__weakref__")
    __array_priority__ = 100

    def __init__(self, tensor):
        self._t = tensor

    @property
    def shape(self):
        return tuple(self._t.shape)

    @property
    def dtype(self):
        return np.dtype(_NUMPY_OF[self._t.dtype])

    @property
    def ndim(self):
        return len(self._t.shape)

    @property
    def size(self):
        n = 1
        for d in self._t.shape:
            n *= d
        return n

    def numpy(self):
        """The values as a numpy array (flushes what this value needs)."""
        # A read-only view of the session's own bytes (as JAX's np.asarray gives), not a copy:
        # the value is immutable and may be shared. ``.copy()`` makes a writable array.
        data = np.asarray(self._t.host_bytes())
        return data.view(self.dtype).reshape(self.shape)

    def __array__(self, dtype=None, copy=None):
        # numpy's protocol: copy=True asks for an array of its own, copy=False for no copy
        # (an error if the dtype needs a conversion), None for a copy only where needed.
        a = self.numpy()
        if dtype is not None and np.dtype(dtype) != a.dtype:
            if copy is False:
                raise ValueError(f"converting {a.dtype} to {np.dtype(dtype)} needs a copy")
            return a.astype(dtype)
        return a.copy() if copy else a

    def __repr__(self):
        return f"kiln.ndarray({self.numpy()!r})"

    def item(self):
        """The one element, as a Python scalar."""
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.numpy().item()

    def tolist(self):
        return self.numpy().tolist()

    def __bool__(self):
        if self.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        return bool(self.item())

    def __float__(self):
        if self.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        return float(self.item())

    def __int__(self):
        if self.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        return int(self.item())

    def __len__(self):
        if not self._t.shape:
            raise TypeError("len() of unsized object")
        return self._t.shape[0]

    def astype(self, dtype):
        kd = _kiln_dtype(dtype)
        return self if kd == self._t.dtype else ndarray(self._t.cast(kd))

    def reshape(self, *shape):
        if not shape:
            raise TypeError("reshape() takes exactly 1 argument (0 given)")
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return reshape(self, shape)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        return transpose(self, axes or None)

    @property
    def T(self):
        return transpose(self)

    def sum(self, axis=None, keepdims=False):
        return sum(self, axis, keepdims)

    def max(self, axis=None, keepdims=False):
        return max(self, axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return min(self, axis, keepdims)

    def mean(self, axis=None, keepdims=False):
        return mean(self, axis, keepdims)

    def __neg__(self):
        return negative(self)

    def __pos__(self):
        if self.dtype == _BOOL:
            raise TypeError("ufunc 'positive' did not contain a loop with signature matching types bool")
        return self

    def __abs__(self):
        return abs(self)

    def __invert__(self):
        if self.dtype != _BOOL:
            raise TypeError(f"kiln has no bitwise not of {self.dtype} arrays (~ is logical not on bool arrays)")
        return ndarray(self._t.unary("logical_not"))

    def __matmul__(self, other):
        return matmul(self, other) if _is_operand(other) else NotImplemented

    def __rmatmul__(self, other):
        return matmul(other, self) if _is_operand(other) else NotImplemented

    __hash__ = None


# Operands ----------------------------------------------------------------------------------


def _is_scalar(x):
    """Whether ``x`` is a Python or numpy scalar (a "weak" operand, as in numpy 2's NEP 50)."""
    return isinstance(x, (bool, int, float, np.bool_, np.integer, np.floating))


def _is_operand(x):
    return isinstance(x, (ndarray, np.ndarray, list, tuple)) or _is_scalar(x)


def _scalar_kind(x):
    if isinstance(x, (bool, np.bool_)):
        return "b"
    if isinstance(x, (int, np.integer)):
        return "i"
    return "f"


def _default_dtype(kind):
    return {"b": _BOOL, "i": _I32, "f": _F32}[kind]


def _scalar_value(x, dtype):
    """Scalar ``x`` as the float the session converts to ``dtype`` (an int that does not fit an
    int dtype is numpy 2's OverflowError)."""
    if dtype.kind in "iu" and not isinstance(x, (bool, np.bool_)):
        v = int(x)
        info = np.iinfo(dtype)
        if not info.min <= v <= info.max:
            raise OverflowError(f"Python integer {v} out of bounds for {dtype}")
        return float(v)
    if dtype == _BOOL:
        return 1.0 if x else 0.0
    return float(x)


def _result_type(da, db):
    """numpy's promotion of two array dtypes, where it is a Kiln dtype."""
    r = np.result_type(da, db)
    if r not in _KILN_OF:
        raise TypeError(
            f"{da} and {db} arrays would promote to {r}, which kiln does not have: convert one with astype"
        )
    return r


def _common(operands):
    """The dtype ``operands`` (arrays and scalars; at least one array) compute in."""
    arrays = [o for o in operands if isinstance(o, ndarray)]
    dtype = arrays[0].dtype
    for a in arrays[1:]:
        dtype = _result_type(dtype, a.dtype)
    for s in operands:
        if not isinstance(s, ndarray) and _KIND_ORDER[_scalar_kind(s)] > _KIND_ORDER[_kind(dtype)]:
            dtype = _default_dtype(_scalar_kind(s))
    return dtype


def _scalar_array(x, dtype):
    """Scalar ``x`` as a 0-d kiln array of ``dtype``."""
    return asarray(np.asarray(_scalar_value(x, dtype)).astype(dtype))


def _prepare(operands):
    """Operands as kiln arrays and scalars, with the dtype they compute in: lists and numpy
    arrays become arrays; if every operand is a scalar, the one of the highest kind becomes a
    0-d array of its default dtype (numpy's result for Python scalars, in Kiln's dtypes)."""
    ops = [x if isinstance(x, ndarray) or _is_scalar(x) else asarray(x) for x in operands]
    if not any(isinstance(x, ndarray) for x in ops):
        i = builtins.max(range(len(ops)), key=lambda i: _KIND_ORDER[_scalar_kind(ops[i])])
        ops[i] = _scalar_array(ops[i], _default_dtype(_scalar_kind(ops[i])))
    return ops, _common(ops)


def _raw(x, dtype):
    """Operand ``x`` for the session in ``dtype``: a tensor (cast if need be) or a float."""
    if isinstance(x, ndarray):
        return x.astype(dtype)._t
    return _scalar_value(x, dtype)


def _broadcast_error(e, ops):
    shapes = " ".join(_shape_text(x.shape if isinstance(x, ndarray) else ()) for x in ops)
    return ValueError(f"operands could not be broadcast together with shapes {shapes} ({e})")


def _record(name, ops, dtype):
    """Binary op ``name`` of the session on ``ops`` in ``dtype``."""
    a, b = (_raw(x, dtype) for x in ops)
    try:
        return ndarray(_kiln.binary(name, a, b))
    except ValueError as e:
        if "not broadcast compatible" not in str(e):
            raise
        raise _broadcast_error(e, ops) from None


# Binary ops --------------------------------------------------------------------------------

_BOOL_AS = {"add": "or", "mul": "and", "maximum": "or", "minimum": "and"}
_NUMPY_NAME = {"add": "add", "sub": "subtract", "mul": "multiply", "pow": "power",
               "maximum": "maximum", "minimum": "minimum", "div": "true_divide",
               "floordiv": "floor_divide", "mod": "remainder"}


def _arith(name, a, b):
    ops, dtype = _prepare([a, b])
    if name == "div":
        if dtype.kind != "f":
            dtype = _F32
        return _record("div", ops, dtype)
    if name in ("floordiv", "mod"):
        if _kind(dtype) != "i":
            raise TypeError(f"kiln has {_NUMPY_NAME[name]} ({'//' if name == 'floordiv' else '%'}) of int arrays only, not of {dtype}")
        return _floor_div_mod(name, ops, dtype)
    if dtype == _BOOL:
        if name in _BOOL_AS:
            return _record(_BOOL_AS[name], ops, dtype)
        raise TypeError(f"numpy boolean {_NUMPY_NAME[name]} is not supported (kiln: cast with astype)")
    if name == "pow" and _is_scalar(ops[1]):
        if _kind(dtype) == "i" and ops[1] < 0:
            raise ValueError("Integers to negative integer powers are not allowed.")
        if dtype.kind == "f" and ops[1] == 0.5:
            # numpy's power takes a scalar exponent of 0.5 as sqrt: (-inf) ** 0.5 is NaN, not
            # pow's inf, and (-0.0) ** 0.5 is -0.0.
            return ndarray(ops[0].astype(dtype)._t.unary("sqrt"))
    return _record(name, ops, dtype)


def _floor_div_mod(name, ops, dtype):
    """numpy's ``//`` or ``%`` of ints from the session's truncating division: ``q = a / b``,
    ``r = a - q * b``; where ``r != 0`` and its sign is not ``b``'s, ``q - 1`` and ``r + b``;
    both 0 where ``b == 0``."""
    a, b = ops
    if _is_scalar(b):
        bv = int(_scalar_value(b, dtype))
        if bv == 0:
            return _record("mul", [a, 0], dtype)
        q = _record("div", [a, bv], dtype)
        r = _record("sub", [a, _record("mul", [q, bv], dtype)], dtype)
        adjust = _record("lt" if bv > 0 else "gt", [r, 0], dtype)
        if name == "floordiv":
            return where(adjust, _record("sub", [q, 1], dtype), q)
        return where(adjust, _record("add", [r, bv], dtype), r)
    b = b.astype(dtype)
    zero = _record("eq", [b, 0], dtype)
    safe_b = where(zero, 1, b)
    q = _record("div", [a, safe_b], dtype)
    r = _record("sub", [a, _record("mul", [q, safe_b], dtype)], dtype)
    signs = _record("ne", [_record("lt", [r, 0], dtype), _record("lt", [safe_b, 0], dtype)], _BOOL)
    adjust = _record("and", [_record("ne", [r, 0], dtype), signs], _BOOL)
    if name == "floordiv":
        out = where(adjust, _record("sub", [q, 1], dtype), q)
    else:
        out = where(adjust, _record("add", [r, safe_b], dtype), r)
    return where(zero, 0, out)


def _compare(name, a, b):
    ops, dtype = _prepare([a, b])
    return _record(name, ops, dtype)


def _logical(name, a, b):
    ops, dtype = _prepare([a, b])
    if dtype != _BOOL:
        raise TypeError(f"kiln has no bitwise {name} of {dtype} arrays (&, |, ^ are logical on bool arrays)")
    return _record(name, ops, dtype)


def _install_operators():
    def binop(f):
        def fwd(a, b):
            return f(a, b) if _is_operand(b) else NotImplemented

        def rev(a, b):
            return f(b, a) if _is_operand(b) else NotImplemented

        return fwd, rev

    for dunder, name in [("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div"),
                         ("floordiv", "floordiv"), ("mod", "mod"), ("pow", "pow")]:
        fwd, rev = binop(lambda a, b, name=name: _arith(name, a, b))
        setattr(ndarray, f"__{dunder}__", fwd)
        setattr(ndarray, f"__r{dunder}__", rev)
    for dunder in ["eq", "ne", "lt", "le", "gt", "ge"]:
        fwd, _ = binop(lambda a, b, name=dunder: _compare(name, a, b))
        setattr(ndarray, f"__{dunder}__", fwd)
    for dunder, name in [("and", "and"), ("or", "or"), ("xor", "ne")]:
        fwd, rev = binop(lambda a, b, name=name: _logical(name, a, b))
        setattr(ndarray, f"__{dunder}__", fwd)
        setattr(ndarray, f"__r{dunder}__", rev)


_install_operators()


def maximum(a, b):
    """Elementwise maximum (NaN propagates)."""
    return _arith("maximum", a, b)


def minimum(a, b):
    """Elementwise minimum (NaN propagates)."""
    return _arith("minimum", a, b)


def where(cond, a, b):
    """``a`` where ``cond`` else ``b`` (``cond`` is truth-tested: nonzero, NaN is true)."""
    cond = asarray(cond)
    if cond.dtype != _BOOL:
        cond = _compare("ne", cond, 0)
    ops, dtype = _prepare([a, b])
    try:
        return ndarray(_kiln.select(cond._t, *(_raw(x, dtype) for x in ops)))
    except ValueError as e:
        if "not broadcast compatible" not in str(e):
            raise
        raise _broadcast_error(e, [cond] + ops) from None


# Arrays ------------------------------------------------------------------------------------


def asarray(a, dtype=None):
    """A kiln array of ``a`` (a numpy array or scalar, a Python scalar or list, or a kiln array).

    Python data becomes float32 / int32 / bool; numpy data keeps its dtype (float64 and int64
    are a TypeError unless ``dtype`` names one to convert to)."""
    if isinstance(a, ndarray):
        return a if dtype is None else a.astype(dtype)
    if dtype is not None:
        arr = _converted(a, np.dtype(dtype))
    elif isinstance(a, (np.ndarray, np.generic)):
        arr = np.asarray(a)
    else:
        # Python data: its ints become int32 (each checked: numpy would infer int64, uint64 or
        # even float64 for ints past int64), its floats float32.
        kinds = set()
        _python_leaves(a, kinds)
        if kinds == {"i"} or kinds == {"i", "b"}:
            arr = np.asarray(a, dtype=np.int32)
        else:
            arr = np.asarray(a)
            if arr.dtype.kind == "f":
                arr = arr.astype(np.float32)
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    kd = _kiln_dtype(arr.dtype)
    session = _get_session()
    if arr.size == 0:
        return ndarray(session.tensor(b"", list(arr.shape), kd))  # the session's size-0 error
    # One copy, straight from the array's memory into the session (into a spare buffer of
    # its pool when one has the size). A Fortran-ordered array (a transposed one) is copied
    # as it lies and transposed in Kiln; any other layout is made C-contiguous first.
    if arr.ndim > 1 and not arr.flags.c_contiguous and arr.flags.f_contiguous:
        t = session.tensor_at(arr.ctypes.data, arr.nbytes, list(reversed(arr.shape)), kd)
        return ndarray(t.transpose(list(reversed(range(arr.ndim)))))
    shape = list(arr.shape)
    if not arr.flags.c_contiguous:
        arr = np.ascontiguousarray(arr)
    return ndarray(session.tensor_at(arr.ctypes.data, arr.nbytes, shape, kd))


def _converted(a, dtype):
    """Data ``a`` as a numpy array of ``dtype``; numeric data converted to an int dtype must
    fit it (numpy's astype would wrap it, or leave NaN and out-of-range floats undefined)."""
    if dtype.kind not in "iu" or isinstance(a, (list, tuple, int, bool)):
        return np.asarray(a, dtype=dtype)  # Python ints: numpy 2 raises OverflowError itself
    src = np.asarray(a)
    if src.dtype.kind in "iuf" and src.size:
        info = np.iinfo(dtype)
        if src.dtype.kind == "f" and np.isnan(src).any():
            raise ValueError(f"cannot convert float NaN to {dtype}")
        lo, hi = src.min(), src.max()
        if lo < info.min or hi > info.max:
            raise OverflowError(f"value {lo if lo < info.min else hi} out of bounds for {dtype}")
    return src.astype(dtype)


def _python_leaves(a, kinds):
    """Adds to ``kinds`` the kind of every scalar of Python data ``a`` ('b', 'i', 'f' or 'o');
    raises numpy 2's OverflowError for an int outside int32."""
    if isinstance(a, (list, tuple)):
        for x in a:
            _python_leaves(x, kinds)
    elif isinstance(a, (bool, np.bool_)):
        kinds.add("b")
    elif isinstance(a, int):
        if not -(1 << 31) <= a < (1 << 31):
            raise OverflowError(f"Python integer {a} out of bounds for int32")
        kinds.add("i")
    elif isinstance(a, float):
        kinds.add("f")
    else:
        kinds.add("o")


def _to_float(x):
    """``x`` as an array of a float dtype (int and bool arrays become float32)."""
    x = asarray(x)
    return x if x.dtype.kind == "f" else x.astype(np.float32)


def _unary(name, doc, float_only):
    def op(x):
        x = _to_float(x) if float_only else asarray(x)
        return ndarray(x._t.unary(name))
    op.__name__ = name
    op.__doc__ = doc
    return op


exp = _unary("exp", "``e ** x`` (int and bool arrays compute in float32).", True)
log = _unary("log", "Natural logarithm (int and bool arrays compute in float32).", True)
tanh = _unary("tanh", "Hyperbolic tangent (int and bool arrays compute in float32).", True)
sigmoid = _unary("sigmoid", "``1 / (1 + e ** -x)`` (int and bool arrays compute in float32).", True)
sqrt = _unary("sqrt", "Square root (int and bool arrays compute in float32).", True)


def abs(x):
    """``|x|`` (ints wrap: ``abs(int8(-128)) == -128``, as numpy)."""
    x = asarray(x)
    return x if x.dtype == _BOOL else ndarray(x._t.unary("abs"))


def negative(x):
    """``-x`` (a TypeError for bool arrays, as numpy)."""
    x = asarray(x)
    if x.dtype == _BOOL:
        raise TypeError("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.")
    return ndarray(x._t.unary("neg"))


def relu(x):
    """``maximum(x, 0)``."""
    x = asarray(x)
    if x.dtype.kind != "f":
        return x if x.dtype == _BOOL else maximum(x, 0)
    return ndarray(x._t.unary("relu"))


def _rounding(name):
    def op(x):
        x = asarray(x)
        # Ints and bools are whole already (numpy keeps their dtype).
        return x if x.dtype.kind != "f" else ndarray(x._t.unary(name))
    op.__name__ = name
    op.__doc__ = f"Rounding toward {'-' if name == 'floor' else '+'}inf."
    return op


floor = _rounding("floor")
ceil = _rounding("ceil")


def _axes(x, axis):
    """``axis`` (None, an int or a sequence) as sorted non-negative axes of ``x``, with numpy's
    errors."""
    rank = x.ndim
    if axis is None:
        return list(range(rank))
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    out = []
    for a in axes:
        if not isinstance(a, (int, np.integer)) or isinstance(a, (bool, np.bool_)):
            raise TypeError(f"'{type(a).__name__}' object cannot be interpreted as an integer")
        if not -rank <= a < rank:
            raise np.exceptions.AxisError(f"axis {a} is out of bounds for array of dimension {rank}")
        out.append(int(a) % rank)
    if len(set(out)) != len(out):
        raise ValueError("duplicate value in 'axis'")
    return sorted(out)


def _reduce(name, doc):
    def op(x, axis=None, keepdims=False):
        x = asarray(x)
        axes = _axes(x, axis)
        if name == "sum" and x.dtype.kind != "f":
            x = x.astype(np.int32)
        elif name == "mean" and x.dtype.kind != "f":
            x = x.astype(np.float32)
        if not axes:
            return x
        if x.dtype == _BOOL:  # max / min: any / all
            return ndarray(x.astype(np.int8)._t.reduce(name, axes, bool(keepdims))).astype(np.bool_)
        return ndarray(x._t.reduce(name, axes, bool(keepdims)))
    op.__name__ = name
    op.__doc__ = doc
    return op


sum = _reduce("sum", "Sum over ``axis`` (bool and int arrays sum in int32).")
max = _reduce("max", "Maximum over ``axis`` (NaN propagates).")
min = _reduce("min", "Minimum over ``axis`` (NaN propagates).")
mean = _reduce("mean", "Mean over ``axis`` (bool and int arrays average in float32).")


def broadcast_to(x, shape):
    """``x`` broadcast to ``shape``."""
    x = asarray(x)
    shape = _shape_arg(shape)
    if x.shape == shape:
        return x
    try:
        return ndarray(x._t.broadcast_to(list(shape)))
    except ValueError as e:
        raise ValueError(
            f"operands could not be broadcast together with remapped shapes [original->remapped]: {_shape_text(x.shape)} and requested shape {_shape_text(shape)} ({e})"
        ) from None


def _broadcast_shapes(a, b, what):
    n = builtins.max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise ValueError(f"{what}: operands could not be broadcast together with shapes {_shape_text(a)} {_shape_text(b)}")
        out.append(y if x == 1 else x)
    return tuple(out)


def matmul(a, b):
    """numpy's matrix product: 1-D operands are vectors, batch dims broadcast."""
    ops, dtype = _prepare([a, b])
    a, b = (x if isinstance(x, ndarray) else asarray(x, dtype) for x in ops)
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError(
                f"matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"
            )
    if dtype.kind != "f":
        raise TypeError(f"kiln multiplies float matrices only, not {dtype} (convert with astype)")
    a, b = a.astype(dtype), b.astype(dtype)
    va, vb = a.ndim == 1, b.ndim == 1
    if va:
        a = reshape(a, (1,) + a.shape)
    if vb:
        b = reshape(b, b.shape + (1,))
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {b.shape[-2]} is different from {a.shape[-1]})"
        )
    batch = _broadcast_shapes(a.shape[:-2], b.shape[:-2], "matmul")
    if batch:
        a = broadcast_to(a, batch + a.shape[-2:])
        b = broadcast_to(b, batch + b.shape[-2:])
    out = ndarray(a._t.matmul(b._t))
    if va or vb:
        shape = out.shape
        shape = shape[:-2] + (() if va else shape[-2:-1]) + (() if vb else shape[-1:])
        out = reshape(out, shape)
    return out


def _shape_arg(shape):
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    out = []
    for d in shape:
        if not isinstance(d, (int, np.integer)) or isinstance(d, (bool, np.bool_)):
            raise TypeError(f"'{type(d).__name__}' object cannot be interpreted as an integer")
        out.append(int(d))
    return tuple(out)


def reshape(x, shape):
    """The same elements in ``shape`` (one dim may be -1)."""
    x = asarray(x)
    shape = list(_shape_arg(shape))
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if any(d < -1 for d in shape):
        raise ValueError(f"negative dimensions not allowed: {tuple(shape)}")
    total = x.size
    if -1 in shape:
        known = 1
        for d in shape:
            if d != -1:
                known *= d
        if known == 0 or total % known:
            raise ValueError(f"cannot reshape array of size {total} into shape {tuple(shape)}")
        shape[shape.index(-1)] = total // known
    if tuple(shape) == x.shape:
        return x
    try:
        return ndarray(x._t.reshape(shape))
    except ValueError as e:
        raise ValueError(f"cannot reshape array of size {total} into shape {tuple(shape)} ({e})") from None


def transpose(x, axes=None):
    """Dims permuted by ``axes`` (reversed by default; negative axes count from the end)."""
    x = asarray(x)
    rank = x.ndim
    if axes is None:
        perm = list(reversed(range(rank)))
    else:
        axes = _shape_arg(axes)
        if len(axes) != rank:
            raise ValueError("axes don't match array")
        perm = []
        for a in axes:
            if not -rank <= a < rank:
                raise np.exceptions.AxisError(f"axis {a} is out of bounds for array of dimension {rank}")
            perm.append(a % rank)
        if len(set(perm)) != rank:
            raise ValueError("repeated axis in transpose")
    if perm == list(range(rank)):
        return x
    return ndarray(x._t.transpose(perm))


def softmax(x, axis=-1):
    """Softmax along ``axis`` (int and bool arrays compute in float32)."""
    x = _to_float(x)
    (axis,) = _axes(x, (axis,))
    return ndarray(x._t.softmax(axis))


def layer_norm(x, gamma, beta, eps=1e-5):
    """Layer normalization over the last axis: ``(x - mean) / sqrt(var + eps) * gamma + beta``
    (int and bool arrays compute in float32; gamma and beta broadcast to x's last axis)."""
    x = _to_float(x)
    if x.ndim == 0:
        raise ValueError("layer_norm normalizes over the last axis, which a 0-d array has not")
    gamma, beta = (_scalar_array(g, x.dtype) if _is_scalar(g) else asarray(g).astype(x.dtype) for g in (gamma, beta))
    return ndarray(x._t.layer_norm(gamma._t, beta._t, float(eps)))


def sync():
    """Runs everything pending."""
    _get_session().sync()


def set_flags(flags):
    """Applies a flags string (``"--opt_level=2 --flush_threshold=32"``); warns for unknown
    or repeated keys, raises ValueError for malformed ones."""
    for w in _get_session().set_flags(flags):
        _warnings.warn(w, stacklevel=2)


def stats():
    """The session's counters: cache hits (``segments_predicted`` of them followed a script)
    and misses, compile time, flushes by reason, outputs that reused a released array's
    memory (``buffers_reused``)."""
    return _get_session().stats()
