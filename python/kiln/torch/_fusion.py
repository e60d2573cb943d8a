"""Eager graph-free fusion: ``with kiln.torch.fusion(): ...``.

A ``TorchDispatchMode`` sees every aten op below autograd. An op of the table
(:mod:`._lower`) on dense CPU tensors of Kiln dtypes is *recorded* in the Kiln session instead
of run: its result is an ordinary ``torch.Tensor`` whose storage is allocated but not yet
written, and whose value is a pending Kiln value. The storage is written when the context
*flushes*, at the eager frameworks' boundaries (docs/frontends/torch.md, "Flushes"):

- an op outside the table (or one the table refuses) whose operands read a pending storage:
  the context flushes, then PyTorch runs the op on the written values;
- a host read: ``.item()`` (``aten._local_scalar_dense``), ``.numpy()``, ``.tolist()``;
- an in-place op on a tensor that is a view or has views, or whose storage the open segment
  has read; an in-place op on a tensor with no views is recorded as its out-of-place op, whose
  value the tensor takes at the next flush;
- a tensor read under a layout the context does not know, whose storage is pending (an alias);
- the autograd engine's boundaries (``torch.autograd.backward`` / ``grad``: before and after);
- the capacity threshold (pending storages), and leaving the context.

At a flush, only the storages still referenced outside the context (by a tensor, a view or
autograd's saved tensors) are computed and written; the rest stay inside Kiln's kernels.
Writes go straight to the storage's memory (one copy), so autograd's version counters do not
move: the values were always meant to be there.
"""

import ctypes
import functools

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from . import _lower, _state
from ._bridge import eligible, host_pointer, import_tensor
from ._lower import FOREACH, INPLACE, TABLE, TORCH_DTYPE, Unsupported

aten = torch.ops.aten

#: Ops that take tensors but read only their metadata: they never flush.
_META_ONLY = {
    aten.empty_like.default, aten.zeros_like.default, aten.ones_like.default, aten.full_like.default,
    aten.new_empty.default, aten.new_zeros.default, aten.new_ones.default, aten.new_full.default,
    aten.new_empty_strided.default, aten.empty_strided.default, aten.empty.memory_format,
    aten.sym_size.int, aten.sym_stride.int, aten.sym_numel.default, aten.sym_storage_offset.default,
    aten.is_same_size.default,
}

_HOST_READS = {aten._local_scalar_dense.default, aten.equal.default, aten.allclose.default}

#: Pending storages at which the context flushes (reason ``capacity``).
CAPACITY = 4096


class KilnError(RuntimeError):
    """An error inside Kiln while it computed an aten op's value (a bug, a resource limit).
    PyTorch stays usable; the tensors the failed segment would have written keep unwritten
    storage."""


class _NeedFlush(Exception):
    """A tensor reads a pending storage under a layout the context does not know."""


class _Lazy:
    """The Kiln value of a view, recorded when first read."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn


def _geometry(t):
    return (t.untyped_storage().data_ptr(), t.storage_offset(), tuple(t.shape), tuple(t.stride()), t.dtype)


def _storage_ptr(t):
    return t.untyped_storage().data_ptr()


def _shapes(args):
    out = []
    for a in args:
        if isinstance(a, torch.Tensor):
            out.append(tuple(a.shape))
        elif isinstance(a, (list, tuple)) and a and isinstance(a[0], torch.Tensor):
            out.append([tuple(x.shape) for x in a])
    return out


class _Pending:
    """A storage a Kiln value will fill at the flush."""

    __slots__ = ("storage", "value", "nbytes", "op", "shapes", "seq")

    def __init__(self, storage, value, nbytes, op, shapes, seq):
        self.storage, self.value, self.nbytes = storage, value, nbytes
        self.op, self.shapes, self.seq = op, shapes, seq


_active = []
_saved = {}


def _flush_all(reason):
    for mode in _active:
        mode.flush(reason)


def _install_hooks():
    """Host reads and autograd boundaries that do not dispatch an aten op."""
    def host_read(name):
        original = getattr(torch.Tensor, name)

        @functools.wraps(original)
        def read(self, *args, **kwargs):
            if any(_storage_ptr(self) in m.pending for m in _active if self.device.type == "cpu"):
                _flush_all("host_read")
            return original(self, *args, **kwargs)
        return original, read

    def boundary(module, name):
        original = getattr(module, name)

        @functools.wraps(original)
        def run(*args, **kwargs):
            _flush_all("autograd")
            try:
                return original(*args, **kwargs)
            finally:
                _flush_all("autograd")
        return original, run

    for name in ("numpy", "tolist", "__array__"):
        _saved[(torch.Tensor, name)], patched = host_read(name)
        setattr(torch.Tensor, name, patched)
    for module, name in ((torch.autograd, "backward"), (torch.autograd, "grad")):
        _saved[(module, name)], patched = boundary(module, name)
        setattr(module, name, patched)


def _remove_hooks():
    for (owner, name), original in _saved.items():
        setattr(owner, name, original)
    _saved.clear()


class fusion(TorchDispatchMode):
    """Records the aten ops of its body that Kiln computes into the Kiln session and flushes
    them at the eager frameworks' boundaries (module docs). Options as the eager flags:
    ``opt_level`` (0, 1, 2), ``enable_ops`` / ``disable_ops`` (``hl`` op names in CamelCase, a
    list or a comma-separated string, e.g. ``enable_ops="MatMul,BatchMatMul"`` lets matmuls
    join segments), ``flush_threshold`` (ops per Kiln segment)."""

    def __init__(self, opt_level=1, enable_ops=None, disable_ops=None, flush_threshold=None):
        super().__init__()
        self.flags = _state.flags_string(opt_level, enable_ops, disable_ops, flush_threshold)
        self.pending = {}
        self.values = {}
        # The geometries of `values` by storage address.
        self.by_ptr = {}
        self.reads = set()
        # The storages of imported tensors, held until the flush so that their memory (the
        # key of their values) is not reused meanwhile.
        self.held = []
        self.seq = 0

    def __enter__(self):
        _state.use_flags(self.flags)
        if not _active:
            _install_hooks()
        _active.append(self)
        return super().__enter__()

    def __exit__(self, *exc):
        try:
            self.flush("exit")
        finally:
            _active.remove(self)
            if not _active:
                _remove_hooks()
            super().__exit__(*exc)

    # Values ---------------------------------------------------------------------------------

    def _value(self, t):
        """Tensor ``t`` as a Kiln value (recorded view, pending result, or an import), or ``t``
        itself when it cannot enter Kiln."""
        if not isinstance(t, torch.Tensor) or not eligible(t):
            return t
        g = _geometry(t)
        v = self.values.get(g)
        if v is not None:
            if isinstance(v, _Lazy):
                v = v.fn()
                self.values[g] = v
            return v
        if g[0] in self.pending:
            raise _NeedFlush()
        v = import_tensor(t)
        self._set(g, v)
        self.reads.add(g[0])
        self.held.append(t.untyped_storage())
        return v

    def _convert(self, x):
        if isinstance(x, torch.Tensor):
            return self._value(x)
        if isinstance(x, (list, tuple)) and x and any(isinstance(e, torch.Tensor) for e in x):
            return type(x)(self._value(e) if isinstance(e, torch.Tensor) else e for e in x)
        return x

    def _wrap(self, func, args, k):
        """A new tensor whose storage Kiln value ``k`` fills at the flush."""
        if k is None:
            return None
        if isinstance(k, (list, tuple)):
            return type(k)(self._wrap(func, args, e) for e in k)
        if not isinstance(k, _lower._kiln.Tensor):
            raise Unsupported("a lowering returned no Kiln value")
        dt = TORCH_DTYPE[k.dtype]
        t = torch.empty(list(k.shape), dtype=dt)
        self._bind(t, k, func, args)
        return t

    def _bind(self, t, k, func, args):
        """Makes Kiln value ``k`` the pending contents of base tensor ``t``'s storage."""
        st = t.untyped_storage()
        ptr = st.data_ptr()
        self.seq += 1
        self.pending[ptr] = _Pending(st, k, t.numel() * t.element_size(), func, _shapes(args), self.seq)
        self._forget(ptr)
        self._set(_geometry(t), k)

    def _set(self, g, v):
        self.values[g] = v
        self.by_ptr.setdefault(g[0], set()).add(g)

    def _forget(self, ptr):
        for g in self.by_ptr.pop(ptr, ()):
            del self.values[g]

    # Dispatch -------------------------------------------------------------------------------

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in _META_ONLY:
            return func(*args, **kwargs)
        if func in TABLE and func.is_view:
            return self._view(func, args, kwargs)
        lowering = TABLE.get(func)
        try:
            if lowering is not None:
                return self._record(func, lowering, args, kwargs)
            if func in INPLACE:
                return self._inplace(func, INPLACE[func], args, kwargs)
            if func in FOREACH:
                return self._foreach(func, *FOREACH[func], args, kwargs)
        except (Unsupported, ValueError, TypeError, MemoryError, OverflowError):
            # Outside the table's reach for these operands (or refused by the session's checks
            # at the op): PyTorch runs it.
            pass
        return self._fallback(func, args, kwargs)

    def _retrying(self, fn):
        try:
            return fn()
        except _NeedFlush:
            self.flush("alias")
            return fn()

    def _record(self, func, lowering, args, kwargs):
        def run():
            kargs = [self._convert(a) for a in args]
            kkw = {k: self._convert(v) for k, v in kwargs.items()}
            return lowering(*kargs, **kkw)
        out = self._retrying(run)
        result = self._wrap(func, args, out)
        _state.counters.kiln_ops += 1
        self._check_capacity()
        return result

    def _inplace_target(self, t):
        """Whether ``t`` can take a recorded value in place (a whole, dense, sole tensor of its
        storage); flushes first where the rules ask."""
        if not eligible(t) or t._is_view() or not t.is_contiguous() or t.storage_offset() != 0:
            return False
        if t.untyped_storage().nbytes() != t.numel() * t.element_size():
            return False
        ptr = _storage_ptr(t)
        g = _geometry(t)
        aliased = any(k != g for k in self.by_ptr.get(ptr, ()))
        if aliased or (ptr in self.reads and ptr not in self.pending):
            self.flush("inplace")
        return True

    def _inplace(self, func, lowering, args, kwargs):
        target = args[0]
        if not self._inplace_target(target):
            raise Unsupported("in-place op on a view")

        def run():
            kargs = [self._convert(a) for a in args]
            kkw = {k: self._convert(v) for k, v in kwargs.items()}
            return lowering(*kargs, **kkw)
        out = self._retrying(run)
        self._bind(target, self._in_place_value(target, out), func, args)
        _state.counters.kiln_ops += 1
        self._check_capacity()
        return target

    @staticmethod
    def _in_place_value(target, k):
        """Kiln value ``k`` as ``target``'s new value (cast to its dtype as PyTorch casts an
        in-place result), or :class:`Unsupported`."""
        if not isinstance(k, _lower._kiln.Tensor) or list(k.shape) != list(target.shape):
            raise Unsupported("in-place result of another shape")
        rt = TORCH_DTYPE[k.dtype]
        if rt != target.dtype:
            if not torch.can_cast(rt, target.dtype):
                raise Unsupported("in-place result PyTorch cannot cast")
            k = _lower.cast(k, target.dtype)
        return k

    def _foreach(self, func, lowering, inplace, args, kwargs):
        targets = args[0]
        if inplace and not all(self._inplace_target(t) for t in targets):
            raise Unsupported("in-place _foreach op on a view")

        def run():
            kargs = [self._convert(a) for a in args]
            kkw = {k: self._convert(v) for k, v in kwargs.items()}
            return lowering(*kargs, **kkw)
        outs = self._retrying(run)
        if not inplace:
            result = self._wrap(func, args, list(outs))
        else:
            # Every new value is checked before any is bound: a refused one leaves all
            # targets to PyTorch.
            news = [self._in_place_value(t, k) for t, k in zip(targets, outs)]
            for t, k in zip(targets, news):
                self._bind(t, k, func, args)
            result = None
        _state.counters.kiln_ops += 1
        self._check_capacity()
        return result

    def _view(self, func, args, kwargs):
        out = func(*args, **kwargs)
        src = args[0]
        if not isinstance(src, torch.Tensor) or not eligible(src):
            return out
        g = _geometry(src)
        if g not in self.values and g[0] not in self.pending:
            return out
        lowering = TABLE[func]
        outs = out if isinstance(out, (list, tuple)) else [out]

        def view_value(i):
            def compute():
                v = lowering(self._value(src), *args[1:], **kwargs)
                return v[i] if isinstance(v, (list, tuple)) else v
            return compute

        for i, o in enumerate(outs):
            if isinstance(o, torch.Tensor) and eligible(o):
                og = _geometry(o)
                if og not in self.values:
                    self._set(og, _Lazy(view_value(i)))
        _state.counters.kiln_ops += 1
        return out

    def _fallback(self, func, args, kwargs):
        leaves = [x for x in torch.utils._pytree.tree_leaves((args, kwargs)) if isinstance(x, torch.Tensor)]
        ptrs = {_storage_ptr(x) for x in leaves if x.device.type == "cpu" and x.layout == torch.strided}
        written = set()
        if func._schema.is_mutable:
            for i, a in enumerate(func._schema.arguments):
                if a.alias_info is not None and a.alias_info.is_write:
                    v = args[i] if i < len(args) else kwargs.get(a.name)
                    for x in torch.utils._pytree.tree_leaves(v):
                        if isinstance(x, torch.Tensor) and x.layout == torch.strided:
                            written.add(_storage_ptr(x))
        if ptrs & self.pending.keys() or written & self.reads:
            self.flush("host_read" if func in _HOST_READS else "unsupported_op")
        for ptr in written:
            self._forget(ptr)
        _state.counters.torch_ops += 1
        _state.counters.torch_op_names[str(func)] += 1
        return func(*args, **kwargs)

    def _check_capacity(self):
        if len(self.pending) >= CAPACITY:
            self.flush("capacity")

    # Flush ----------------------------------------------------------------------------------

    def flush(self, reason):
        """Computes and writes every pending storage still referenced (module docs)."""
        self.values.clear()
        self.by_ptr.clear()
        self.reads.clear()
        self.held.clear()
        if not self.pending:
            return
        pending, self.pending = self.pending, {}
        _state.counters.flushes[reason] += 1
        live = sorted(
            (e for e in pending.values() if torch._C._storage_Use_Count(e.storage._cdata) > 1),
            key=lambda e: e.seq,
        )
        pending.clear()
        error = None
        for e in live:
            try:
                src, keep = host_pointer(e.value)
            except Exception as err:  # noqa: BLE001 - any session error becomes a KilnError
                if error is None:
                    error = KilnError(
                        f"kiln failed computing {e.op} on shapes {e.shapes} (or an op it reads): {err}"
                    )
                continue
            ctypes.memmove(e.storage.data_ptr(), src, e.nbytes)
            del keep
            e.value = None
        if error is not None:
            raise error

