#!/usr/bin/env python3
"""Builds the ONNX models that test (and benchmark) Kiln's ONNX importer, runs each with
onnxruntime on seeded inputs and writes, per model, `OUT/<name>/model.onnx`, `in<i>.npy`
(graph inputs in order) and `out<i>.npy` (onnxruntime's results), plus `OUT/manifest.json`:
one entry per model with its tolerance and any extra `kiln-translate` arguments.

    models.py OUT [--size small|bench] [--only NAME ...] [--blocks-only]

`--size small` (the default) keeps every model quick for the interpreter; `--size bench`
builds the blocks at realistic sizes (BERT-base / GPT-2 layer widths, a ResNet-18 stage).
Needs `onnx`, `onnxruntime` and `numpy` (pip).

Tolerances (|kiln - ort| <= atol + rtol * |ort|, elementwise), by what a result went through:
- `exact`: integer and bool results, and f32 ops that IEEE rounds exactly once on both sides
  (add, mul, relu, layout ops, ...): rtol 1e-5, atol 1e-6 (both sides should agree bit for bit;
  the margin only covers an op that ORT fuses into a multiply-add).
- `transcendental`: exp, log, tanh, erf, sigmoid, pow, GELU, softmax: onnxruntime's MLAS kernels
  use polynomial approximations good to a few ulp while Kiln's interpreter uses correctly
  rounded libm: rtol 1e-4, atol 1e-5.
- `reduction`: sums over up to a few hundred terms (reductions, matmul, conv, norms) in a
  different order than ORT's blocked kernels: rtol 1e-4, atol 1e-5.
- `block`: whole layers chain several reductions and transcendentals, each error feeding the
  next: rtol 1e-3, atol 1e-4.
"""

import argparse
import json
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

TOLERANCES = {
    "exact": (1e-5, 1e-6),
    "transcendental": (1e-4, 1e-5),
    "reduction": (1e-4, 1e-5),
    "block": (1e-3, 1e-4),
}

# Models whose compiled (VM) run is skipped, by name prefix, with the back-end gap that stops
# it (the interpreter run still compares them with onnxruntime). Remove an entry as soon as
# the back end lowers the op: the test then checks the VM as well.
I64 = "the vector unit has no i64 (f32, f16, bf16, i32, i8, i1)"
VM_GAPS = [
    ("op_equal_int64", I64), ("op_cast", I64), ("op_constants", I64 + ": Shape results"),
    ("op_range", I64 + ": an int64 Range"),
]

NP_TO_ONNX = {
    np.dtype("float32"): TensorProto.FLOAT,
    np.dtype("int64"): TensorProto.INT64,
    np.dtype("int32"): TensorProto.INT32,
    np.dtype("bool"): TensorProto.BOOL,
}


class Graph:
    """A model under construction: inputs with their seeded values, initializers, nodes."""

    def __init__(self, name, opset=17, tol="exact", seed=0):
        self.name, self.opset, self.tol = name, opset, tol
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.feeds, self.counter, self.args = {}, 0, []

    def fresh(self, base):
        self.counter += 1
        return f"{base}_{self.counter}"

    def input(self, name, value, dims=None):
        value = np.asarray(value)
        self.inputs.append(helper.make_tensor_value_info(name, NP_TO_ONNX[value.dtype], dims or list(value.shape)))
        self.feeds[name] = value
        return name

    def rand(self, name, shape, low=-2.0, high=2.0):
        return self.input(name, self.rng.uniform(low, high, shape).astype(np.float32))

    def init(self, value, name=None):
        name = name or self.fresh("init")
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def weight(self, shape, scale=None, name=None):
        scale = scale if scale is not None else 1.0 / np.sqrt(shape[0])
        return self.init(self.rng.uniform(-scale, scale, shape).astype(np.float32), name)

    def ints(self, values):
        return self.init(np.array(values, dtype=np.int64))

    def scalar(self, value):
        return self.init(np.array(value, dtype=np.float32))

    def node(self, op, inputs, outputs=1, name=None, **attrs):
        name = name or self.fresh(f"/{op}")
        outs = [f"{name}_output_{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=name, **attrs))
        return outs[0] if outputs == 1 else outs

    def output(self, *names):
        self.outputs.extend(names)

    def model(self):
        outs = [helper.make_empty_tensor_value_info(n) for n in self.outputs]
        graph = helper.make_graph(self.nodes, self.name, self.inputs, outs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset)])
        model.ir_version = 8
        inferred = onnx.shape_inference.infer_shapes(model)
        types = {v.name: v.type for v in list(inferred.graph.value_info) + list(inferred.graph.output)}
        for o in model.graph.output:
            if o.name in types and types[o.name].tensor_type.HasField("shape"):
                o.type.CopyFrom(types[o.name])
            else:
                elem = types[o.name].tensor_type.elem_type if o.name in types else TensorProto.FLOAT
                o.type.CopyFrom(helper.make_tensor_type_proto(elem or TensorProto.FLOAT, []))
                o.type.tensor_type.ClearField("shape")
                o.type.tensor_type.shape.SetInParent()
        onnx.checker.check_model(model)
        return model


def save(g, out_dir, manifest):
    model = g.model()
    d = os.path.join(out_dir, g.name)
    os.makedirs(d, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    results = sess.run(None, g.feeds)
    inputs = [g.feeds[inp.name] for inp in g.inputs]
    if "--initializers-as-args" in g.args:
        inputs += [numpy_helper.to_array(t) for t in g.inits if t.data_type == TensorProto.FLOAT]
    for i, value in enumerate(inputs):
        np.save(os.path.join(d, f"in{i}.npy"), value)
    for i, r in enumerate(results):
        np.save(os.path.join(d, f"out{i}.npy"), np.asarray(r))
    rtol, atol = TOLERANCES[g.tol]
    g.vm_skip = next((reason for prefix, reason in VM_GAPS if g.name.startswith(prefix)), None)
    manifest.append({"name": g.name, "inputs": len(inputs), "outputs": len(results), "rtol": rtol,
                     "atol": atol, "args": g.args, "vm_skip": g.vm_skip, "nodes": len(model.graph.node)})


# ---------------------------------------------------------------------------------------------
# One model per op (and attribute variant).


def op_models():
    ms = []

    def unary(op, low=-2.0, high=2.0, tol="exact", opset=17, **attrs):
        g = Graph(f"op_{op.lower()}" + "".join(f"_{k}{v}" for k, v in attrs.items()), opset, tol)
        x = g.rand("x", [2, 3, 5], low, high)
        g.output(g.node(op, [x], **attrs))
        ms.append(g)

    for op in ["Abs", "Neg", "Relu", "Floor", "Ceil", "Sign", "Identity"]:
        unary(op)
    unary("Round", tol="exact")
    for op in ["Exp", "Erf", "Tanh", "Sigmoid"]:
        unary(op, tol="transcendental")
    unary("Log", 0.1, 4.0, "transcendental")
    unary("Sqrt", 0.0, 4.0, "transcendental")
    unary("Reciprocal", 0.5, 4.0)
    unary("LeakyRelu")
    unary("LeakyRelu", alpha=0.2)
    unary("HardSigmoid", tol="transcendental")
    unary("HardSigmoid", tol="transcendental", alpha=0.3, beta=0.4)
    unary("HardSwish", tol="transcendental", opset=14)
    unary("Gelu", tol="transcendental", opset=20)
    unary("Gelu", tol="transcendental", opset=20, approximate="tanh")
    unary("Softmax", tol="transcendental")
    unary("Softmax", tol="transcendental", axis=1)
    unary("LogSoftmax", tol="transcendental", axis=-1)
    unary("Dropout", opset=13)

    for op in ["Add", "Sub", "Mul", "Div"]:
        g = Graph(f"op_{op.lower()}_broadcast")
        a = g.rand("a", [2, 3, 4])
        b = g.input("b", g.rng.uniform(0.5, 2.0, [3, 1]).astype(np.float32))
        g.output(g.node(op, [a, b]))
        ms.append(g)
    g = Graph("op_add_initializer")
    g.output(g.node("Add", [g.rand("a", [4, 6]), g.weight([6])]))
    ms.append(g)
    g = Graph("op_pow", tol="transcendental")
    x = g.input("x", g.rng.uniform(0.5, 2.0, [3, 4]).astype(np.float32))
    g.output(g.node("Pow", [x, g.scalar(2.0)]), g.node("Pow", [x, g.rand("e", [4])]))
    ms.append(g)
    for op in ["Max", "Min", "Sum"]:
        g = Graph(f"op_{op.lower()}_variadic")
        g.output(g.node(op, [g.rand("a", [2, 4]), g.rand("b", [4]), g.rand("c", [2, 1])]))
        ms.append(g)
    for op in ["Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"]:
        g = Graph(f"op_{op.lower()}")
        a = g.input("a", g.rng.integers(-2, 3, [3, 4]).astype(np.float32))
        b = g.input("b", g.rng.integers(-2, 3, [4]).astype(np.float32))
        g.output(g.node(op, [a, b]))
        ms.append(g)
    g = Graph("op_logic")
    p = g.input("p", g.rng.integers(0, 2, [3, 4]).astype(bool))
    q = g.input("q", g.rng.integers(0, 2, [3, 4]).astype(bool))
    g.output(g.node("And", [p, q]), g.node("Or", [p, q]), g.node("Not", [p]))
    ms.append(g)
    g = Graph("op_where")
    c = g.input("c", g.rng.integers(0, 2, [3, 1]).astype(bool))
    g.output(g.node("Where", [c, g.rand("a", [3, 4]), g.rand("b", [4])]))
    ms.append(g)
    g = Graph("op_equal_int64")
    i = g.input("i", g.rng.integers(0, 4, [6]).astype(np.int64))
    g.output(g.node("Equal", [i, g.ints([2])]))
    ms.append(g)
    g = Graph("op_cast")
    x = g.rand("x", [2, 5], -3.0, 3.0)
    g.output(g.node("Cast", [x], to=TensorProto.INT32), g.node("Cast", [x], to=TensorProto.BOOL),
             g.node("Cast", [g.input("i", np.arange(6, dtype=np.int64))], to=TensorProto.FLOAT))
    ms.append(g)
    for name, extra in [("minmax", ["lo", "hi"]), ("max_only", ["", "hi"]), ("none", [])]:
        g = Graph(f"op_clip_{name}", 13)
        x = g.rand("x", [3, 5])
        ins = [x] + [g.scalar(-0.5) if e == "lo" else g.scalar(0.75) if e == "hi" else "" for e in extra]
        g.output(g.node("Clip", ins))
        ms.append(g)

    for axis, with_b in [(-1, True), (1, True), (-1, False)]:
        g = Graph(f"op_layer_norm_axis{axis}_{'bias' if with_b else 'nobias'}", tol="reduction")
        x = g.rand("x", [2, 3, 8])
        inner = [3, 8] if axis == 1 else [8]
        ins = [x, g.weight(inner, 1.0)] + ([g.weight(inner, 1.0)] if with_b else [])
        g.output(g.node("LayerNormalization", ins, axis=axis, epsilon=1e-5))
        ms.append(g)

    for name, sa, sb in [("2d", [4, 6], [6, 5]), ("linear", [2, 3, 6], [6, 5]), ("batched", [2, 2, 3, 4], [2, 2, 4, 3]),
                         ("broadcast", [2, 1, 3, 4], [3, 4, 2]), ("vec_mat", [6], [6, 5]), ("mat_vec", [4, 6], [6])]:
        g = Graph(f"op_matmul_{name}", tol="reduction")
        g.output(g.node("MatMul", [g.rand("a", sa), g.rand("b", sb)]))
        ms.append(g)
    g = Graph("op_gemm", tol="reduction")
    g.output(g.node("Gemm", [g.rand("a", [3, 6]), g.weight([5, 6]), g.weight([5])], transB=1))
    ms.append(g)
    g = Graph("op_gemm_alpha_beta_transA", tol="reduction")
    g.output(g.node("Gemm", [g.rand("a", [6, 3]), g.rand("b", [6, 5]), g.rand("c", [3, 5])], transA=1, alpha=0.5,
                    beta=2.0))
    ms.append(g)

    convs = [("3x3_pad1", {"pads": [1, 1, 1, 1]}, 4, 1), ("stride2", {"strides": [2, 2]}, 4, 1),
             ("groups2_bias", {"group": 2, "pads": [1, 0, 1, 0]}, 4, 2), ("dilation2", {"dilations": [2, 2]}, 4, 1),
             ("same_upper", {"auto_pad": "SAME_UPPER", "strides": [2, 2]}, 4, 1)]
    for name, attrs, oc, groups in convs:
        g = Graph(f"op_conv_{name}", tol="reduction")
        x = g.rand("x", [1, 4, 7, 7])
        ins = [x, g.weight([oc, 4 // groups, 3, 3], 0.3)]
        if "bias" in name:
            ins.append(g.weight([oc], 0.3))
        g.output(g.node("Conv", ins, kernel_shape=[3, 3], **attrs))
        ms.append(g)
    g = Graph("op_batch_norm", tol="reduction")
    x = g.rand("x", [2, 3, 4, 4])
    c = 3
    g.output(g.node("BatchNormalization", [x, g.weight([c], 1.0), g.weight([c], 1.0), g.weight([c], 1.0),
                                           g.init(g.rng.uniform(0.5, 2.0, [c]).astype(np.float32))], epsilon=1e-3))
    ms.append(g)
    g = Graph("op_conv_batch_norm_folded", tol="reduction")
    x = g.rand("x", [1, 3, 6, 6])
    y = g.node("Conv", [x, g.weight([4, 3, 3, 3], 0.3)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    g.output(g.node("BatchNormalization", [y, g.weight([4], 1.0), g.weight([4], 1.0), g.weight([4], 1.0),
                                           g.init(g.rng.uniform(0.5, 2.0, [4]).astype(np.float32))]))
    ms.append(g)
    pools = [("max_3x3_s2_pad1", "MaxPool", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
             ("max_2x2_ceil", "MaxPool", {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1}),
             ("avg_2x2", "AveragePool", {"kernel_shape": [2, 2], "strides": [2, 2]}),
             ("avg_3x3_pad_exclude", "AveragePool", {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}),
             ("avg_3x3_pad_include", "AveragePool", {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1],
                                                     "count_include_pad": 1})]
    for name, op, attrs in pools:
        g = Graph(f"op_pool_{name}", tol="reduction")
        g.output(g.node(op, [g.rand("x", [1, 2, 7, 7])], **attrs))
        ms.append(g)
    for name, opset, extra in [("constant", 13, []), ("value", 13, ["value"]), ("axes", 18, ["value", "axes"])]:
        g = Graph(f"op_pad_{name}", opset)
        x = g.rand("x", [2, 3, 4])
        pads = [1, 0, 1, 2] if "axes" in extra else [0, 1, 2, 1, 0, 0]
        ins = [x, g.ints(pads)]
        if "value" in extra:
            ins.append(g.scalar(-1.5))
        if "axes" in extra:
            ins.append(g.ints([1, -1]))
        g.output(g.node("Pad", ins, mode="constant"))
        ms.append(g)
    g = Graph("op_gather")
    table = g.rand("table", [10, 4])
    ids = g.input("ids", g.rng.integers(-10, 10, [2, 3]).astype(np.int64))
    g.output(g.node("Gather", [table, ids]), g.node("Gather", [table, g.ints(1)], axis=1),
             g.node("Gather", [table, g.init(np.array([[0, 2]], np.int32))], axis=-1))
    ms.append(g)
    g = Graph("op_gather_on_shape")
    x = g.rand("x", [2, 3, 4])
    dim = g.node("Gather", [g.node("Shape", [x]), g.ints(2)])
    g.output(g.node("Reshape", [x, g.node("Concat", [g.ints([-1]), g.node("Unsqueeze", [dim, g.ints([0])])],
                                               axis=0)]))
    ms.append(g)
    g = Graph("op_global_average_pool", tol="reduction")
    g.output(g.node("GlobalAveragePool", [g.rand("x", [1, 3, 5, 5])]))
    ms.append(g)

    for op, opset in [("ReduceMean", 17), ("ReduceMean", 18), ("ReduceSum", 13), ("ReduceMax", 18), ("ReduceMin", 17)]:
        for keep in [0, 1]:
            g = Graph(f"op_{op.lower()}_opset{opset}_keep{keep}", opset, "reduction")
            x = g.rand("x", [2, 3, 4])
            axes_as_input = op == "ReduceSum" or opset >= 18
            if axes_as_input:
                y = g.node(op, [x, g.ints([0, -1])], keepdims=keep)
            else:
                y = g.node(op, [x], axes=[0, -1], keepdims=keep)
            g.output(y, g.node(op, [x], keepdims=keep))
            ms.append(g)

    g = Graph("op_concat_slice")
    a, b = g.rand("a", [2, 3, 4]), g.rand("b", [2, 2, 4])
    cat = g.node("Concat", [a, b], axis=-2)
    s1 = g.node("Slice", [cat, g.ints([1, -3]), g.ints([2**63 - 1, -1]), g.ints([1, 2])])
    s2 = g.node("Slice", [cat, g.ints([0, 1]), g.ints([5, 4]), g.ints([1, 2]), g.ints([2, 2])])
    g.output(s1, s2)
    ms.append(g)
    g = Graph("op_reshape_transpose")
    x = g.rand("x", [2, 3, 4])
    r = g.node("Reshape", [x, g.ints([0, -1, 2])])
    g.output(g.node("Transpose", [r], perm=[1, 0, 2]), g.node("Transpose", [x]))
    ms.append(g)
    g = Graph("op_squeeze_unsqueeze_flatten")
    x = g.rand("x", [2, 1, 3, 1])
    g.output(g.node("Squeeze", [x, g.ints([1])]), g.node("Squeeze", [x]), g.node("Unsqueeze", [x, g.ints([0, -1])]),
             g.node("Flatten", [x], axis=2), g.node("Flatten", [x], axis=0))
    ms.append(g)
    g = Graph("op_expand")
    g.output(g.node("Expand", [g.rand("x", [3, 1]), g.ints([2, 1, 4])]))
    ms.append(g)
    for opset in [13, 18]:
        g = Graph(f"op_split_opset{opset}", opset)
        x = g.rand("x", [2, 6])
        if opset == 13:
            outs = g.node("Split", [x, g.ints([2, 4])], outputs=2, axis=1)
        else:
            outs = g.node("Split", [x], outputs=3, axis=-1, num_outputs=3)
        g.output(*outs)
        ms.append(g)

    g = Graph("op_constants")
    x = g.rand("x", [2, 3])
    k1 = g.node("Constant", [], value=numpy_helper.from_array(np.full([3], 1.5, np.float32), "k"))
    k2 = g.node("Constant", [], value_float=2.0)
    shape = g.node("Constant", [], value_ints=[2, 3])
    filled = g.node("ConstantOfShape", [shape], value=numpy_helper.from_array(np.array([0.25], np.float32)))
    y = g.node("Add", [g.node("Mul", [g.node("Add", [x, k1]), k2]), filled])
    g.output(y, g.node("Shape", [x]), g.node("Shape", [x], start=-1))
    ms.append(g)
    g = Graph("op_range")
    r = g.node("Range", [g.scalar(0.0), g.scalar(3.0), g.scalar(0.5)])
    g.output(g.node("Add", [g.rand("x", [6]), r]), g.node("Range", [g.init(np.array(1, np.int64)),
                                                                    g.init(np.array(10, np.int64)),
                                                                    g.init(np.array(3, np.int64))]))
    ms.append(g)
    for upper, k in [(1, 0), (0, 0), (0, 1), (1, -1)]:
        g = Graph(f"op_trilu_upper{upper}_k{k}", 14)
        x = g.rand("x", [2, 4, 5])
        ones = g.node("ConstantOfShape", [g.ints([4, 4])], value=numpy_helper.from_array(np.array([1.0], np.float32)))
        g.output(g.node("Trilu", [x, g.ints(k)], upper=upper), g.node("Trilu", [ones], upper=upper))
        ms.append(g)
    g = Graph("op_symbolic_dims")
    g.input("x", g.rng.uniform(-1, 1, [2, 5]).astype(np.float32), dims=["batch", 5])
    g.output(g.node("Relu", ["x"]))
    g.args = ["--input-shape", "x=2x5"]
    ms.append(g)
    g = Graph("op_initializers_as_args", tol="reduction")
    g.output(g.node("Add", [g.node("MatMul", [g.rand("x", [3, 4]), g.weight([4, 2])]), g.weight([2])]))
    g.args = ["--initializers-as-args"]
    ms.append(g)
    return ms


# ---------------------------------------------------------------------------------------------
# Whole blocks, node for node as PyTorch's exporter (opset 17) emits them.


def linear(g, x, k, n, bias=True):
    y = g.node("MatMul", [x, g.weight([k, n])])
    return g.node("Add", [g.weight([n], 0.1), y]) if bias else y


def layer_norm(g, x, h):
    return g.node("LayerNormalization", [x, g.weight([h], 1.0), g.weight([h], 0.1)], axis=-1, epsilon=1e-5)


def heads(g, x, b, s, nh, hd, perm=(0, 2, 1, 3)):
    return g.node("Transpose", [g.node("Reshape", [x, g.ints([b, s, nh, hd])])], perm=list(perm))


def attention(g, q, k, v, b, s, nh, hd, mask=None, causal=False):
    """Scaled dot-product attention over [B, nh, S, hd] heads; the result as [B, S, nh*hd]."""
    kt = g.node("Transpose", [k], perm=[0, 1, 3, 2])
    scores = g.node("Div", [g.node("MatMul", [q, kt]), g.scalar(np.sqrt(hd))])
    if mask is not None:
        scores = g.node("Add", [scores, mask])
    if causal:
        # torch.tril(torch.ones(S, S)) == 0 -> masked_fill(-inf): the mask comes from the
        # sequence length (Shape / Slice / Concat / ConstantOfShape / Trilu fold at import).
        seq = g.node("Slice", [g.node("Shape", [q]), g.ints([2]), g.ints([3])])
        ones = g.node("ConstantOfShape", [g.node("Concat", [seq, seq], axis=0)],
                      value=numpy_helper.from_array(np.array([1.0], np.float32)))
        banned = g.node("Equal", [g.node("Trilu", [ones], upper=0), g.scalar(0.0)])
        scores = g.node("Where", [banned, g.scalar(-1e9), scores])
    probs = g.node("Softmax", [scores], axis=-1)
    ctx = g.node("Transpose", [g.node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
    return g.node("Reshape", [ctx, g.ints([b, s, nh * hd])])


def gelu_erf(g, x):
    """`nn.GELU()` at opset 17: x * 0.5 * (1 + erf(x / sqrt(2)))."""
    e = g.node("Erf", [g.node("Div", [x, g.scalar(np.sqrt(2.0))])])
    return g.node("Mul", [g.node("Mul", [x, g.node("Add", [e, g.scalar(1.0)])]), g.scalar(0.5)])


def gelu_tanh(g, x):
    """GPT-2's `NewGELUActivation`: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    cube = g.node("Mul", [g.node("Pow", [x, g.scalar(3.0)]), g.scalar(0.044715)])
    inner = g.node("Mul", [g.node("Add", [x, cube]), g.scalar(np.sqrt(2.0 / np.pi))])
    t = g.node("Add", [g.node("Tanh", [inner]), g.scalar(1.0)])
    return g.node("Mul", [g.node("Mul", [x, g.scalar(0.5)]), t])


def bert_layer(size):
    b, s, h, nh, ff = (1, 8, 32, 4, 64) if size == "small" else (1, 128, 768, 12, 3072)
    hd = h // nh
    g = Graph("block_bert_encoder_layer", tol="block")
    x = g.rand("hidden_states", [b, s, h], -1.0, 1.0)
    mask = g.input("attention_mask", np.where(np.arange(s) < s - 2, 0.0, -10000.0).astype(np.float32).reshape(1, 1, 1, s))
    q, k, v = (heads(g, linear(g, x, h, h), b, s, nh, hd) for _ in range(3))
    a = linear(g, attention(g, q, k, v, b, s, nh, hd, mask=mask), h, h)
    x1 = layer_norm(g, g.node("Add", [a, x]), h)
    f = linear(g, gelu_erf(g, linear(g, x1, h, ff)), ff, h)
    g.output(layer_norm(g, g.node("Add", [f, x1]), h))
    return g


def gpt2_block(size):
    b, s, h, nh = (1, 8, 32, 4) if size == "small" else (1, 128, 768, 12)
    hd = h // nh
    g = Graph("block_gpt2", tol="block")
    x = g.rand("hidden_states", [b, s, h], -1.0, 1.0)
    qkv = linear(g, layer_norm(g, x, h), h, 3 * h)
    q, k, v = (heads(g, t, b, s, nh, hd) for t in g.node("Split", [qkv, g.ints([h, h, h])], outputs=3, axis=2))
    x1 = g.node("Add", [x, linear(g, attention(g, q, k, v, b, s, nh, hd, causal=True), h, h)])
    m = linear(g, gelu_tanh(g, linear(g, layer_norm(g, x1, h), h, 4 * h)), 4 * h, h)
    g.output(g.node("Add", [x1, m]))
    return g


def rms_norm(g, x, h):
    """LlamaRMSNorm: x * rsqrt(mean(x^2) + eps) * w, exported as Pow/ReduceMean/Add/Sqrt/Div."""
    var = g.node("ReduceMean", [g.node("Pow", [x, g.scalar(2.0)])], axes=[-1], keepdims=1)
    inv = g.node("Div", [g.scalar(1.0), g.node("Sqrt", [g.node("Add", [var, g.scalar(1e-6)])])])
    return g.node("Mul", [g.weight([h], 1.0), g.node("Mul", [x, inv])])


def rotary(g, x, cos, sin, hd):
    """x * cos + rotate_half(x) * sin, rotate_half = cat(-x2, x1)."""
    x1 = g.node("Slice", [x, g.ints([0]), g.ints([hd // 2]), g.ints([3])])
    x2 = g.node("Slice", [x, g.ints([hd // 2]), g.ints([2**63 - 1]), g.ints([3])])
    rot = g.node("Concat", [g.node("Neg", [x2]), x1], axis=-1)
    return g.node("Add", [g.node("Mul", [x, cos]), g.node("Mul", [rot, sin])])


def llama_block(size):
    b, s, h, nh, ff = (1, 8, 32, 4, 64) if size == "small" else (1, 128, 512, 8, 1376)
    hd = h // nh
    g = Graph("block_llama", tol="block")
    x = g.rand("hidden_states", [b, s, h], -1.0, 1.0)
    inv_freq = 1.0 / (10000 ** (np.arange(0, hd, 2, dtype=np.float32) / hd))
    freqs = np.outer(np.arange(s, dtype=np.float32), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = g.init(np.cos(emb).astype(np.float32)), g.init(np.sin(emb).astype(np.float32))
    causal = np.triu(np.full([s, s], np.finfo(np.float32).min, np.float32), 1).reshape(1, 1, s, s)
    n = rms_norm(g, x, h)
    q = rotary(g, heads(g, linear(g, n, h, h, False), b, s, nh, hd), cos, sin, hd)
    k = rotary(g, heads(g, linear(g, n, h, h, False), b, s, nh, hd), cos, sin, hd)
    v = heads(g, linear(g, n, h, h, False), b, s, nh, hd)
    x1 = g.node("Add", [x, linear(g, attention(g, q, k, v, b, s, nh, hd, mask=g.init(causal)), h, h, False)])
    n2 = rms_norm(g, x1, h)
    gate = linear(g, n2, h, ff, False)
    silu = g.node("Mul", [gate, g.node("Sigmoid", [gate])])
    up = linear(g, n2, h, ff, False)
    g.output(g.node("Add", [x1, linear(g, g.node("Mul", [silu, up]), ff, h, False)]))
    return g


def vit_mlp(size):
    b, s, h, ff = (1, 5, 32, 64) if size == "small" else (1, 197, 768, 3072)
    g = Graph("block_vit_mlp", tol="block")
    x = g.rand("hidden_states", [b, s, h], -1.0, 1.0)
    y = linear(g, gelu_erf(g, linear(g, layer_norm(g, x, h), h, ff)), ff, h)
    g.output(g.node("Add", [x, y]))
    return g


def resnet_basic_block(size):
    n, c, hw = (1, 8, 8) if size == "small" else (1, 64, 56)
    g = Graph("block_resnet_basic", tol="block")
    x = g.rand("x", [n, c, hw, hw], -1.0, 1.0)

    def conv_bn(t):
        y = g.node("Conv", [t, g.weight([c, c, 3, 3], 1.0 / np.sqrt(9 * c))], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
        var = g.init(g.rng.uniform(0.5, 1.5, [c]).astype(np.float32))
        return g.node("BatchNormalization", [y, g.weight([c], 1.0), g.weight([c], 0.1), g.weight([c], 0.1), var])

    y = conv_bn(g.node("Relu", [conv_bn(x)]))
    g.output(g.node("Relu", [g.node("Add", [y, x])]))
    return g


BLOCKS = [bert_layer, gpt2_block, llama_block, vit_mlp, resnet_basic_block]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--size", choices=["small", "bench"], default="small")
    p.add_argument("--only", nargs="*", default=None)
    p.add_argument("--blocks-only", action="store_true")
    a = p.parse_args()
    models = ([] if a.blocks_only else op_models()) + [f(a.size) for f in BLOCKS]
    manifest = []
    for g in models:
        if a.only is None or g.name in a.only:
            save(g, a.out, manifest)
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"wrote {len(manifest)} models to {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
