"""The README's training figures: the GPT-2-style model and ResNet-18 (python/tests/
torch_models.py) trained for 3 SGD-with-momentum steps under eager PyTorch,
``torch.compile(backend="kiln")`` and ``kiln.torch.fusion()``, each Kiln path fused
(``opt_level=1``) and unfused (``opt_level=0``: every op its own kernel). Per step: the loss and
the largest gradient error against eager (``max |kiln - eager| / max |eager|`` over every
parameter), Kiln's kernel launches, and the simulated device time of Kiln's kernels on
ascend910b (``--device_time``: the cost model replays every run; the ops PyTorch keeps are not
simulated). Also prints what PyTorch ran.

Run: python benches/torch_training.py [gpt2|resnet18 ...]
"""

import os
import sys

os.environ["KILN_FUSION_FLAGS"] = (os.environ.get("KILN_FUSION_FLAGS", "") + " --device_time").strip()

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "tests"))
import torch_models as tm  # noqa: E402


def main():
    names = sys.argv[1:] or ["gpt2", "resnet18"]
    for name in names:
        ref = tm.train(name, "eager")
        print(f"{name}: eager losses " + ", ".join(f"{r['loss']:.7f}" for r in ref))
        for mode in ("compile", "fusion"):
            for level in (1, 0):
                got = tm.train(name, mode, options={"opt_level": level})
                for i, (r, g) in enumerate(zip(ref, got)):
                    errs = {n: tm.max_scaled_error(g["grads"][n], r["grads"][n]) for n in r["grads"]}
                    worst = max(errs, key=errs.get)
                    st = g["stats"]
                    print(
                        f"  {mode} opt_level={level} step {i}: loss {g['loss']:.7f} "
                        f"(rel err {abs(g['loss'] - r['loss']) / abs(r['loss']):.1e}), "
                        f"max grad err {errs[worst]:.1e} ({worst}), kernels {st['kernels_launched']}, "
                        f"device {st['device_time_ns'] / 1e3:.1f} us, aten ops kiln/pytorch "
                        f"{st['aten_ops_kiln']}/{st['aten_ops_torch']}"
                    )
                if level == 1:
                    print(f"    PyTorch ran: {got[-1]['stats']['torch_ops']}")


if __name__ == "__main__":
    main()
