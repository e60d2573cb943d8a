#!/usr/bin/env python3
"""Builds Kiln's ONNX model corpus: real architectures (Hugging Face transformers built from
small configs in code, torchvision CNNs at reduced widths), random weights from a fixed seed,
each exported with both `torch.onnx` exporters, and onnxruntime's results on seeded inputs.
Not run by CI: the exported files are committed (frontends/onnx/corpus/models/) and
tools/kiln-translate/tests/onnx_corpus.rs checks Kiln against them.

    python3 frontends/onnx/corpus/export.py [--only NAME ...] [--out DIR]

Needs torch, torchvision, transformers, onnx, onnxscript (the dynamo exporter) and
onnxruntime. Writes, per architecture and exporter, `DIR/<arch>-<exporter>/model.onnx`,
`in<i>.npy` (graph inputs in order) and `out<i>.npy` (onnxruntime's results, CPU, all graph
optimizations off), and `DIR/manifest.json`: one entry per exported model, and the exports
that failed with the exporter's error. The exporters are `torchscript` (`dynamo=False`) and
`dynamo` (`dynamo=True`); both at opset 18. The dynamic-shape models (`dynamic_models`) are
exported once, with `dynamic_axes`, and run at several sizes (their manifest entry's `sizes`).
"""

import argparse
import json
import os
import re
import shutil
import sys
import traceback
import warnings

import numpy as np

OPSET = 18
SEED = 0


def _torch():
    import torch

    torch.manual_seed(SEED)
    return torch


def ids(rng, vocab, shape):
    return rng.integers(0, vocab, size=shape, dtype=np.int64)


# --- Hugging Face transformers, random weights, small configs -------------------------------
#
# Every config is the architecture's own (same modules, activations, norms and position
# scheme) with a few layers, narrow widths and a small vocabulary, so that the files stay small
# and the interpreter quick. Inputs are token ids (and decoder ids / features) of length 16.


class ByName:
    """Calls a Hugging Face model with its inputs by keyword (the exporters pass them by
    position) and returns its outputs as a tuple."""

    def __new__(cls, model, names):
        import torch

        class Wrapper(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.model = model

            def forward(self, *args):
                out = self.model(**dict(zip(names, args)), use_cache=False, return_dict=False)
                return tuple(out)

        return Wrapper().eval()


def hf(name, config_fn, model_cls, inputs_fn):
    def build(torch, rng):
        import transformers

        config = config_fn(transformers)
        model = getattr(transformers, model_cls)(config)
        feeds = inputs_fn(rng, config)
        return ByName(model.eval(), list(feeds)), feeds

    return name, build


SEQ = 16
SMALL = dict(vocab_size=512, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128)


def hf_models():
    def tokens(rng, c):
        return {"input_ids": ids(rng, c.vocab_size, (1, SEQ))}

    def seq2seq(rng, c):
        return {"input_ids": ids(rng, c.vocab_size, (1, SEQ)), "decoder_input_ids": ids(rng, c.vocab_size, (1, 8))}

    return [
        hf("bert", lambda t: t.BertConfig(**SMALL, max_position_embeddings=64), "BertModel", tokens),
        hf(
            "distilbert",
            lambda t: t.DistilBertConfig(vocab_size=512, dim=64, n_layers=2, n_heads=4, hidden_dim=128,
                                         max_position_embeddings=64),
            "DistilBertModel",
            tokens,
        ),
        hf("gpt2", lambda t: t.GPT2Config(vocab_size=512, n_embd=64, n_layer=2, n_head=4, n_positions=64),
           "GPT2LMHeadModel", tokens),
        hf(
            "llama",
            lambda t: t.LlamaConfig(**SMALL, num_key_value_heads=2, max_position_embeddings=64),
            "LlamaForCausalLM",
            tokens,
        ),
        hf(
            "vit",
            lambda t: t.ViTConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                                  image_size=32, patch_size=8, num_channels=3),
            "ViTModel",
            lambda rng, c: {"pixel_values": rng.standard_normal((1, 3, 32, 32)).astype(np.float32)},
        ),
        hf(
            "bart",
            lambda t: t.BartConfig(vocab_size=512, d_model=64, encoder_layers=2, decoder_layers=2,
                                   encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=128,
                                   decoder_ffn_dim=128, max_position_embeddings=64),
            "BartModel",
            seq2seq,
        ),
        hf(
            "t5",
            lambda t: t.T5Config(vocab_size=512, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_decoder_layers=2,
                                 num_heads=4, decoder_start_token_id=0),
            "T5Model",
            seq2seq,
        ),
        hf(
            "whisper",
            lambda t: t.WhisperConfig(vocab_size=512, num_mel_bins=16, d_model=64, encoder_layers=2,
                                      decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
                                      encoder_ffn_dim=128, decoder_ffn_dim=128, max_source_positions=16,
                                      max_target_positions=16, pad_token_id=0, bos_token_id=1, eos_token_id=2,
                                      decoder_start_token_id=1, suppress_tokens=[], begin_suppress_tokens=[]),
            "WhisperModel",
            lambda rng, c: {
                "input_features": rng.standard_normal((1, c.num_mel_bins, 2 * c.max_source_positions)).astype(
                    np.float32),
                "decoder_input_ids": ids(rng, c.vocab_size, (1, 8)),
            },
        ),
    ]


# --- torchvision CNNs at reduced widths -----------------------------------------------------
#
# The architectures' own blocks (torchvision's BasicBlock, InvertedResidual, MBConv, dense
# layers, channel shuffle, Fire modules) with narrower channels and 10 classes; 64x64 images;
# BatchNorm statistics calibrated on random images (see `calibrate`).

IMAGE = (1, 3, 64, 64)


def calibrate(torch, model):
    """Random BatchNorm affine parameters and unit-variance classifier heads, then running
    statistics measured on random images (as training would leave them): without this,
    freshly initialized MobileNets and EfficientNet shrink their activations to ~1e-10 and
    every comparison passes trivially."""
    generator = torch.Generator().manual_seed(SEED)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.Linear):  # classifier heads start near 0 (std 0.01)
                bound = (3.0 / m.in_features) ** 0.5
                m.weight.uniform_(-bound, bound, generator=generator)
                m.bias.uniform_(-0.1, 0.1, generator=generator)
            if isinstance(m, torch.nn.BatchNorm2d):
                m.weight.uniform_(0.5, 1.5, generator=generator)
                m.bias.uniform_(-0.2, 0.2, generator=generator)
                m.momentum = None  # a cumulative average over the calibration batches
                m.reset_running_stats()
        model.train()
        for _ in range(4):
            model(torch.randn((8,) + IMAGE[1:], generator=generator))
    return model.eval()


def cnn(name, make):
    def build(torch, rng):
        model = calibrate(torch, make(torch))
        return model, {"input": rng.standard_normal(IMAGE).astype(np.float32)}

    return name, build


def resnet18(torch):
    from torchvision.models.resnet import BasicBlock, ResNet

    class QuarterWidth(ResNet):
        """ResNet-18's topology with a quarter of its channels (16, 32, 64, 128)."""

        def _make_layer(self, block, planes, blocks, stride=1, dilate=False):
            return super()._make_layer(block, planes // 4, blocks, stride, dilate)

    model = QuarterWidth(BasicBlock, [2, 2, 2, 2], num_classes=10)
    model.fc = torch.nn.Linear(128, 10)
    return model


def mobilenet_v2(torch):
    from torchvision.models import mobilenet_v2

    return mobilenet_v2(width_mult=0.25, num_classes=10)


def mobilenet_v3(torch):
    from torchvision.models.mobilenetv3 import MobileNetV3, _mobilenet_v3_conf

    settings, last = _mobilenet_v3_conf("mobilenet_v3_small", width_mult=0.25)
    return MobileNetV3(settings, 256, num_classes=10)


def efficientnet_b0(torch):
    from torchvision.models.efficientnet import EfficientNet, _efficientnet_conf

    settings, last = _efficientnet_conf("efficientnet_b0", width_mult=0.25, depth_mult=0.5)
    return EfficientNet(settings, 0.2, num_classes=10, last_channel=256)


def densenet(torch):
    from torchvision.models import DenseNet

    return DenseNet(growth_rate=8, block_config=(2, 2, 2, 2), num_init_features=16, bn_size=2, num_classes=10)


def shufflenet(torch):
    from torchvision.models import ShuffleNetV2

    return ShuffleNetV2([2, 2, 2], [8, 16, 32, 64, 128], num_classes=10)


def squeezenet(torch):
    from torchvision.models import squeezenet1_1

    return squeezenet1_1(num_classes=10)


def cnn_models():
    return [
        cnn("resnet18", resnet18),
        cnn("mobilenet_v2", mobilenet_v2),
        cnn("mobilenet_v3_small", mobilenet_v3),
        cnn("efficientnet_b0", efficientnet_b0),
        cnn("densenet", densenet),
        cnn("shufflenet_v2", shufflenet),
        cnn("squeezenet1_1", squeezenet),
    ]


# --- dynamic shapes -------------------------------------------------------------------------
#
# Exported with symbolic batch and sequence axes (`dynamic_axes`, the torchscript exporter), so
# the graph computes its reshapes' shapes from its input's (`Shape`, `Gather`, `Concat`); Kiln
# imports it without --input-shape and runs it at each of SIZES (batch, sequence). `in<i>.npy` /
# `out<o>.npy` hold the first size, `size<k>/` the others; the manifest entry lists the sizes.

SIZES = [(1, 1), (2, 7), (3, 19)]


def bert_layer(torch, rng):
    """A Hugging Face BERT layer (self-attention, feed-forward, two layer norms) on hidden
    states, returning the layer's output."""
    import transformers

    config = transformers.BertConfig(**SMALL, max_position_embeddings=64)

    class Layer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = transformers.models.bert.modeling_bert.BertLayer(config)

        def forward(self, hidden_states):
            out = self.layer(hidden_states)
            return out[0] if isinstance(out, tuple) else out

    def feeds(batch, seq):
        return {"hidden_states": rng.standard_normal((batch, seq, config.hidden_size)).astype(np.float32)}

    return Layer().eval(), feeds


def dynamic_models():
    """`(arch, build, dynamic axes of each input)`; `build(torch, rng)` gives the model and a
    function of `(batch, seq)` that makes its inputs."""
    return [("bert_layer", bert_layer, {"hidden_states": {0: "batch", 1: "seq"}})]


# --- export and reference run ---------------------------------------------------------------


def export(torch, model, feeds, path, dynamo, dynamic_axes=None):
    args = tuple(torch.from_numpy(v) for v in feeds.values())
    names = list(feeds)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dynamo:
            program = torch.onnx.export(model, args, input_names=names, opset_version=OPSET, dynamo=True,
                                        external_data=False, verbose=False)
            program.save(path, external_data=False)
        else:
            torch.onnx.export(model, args, path, input_names=names, opset_version=OPSET, dynamo=False,
                              dynamic_axes=dynamic_axes)


def reference(path, feeds, out_dir):
    import onnx
    import onnxruntime as ort

    model = onnx.load(path)
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    graph_inputs = [i.name for i in model.graph.input]
    inputs = []
    for i, name in enumerate(graph_inputs):
        if name not in feeds:
            raise RuntimeError(f"graph input `{name}` is not one of the model's inputs {list(feeds)}")
        np.save(os.path.join(out_dir, f"in{i}.npy"), feeds[name])
        inputs.append(name)
    results = session.run(None, {n: feeds[n] for n in inputs})
    for o, r in enumerate(results):
        np.save(os.path.join(out_dir, f"out{o}.npy"), np.asarray(r))
    return len(inputs), len(results)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "models"))
    parser.add_argument("--only", nargs="*", default=None)
    a = parser.parse_args()
    torch = _torch()
    torch.set_num_threads(1)
    os.makedirs(a.out, exist_ok=True)
    manifest_path = os.path.join(a.out, "manifest.json")
    manifest = {"models": [], "failed": []}
    if a.only and os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    only = set(a.only or [])

    def rebuilt(arch):
        """Whether `arch` is exported this run; its old manifest entries are dropped if so."""
        if only and arch not in only:
            return False
        manifest["models"] = [m for m in manifest["models"] if m["arch"] != arch]
        manifest["failed"] = [m for m in manifest["failed"] if m["arch"] != arch]
        return True

    def fresh(name):
        """An empty `a.out/name/`, the seeds reset: the folder, its `model.onnx` and the rng."""
        out_dir = os.path.join(a.out, name)
        shutil.rmtree(out_dir, ignore_errors=True)
        os.makedirs(out_dir)
        torch.manual_seed(SEED)
        return out_dir, os.path.join(out_dir, "model.onnx"), np.random.default_rng(SEED)

    for arch, build in hf_models() + cnn_models():
        if not rebuilt(arch):
            continue
        for exporter in ["torchscript", "dynamo"]:
            name = f"{arch}-{exporter}"
            out_dir, path, rng = fresh(name)
            try:
                model, feeds = build(torch, rng)
                export(torch, model, feeds, path, exporter == "dynamo")
                n_in, n_out = reference(path, feeds, out_dir)
            except Exception as e:  # noqa: BLE001: an exporter's failure is recorded, not fatal
                shutil.rmtree(out_dir, ignore_errors=True)
                root = e
                while root.__cause__ is not None or root.__context__ is not None:
                    root = root.__cause__ or root.__context__
                last = traceback.format_exception_only(type(e), e)[-1].strip().splitlines()[0][:200]
                if root is not e:
                    cause = traceback.format_exception_only(type(root), root)[-1].strip().splitlines()[0]
                    last += " (cause: " + cause[:200] + ")"
                last = re.sub(r"\x1b\[[0-9;]*m", "", last)
                manifest["failed"].append({"arch": arch, "exporter": exporter, "error": last})
                print(f"{name}: FAILED: {last}", file=sys.stderr)
                continue
            size = os.path.getsize(path)
            manifest["models"].append(
                {"name": name, "arch": arch, "exporter": exporter, "inputs": n_in, "outputs": n_out, "bytes": size})
            print(f"{name}: {size / 1e6:.2f} MB, {n_in} inputs, {n_out} outputs", file=sys.stderr)
    for arch, build, axes in dynamic_models():
        if not rebuilt(arch):
            continue
        name = f"{arch}-torchscript"
        out_dir, path, rng = fresh(name)
        model, make_feeds = build(torch, rng)
        export(torch, model, make_feeds(*SIZES[0]), path, False, dynamic_axes=axes)
        for k, size in enumerate(SIZES):
            size_dir = out_dir if k == 0 else os.path.join(out_dir, f"size{k}")
            os.makedirs(size_dir, exist_ok=True)
            n_in, n_out = reference(path, make_feeds(*size), size_dir)
        size = os.path.getsize(path)
        manifest["models"].append({"name": name, "arch": arch, "exporter": "torchscript", "inputs": n_in,
                                   "outputs": n_out, "bytes": size, "sizes": [list(s) for s in SIZES]})
        print(f"{name}: {size / 1e6:.2f} MB, dynamic axes {axes}, sizes {SIZES}", file=sys.stderr)
    manifest["models"].sort(key=lambda m: m["name"])
    manifest["failed"].sort(key=lambda m: (m["arch"], m["exporter"]))
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    total = sum(m["bytes"] for m in manifest["models"])
    print(f"{len(manifest['models'])} models, {total / 1e6:.1f} MB; {len(manifest['failed'])} exports failed",
          file=sys.stderr)


if __name__ == "__main__":
    main()
