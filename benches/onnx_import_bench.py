#!/usr/bin/env python3
"""Import and compile time of a BERT-base-sized ONNX model (not a test).

Exports a 12-layer BERT-base-sized model (Hugging Face `BertModel`, hidden 768, 12 heads,
intermediate 3072, vocabulary 30522, random weights, sequence 128, the TorchScript exporter at
opset 18) into a scratch folder (never committed), then measures, as medians of `--runs` runs:

- `kiln-translate --import-onnx model.onnx -o model.mlir` (wall time, peak RSS),
- `kiln-translate --emit-bytecode model.mlir -o model.kbc` (parsing the module, then the whole
  back end: clean-up, kiln-fuse, kiln-codegen, the emitter; wall time, peak RSS),
- `kiln-translate --import-onnx model.onnx --compile -o model.kbc` (both in one process, without
  printing and parsing the ~2x-the-file hex text of the weights),
- onnxruntime's `InferenceSession` creation on the same file (default options: all graph
  optimizations; the time inside the process, and the peak RSS of a process that creates the
  session minus that of one that only imports onnxruntime),

and prints the ratios the issue sets as goals: import + compile within 2x of onnxruntime's
session creation, peak memory under 3x the file's size. Peak RSS comes from
`/usr/bin/time -f %M`.

    python3 benches/onnx_import_bench.py [--runs 3] [--dir /tmp/kiln-bert-bench] [--kiln-translate PATH]

Without `--kiln-translate`, `cargo build --release -p kiln-translate` is run first and
`$CARGO_TARGET_DIR` (or `target/`) is used. Needs torch, transformers, onnx, onnxruntime.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEQ = 128


def export(path):
    import torch
    import transformers

    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=30522, hidden_size=768, num_hidden_layers=12,
                                     num_attention_heads=12, intermediate_size=3072)
    model = transformers.BertModel(config).eval()

    class Wrapper(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, input_ids):
            return self.model(input_ids=input_ids, use_cache=False, return_dict=False)[0]

    ids = torch.randint(0, config.vocab_size, (1, SEQ), dtype=torch.int64)
    torch.onnx.export(Wrapper().eval(), (ids,), path, input_names=["input_ids"], opset_version=18, dynamo=False)


def timed(cmd):
    """Wall seconds and peak RSS (bytes) of `cmd`, which must succeed."""
    out = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M"] + cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
    line = [l for l in out.stderr.splitlines() if l.startswith("TIME ")][-1].split()
    return float(line[1]), int(line[2]) * 1024, out.stdout


ORT_SESSION = """
import sys, time
import onnxruntime as ort
t = time.perf_counter()
if sys.argv[1] != '-':
    ort.InferenceSession(sys.argv[1], providers=['CPUExecutionProvider'])
print(time.perf_counter() - t)
"""


def median(values):
    return statistics.median(values)


def mb(b):
    return f"{b / 1e6:.0f} MB"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "kiln-bert-bench"))
    parser.add_argument("--kiln-translate", default=None)
    a = parser.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    tool = a.kiln_translate
    if tool is None:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "kiln-translate"], cwd=ROOT, check=True)
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
        tool = os.path.join(target, "release", "kiln-translate")
    model = os.path.join(a.dir, "bert_base.onnx")
    if not os.path.exists(model):
        print("exporting BERT-base ...", file=sys.stderr)
        export(model)
    size = os.path.getsize(model)
    mlir, kbc = os.path.join(a.dir, "bert_base.mlir"), os.path.join(a.dir, "bert_base.kbc")
    runs = {"import": [], "compile": [], "direct": [], "ort": []}
    for i in range(a.runs):
        runs["import"].append(timed([tool, "--import-onnx", model, "-o", mlir])[:2])
        runs["compile"].append(timed([tool, "--emit-bytecode", mlir, "-o", kbc])[:2])
        runs["direct"].append(timed([tool, "--import-onnx", model, "--compile", "-o", kbc])[:2])
        _, rss, out = timed([sys.executable, "-c", ORT_SESSION, model])
        _, base, _ = timed([sys.executable, "-c", ORT_SESSION, "-"])
        runs["ort"].append((float(out.strip()), rss - base))
        print(f"run {i + 1}: " + ", ".join(f"{k} {v[-1][0]:.2f} s {mb(v[-1][1])}" for k, v in runs.items()),
              file=sys.stderr)
    t = {k: median([x[0] for x in v]) for k, v in runs.items()}
    m = {k: median([x[1] for x in v]) for k, v in runs.items()}
    print(f"model: {model} ({mb(size)}), medians of {a.runs} runs")
    print("| step | wall time | peak RSS | RSS / file |")
    print("| --- | ---: | ---: | ---: |")
    for k, label in [("import", "kiln-translate --import-onnx"), ("compile", "kiln-translate --emit-bytecode"),
                     ("direct", "kiln-translate --import-onnx --compile"),
                     ("ort", "onnxruntime InferenceSession (RSS above the import)")]:
        print(f"| {label} | {t[k]:.2f} s | {mb(m[k])} | {m[k] / size:.2f}x |")
    total = t["import"] + t["compile"]
    print(f"import + compile: {total:.2f} s = {total / t['ort']:.2f}x onnxruntime's session creation (goal <= 2x)")
    peak = max(m["import"], m["compile"])
    print(f"peak memory: {mb(peak)} = {peak / size:.2f}x the file (goal < 3x)")
    print(f"in one process (--compile): {t['direct']:.2f} s = {t['direct'] / t['ort']:.2f}x onnxruntime, "
          f"{mb(m['direct'])} = {m['direct'] / size:.2f}x the file")


if __name__ == "__main__":
    main()
