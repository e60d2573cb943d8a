"""The op-stream fuzzer (``fuzz_ops.py``) under pytest: a few hundred seeded streams of the
package's public API checked against numpy (10,000+ with ``python3 python/tests/fuzz_ops.py
--streams 10000``), and a check that the fuzzer notices a wrong op."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import fuzz_ops  # noqa: E402

import kiln  # noqa: E402

STREAMS = 400


def test_random_op_streams_agree_with_numpy():
    failures = [r for r in (fuzz_ops.run_stream(seed) for seed in range(STREAMS)) if r]
    assert not failures, f"{len(failures)} of {STREAMS} streams fail:\n\n" + "\n\n".join(failures[:3])


def test_the_fuzzer_notices_a_wrong_op(monkeypatch):
    monkeypatch.setattr(kiln, "maximum", kiln.minimum)
    failures = [r for r in (fuzz_ops.run_stream(seed) for seed in range(60)) if r]
    assert any("kiln.maximum" in r for r in failures), failures[:1]


@pytest.mark.parametrize("seed", [0, 7])
def test_streams_are_reproducible(seed):
    lines = lambda: [code for _, code in fuzz_ops.program(fuzz_ops.Gen(seed, None).generate())]
    assert lines() == lines()
