"""Kiln's eager JIT for numpy users.

Arrays are recorded lazily: ``kiln.asarray(x) * 2 + 1`` runs nothing until a value is read
(``.numpy()``), ``kiln.sync()`` is called, or an eager-framework boundary flushes the ops; then
they are fused, compiled (or found in the compile cache) and run on the Kiln VM.

>>> import numpy as np, kiln
>>> x = kiln.asarray(np.arange(4, dtype=np.float32))
>>> y = kiln.exp(x * 2.0) - x
>>> y.numpy().shape
(4,)
"""

import os
import warnings as _warnings

import numpy as np

from . import _kiln

__all__ = [
    "ndarray", "asarray", "sync", "set_flags", "stats",
    "exp", "log", "tanh", "sigmoid", "sqrt", "abs", "negative", "relu", "floor", "ceil",
    "maximum", "minimum", "where", "sum", "max", "min", "mean", "matmul", "reshape",
    "transpose", "softmax", "layer_norm",
]

_NUMPY_OF = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i8": np.int8, "i1": np.bool_}
_KILN_OF = {np.dtype(v): k for k, v in _NUMPY_OF.items()}

_session = None


def _get_session():
    global _session
    if _session is None:
        _session = _kiln.Session("")
        for w in _session.warnings():
            _warnings.warn(w, stacklevel=3)
    return _session


def _kiln_dtype(dtype):
    d = np.dtype(dtype)
    if d not in _KILN_OF:
        raise TypeError(f"kiln has no {d} arrays (float32, float16, int32, int8, bool)")
    return _KILN_OF[d]


class ndarray:
    """A kiln array: a value of the session, computed when read."""

    __slots__ = ("_t",)
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

    def astype(self, dtype):
        return ndarray(self._t.cast(_kiln_dtype(dtype)))

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return reshape(self, shape)

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
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

    def __abs__(self):
        return abs(self)

    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)


def _operand(x):
    """A kiln tensor or a Python float for an op operand."""
    if isinstance(x, ndarray):
        return x._t
    if isinstance(x, (bool, np.bool_)):
        return float(x)
    if isinstance(x, (int, float, np.integer, np.floating)):
        return float(x)
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return float(x)
    return asarray(x)._t


def _shape_text(x):
    shape = tuple(x.shape) if isinstance(x, _kiln.Tensor) else ()
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _binary(name):
    def op(a, b):
        a, b = _operand(a), _operand(b)
        try:
            return ndarray(_kiln.binary(name, a, b))
        except ValueError as e:
            if "not broadcast compatible" not in str(e):
                raise
            raise ValueError(
                f"operands could not be broadcast together with shapes {_shape_text(a)} {_shape_text(b)} ({e})"
            ) from None
    return op


def _install_operators():
    for dunder, name in [("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div"), ("pow", "pow")]:
        f = _binary(name)
        setattr(ndarray, f"__{dunder}__", lambda a, b, f=f: f(a, b))
        setattr(ndarray, f"__r{dunder}__", lambda a, b, f=f: f(b, a))
    for dunder in ["eq", "ne", "lt", "le", "gt", "ge"]:
        f = _binary(dunder)
        setattr(ndarray, f"__{dunder}__", lambda a, b, f=f: f(a, b))
    ndarray.__and__ = lambda a, b: _binary("and")(a, b)
    ndarray.__or__ = lambda a, b: _binary("or")(a, b)
    ndarray.__invert__ = lambda a: ndarray(a._t.unary("logical_not"))
    ndarray.__hash__ = None


_install_operators()


def asarray(a, dtype=None):
    """A kiln array of ``a`` (a numpy array, a list, or a kiln array)."""
    if isinstance(a, ndarray):
        return a if dtype is None else a.astype(dtype)
    arr = np.asarray(a) if dtype is None else np.asarray(a, dtype=dtype)
    if dtype is None and arr.dtype == np.float64 and not isinstance(a, np.ndarray):
        arr = arr.astype(np.float32)
    if dtype is None and arr.dtype == np.int64 and not isinstance(a, np.ndarray):
        arr = arr.astype(np.int32)
    kd = _kiln_dtype(arr.dtype)
    arr = np.ascontiguousarray(arr)
    return ndarray(_get_session().tensor(arr.tobytes(), list(arr.shape), kd))


def _unary(name):
    def op(x):
        return ndarray(asarray(x)._t.unary(name))
    op.__name__ = name
    return op


exp = _unary("exp")
log = _unary("log")
tanh = _unary("tanh")
sigmoid = _unary("sigmoid")
sqrt = _unary("sqrt")
abs = _unary("abs")
negative = _unary("neg")
relu = _unary("relu")
floor = _unary("floor")
ceil = _unary("ceil")
maximum = _binary("maximum")
minimum = _binary("minimum")


def where(cond, a, b):
    """``a`` where ``cond`` else ``b``."""
    return ndarray(_kiln.select(asarray(cond)._t, _operand(a), _operand(b)))


def _axes(x, axis):
    if axis is None:
        return list(range(x.ndim))
    if isinstance(axis, int):
        return [axis]
    return list(axis)


def _reduce(name):
    def op(x, axis=None, keepdims=False):
        x = asarray(x)
        return ndarray(x._t.reduce(name, _axes(x, axis), bool(keepdims)))
    op.__name__ = name
    return op


sum = _reduce("sum")
max = _reduce("max")
min = _reduce("min")
mean = _reduce("mean")


def matmul(a, b):
    """Matrix product (batched for 3-D arrays)."""
    return ndarray(asarray(a)._t.matmul(asarray(b)._t))


def reshape(x, shape):
    """The same elements in ``shape`` (one dim may be -1)."""
    x = asarray(x)
    shape = [shape] if isinstance(shape, int) else list(shape)
    if shape.count(-1) == 1:
        known = int(np.prod([d for d in shape if d != -1]))
        total = int(np.prod(x.shape))
        if known == 0 or total % known:
            raise ValueError(f"cannot reshape array of size {total} into shape {tuple(shape)}")
        shape[shape.index(-1)] = total // known
    return ndarray(x._t.reshape(shape))


def transpose(x, axes=None):
    """Dims permuted by ``axes`` (reversed by default)."""
    x = asarray(x)
    axes = list(reversed(range(x.ndim))) if axes is None else list(axes)
    return ndarray(x._t.transpose(axes))


def softmax(x, axis=-1):
    """Softmax along ``axis``."""
    return ndarray(asarray(x)._t.softmax(axis))


def layer_norm(x, gamma, beta, eps=1e-5):
    """Layer normalization over the last axis."""
    return ndarray(asarray(x)._t.layer_norm(asarray(gamma)._t, asarray(beta)._t, float(eps)))


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
