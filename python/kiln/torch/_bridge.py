"""Data across the PyTorch / Kiln boundary.

Into Kiln: one copy. A Kiln value owns its bytes (the VM's host tensors are ``Vec<u8>``), so a
tensor's elements are copied once, straight from its memory into the session (into a spare
buffer of the session's pool when one has the size). A tensor whose layout is a permutation of
a dense one (a transposed weight) or an expansion of one (stride 0, ``expand``) is copied as
its dense storage and permuted / broadcast inside Kiln; any other layout (a strided slice) is
made contiguous by PyTorch first (a second copy).

Out of Kiln: no copy. A value that nothing else in the session holds is moved out of it, and
PyTorch views the moved bytes (``torch.from_numpy`` over the array interface; the tensor owns
them). A value still shared in the session is copied once.
"""

import numpy as np
import torch

from . import _lower
from ._lower import KILN_DTYPE, TORCH_DTYPE, Unsupported


def eligible(t):
    """Whether tensor ``t`` can enter Kiln: a dense CPU tensor of a Kiln dtype with elements
    (not a tensor subclass other than ``Parameter``, not quantized, sparse, conjugated or
    negated)."""
    return (
        (type(t) is torch.Tensor or type(t) is torch.nn.Parameter)
        and t.dtype in KILN_DTYPE
        and t.device.type == "cpu"
        and t.layout == torch.strided
        and t.numel() > 0
        and not t.is_conj()
        and not t.is_neg()
    )


def _dense_import(t):
    """``t`` through its dense storage and a permutation / broadcast in Kiln, or None."""
    shape, stride = list(t.shape), list(t.stride())
    base = [1 if (st == 0 and n > 1) else n for n, st in zip(shape, stride)]
    dims = [i for i in range(len(shape)) if base[i] > 1]
    order = sorted(dims, key=lambda i: -stride[i])
    expect = 1
    for i in reversed(order):
        if stride[i] != expect:
            return None
        expect *= base[i]
    phys = [base[i] for i in order] or [1]
    s = _lower.session()
    k = s.tensor_at(t.data_ptr(), expect * t.element_size(), phys, KILN_DTYPE[t.dtype])
    if order:
        perm = [order.index(d) for d in dims]
        if perm != list(range(len(perm))):
            k = k.transpose(perm)
    if base != phys:
        k = k.reshape(base)
    if base != shape:
        k = k.broadcast_to(shape)
    return k


def import_tensor(t):
    """Tensor ``t`` as a Kiln value (see the module docs); :class:`Unsupported` unless
    :func:`eligible`."""
    if not eligible(t):
        raise Unsupported(f"a {t.dtype} {t.layout} tensor on {t.device} cannot enter Kiln")
    s = _lower.session()
    if t.is_contiguous():
        return s.tensor_at(t.data_ptr(), t.numel() * t.element_size(), list(t.shape), KILN_DTYPE[t.dtype])
    k = _dense_import(t)
    if k is None:
        with torch.utils._python_dispatch._disable_current_modes():
            c = t.contiguous()
        k = s.tensor_at(c.data_ptr(), c.numel() * c.element_size(), list(c.shape), KILN_DTYPE[c.dtype])
    return k


def export_value(k):
    """Kiln value ``k`` as a new ``torch.Tensor`` (moved out of the session when nothing else
    holds it: no copy; else one copy). ``k`` may not be used afterwards."""
    obj, writable = k.take()
    data = np.asarray(obj)
    if not writable:
        data = data.copy()
    t = torch.from_numpy(data)
    dt = TORCH_DTYPE[k.dtype]
    if dt != torch.uint8:
        t = t.view(dt)
    return t.reshape(list(k.shape))


def host_pointer(k):
    """The address and size of Kiln value ``k``'s bytes on the host (flushing if pending),
    and the object that keeps them alive."""
    hb = k.host_bytes()
    return hb.__array_interface__["data"][0], hb
