"""kiln.torch's session, flags and counters."""

import collections
import os
import threading
import warnings

from .. import _kiln
from . import _lower

_lock = threading.Lock()
_session = None

#: The session flags kiln.torch sets for a fusion context or a compiled graph, at their
#: defaults; the flags of ``KILN_FUSION_FLAGS`` come on top.
_DEFAULTS = "--opt_level=1 --enable_ops= --disable_ops= --enable_ops_only= --flush_threshold=64"

_current_flags = None


def session():
    """kiln.torch's Kiln session (its own, apart from the numpy ``kiln`` arrays'), created on
    first use with ``KILN_FUSION_FLAGS``."""
    global _session
    if _session is None:
        with _lock:
            if _session is None:
                s = _kiln.Session("")
                for w in s.warnings():
                    warnings.warn(w, stacklevel=3)
                _session = s
                _lower._session = s
    return _session


def flags_string(opt_level=None, enable_ops=None, disable_ops=None, flush_threshold=None):
    """The session flags for these options (the eager flags' names and values)."""
    parts = [_DEFAULTS, os.environ.get("KILN_FUSION_FLAGS", "")]
    if opt_level is not None:
        parts.append(f"--opt_level={int(opt_level)}")
    for key, ops in (("enable_ops", enable_ops), ("disable_ops", disable_ops)):
        if ops:
            parts.append(f"--{key}=" + (ops if isinstance(ops, str) else ",".join(ops)))
    if flush_threshold is not None:
        parts.append(f"--flush_threshold={int(flush_threshold)}")
    return " ".join(p for p in parts if p)


def use_flags(flags):
    """Sets the session's flags to ``flags`` (a :func:`flags_string`) if they differ."""
    global _current_flags
    s = session()
    if flags != _current_flags:
        with warnings.catch_warnings():
            # KILN_FUSION_FLAGS repeats keys of the defaults on purpose.
            warnings.simplefilter("ignore")
            s.set_flags(flags)
        _current_flags = flags


class Counters:
    """kiln.torch's own counters (the session's come from the session)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.kiln_ops = 0
        self.torch_ops = 0
        self.torch_op_names = collections.Counter()
        self.flushes = collections.Counter()
        self.graphs_compiled = 0
        self.subgraphs = 0
        self.subgraph_calls = 0
        self.plan_hits = 0
        self.plan_misses = 0
        self.compile_seconds = 0.0


counters = Counters()
_baseline = {}

_SESSION_KEYS = ("kernels_launched", "device_time_ns", "cache_hits", "cache_misses", "compile_seconds",
                 "segments_run", "ops_recorded")


def stats():
    """The counters, as a dict (see docs/frontends/torch.md, "Observability")."""
    s = session().stats()
    out = {k: s[k] - _baseline.get(k, 0) for k in _SESSION_KEYS}
    out["compile_seconds"] += counters.compile_seconds
    base_flushes = _baseline.get("flushes", {})
    out["segment_flushes"] = {k: v - base_flushes.get(k, 0) for k, v in s["flushes"].items()}
    out["aten_ops_kiln"] = counters.kiln_ops
    out["aten_ops_torch"] = counters.torch_ops
    out["torch_ops"] = dict(counters.torch_op_names)
    out["flushes"] = dict(counters.flushes)
    out["graphs_compiled"] = counters.graphs_compiled
    out["kiln_subgraphs"] = counters.subgraphs
    out["subgraph_calls"] = counters.subgraph_calls
    out["plan_hits"] = counters.plan_hits
    out["plan_misses"] = counters.plan_misses
    return out


def reset_stats():
    """Starts every counter of :func:`stats` from zero."""
    global _baseline
    _baseline = dict(session().stats())
    counters.reset()
