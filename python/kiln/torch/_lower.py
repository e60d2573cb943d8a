"""The aten -> Kiln table: one lowering per aten overload, over the eager session's ``hl`` ops.

A lowering takes the aten op's arguments as PyTorch passes them, with every tensor operand
already a Kiln value (``_kiln.Tensor``) when its dtype is one Kiln computes in, and returns
Kiln values (or a tuple / list of them, ``None`` where the aten op returns no tensor). Integer
*index* operands (embedding indices, cross-entropy targets) stay PyTorch tensors, whatever
their dtype; a lowering turns them into ``int32`` Kiln values with :func:`index`, which checks
their range first. A lowering raises :class:`Unsupported` when it cannot give exactly what
PyTorch gives (a dtype Kiln lacks, a PyTorch tensor where a Kiln value is needed, an argument
it does not handle); the op then runs in PyTorch. docs/frontends/torch.md is the table's
documentation; ``TABLE`` is the table.

Dtypes and promotion are PyTorch's (``torch.result_type``: dimensioned tensors over 0-d
tensors over Python scalars, within the highest category), with a Python float taking the
default dtype (float32) and a Python int int64 where they decide the result; a result dtype
Kiln has not (float64, int64, complex) is :class:`Unsupported`.
"""

import math

import torch

from .. import _kiln

aten = torch.ops.aten

KILN_DTYPE = {
    torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
    torch.int32: "i32", torch.int8: "i8", torch.bool: "i1",
}
TORCH_DTYPE = {v: k for k, v in KILN_DTYPE.items()}

#: The session lowerings record into (kiln.torch's; a compile-time check swaps in another).
_session = None


def session():
    """The session lowerings record into."""
    if _session is None:
        from ._state import session as create

        return create()
    return _session


class Unsupported(Exception):
    """The op (with these arguments) runs in PyTorch."""


def _is_kiln(x):
    return isinstance(x, _kiln.Tensor)


def kv(x):
    """``x`` as a Kiln value, or :class:`Unsupported`."""
    if not isinstance(x, _kiln.Tensor):
        raise Unsupported(f"operand of type {type(x).__name__} is not a Kiln value")
    return x


def tdt(x):
    """The PyTorch dtype of Kiln value ``x``."""
    return TORCH_DTYPE[x.dtype]


def shape(x):
    return tuple(x.shape)


def rec(op, operands, attrs=None, declared=None):
    """Records ``hl.<op>``."""
    return session().record(op, list(operands), attrs or {}, declared)


def cast(x, dt):
    """``x`` converted to PyTorch dtype ``dt`` (a Kiln dtype)."""
    if dt not in KILN_DTYPE:
        raise Unsupported(f"{dt} is not a Kiln dtype")
    if tdt(x) == dt:
        return x
    if dt == torch.bool:
        return _kiln.binary("ne", x, 0.0)
    return x.cast(KILN_DTYPE[dt])


def full(shape_, value, dt):
    """A tensor of ``shape_`` filled with ``value``, of PyTorch dtype ``dt``."""
    if dt not in KILN_DTYPE:
        raise Unsupported(f"{dt} is not a Kiln dtype")
    value = _scalar(value)
    if dt.is_floating_point or dt == torch.int32 and abs(value) < 2 ** 24:
        f = rec("broadcast_to", [value], declared=(list(shape_), "f32"))
        return cast(f, dt)
    if dt == torch.bool:
        return cast(rec("broadcast_to", [1.0 if value else 0.0], declared=(list(shape_), "f32")), dt)
    raise Unsupported(f"fill of {dt} with {value}")


# Promotion ----------------------------------------------------------------------------------

def _scalar(v):
    if isinstance(v, torch.Tensor):
        raise Unsupported("a PyTorch tensor where a number was expected")
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return v
    raise Unsupported(f"scalar of type {type(v).__name__}")


def result_type(*xs):
    """PyTorch's ``result_type`` of Kiln values and Python scalars."""
    dim = zero = wrapped = None

    def promote(a, b):
        return b if a is None else torch.promote_types(a, b)

    for x in xs:
        if _is_kiln(x):
            if x.shape:
                dim = promote(dim, tdt(x))
            else:
                zero = promote(zero, tdt(x))
        elif isinstance(x, bool):
            wrapped = promote(wrapped, torch.bool)
        elif isinstance(x, int):
            wrapped = promote(wrapped, torch.int64)
        elif isinstance(x, float):
            wrapped = promote(wrapped, torch.get_default_dtype())
        else:
            raise Unsupported(f"operand of type {type(x).__name__}")

    def combine(higher, lower):
        if higher is None:
            return lower
        if lower is None:
            return higher
        if higher.is_floating_point:
            return higher
        if higher == torch.bool or lower.is_floating_point:
            return torch.promote_types(higher, lower)
        return higher

    r = combine(dim, combine(zero, wrapped))
    if r is None:
        raise Unsupported("no operands")
    return r


def _operand(x, dt):
    """Operand ``x`` (a Kiln value or a Python scalar) for an op computing in ``dt``."""
    if _is_kiln(x):
        return cast(x, dt)
    v = _scalar(x)
    if not dt.is_floating_point and dt != torch.bool:
        if isinstance(v, float) or not -(1 << 31) <= int(v) < (1 << 31):
            raise Unsupported(f"scalar {v} for a {dt} op")
    return float(v)


def _need(dt):
    if dt not in KILN_DTYPE:
        raise Unsupported(f"the result would be {dt}, which Kiln does not compute in")
    return dt


def _binary(name, a, b, dt=None):
    if not _is_kiln(a) and not _is_kiln(b):
        raise Unsupported("no Kiln operand")
    dt = _need(dt or result_type(a, b))
    return _kiln.binary(name, _operand(a, dt), _operand(b, dt))


def _unary(name, x):
    return kv(x).unary(name)


def _float_of(x):
    """``x`` in a float dtype (ints and bools compute in the default dtype, as PyTorch's)."""
    x = kv(x)
    return x if tdt(x).is_floating_point else cast(x, torch.get_default_dtype())


TABLE = {}


def lower(*ops):
    """Registers the decorated function as the lowering of every aten overload in ``ops``."""
    def register(fn):
        for op in ops:
            TABLE[op] = fn
        return fn
    return register


# Elementwise binary -------------------------------------------------------------------------


def _alpha_scaled(b, alpha, dt):
    if alpha == 1:
        return b
    if dt == torch.bool:
        raise Unsupported("alpha with bool operands")
    return _binary("mul", b, alpha, dt)


@lower(aten.add.Tensor, aten.add.Scalar)
def add(self, other, alpha=1):
    dt = _need(result_type(self, other))
    if dt == torch.bool:
        return _binary("or", self, other, dt)
    return _binary("add", self, _alpha_scaled(other, alpha, dt), dt)


@lower(aten.sub.Tensor, aten.sub.Scalar)
def sub(self, other, alpha=1):
    dt = _need(result_type(self, other))
    if dt == torch.bool:
        raise Unsupported("bool subtraction (PyTorch raises)")
    return _binary("sub", self, _alpha_scaled(other, alpha, dt), dt)


@lower(aten.rsub.Tensor, aten.rsub.Scalar)
def rsub(self, other, alpha=1):
    return sub(other, self, alpha)


@lower(aten.mul.Tensor, aten.mul.Scalar)
def mul(self, other):
    dt = _need(result_type(self, other))
    return _binary("and" if dt == torch.bool else "mul", self, other, dt)


@lower(aten.div.Tensor, aten.div.Scalar)
def div(self, other):
    dt = result_type(self, other)
    if not dt.is_floating_point:
        dt = torch.get_default_dtype()
    return _binary("div", self, other, dt)


@lower(aten.div.Tensor_mode, aten.div.Scalar_mode)
def div_mode(self, other, rounding_mode=None):
    dt = _need(result_type(self, other))
    if rounding_mode is None:
        return div(self, other)
    if not dt.is_floating_point:
        raise Unsupported("integer division with a rounding mode")
    q = _binary("div", self, other, dt)
    if rounding_mode == "floor":
        return q.unary("floor")
    raise Unsupported(f"rounding_mode={rounding_mode!r}")


def _pow_scalar_exponent(x, e):
    # PyTorch's CPU pow takes these exponents apart (exactly as here), the rest to std::pow.
    if e == 2:
        return _kiln.binary("mul", x, x)
    if e == 3:
        return _kiln.binary("mul", _kiln.binary("mul", x, x), x)
    if e == 1:
        return x
    if tdt(x).is_floating_point:
        if e == 0.5:
            return x.unary("sqrt")
        if e == -0.5:
            return x.unary("rsqrt")
        if e == -1:
            return x.unary("reciprocal")
        if e == -2:
            return _kiln.binary("mul", x, x).unary("reciprocal")
    return _kiln.binary("pow", x, float(e))


@lower(aten.pow.Tensor_Scalar)
def pow_tensor_scalar(self, exponent):
    dt = _need(result_type(self, exponent))
    e = _scalar(exponent)
    if dt == torch.bool:
        raise Unsupported("bool pow")
    if not dt.is_floating_point and (isinstance(e, float) or e < 0 or e > 3):
        raise Unsupported("integer pow other than x**0..3")
    if e == 0:
        return full(shape(kv(self)), 1, dt)
    return _pow_scalar_exponent(cast(kv(self), dt), e)


@lower(aten.pow.Tensor_Tensor)
def pow_tensor_tensor(self, exponent):
    dt = _need(result_type(self, exponent))
    if not dt.is_floating_point:
        raise Unsupported("integer pow")
    return _binary("pow", self, exponent, dt)


@lower(aten.pow.Scalar)
def pow_scalar(self, exponent):
    dt = _need(result_type(self, exponent))
    if not dt.is_floating_point:
        raise Unsupported("integer pow")
    return _binary("pow", self, exponent, dt)


@lower(aten.maximum.default)
def maximum(self, other):
    dt = _need(result_type(self, other))
    return _binary("or" if dt == torch.bool else "maximum", self, other, dt)


@lower(aten.minimum.default)
def minimum(self, other):
    dt = _need(result_type(self, other))
    return _binary("and" if dt == torch.bool else "minimum", self, other, dt)


def _compare(name):
    def op(self, other):
        dt = _need(result_type(self, other))
        return _binary(name, self, other, dt)
    op.__name__ = name
    return op


for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    lower(getattr(aten, _name).Tensor, getattr(aten, _name).Scalar)(_compare(_name))


def _truth(x):
    return cast(kv(x), torch.bool)


@lower(aten.logical_and.default)
def logical_and(self, other):
    return _kiln.binary("and", _truth(self), _truth(other))


@lower(aten.logical_or.default)
def logical_or(self, other):
    return _kiln.binary("or", _truth(self), _truth(other))


@lower(aten.logical_xor.default)
def logical_xor(self, other):
    return _kiln.binary("ne", _truth(self), _truth(other))


@lower(aten.logical_not.default)
def logical_not(self):
    return _truth(self).unary("logical_not")


@lower(aten.where.self, aten.where.ScalarSelf, aten.where.ScalarOther, aten.where.Scalar)
def where(condition, self, other):
    cond = _truth(condition)
    dt = _need(result_type(self, other))
    return _kiln.select(cond, _operand(self, dt), _operand(other, dt))


@lower(aten.masked_fill.Scalar)
def masked_fill(self, mask, value):
    x = kv(self)
    return _kiln.select(_truth(mask), _operand(value, tdt(x)), x)


def _clamp(x, lo, hi):
    x = kv(x)
    dt = _need(result_type(x, *(v for v in (lo, hi) if v is not None)))
    if dt == torch.bool:
        raise Unsupported("bool clamp")
    x = cast(x, dt)
    # PyTorch: min(max(x, lo), hi), NaN propagating; lo > hi gives hi.
    if lo is not None:
        x = _kiln.binary("maximum", x, _operand(lo, dt))
    if hi is not None:
        x = _kiln.binary("minimum", x, _operand(hi, dt))
    return x


@lower(aten.clamp.default)
def clamp(self, min=None, max=None):
    if min is None and max is None:
        raise Unsupported("clamp without bounds (PyTorch raises)")
    return _clamp(self, min, max)


@lower(aten.clamp_min.default)
def clamp_min(self, min):
    return _clamp(self, min, None)


@lower(aten.clamp_max.default)
def clamp_max(self, max):
    return _clamp(self, None, max)


@lower(aten.hardtanh.default)
def hardtanh(self, min_val=-1, max_val=1):
    if not tdt(kv(self)).is_floating_point:
        raise Unsupported("integer hardtanh")
    return _clamp(self, min_val, max_val)


def _hard_gate(x):
    """``min(max(x + 3, 0), 6)``, the factor of PyTorch's CPU hardsigmoid and hardswish kernels
    (NaN propagates, as in their ``std::max``/``clamp_min``)."""
    b = _kiln.binary
    return b("minimum", b("maximum", b("add", x, 3.0), 0.0), 6.0)


def _float_only(x, what):
    x = kv(x)
    if not tdt(x).is_floating_point:
        raise Unsupported(f"integer {what}")
    return x


@lower(aten.hardsigmoid.default)
def hardsigmoid(self):
    x = _float_only(self, "hardsigmoid")
    return _kiln.binary("div", _hard_gate(x), 6.0)


@lower(aten.hardswish.default)
def hardswish(self):
    x = _float_only(self, "hardswish")
    # PyTorch: x * min(max(x + 3, 0), 6) / 6, left to right.
    return _kiln.binary("div", _kiln.binary("mul", x, _hard_gate(x)), 6.0)


@lower(aten.hardsigmoid_backward.default)
def hardsigmoid_backward(grad_output, self):
    g, x = kv(grad_output), _float_only(self, "hardsigmoid_backward")
    # PyTorch: -3 < x < 3 ? grad * (1/6) : 0.
    b = _kiln.binary
    inside = b("and", b("gt", x, -3.0), b("lt", x, 3.0))
    return _kiln.select(inside, b("mul", g, 1.0 / 6.0), 0.0)


@lower(aten.hardswish_backward.default)
def hardswish_backward(grad_output, self):
    g, x = kv(grad_output), _float_only(self, "hardswish_backward")
    # PyTorch (CPU, measured at every position of a tensor): x <= -3 ? 0 : x >= 3 ? grad :
    # grad * (x / 3 + 0.5).
    b = _kiln.binary
    middle = _kiln.select(b("ge", x, 3.0), g, b("mul", g, b("add", b("div", x, 3.0), 0.5)))
    return _kiln.select(b("le", x, -3.0), 0.0, middle)


@lower(aten.addcmul.default)
def addcmul(self, tensor1, tensor2, value=1):
    dt = _need(result_type(self, tensor1, tensor2))
    prod = _binary("mul", tensor1, tensor2, dt)
    if value != 1:
        prod = _binary("mul", prod, value, dt) if dt.is_floating_point else _binary("mul", value, prod, dt)
    return _binary("add", self, prod, dt)


@lower(aten.addcdiv.default)
def addcdiv(self, tensor1, tensor2, value=1):
    dt = _need(result_type(self, tensor1, tensor2))
    if not dt.is_floating_point:
        raise Unsupported("integer addcdiv (PyTorch raises)")
    # PyTorch's CPU kernel: self + value * (t1 / t2).
    q = _binary("div", tensor1, tensor2, dt)
    if value != 1:
        q = _binary("mul", value, q, dt)
    return _binary("add", self, q, dt)


@lower(aten.lerp.Scalar, aten.lerp.Tensor)
def lerp(self, end, weight):
    dt = _need(result_type(self, end))
    if not dt.is_floating_point:
        raise Unsupported("integer lerp")
    a, b = cast(kv(self), dt), cast(kv(end), dt)
    diff = _kiln.binary("sub", b, a)
    if _is_kiln(weight):
        w = cast(weight, dt)
        # PyTorch: |w| < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w).
        small = _kiln.binary("lt", w.unary("abs"), 0.5)
        lo = _kiln.binary("add", a, _kiln.binary("mul", w, diff))
        hi = _kiln.binary("sub", b, _kiln.binary("mul", diff, _kiln.binary("sub", 1.0, w)))
        return _kiln.select(small, lo, hi)
    w = float(_scalar(weight))
    if abs(w) < 0.5:
        return _kiln.binary("add", a, _kiln.binary("mul", diff, w))
    return _kiln.binary("sub", b, _kiln.binary("mul", diff, 1.0 - w))


# Elementwise unary --------------------------------------------------------------------------


def _float_unary(name, hl_name=None):
    def op(self):
        return _float_of(self).unary(hl_name or name)
    op.__name__ = name
    return op


for _name, _hl in [("exp", None), ("log", None), ("sqrt", None), ("rsqrt", None),
                   ("reciprocal", None), ("tanh", None), ("sigmoid", None), ("erf", None)]:
    lower(getattr(aten, _name).default)(_float_unary(_name, _hl))


@lower(aten.neg.default)
def neg(self):
    if tdt(kv(self)) == torch.bool:
        raise Unsupported("bool negation (PyTorch raises)")
    return self.unary("neg")


@lower(aten.abs.default)
def abs_(self):
    return self if tdt(kv(self)) == torch.bool else self.unary("abs")


@lower(aten.sign.default)
def sign(self):
    return self if tdt(kv(self)) == torch.bool else self.unary("sign")


@lower(aten.relu.default)
def relu(self):
    dt = tdt(kv(self))
    if dt == torch.bool:
        raise Unsupported("bool relu")
    return self.unary("relu") if dt.is_floating_point else _kiln.binary("maximum", self, 0.0)


@lower(aten.silu.default)
def silu(self):
    if not tdt(kv(self)).is_floating_point:
        raise Unsupported("integer silu")
    return self.unary("silu")


@lower(aten.gelu.default)
def gelu(self, approximate="none"):
    if not tdt(kv(self)).is_floating_point:
        raise Unsupported("integer gelu")
    return rec("gelu", [self], {"approximate": approximate})


def _rounding(name):
    def op(self):
        return self if not tdt(kv(self)).is_floating_point else self.unary(name)
    op.__name__ = name
    return op


for _name in ("floor", "ceil", "round"):
    lower(getattr(aten, _name).default)(_rounding(_name))


@lower(aten.leaky_relu.default)
def leaky_relu(self, negative_slope=0.01):
    x = kv(self)
    if not tdt(x).is_floating_point:
        raise Unsupported("integer leaky_relu")
    return _kiln.select(_kiln.binary("gt", x, 0.0), x, _kiln.binary("mul", x, float(negative_slope)))


# Activation backward ------------------------------------------------------------------------


@lower(aten.threshold_backward.default)
def threshold_backward(grad_output, self, threshold):
    g, x = kv(grad_output), kv(self)
    dt = _need(result_type(g, x))
    # PyTorch: x <= threshold ? 0 : grad.
    return _kiln.select(_kiln.binary("le", cast(x, dt), _operand(threshold, dt)), 0.0, cast(g, dt))


@lower(aten.tanh_backward.default)
def tanh_backward(grad_output, output):
    g, y = kv(grad_output), kv(output)
    return _kiln.binary("mul", g, _kiln.binary("sub", 1.0, _kiln.binary("mul", y, y)))


@lower(aten.sigmoid_backward.default)
def sigmoid_backward(grad_output, output):
    g, y = kv(grad_output), kv(output)
    return _kiln.binary("mul", _kiln.binary("mul", g, _kiln.binary("sub", 1.0, y)), y)


@lower(aten.gelu_backward.default)
def gelu_backward(grad_output, self, approximate="none"):
    g, x = kv(grad_output), kv(self)
    if not tdt(x).is_floating_point:
        raise Unsupported("integer gelu_backward")
    b = _kiln.binary
    if approximate == "tanh":
        beta = math.sqrt(2.0) * (2.0 / math.sqrt(math.pi)) * 0.5
        kappa = 0.044715
        x_sq = b("mul", x, x)
        x_cube = b("mul", x_sq, x)
        inner = b("mul", beta, b("add", x, b("mul", kappa, x_cube)))
        t = inner.unary("tanh")
        left = b("mul", 0.5, x)
        right = b("add", 1.0, t)
        left_d = b("mul", 0.5, right)
        tanh_d = b("sub", 1.0, b("mul", t, t))
        inner_d = b("mul", beta, b("add", 1.0, b("mul", 3.0 * kappa, x_sq)))
        right_d = b("mul", b("mul", left, tanh_d), inner_d)
        return b("mul", g, b("add", left_d, right_d))
    if approximate != "none":
        raise Unsupported(f"approximate={approximate!r}")
    alpha = (2.0 / math.sqrt(math.pi)) * math.sqrt(0.5) * 0.5
    cdf = b("mul", 0.5, b("add", 1.0, b("mul", x, math.sqrt(0.5)).unary("erf")))
    pdf = b("mul", alpha, b("mul", b("mul", x, x), -0.5).unary("exp"))
    return b("mul", g, b("add", cdf, b("mul", x, pdf)))


@lower(aten.silu_backward.default)
def silu_backward(grad_output, self):
    g, x = kv(grad_output), kv(self)
    b = _kiln.binary
    s = x.unary("sigmoid")
    return b("mul", b("mul", g, s), b("add", 1.0, b("mul", x, b("sub", 1.0, s))))


@lower(aten.native_dropout_backward.default)
def native_dropout_backward(grad_output, mask, scale):
    g = kv(grad_output)
    m = cast(kv(mask), tdt(g))
    return _kiln.binary("mul", g, _kiln.binary("mul", m, float(scale)))


# Reductions ---------------------------------------------------------------------------------


def _axes(x, dim):
    rank = len(x.shape)
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return list(range(rank))
    dims = [dim] if isinstance(dim, int) else list(dim)
    out = []
    for d in dims:
        if rank == 0:
            if d not in (0, -1):
                raise Unsupported("axis out of range")
            continue
        if not -rank <= d < rank:
            raise Unsupported("axis out of range")
        out.append(d % rank)
    return sorted(set(out))


def _reduce(name, x, axes, keepdim):
    if not axes:
        return x
    return x.reduce(name, axes, bool(keepdim))


@lower(aten.sum.dim_IntList, aten.sum.default)
def sum_(self, dim=None, keepdim=False, dtype=None):
    x = kv(self)
    if dtype is not None:
        x = cast(x, dtype)
    if not tdt(x).is_floating_point:
        raise Unsupported("integer sum (PyTorch's is int64)")
    return _reduce("sum", x, _axes(x, dim), keepdim)


@lower(aten.mean.dim, aten.mean.default)
def mean(self, dim=None, keepdim=False, dtype=None):
    x = kv(self)
    if dtype is not None:
        x = cast(x, dtype)
    if not tdt(x).is_floating_point:
        raise Unsupported("integer mean (PyTorch raises)")
    return _reduce("mean", x, _axes(x, dim), keepdim)


@lower(aten.amax.default)
def amax(self, dim=(), keepdim=False):
    x = kv(self)
    if tdt(x) == torch.bool:
        raise Unsupported("bool amax")
    return _reduce("max", x, _axes(x, dim), keepdim)


@lower(aten.amin.default)
def amin(self, dim=(), keepdim=False):
    x = kv(self)
    if tdt(x) == torch.bool:
        raise Unsupported("bool amin")
    return _reduce("min", x, _axes(x, dim), keepdim)


@lower(aten.var.correction)
def var(self, dim=None, correction=None, keepdim=False):
    x = kv(self)
    if not tdt(x).is_floating_point:
        raise Unsupported("integer var")
    axes = _axes(x, dim)
    n = 1
    for a in axes:
        n *= x.shape[a]
    c = 1 if correction is None else correction
    if n - c <= 0:
        raise Unsupported("var with no degrees of freedom")
    xc = _kiln.binary("sub", x, x.reduce("mean", axes, True))
    s = _kiln.binary("mul", xc, xc).reduce("sum", axes, bool(keepdim))
    return _kiln.binary("div", s, float(n - c))


# Softmax, normalization, losses -------------------------------------------------------------


def _dim(x, d):
    rank = max(len(x.shape), 1)
    if not -rank <= d < rank:
        raise Unsupported("dim out of range")
    return d % rank


@lower(aten._softmax.default)
def softmax(self, dim, half_to_float):
    x = kv(self)
    if half_to_float or not tdt(x).is_floating_point or not x.shape:
        raise Unsupported("softmax other than float -> float of rank >= 1")
    return x.softmax(_dim(x, dim))


@lower(aten._softmax_backward_data.default)
def softmax_backward(grad_output, output, dim, input_dtype):
    g, y = kv(grad_output), kv(output)
    if input_dtype != tdt(g) or not y.shape:
        raise Unsupported("softmax_backward across dtypes")
    d = _dim(y, dim)
    s = _kiln.binary("mul", g, y).reduce("sum", [d], True)
    return _kiln.binary("mul", _kiln.binary("sub", g, s), y)


@lower(aten._log_softmax.default)
def log_softmax(self, dim, half_to_float):
    x = kv(self)
    if half_to_float or not tdt(x).is_floating_point or not x.shape:
        raise Unsupported("log_softmax other than float -> float of rank >= 1")
    return rec("log_softmax", [x], {"axis": _dim(x, dim)})


@lower(aten._log_softmax_backward_data.default)
def log_softmax_backward(grad_output, output, dim, input_dtype):
    g, y = kv(grad_output), kv(output)
    if input_dtype != tdt(g) or not y.shape:
        raise Unsupported("log_softmax_backward across dtypes")
    d = _dim(y, dim)
    s = g.reduce("sum", [d], True)
    return _kiln.binary("sub", g, _kiln.binary("mul", y.unary("exp"), s))


def _norm_axes(x, normalized_shape):
    k = len(normalized_shape)
    rank = len(x.shape)
    if k == 0 or k > rank or tuple(x.shape[rank - k:]) != tuple(normalized_shape):
        raise Unsupported("normalized_shape does not end the input's shape")
    return list(range(rank - k, rank)), list(range(rank - k))


@lower(aten.native_layer_norm.default)
def native_layer_norm(input, normalized_shape, weight, bias, eps):
    x = kv(input)
    if not tdt(x).is_floating_point or tdt(x) != torch.float32:
        raise Unsupported("layer norm of other than float32 (PyTorch keeps mean/rstd in float32)")
    axes, _ = _norm_axes(x, normalized_shape)
    b = _kiln.binary
    mean_ = x.reduce("mean", axes, True)
    xc = b("sub", x, mean_)
    var_ = b("mul", xc, xc).reduce("mean", axes, True)
    rstd = b("add", var_, float(eps)).unary("rsqrt")
    out = b("mul", xc, rstd)
    if weight is not None:
        out = b("mul", out, kv(weight))
    if bias is not None:
        out = b("add", out, kv(bias))
    return out, mean_, rstd


@lower(aten.native_layer_norm_backward.default)
def native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask):
    g, x, mu, rs = kv(grad_out), kv(input), kv(mean), kv(rstd)
    if tdt(x) != torch.float32:
        raise Unsupported("layer norm backward of other than float32")
    axes, batch = _norm_axes(x, normalized_shape)
    b = _kiln.binary
    xhat = b("mul", b("sub", x, mu), rs)
    gi = gw = gb = None
    if output_mask[0]:
        gx = b("mul", g, kv(weight)) if weight is not None else g
        m1 = gx.reduce("mean", axes, True)
        m2 = b("mul", gx, xhat).reduce("mean", axes, True)
        gi = b("mul", rs, b("sub", b("sub", gx, m1), b("mul", xhat, m2)))
    if output_mask[1] and weight is not None:
        gw = _reduce("sum", b("mul", g, xhat), batch, False)
    if output_mask[2] and bias is not None:
        gb = _reduce("sum", g, batch, False)
    return gi, gw, gb


def index(t, bound, allow=None):
    """Index tensor ``t`` (a PyTorch int tensor, or an int32 Kiln value) as an int32 Kiln value,
    when every index is in ``[0, bound)`` (or equals ``allow``); else :class:`Unsupported`, so
    that PyTorch runs the op (and raises its own error)."""
    if _is_kiln(t):
        if tdt(t) != torch.int32:
            raise Unsupported("index of a non-integer dtype")
        # A computed index: its range cannot be checked without reading it.
        raise Unsupported("computed indices")
    from ._bridge import import_tensor

    if not isinstance(t, torch.Tensor) or t.dtype not in (torch.int64, torch.int32) or t.device.type != "cpu":
        raise Unsupported("indices must be a CPU int64 or int32 tensor")
    if t.layout != torch.strided or t.numel() == 0:
        raise Unsupported("empty or non-strided indices")
    with torch.utils._python_dispatch._disable_current_modes():
        lo, hi = int(t.min()), int(t.max())
        ok = 0 <= lo and hi < bound
        if not ok and allow is not None:
            valid = t[t != allow]
            ok = valid.numel() == 0 or (int(valid.min()) >= 0 and int(valid.max()) < bound)
        if not ok or bound > (1 << 31):
            raise Unsupported("indices out of range")
        return import_tensor(t.to(torch.int32) if t.dtype != torch.int32 else t)


@lower(aten.embedding.default)
def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    w = kv(weight)
    if len(w.shape) != 2:
        raise Unsupported("embedding weight of rank other than 2")
    idx = index(indices, w.shape[0])
    return rec("gather", [w, idx], {"axis": 0})


# The select + reduce form of embedding_dense_backward materializes V x N x D elements.
_EMBEDDING_BACKWARD_LIMIT = 1 << 22


@lower(aten.embedding_dense_backward.default)
def embedding_dense_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    g = kv(grad_output)
    if scale_grad_by_freq:
        raise Unsupported("scale_grad_by_freq")
    idx = index(indices, num_weights)
    n = 1
    for d in idx.shape:
        n *= d
    dim = g.shape[-1]
    if num_weights * n * dim > _EMBEDDING_BACKWARD_LIMIT or not tdt(g).is_floating_point:
        raise Unsupported("embedding backward too large for the select + reduce form")
    # Row v of the result sums the gradient rows whose index is v: a select over (V, N, D)
    # reduced over N (a matmul with a one-hot matrix would spread a NaN to every row).
    flat = idx.reshape([1, n, 1])
    rows = rec("iota", [], {"dimension": 0}, declared=([num_weights, 1, 1], "i32"))
    hit = _kiln.binary("eq", rows, flat)
    if padding_idx >= 0:
        hit = _kiln.binary("and", hit, _kiln.binary("ne", flat, float(padding_idx)))
    gn = g.reshape([1, n, dim])
    return _kiln.select(hit, gn, 0.0).reduce("sum", [1], False)


def _onehot(target, classes, ignore_index):
    """(one-hot of ``target`` over ``classes`` as bool, valid mask) for a 1-D target."""
    t = index(target, classes, allow=ignore_index)
    n = t.shape[0] if t.shape else 1
    t2 = t.reshape([n, 1])
    cls = rec("iota", [], {"dimension": 1}, declared=([n, classes], "i32"))
    hot = _kiln.binary("eq", cls, t2)
    valid = _kiln.binary("ne", t2, float(ignore_index))
    return hot, valid


@lower(aten.nll_loss_forward.default)
def nll_loss_forward(self, target, weight, reduction, ignore_index):
    x = kv(self)
    if weight is not None or reduction not in (1, 2) or len(x.shape) not in (1, 2):
        raise Unsupported("nll_loss with weights, reduction='none' or rank other than 1, 2")
    if not tdt(x).is_floating_point:
        raise Unsupported("integer nll_loss")
    x2 = x if len(x.shape) == 2 else x.reshape([1, x.shape[0]])
    hot, valid = _onehot(target, x2.shape[1], ignore_index)
    b = _kiln.binary
    picked = _kiln.select(b("and", hot, valid), x2, 0.0).reduce("sum", [1], False)
    total = cast(valid, tdt(x)).reduce("sum", [0, 1], False)
    loss = picked.reduce("sum", [0], False).unary("neg")
    if reduction == 1:
        loss = b("div", loss, total)
    return loss, total


@lower(aten.nll_loss_backward.default)
def nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    g, x, tw = kv(grad_output), kv(self), kv(total_weight)
    if weight is not None or reduction not in (1, 2) or len(x.shape) not in (1, 2):
        raise Unsupported("nll_loss backward with weights, reduction='none' or rank other than 1, 2")
    x2shape = x.shape if len(x.shape) == 2 else [1, x.shape[0]]
    hot, valid = _onehot(target, x2shape[1], ignore_index)
    b = _kiln.binary
    gv = g.unary("neg")
    if reduction == 1:
        gv = b("div", gv, tw)
    out = _kiln.select(b("and", hot, valid), gv, 0.0)
    return out if len(x.shape) == 2 else out.reshape(list(x.shape))


# Matrix products ----------------------------------------------------------------------------


def _float_matrix(x):
    x = kv(x)
    if not tdt(x).is_floating_point:
        raise Unsupported("integer matmul")
    return x


@lower(aten.mm.default)
def mm(self, mat2):
    a, b = _float_matrix(self), _float_matrix(mat2)
    if tdt(a) != tdt(b):
        raise Unsupported("mm of different dtypes (PyTorch raises)")
    return a.matmul(b)


@lower(aten.bmm.default)
def bmm(self, mat2):
    a, b = _float_matrix(self), _float_matrix(mat2)
    if tdt(a) != tdt(b) or len(a.shape) != 3 or len(b.shape) != 3:
        raise Unsupported("bmm of other than two rank-3 tensors of one dtype")
    return a.matmul(b)


@lower(aten.addmm.default)
def addmm(self, mat1, mat2, beta=1, alpha=1):
    p = mm(mat1, mat2)
    if alpha != 1:
        p = _kiln.binary("mul", p, float(alpha))
    bias = kv(self)
    if beta == 0:
        return p
    if beta != 1:
        bias = _kiln.binary("mul", bias, float(beta))
    return _binary("add", bias, p)


# Layout -------------------------------------------------------------------------------------


def _numel(s):
    n = 1
    for d in s:
        n *= d
    return n


def _reshape(x, size):
    x = kv(x)
    size = [int(d) for d in size]
    if size.count(-1) == 1:
        known = _numel(d for d in size if d != -1)
        if known == 0:
            raise Unsupported("view with -1 and a zero dim")
        size[size.index(-1)] = _numel(x.shape) // known
    if _numel(size) != _numel(x.shape):
        raise Unsupported("view of a different number of elements")
    return x if list(x.shape) == size else x.reshape(size)


@lower(aten.view.default, aten._unsafe_view.default, aten.reshape.default)
def view(self, size):
    return _reshape(self, size)


@lower(aten.alias.default, aten.detach.default, aten.clone.default, aten.lift_fresh_copy.default,
       aten.contiguous.default)
def identity(self, memory_format=None):
    return kv(self)


@lower(aten._to_copy.default)
def to_copy(self, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False,
            memory_format=None):
    if layout not in (None, torch.strided) or (device is not None and torch.device(device).type != "cpu"):
        raise Unsupported("a copy to another layout or device")
    x = kv(self)
    return x if dtype is None else cast(x, dtype)


@lower(aten.t.default)
def t(self):
    x = kv(self)
    return x if len(x.shape) < 2 else x.transpose([1, 0])


@lower(aten.transpose.int)
def transpose(self, dim0, dim1):
    x = kv(self)
    rank = len(x.shape)
    if rank < 2:
        return x
    perm = list(range(rank))
    a, b = dim0 % rank, dim1 % rank
    perm[a], perm[b] = perm[b], perm[a]
    return x if a == b else x.transpose(perm)


@lower(aten.permute.default)
def permute(self, dims):
    x = kv(self)
    rank = len(x.shape)
    perm = [d % rank for d in dims] if rank else []
    return x if perm == list(range(rank)) else x.transpose(perm)


@lower(aten.expand.default)
def expand(self, size, implicit=False):
    x = kv(self)
    size = list(size)
    lead = len(size) - len(x.shape)
    if lead < 0:
        raise Unsupported("expand to a lower rank")
    out = [x.shape[i - lead] if d == -1 else int(d) for i, d in enumerate(size)]
    return x if out == list(x.shape) else x.broadcast_to(out)


@lower(aten.unsqueeze.default)
def unsqueeze(self, dim):
    x = kv(self)
    rank = len(x.shape) + 1
    d = dim % rank
    return x.reshape(list(x.shape[:d]) + [1] + list(x.shape[d:]))


@lower(aten.squeeze.dim, aten.squeeze.dims, aten.squeeze.default)
def squeeze(self, dim=None):
    x = kv(self)
    rank = len(x.shape)
    if rank == 0:
        return x
    dims = range(rank) if dim is None else ([dim] if isinstance(dim, int) else dim)
    drop = {d % rank for d in dims if x.shape[d % rank] == 1}
    new = [s for i, s in enumerate(x.shape) if i not in drop]
    return x if len(new) == rank else x.reshape(new)


def _slice(x, dim, start, end, step):
    rank = len(x.shape)
    if rank == 0:
        raise Unsupported("slice of a 0-d tensor")
    d = dim % rank
    n = x.shape[d]
    start, end, step = slice(start, end, step).indices(n) if step > 0 else (0, 0, 0)
    if step <= 0:
        raise Unsupported("slice step must be positive")
    if end <= start:
        raise Unsupported("empty slice")
    if start == 0 and end == n and step == 1:
        return x
    starts = [0] * rank
    limits = list(x.shape)
    strides = [1] * rank
    starts[d], limits[d], strides[d] = start, end, step
    return rec("slice", [x], {"starts": starts, "limits": limits, "strides": strides})


@lower(aten.slice.Tensor)
def slice_(self, dim=0, start=None, end=None, step=1):
    return _slice(kv(self), dim, start, end, step)


@lower(aten.select.int)
def select(self, dim, index_):
    x = kv(self)
    rank = len(x.shape)
    if rank == 0:
        raise Unsupported("select of a 0-d tensor")
    d = dim % rank
    i = index_ + x.shape[d] if index_ < 0 else index_
    if not 0 <= i < x.shape[d]:
        raise Unsupported("select index out of range (PyTorch raises)")
    part = _slice(x, d, i, i + 1, 1)
    return part.reshape([s for k, s in enumerate(x.shape) if k != d])


@lower(aten.split.Tensor)
def split(self, split_size, dim=0):
    x = kv(self)
    n = x.shape[dim % len(x.shape)]
    if split_size <= 0:
        raise Unsupported("split size")
    return [_slice(x, dim, s, min(s + split_size, n), 1) for s in range(0, n, split_size)]


@lower(aten.split_with_sizes.default)
def split_with_sizes(self, split_sizes, dim=0):
    x = kv(self)
    out, s = [], 0
    for k in split_sizes:
        out.append(_slice(x, dim, s, s + k, 1))
        s += k
    return out


@lower(aten.unbind.int)
def unbind(self, dim=0):
    x = kv(self)
    return [select(x, dim, i) for i in range(x.shape[dim % len(x.shape)])]


@lower(aten.cat.default)
def cat(tensors, dim=0):
    xs = [kv(t) for t in tensors]
    xs = [x for x in xs if x.shape != [0]]
    if not xs:
        raise Unsupported("cat of empty tensors")
    dt = _need(result_type(*xs))
    xs = [cast(x, dt) for x in xs]
    if len(xs) == 1:
        return xs[0]
    d = dim % len(xs[0].shape)
    return rec("concat", xs, {"axis": d})


@lower(aten.constant_pad_nd.default)
def constant_pad_nd(self, pad, value=0):
    x = kv(self)
    rank = len(x.shape)
    if len(pad) % 2 or len(pad) // 2 > rank or any(p < 0 for p in pad):
        raise Unsupported("negative or odd padding")
    low, high = [0] * rank, [0] * rank
    for i in range(len(pad) // 2):
        low[rank - 1 - i], high[rank - 1 - i] = pad[2 * i], pad[2 * i + 1]
    return rec("pad", [x], {"low": low, "high": high, "value": float(value)})


# Factories ----------------------------------------------------------------------------------


def _factory_dtype(dtype, device, layout, default):
    if device is not None and torch.device(device).type != "cpu":
        raise Unsupported("a factory on another device")
    if layout not in (None, torch.strided):
        raise Unsupported("a non-strided factory")
    return default if dtype is None else dtype


@lower(aten.full.default)
def full_(size, fill_value, dtype=None, layout=None, device=None, pin_memory=None):
    v = _scalar(fill_value)
    default = torch.bool if isinstance(v, bool) else (torch.int64 if isinstance(v, int) else torch.get_default_dtype())
    return full(list(size), v, _factory_dtype(dtype, device, layout, default))


def _like(self, value, dtype, layout, device):
    x = kv(self)
    return full(list(x.shape), value, _factory_dtype(dtype, device, layout, tdt(x)))


@lower(aten.zeros_like.default)
def zeros_like(self, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    return _like(self, 0, dtype, layout, device)


@lower(aten.ones_like.default)
def ones_like(self, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    return _like(self, 1, dtype, layout, device)


@lower(aten.full_like.default)
def full_like(self, fill_value, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    return _like(self, _scalar(fill_value), dtype, layout, device)


@lower(aten.scalar_tensor.default)
def scalar_tensor(s, dtype=None, layout=None, device=None, pin_memory=None):
    return full([], _scalar(s), _factory_dtype(dtype, device, layout, torch.get_default_dtype()))


# In-place and _foreach variants -------------------------------------------------------------

#: In-place overload -> its out-of-place lowering; the result is written back to ``self``.
INPLACE = {}


def _inplace(name, overloads, fn):
    for ov in overloads:
        op = getattr(getattr(aten, name + "_"), ov, None)
        if op is not None:
            INPLACE[op] = fn


for _name, _fn, _ovs in [
    ("add", add, ("Tensor", "Scalar")), ("sub", sub, ("Tensor", "Scalar")),
    ("mul", mul, ("Tensor", "Scalar")), ("div", div, ("Tensor", "Scalar")),
    ("div", div_mode, ("Tensor_mode", "Scalar_mode")), ("pow", pow_tensor_scalar, ("Scalar",)),
    ("pow", pow_tensor_tensor, ("Tensor",)), ("clamp", clamp, ("default",)),
    ("clamp_min", clamp_min, ("default",)), ("clamp_max", clamp_max, ("default",)),
    ("relu", relu, ("default",)), ("neg", neg, ("default",)), ("sqrt", TABLE[aten.sqrt.default], ("default",)),
    ("exp", TABLE[aten.exp.default], ("default",)), ("tanh", TABLE[aten.tanh.default], ("default",)),
    ("sigmoid", TABLE[aten.sigmoid.default], ("default",)), ("addcmul", addcmul, ("default",)),
    ("addcdiv", addcdiv, ("default",)), ("lerp", lerp, ("Scalar", "Tensor")),
    ("masked_fill", masked_fill, ("Scalar",)), ("hardtanh", hardtanh, ("default",)),
    ("leaky_relu", leaky_relu, ("default",)), ("silu", silu, ("default",)),
    ("gelu", gelu, ("default",)), ("hardswish", hardswish, ("default",)),
    ("hardsigmoid", hardsigmoid, ("default",)),
]:
    _inplace(_name, _ovs, _fn)


def _copy(self, src, non_blocking=False):
    x, s = kv(self), kv(src)
    s = cast(s, tdt(x))
    return s if list(s.shape) == list(x.shape) else s.broadcast_to(list(x.shape))


def _fill(self, value):
    return full(kv(self).shape, value, tdt(self))


def _zero(self):
    return full(kv(self).shape, 0, tdt(self))


INPLACE[aten.copy_.default] = _copy
INPLACE[aten.fill_.Scalar] = _fill
INPLACE[aten.zero_.default] = _zero


def _foreach(fn, kind):
    """The ``_foreach_*`` form of ``fn``: ``kind`` says how the second operand is given
    (``List``: one tensor per element, ``Scalar``/``Tensor``: one for all, ``ScalarList``: one
    number per element, ``unary``: none, ``ternary``: two lists then a scalar or list)."""
    def op(self, *rest, **kw):
        n = len(self)
        if kind == "unary":
            return [fn(self[i], **kw) for i in range(n)]
        if kind == "pair":
            w = rest[1] if len(rest) > 1 else kw.pop("weight", kw.pop("weights", None))
            ws = w if isinstance(w, (list, tuple)) else [w] * n
            return [fn(self[i], rest[0][i], ws[i]) for i in range(n)]
        if kind == "ternary":
            t1, t2 = rest[0], rest[1]
            v = rest[2] if len(rest) > 2 else kw.pop("value", 1)
            vs = v if isinstance(v, (list, tuple)) else [v] * n
            return [fn(self[i], t1[i], t2[i], vs[i]) for i in range(n)]
        other = rest[0] if rest else kw.pop("other", kw.pop("scalar", kw.pop("scalars", None)))
        if kind == "List":
            return [fn(self[i], other[i], **kw) for i in range(n)]
        if kind == "ScalarList":
            return [fn(self[i], other[i], **kw) for i in range(n)]
        return [fn(self[i], other, **kw) for i in range(n)]
    return op


#: ``_foreach_*`` overload -> (its per-element lowering, whether it writes its first list).
FOREACH = {}

for _name, _fn, _kinds in [
    ("add", add, ("List", "Scalar", "ScalarList", "Tensor")),
    ("sub", sub, ("List", "Scalar", "ScalarList")),
    ("mul", mul, ("List", "Scalar", "ScalarList", "Tensor")),
    ("div", div, ("List", "Scalar", "ScalarList", "Tensor")),
    ("maximum", maximum, ("List",)), ("minimum", minimum, ("List",)),
    ("clamp_min", clamp_min, ("List", "Scalar", "ScalarList")),
    ("clamp_max", clamp_max, ("List", "Scalar", "ScalarList")),
    ("lerp", lerp, ("List", "Scalar")),
    ("pow", pow_tensor_scalar, ("Scalar",)),
    ("copy", _copy, ("default",)),
    ("sqrt", TABLE[aten.sqrt.default], ("default",)), ("neg", neg, ("default",)),
    ("exp", TABLE[aten.exp.default], ("default",)), ("abs", abs_, ("default",)),
    ("reciprocal", TABLE[aten.reciprocal.default], ("default",)),
    ("zero", _zero, ("default",)),
    ("addcmul", addcmul, ("Scalar", "ScalarList")), ("addcdiv", addcdiv, ("Scalar", "ScalarList")),
]:
    for _inpl in (False, True):
        _packet = getattr(aten, f"_foreach_{_name}{'_' if _inpl else ''}", None)
        if _packet is None:
            continue
        for _kind in _kinds:
            _ov = getattr(_packet, _kind, None)
            if _ov is None:
                continue
            if _name in ("addcmul", "addcdiv"):
                _k = "ternary"
            elif _name == "lerp":
                _k = "pair"
            elif _kind == "default":
                _k = "List" if _name == "copy" else "unary"
            elif _kind == "Tensor":
                _k = "Scalar"
            else:
                _k = _kind
            FOREACH[_ov] = (_foreach(_fn, _k), _inpl)


def supported_ops():
    """Every aten overload the table maps (out-of-place, in-place and ``_foreach_*``)."""
    return sorted({str(op) for op in list(TABLE) + list(INPLACE) + list(FOREACH)})
