"""Kiln for PyTorch programs (docs/frontends/torch.md).

- ``torch.compile(model, backend="kiln", options={"opt_level": 1, "enable_ops": ...})``:
  Dynamo's FX graphs go through AOTAutograd (forward and backward graphs); each is partitioned
  into Kiln subgraphs and the nodes PyTorch keeps. Importing ``kiln.torch`` registers the
  backend (so does the ``torch_dynamo_backends`` entry point, for ``torch.compile`` without the
  import).
- ``with kiln.torch.fusion(opt_level=1, enable_ops=...):``: eager graph-free fusion of the
  body's aten ops, forward and backward (a ``TorchDispatchMode``).
- ``kiln.torch.stats()`` / ``reset_stats()``: kernels launched, aten ops run by Kiln and by
  PyTorch, flushes by reason, compile cache hits and misses, compile time, simulated device
  time (with ``KILN_FUSION_FLAGS=--device_time``).
- ``kiln.torch.supported_ops()``: the aten overloads of the aten -> Kiln table.

Ops outside the table, and ops on tensors Kiln cannot hold (float64, int64, complex,
quantized, sparse, other devices), run in PyTorch.
"""

from ._compile import backend
from ._fusion import KilnError, fusion
from ._lower import supported_ops
from ._state import reset_stats, stats

__all__ = ["backend", "fusion", "KilnError", "stats", "reset_stats", "supported_ops"]


def _register():
    from torch._dynamo.backends.registry import _BACKENDS, register_backend

    if "kiln" not in _BACKENDS:
        register_backend(name="kiln")(backend)


_register()
