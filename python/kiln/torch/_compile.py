"""``torch.compile(model, backend="kiln")``.

Dynamo's FX graph goes through AOTAutograd, which gives a forward and a backward graph of aten
ops (or one inference graph). Each graph is partitioned (``CapabilityBasedPartitioner``) into
*Kiln subgraphs*, maximal groups of nodes the table lowers, and the nodes PyTorch keeps. A node
joins a Kiln subgraph when its lowering accepts it at compile time: the lowering is run once on
Kiln values of the node's input shapes and dtypes in a scratch session (recorded and type-checked,
nothing read), and must give the shapes and dtypes of the node's own meta values. A subgraph of
views alone stays in PyTorch (it would only move data).

A Kiln subgraph runs its nodes' lowerings in the Kiln session: its inputs enter Kiln (one copy),
its recorded ops are fused into segments, compiled once per shape (the session's compile
cache) and run on the VM, and its outputs leave Kiln without a copy. Guards and recompiles are
Dynamo's. A graph with dynamic shapes (``dynamic=True``) is specialized and compiled per
concrete shape, on first use of each.
"""

import operator
import time

import torch
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupport

from . import _lower, _state
from ._bridge import eligible, export_value, import_tensor
from ._fusion import KilnError
from ._lower import KILN_DTYPE, TABLE, TORCH_DTYPE, Unsupported

aten = torch.ops.aten

#: Ops that only move or relabel data: a subgraph of these alone stays in PyTorch.
_LAYOUT = {
    aten.view.default, aten._unsafe_view.default, aten.reshape.default, aten.t.default,
    aten.transpose.int, aten.permute.default, aten.expand.default, aten.unsqueeze.default,
    aten.squeeze.dim, aten.squeeze.dims, aten.squeeze.default, aten.alias.default,
    aten.detach.default, aten.clone.default, aten.slice.Tensor, aten.select.int,
    aten.split.Tensor, aten.split_with_sizes.default, aten.unbind.int, aten.cat.default,
    aten.contiguous.default, aten.lift_fresh_copy.default, aten._to_copy.default,
}

_scratch = None


def _scratch_session():
    """The session compile-time checks record into (never read, so nothing runs)."""
    global _scratch
    if _scratch is None:
        _scratch = _lower._kiln.Session("--flush_threshold=100000")
    return _scratch


def _meta(node):
    return node.meta.get("val") if isinstance(node, torch.fx.Node) else None


def _is_static(v):
    if isinstance(v, torch.Tensor):
        return all(isinstance(d, int) for d in v.shape)
    if isinstance(v, (list, tuple)):
        return all(_is_static(x) for x in v)
    return not isinstance(v, (torch.SymInt, torch.SymFloat, torch.SymBool))


def _fake_value(v, s):
    """A stand-in of meta value ``v`` for a compile-time check in session ``s``."""
    if isinstance(v, torch.Tensor):
        if v.dtype in KILN_DTYPE and v.numel() > 0:
            nbytes = v.numel() * v.element_size()
            return s.tensor(bytes(nbytes), list(v.shape), KILN_DTYPE[v.dtype])
        if v.dtype in (torch.int64, torch.int32) and v.numel() > 0:
            return torch.zeros(tuple(v.shape), dtype=v.dtype)
        raise Unsupported(f"a {v.dtype} tensor")
    return v


def _matches(out, val):
    if val is None:
        return out is None
    if isinstance(val, torch.Tensor):
        return (
            isinstance(out, _lower._kiln.Tensor)
            and tuple(out.shape) == tuple(val.shape)
            and TORCH_DTYPE[out.dtype] == val.dtype
        )
    if isinstance(val, (list, tuple)):
        return isinstance(out, (list, tuple)) and len(out) == len(val) and all(
            _matches(o, v) for o, v in zip(out, val)
        )
    return False


def node_lowers(node):
    """Whether ``node`` (a call of an aten overload, with meta values) joins a Kiln subgraph:
    its lowering, run on stand-ins in a scratch session, gives the node's meta shapes and
    dtypes."""
    fn = TABLE.get(node.target)
    val = _meta(node)
    if fn is None or val is None or not _is_static(val):
        return False
    from torch._subclasses.fake_tensor import unset_fake_temporarily

    s = _scratch_session()
    saved = _lower._session
    _lower._session = s
    # AOTAutograd compiles under its fake mode; the stand-ins are real tensors.
    unfake = unset_fake_temporarily()
    unfake.__enter__()
    try:
        def fake(a):
            if isinstance(a, torch.fx.Node):
                v = _meta(a)
                if v is None or not _is_static(v):
                    raise Unsupported("an operand without a static meta value")
                return _fake_value(v, s) if isinstance(v, torch.Tensor) else [
                    _fake_value(x, s) for x in v] if isinstance(v, (list, tuple)) else v
            if isinstance(a, (list, tuple)):
                return type(a)(fake(x) for x in a)
            return a
        args = [fake(a) for a in node.args]
        kwargs = {k: fake(v) for k, v in node.kwargs.items()}
        out = fn(*args, **kwargs)
        return _matches(out, val)
    except (Unsupported, ValueError, TypeError, MemoryError, OverflowError, RuntimeError):
        return False
    finally:
        unfake.__exit__(None, None, None)
        _lower._session = saved


class _Support(OperatorSupport):
    def is_node_supported(self, submodules, node):
        if node.op != "call_function":
            return False
        if node.target is operator.getitem:
            src = node.args[0]
            return isinstance(src, torch.fx.Node) and src.op == "call_function" and node_lowers(src)
        return node_lowers(node)


class KilnSubgraph(torch.nn.Module):
    """A partition of the graph run by Kiln (module docs)."""

    def __init__(self, gm, flags):
        super().__init__()
        self.gm = gm
        self.flags = flags
        self.placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        self.nodes = [n for n in gm.graph.nodes if n.op == "call_function"]
        self.output = next(n for n in gm.graph.nodes if n.op == "output")

    def forward(self, *inputs):
        _state.use_flags(self.flags)
        _state.counters.subgraph_calls += 1
        env = {}
        for p, x in zip(self.placeholders, inputs):
            env[p] = import_tensor(x) if isinstance(x, torch.Tensor) and eligible(x) else x

        def arg(a):
            if isinstance(a, torch.fx.Node):
                return env[a]
            if isinstance(a, (list, tuple)):
                return type(a)(arg(x) for x in a)
            return a

        for n in self.nodes:
            if n.target is operator.getitem:
                env[n] = env[n.args[0]][n.args[1]]
                continue
            try:
                env[n] = TABLE[n.target](*[arg(a) for a in n.args], **{k: arg(v) for k, v in n.kwargs.items()})
            except Unsupported as e:
                # Data-dependent (indices out of range): PyTorch runs the subgraph (and raises
                # its own error if the data is bad).
                del e
                return self.gm(*inputs)
            except Exception as e:  # noqa: BLE001 - the session's errors, named by the node
                raise KilnError(f"kiln failed recording {n.target} ({n.name}): {e}") from e
            _state.counters.kiln_ops += 1
        return self._outputs(env, inputs)

    def _outputs(self, env, inputs):
        outs = self.output.args[0]
        single = not isinstance(outs, (list, tuple))
        outs = [outs] if single else list(outs)
        by_id = {}
        result = []
        for o in outs:
            v = env.get(o) if isinstance(o, torch.fx.Node) else o
            if isinstance(v, _lower._kiln.Tensor):
                if id(v) not in by_id:
                    try:
                        by_id[id(v)] = export_value(v)
                    except Exception as e:  # noqa: BLE001
                        raise KilnError(
                            f"kiln failed computing {o.target} ({o.name}) of shape {list(v.shape)}: {e}"
                        ) from e
                result.append(by_id[id(v)])
            else:
                result.append(v)
        return result[0] if single else tuple(result)


def _partition(gm, flags):
    """``gm`` with its Kiln subgraphs replaced by :class:`KilnSubgraph` modules."""
    partitioner = CapabilityBasedPartitioner(gm, _Support(), allows_single_node_partition=True)
    partitions = [
        p for p in partitioner.propose_partitions()
        if any(n.target not in _LAYOUT and n.target is not operator.getitem for n in p.nodes)
    ]
    if not partitions:
        return gm
    fused = partitioner.fuse_partitions(partitions, prefix="kiln_")
    for name, module in list(fused.named_children()):
        if name.startswith("kiln_"):
            setattr(fused, name, KilnSubgraph(module, flags))
            _state.counters.subgraphs += 1
    fused.recompile()
    return fused


class _Counted:
    """A partitioned graph that counts the aten ops PyTorch runs in it at each call."""

    def __init__(self, gm):
        self.gm = gm
        self.torch_ops = [
            str(n.target) for n in gm.graph.nodes
            if n.op == "call_function" and n.target is not operator.getitem
        ]

    def __call__(self, *args):
        _state.counters.torch_ops += len(self.torch_ops)
        _state.counters.torch_op_names.update(self.torch_ops)
        return self.gm(*args)


def _static(gm):
    return all(_is_static(_meta(n)) for n in gm.graph.nodes if n.op == "placeholder")


class _PerShape:
    """A graph with dynamic shapes, specialized and compiled per concrete input shape."""

    def __init__(self, gm, flags):
        self.gm = gm
        self.flags = flags
        self.compiled = {}

    def __call__(self, *args):
        key = tuple(
            (tuple(a.shape), a.dtype) if isinstance(a, torch.Tensor) else (type(a), a) for a in args
        )
        fn = self.compiled.get(key)
        if fn is None:
            _state.counters.plan_misses += 1
            start = time.perf_counter()
            from torch.fx.experimental.proxy_tensor import make_fx

            static = make_fx(self.gm, tracing_mode="fake")(*args)
            fn = _Counted(_partition(static, self.flags))
            _state.counters.compile_seconds += time.perf_counter() - start
            self.compiled[key] = fn
        else:
            _state.counters.plan_hits += 1
        return fn(*args)


def _graph_compiler(flags):
    from torch._functorch.aot_autograd import make_boxed_func

    def compile_graph(gm, example_inputs):
        start = time.perf_counter()
        _state.session()
        _state.counters.graphs_compiled += 1
        if _static(gm):
            fn = _Counted(_partition(gm, flags))
        else:
            fn = _PerShape(gm, flags)
        _state.counters.compile_seconds += time.perf_counter() - start
        return make_boxed_func(fn)
    return compile_graph


def backend(gm, example_inputs, options=None, **_ignored):
    """The ``kiln`` Dynamo backend. ``options``: ``opt_level``, ``enable_ops``,
    ``disable_ops``, ``flush_threshold`` (the eager flags)."""
    from torch._dynamo.backends.common import aot_autograd

    options = dict(options or {})
    unknown = set(options) - {"opt_level", "enable_ops", "disable_ops", "flush_threshold"}
    if unknown:
        raise ValueError(f"unknown kiln backend option(s) {sorted(unknown)}: opt_level, enable_ops, disable_ops, flush_threshold")
    flags = _state.flags_string(**options)
    compiler = _graph_compiler(flags)
    return aot_autograd(fw_compiler=compiler, bw_compiler=compiler)(gm, example_inputs)
