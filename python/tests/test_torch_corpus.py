"""Inference on the ONNX corpus's architectures (frontends/onnx/corpus/export.py) through
``torch.compile(backend="kiln")`` and ``kiln.torch.fusion()`` against eager PyTorch.

The models and inputs are the corpus builder's own (imported from export.py by path, not
copied): Hugging Face BERT, DistilBERT, GPT-2, LLaMA, ViT, BART, T5 and Whisper from small
configs, torchvision ResNet-18, MobileNetV2, MobileNetV3-Small, EfficientNet-B0, DenseNet,
ShuffleNetV2 and SqueezeNet 1.1 at reduced widths with calibrated BatchNorm, random weights
from seed 0 and seeded inputs, as the ONNX files were exported. Each runs in eval mode under
``torch.no_grad()``. The Hugging Face models run twice: with the builder's attention (SDPA,
whose fused CPU kernel runs in PyTorch) and with ``attn_implementation="eager"`` (matmul,
mask and softmax, which Kiln runs).

Tolerance (f32): every output tensor within 1e-5 of its largest magnitude
(``max |kiln - eager| <= 1e-5 * max |eager|``), the training checks' loss tolerance. Kiln sums
reductions (layer / RMS norm statistics, softmax, pooling) and matrix products in its own
order, not the CPU kernels', and its exp / tanh / erf are within 1 ulp, so the outputs differ
by f32 rounding accumulated over a few layers: measured at most 2.2e-6 (docs/frontends/torch.md,
"Inference on the ONNX corpus"). 1e-5 is about 84 ulps of the largest value; a wrong op, axis
or mask moves outputs by orders of magnitude more.

The same models and inputs go through Kiln's ONNX path (tools/kiln-translate/tests/onnx_corpus.rs
checks Kiln on the exported files against onnxruntime's results, committed as
frontends/onnx/corpus/models/<arch>-<exporter>/out<i>.npy, within ``1e-4 + 1e-3 * |want|``).
Here the builder's inputs must equal the committed ``in<i>.npy`` exactly, and the outputs of
both kiln.torch paths must be within that same tolerance of the committed onnxruntime
outputs: the two front ends agree with one reference on the same inputs.

Each run must also have run work on Kiln (``kiln.torch.stats()``: aten ops run by Kiln and
kernels launched both > 0), so falling back to PyTorch everywhere cannot pass. Convolutions,
batch norm, pooling and SDPA run in PyTorch (not in the aten -> Kiln table).

By default a representative subset runs (BERT, GPT-2, LLaMA, ResNet-18, MobileNetV2 with the
builder's attention, LLaMA with eager attention); ``KILN_TORCH_SLOW=1`` runs all 23 model
variants. ``python python/tests/test_torch_corpus.py [ARCH ...]`` prints the results table.
"""

import importlib.util
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchvision")
pytest.importorskip("transformers")
import kiln.torch as kt  # noqa: E402

TOL = 1e-5
#: onnx_corpus.rs's tolerance against onnxruntime (f32): |got - want| <= ONNX_ATOL + ONNX_RTOL * |want|.
ONNX_ATOL, ONNX_RTOL = 1e-4, 1e-3

CORPUS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "frontends", "onnx", "corpus")
EXPORT_PY = os.path.join(CORPUS_DIR, "export.py")
MODELS_DIR = os.path.join(CORPUS_DIR, "models")


def _load_corpus():
    spec = importlib.util.spec_from_file_location("kiln_onnx_corpus_export", EXPORT_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


corpus = _load_corpus()
HF = [name for name, _ in corpus.hf_models()]
CNN = [name for name, _ in corpus.cnn_models()]
BUILDERS = dict(corpus.hf_models() + corpus.cnn_models())

#: (architecture, attention): "default" is the builder's model as exported; "eager_attn" a
#: Hugging Face model with attn_implementation="eager".
VARIANTS = [(a, "default") for a in HF + CNN] + [(a, "eager_attn") for a in HF]
DEFAULT_SET = {("bert", "default"), ("gpt2", "default"), ("llama", "default"), ("resnet18", "default"),
               ("mobilenet_v2", "default"), ("llama", "eager_attn")}
SLOW = bool(os.environ.get("KILN_TORCH_SLOW"))


def build(arch, attn):
    """The corpus model ``arch`` and its inputs (torch tensors, in order), seeded as export.py
    seeds them."""
    torch.manual_seed(corpus.SEED)
    rng = np.random.default_rng(corpus.SEED)
    model, feeds = BUILDERS[arch](torch, rng)
    if attn == "eager_attn":
        model.model.set_attn_implementation("eager")
    return model.eval(), tuple(torch.from_numpy(v) for v in feeds.values())


def tensors(out):
    leaves, _ = torch.utils._pytree.tree_flatten(out)
    return [t for t in leaves if isinstance(t, torch.Tensor)]


def run(model, args, mode):
    """The model's output tensors under ``mode`` (``eager``, ``compile`` or ``fusion``) and
    kiln.torch's stats of the run."""
    torch._dynamo.reset()
    kt.reset_stats()
    with torch.no_grad():
        if mode == "compile":
            out = torch.compile(model, backend="kiln")(*args)
        elif mode == "fusion":
            with kt.fusion(opt_level=1):
                out = model(*args)
        else:
            out = model(*args)
    return tensors(out), kt.stats()


def errors(got, ref):
    """Per output: (max abs error, max abs error / max |ref|)."""
    out = []
    for g, r in zip(got, ref):
        err = (g - r).abs().max().item()
        scale = r.abs().max().item()
        out.append((err, err / scale if scale else err))
    return out


def onnx_references(arch):
    """Per exported model of ``arch`` in the corpus: (name, inputs, onnxruntime's outputs)."""
    out = []
    for name in sorted(os.listdir(MODELS_DIR)):
        if name.rsplit("-", 1)[0] != arch:
            continue
        d = os.path.join(MODELS_DIR, name)
        load = lambda prefix: [np.load(os.path.join(d, f"{prefix}{i}.npy"))  # noqa: E731
                               for i in range(64) if os.path.exists(os.path.join(d, f"{prefix}{i}.npy"))]
        out.append((name, load("in"), load("out")))
    return out


def onnx_errors(arch, args, got):
    """Per exported model of ``arch``: (name, max |got - want| / (ONNX_ATOL + ONNX_RTOL |want|)
    over the outputs, max |got - want|); asserts the inputs are the committed ones."""
    out = []
    for name, ins, want in onnx_references(arch):
        assert len(ins) == len(args) and all(np.array_equal(a.numpy(), b) for a, b in zip(args, ins)), name
        assert len(want) == len(got), (name, len(want), len(got))
        ratio, abs_err = 0.0, 0.0
        for g, w in zip(got, want):
            g = g.numpy().astype(np.float64)
            assert g.shape == w.shape, (name, g.shape, w.shape)
            diff = np.abs(g - w)
            ratio = max(ratio, float((diff / (ONNX_ATOL + ONNX_RTOL * np.abs(w))).max()))
            abs_err = max(abs_err, float(diff.max()))
        out.append((name, ratio, abs_err))
    return out


def compare(arch, attn, mode):
    model, args = build(arch, attn)
    ref, _ = run(model, args, "eager")
    got, st = run(model, args, mode)
    torch._dynamo.reset()
    return ref, got, st, args


def _params():
    for arch, attn in VARIANTS:
        marks = [] if SLOW or (arch, attn) in DEFAULT_SET else [
            pytest.mark.skip(reason="long: KILN_TORCH_SLOW=1 runs it")]
        yield pytest.param(arch, attn, id=f"{arch}-{attn}", marks=marks)


@pytest.mark.parametrize("mode", ["compile", "fusion"])
@pytest.mark.parametrize("arch, attn", list(_params()))
def test_corpus_inference_matches_eager(arch, attn, mode):
    ref, got, st, args = compare(arch, attn, mode)
    assert len(got) == len(ref) and ref, (len(got), len(ref))
    for i, (g, r) in enumerate(zip(got, ref)):
        assert g.shape == r.shape and g.dtype == r.dtype, (i, g.shape, g.dtype, r.shape, r.dtype)
        assert torch.isfinite(r).all(), i
    for i, (err, rel) in enumerate(errors(got, ref)):
        assert rel <= TOL, (i, tuple(ref[i].shape), err, rel)
    onnx = onnx_errors(arch, args, got)
    assert onnx, f"no exported model of {arch} in {MODELS_DIR}"
    for name, ratio, abs_err in onnx:
        assert ratio <= 1.0, (name, ratio, abs_err)
    assert st["aten_ops_kiln"] > 0 and st["kernels_launched"] > 0, st
    if mode == "compile":
        assert st["kiln_subgraphs"] > 0 and st["subgraph_calls"] > 0, st


def main(archs):
    """Prints the results table (markdown) for the variants of ``archs`` (all if empty)."""
    import time
    import warnings

    warnings.simplefilter("ignore")
    print("| model | outputs | aten ops Kiln / PyTorch: compile | fusion | max abs / rel error: compile | fusion "
          "| max abs error vs onnxruntime | time compile / fusion |")
    print("|---|---|---|---|---|---|---|---|")
    for arch, attn in VARIANTS:
        if archs and arch not in archs:
            continue
        cells, ops, times, onnx_abs = [], [], [], []
        for mode in ("compile", "fusion"):
            t0 = time.time()
            ref, got, st, args = compare(arch, attn, mode)
            times.append(time.time() - t0)
            errs = errors(got, ref)
            onnx = onnx_errors(arch, args, got)
            onnx_abs.append(max(e for _, _, e in onnx))
            ok = all(rel <= TOL for _, rel in errs) and st["aten_ops_kiln"] > 0 and all(r <= 1 for _, r, _ in onnx)
            cells.append("%.1e / %.1e%s" % (max(e for e, _ in errs), max(r for _, r in errs), "" if ok else " FAIL"))
            ops.append(f"{st['aten_ops_kiln']} / {st['aten_ops_torch']}")
        name = arch + (", eager attention" if attn == "eager_attn" else "")
        print(f"| {name} | {len(ref)} | {ops[0]} | {ops[1]} | {cells[0]} | {cells[1]} "
              f"| {max(onnx_abs):.1e} | {times[0]:.1f} / {times[1]:.1f} s |", flush=True)


if __name__ == "__main__":
    main(set(sys.argv[1:]))
