#!/usr/bin/env python3
"""Generates ONNX's backend node tests (the conformance cases the `onnx` package defines in
`onnx.backend.test.case.node`) for Kiln's node-test run (tools/kiln-translate/tests/
onnx_node_tests.rs):

    node_tests.py OUT

For every case and data set, the model and the inputs and expected outputs are generated from
the installed `onnx` package (the data is computed by each case's `expect`, nothing is shipped).
Kept are the *plain-tensor* cases: every graph input and output a tensor, every value a numeric
or bool numpy array (no strings, sequences, optionals or maps), the default domain only. Each
kept case is also run with onnxruntime (CPU) and compared with the expected outputs at the
case's own tolerance, as `onnx.backend.test.runner` does: a case onnxruntime fails is dropped
(`ort_fails` in the manifest counts them).

Written: `OUT/<case>/model.onnx`, `in<i>.npy`, `out<i>.npy` and `OUT/manifest.json`
(`{"onnx": version, "cases": [{"name", "ops", "rtol", "atol", "inputs", "outputs"}], ...}`).
When `OUT/manifest.json` already describes the same `onnx` version and this script's text,
nothing is regenerated.
"""

import hashlib
import json
import os
import shutil
import sys
import warnings

import numpy as np


def plain(values):
    """Numeric or bool arrays (numpy scalars count as rank-0 arrays)."""
    return all(isinstance(v, (np.ndarray, np.generic)) and v.dtype.kind in "biuf" for v in values)


def tensor_io(graph):
    return all(v.type.WhichOneof("value") == "tensor_type" for v in list(graph.input) + list(graph.output))


def main(out):
    import onnx
    import onnxruntime as ort
    from onnx.backend.test.case import node as node_cases

    stamp = {"onnx": onnx.__version__, "ort": ort.__version__,
             "script": hashlib.sha256(open(__file__, "rb").read()).hexdigest()}
    manifest_path = os.path.join(out, "manifest.json")
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            old = json.load(f)
        if old.get("stamp") == stamp:
            return
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = node_cases.collect_testcases(None)
    kept, counts = [], {"total": 0, "not_plain": 0, "ort_fails": 0}
    opts = ort.SessionOptions()
    opts.log_severity_level = 4
    for case in cases:
        model = case.model
        domains = {n.domain for n in model.graph.node} - {"", "ai.onnx"}
        for k, (inputs, outputs) in enumerate(case.data_sets):
            counts["total"] += 1
            inputs = [np.asarray(v) if isinstance(v, np.generic) else v for v in inputs]
            outputs = [np.asarray(v) if isinstance(v, np.generic) else v for v in outputs]
            name = case.name if len(case.data_sets) == 1 else f"{case.name}_{k}"
            if domains or not tensor_io(model.graph) or not plain(inputs) or not plain(outputs) \
                    or len(inputs) != len([i for i in model.graph.input if i.name not in
                                           {t.name for t in model.graph.initializer}]):
                counts["not_plain"] += 1
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    sess = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
                    feeds = {i.name: v for i, v in zip(sess.get_inputs(), inputs)}
                    got = sess.run(None, feeds)
                for g, w in zip(got, outputs):
                    np.testing.assert_allclose(g, w, rtol=case.rtol, atol=case.atol)
                    if g.dtype != w.dtype or g.shape != w.shape:
                        raise AssertionError("dtype or shape")
            except Exception:
                counts["ort_fails"] += 1
                continue
            d = os.path.join(out, name)
            os.makedirs(d)
            with open(os.path.join(d, "model.onnx"), "wb") as f:
                f.write(model.SerializeToString())
            for i, v in enumerate(inputs):
                np.save(os.path.join(d, f"in{i}.npy"), np.array(v, order="C"))
            for i, v in enumerate(outputs):
                np.save(os.path.join(d, f"out{i}.npy"), np.array(v, order="C"))
            ops = sorted({n.op_type for n in model.graph.node})
            names = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
            kept.append({"name": name, "ops": ops, "rtol": case.rtol, "atol": case.atol,
                         "inputs": names, "outputs": len(outputs)})
    with open(manifest_path, "w") as f:
        json.dump({"stamp": stamp, "counts": counts, "cases": kept}, f, indent=0)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
