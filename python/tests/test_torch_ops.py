"""kiln.torch's aten -> Kiln table and eager fusion against eager PyTorch, op by op: values,
dtypes and shapes (PyTorch's promotion included), the flush boundaries, and bad input (which
runs in PyTorch, never wrongly)."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import kiln.torch as kt  # noqa: E402
from kiln.torch import _lower  # noqa: E402

aten = torch.ops.aten


def same(got, want, rtol=1e-5, atol=1e-6):
    assert isinstance(got, torch.Tensor), type(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.is_floating_point:
        torch.testing.assert_close(got, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        assert torch.equal(got, want)


def fused(fn, *args):
    kt.reset_stats()
    with kt.fusion():
        out = fn(*args)
    return out, kt.stats()


g = torch.Generator().manual_seed(0)
X = torch.randn(4, 6, generator=g)
Y = torch.randn(4, 6, generator=g)
R = torch.randn(6, generator=g)
I32 = torch.randint(-5, 5, (4, 6), generator=g, dtype=torch.int32)
B = X > 0
H = X.half()
S0 = torch.tensor(1.5)

CASES = [
    ("add", lambda: X + Y * 2 - 1),
    ("add_alpha", lambda: torch.add(X, Y, alpha=0.5)),
    ("rsub", lambda: 1 - X),
    ("broadcast", lambda: X * R + R),
    ("div", lambda: X / (Y.abs() + 1)),
    ("div_int", lambda: I32 / 3),
    ("int_plus_float_scalar", lambda: I32 + 2.5),
    ("int_plus_int_scalar", lambda: I32 * 3 - 1),
    ("half_plus_float_scalar", lambda: H + 2.5),
    ("half_plus_zero_dim_float", lambda: H * S0),
    ("float_plus_int32_tensor", lambda: X + I32),
    ("bool_add", lambda: B + (Y > 0)),
    ("bool_mul", lambda: B * (Y > 0)),
    ("compare", lambda: (X < Y) | (X >= 1)),
    ("where", lambda: torch.where(X > 0, X, Y)),
    ("where_scalar", lambda: torch.where(X > 0, X, 0.0)),
    ("masked_fill", lambda: X.masked_fill(B, -1.0)),
    ("clamp", lambda: X.clamp(-0.5, 0.5) + X.clamp(min=0.1)),
    ("unary", lambda: X.exp() + Y.tanh() + X.sigmoid() + Y.abs().sqrt() + X.neg()),
    ("log_rsqrt", lambda: (X.abs() + 1).log() + (X.abs() + 1).rsqrt()),
    ("exp_of_int", lambda: I32.exp()),
    ("pow", lambda: X ** 2 + Y ** 3 + X.abs() ** 0.5 + (X.abs() + 1) ** -1 + X.abs() ** 1.7),
    ("activations", lambda: torch.relu(X) + torch.nn.functional.gelu(Y) + torch.nn.functional.silu(X)
     + torch.nn.functional.gelu(X, approximate="tanh") + torch.nn.functional.leaky_relu(Y)),
    ("hard_activations", lambda: torch.nn.functional.hardswish(X * 4) + torch.nn.functional.hardsigmoid(Y * 4)),
    ("rounding", lambda: X.floor() + Y.ceil() + (X * 3).round()),
    ("sum_mean", lambda: X.sum(1) + X.mean(1) + X.sum() + X.sum(0, keepdim=True).sum(1)),
    ("amax", lambda: X.amax(1) - X.amin(0).sum()),
    ("var", lambda: X.var(1) + X.var(0, correction=0).sum()),
    ("softmax", lambda: torch.softmax(X, 1) + torch.log_softmax(X, 0)),
    ("layer_norm", lambda: torch.nn.functional.layer_norm(X, (6,), R, R * 0.5)),
    ("matmul", lambda: X @ Y.t() + torch.addmm(R[:4], X, Y.t())),
    ("bmm", lambda: torch.bmm(X.reshape(2, 2, 6), Y.reshape(2, 6, 2))),
    ("views", lambda: X.view(2, 12).t().reshape(3, 8).permute(1, 0).unsqueeze(0).squeeze(0) + 1),
    ("expand", lambda: R.expand(4, 6) * X),
    ("slice_select", lambda: X[1:3, ::2] * 2 + X[0] .sum()),
    ("split_cat", lambda: torch.cat(list(X.split(2, 1)) + [Y], 1) * 2),
    ("cast", lambda: X.to(torch.float16) + 1),
    ("addcmul_lerp", lambda: torch.addcmul(X, Y, R, value=0.5) + torch.lerp(X, Y, 0.3) + torch.lerp(X, Y, 0.7)
     + torch.addcdiv(X, Y, R.abs() + 1, value=2)),
    ("pad", lambda: torch.nn.functional.pad(X, (1, 2), value=0.5) * 2),
    ("full", lambda: torch.full((3, 2), 2.0) + torch.zeros_like(X).sum()),
]


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
def test_op_matches_pytorch(name, fn):
    want = fn()
    got, st = fused(fn)
    same(got, want)
    assert st["aten_ops_kiln"] > 0, st


def test_ops_on_other_dtypes_run_in_pytorch():
    d = torch.randn(3, 4, dtype=torch.float64)
    l64 = torch.arange(12).reshape(3, 4)
    c = torch.randn(3, dtype=torch.complex64)
    for fn in (lambda: d * 2 + 1, lambda: l64 * 2 + 1, lambda: c * 2, lambda: X.to(torch.float64) + 1,
               lambda: B.sum(), lambda: I32.sum()):
        want = fn()
        got, st = fused(fn)
        same(got, want)
        assert st["aten_ops_torch"] > 0, st


def test_strided_sparse_and_quantized_tensors():
    base = torch.randn(8, 8)
    views = [base[::2, 1::3], base.t(), base[:, 2], base.expand(2, 8, 8), base.unsqueeze(1).expand(8, 3, 8)]
    for v in views:
        same(fused(lambda v=v: v * 2 + 1)[0], v * 2 + 1)
    sp = base.to_sparse()
    got, st = fused(lambda: sp * 2)
    assert torch.equal(got.to_dense(), sp.to_dense() * 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # quantized tensors are deprecated
        q = torch.quantize_per_tensor(base, 0.1, 0, torch.qint8)
    got, _ = fused(lambda: q.dequantize() * 2)
    same(got, q.dequantize() * 2)


def test_training_ops_and_their_backward():
    emb = torch.randn(10, 4, requires_grad=True)
    w = torch.randn(4, 5, requires_grad=True)
    idx = torch.tensor([[1, 2, 9], [0, 2, 2]])
    target = torch.tensor([0, 4, -100, 3, 1, 2])

    def step():
        h = torch.nn.functional.embedding(idx, emb)
        h = torch.nn.functional.layer_norm(h, (4,))
        logits = torch.nn.functional.gelu(h @ w).reshape(6, 5)
        loss = torch.nn.functional.cross_entropy(logits, target)
        loss.backward()
        return loss.detach()

    want = step()
    gw, ge = w.grad.clone(), emb.grad.clone()
    w.grad = emb.grad = None
    got, st = fused(step)
    same(got, want)
    same(w.grad, gw, rtol=1e-4, atol=1e-6)
    same(emb.grad, ge, rtol=1e-4, atol=1e-6)
    for op in ("aten.embedding_dense_backward.default", "aten.nll_loss_backward.default",
               "aten.native_layer_norm_backward.default", "aten.gelu_backward.default"):
        assert op not in st["torch_ops"], st["torch_ops"]


def test_hard_activations_backward():
    # Points on and around the kinks at -3 and 3, where PyTorch's branches meet.
    x = torch.cat([torch.tensor([-3.0, 3.0, -3.0001, 2.9999, 0.0]), torch.randn(40, generator=g) * 4])
    dy = torch.randn(45, generator=g)
    for op in (aten.hardswish_backward.default, aten.hardsigmoid_backward.default):
        got, st = fused(lambda op=op: op(dy, x))
        same(got, op(dy, x), rtol=0, atol=0)
        assert st["aten_ops_kiln"] > 0, st


def test_dropout_backward_with_a_given_mask():
    x = torch.randn(5, 7)
    mask = torch.rand(5, 7, generator=torch.Generator().manual_seed(3)) > 0.3
    want = aten.native_dropout_backward(x, mask, 1 / 0.7)
    same(fused(lambda: aten.native_dropout_backward(x, mask, 1 / 0.7))[0], want)


def test_foreach_optimizer_step_is_one_segment():
    params = [torch.randn(5, 3) for _ in range(4)]
    grads = [torch.randn(5, 3) for _ in range(4)]
    bufs = [torch.randn(5, 3) for _ in range(4)]
    want_p = [p.clone() for p in params]
    want_b = [b.clone() for b in bufs]

    def step(ps, bs):
        torch._foreach_mul_(bs, 0.9)
        torch._foreach_add_(bs, grads)
        torch._foreach_add_(ps, bs, alpha=-0.1)
        torch._foreach_addcmul_(ps, grads, grads, value=1e-3)
        torch._foreach_lerp_(ps, grads, 0.25)

    step(want_p, want_b)
    _, st = fused(step, params, bufs)
    for a, b in zip(params + bufs, want_p + want_b):
        same(a, b)
    assert st["aten_ops_torch"] == 0, st
    assert sum(st["flushes"].values()) == 1 and st["flushes"].get("exit") == 1, st


def test_flush_boundaries():
    x = torch.randn(4, 4)
    kt.reset_stats()
    with kt.fusion():
        y = x * 2
        v = y.sum().item()  # host read
        z = y + 1
        n = z.numpy().copy()  # host read outside dispatch
        lst = (z * 3).tolist()
        u = torch.cumsum(z * 1, 0)  # outside the table: flushes what it reads
        w = (u * 2)
        zv = w.view(16)  # a view of a pending tensor
        w.add_(1)  # in-place on a tensor with a view: flushes first
        r = zv * 1
    st = kt.stats()
    assert v == pytest.approx(float((x * 2).sum()), rel=1e-6)
    np.testing.assert_allclose(n, (x * 2 + 1).numpy(), rtol=1e-6)
    np.testing.assert_allclose(np.array(lst), ((x * 2 + 1) * 3).numpy(), rtol=1e-6)
    same(r, (torch.cumsum(x * 2 + 1, 0) * 2 + 1).view(16))
    for reason in ("host_read", "unsupported_op", "inplace", "exit"):
        assert st["flushes"].get(reason, 0) >= 1, (reason, st["flushes"])


def test_autograd_boundaries_and_backward_is_captured():
    x = torch.randn(8, 8, requires_grad=True)
    kt.reset_stats()
    with kt.fusion():
        y = torch.tanh(x * 3).sigmoid().sum()
        y.backward()
    st = kt.stats()
    x2 = x.detach().clone().requires_grad_()
    torch.tanh(x2 * 3).sigmoid().sum().backward()
    same(x.grad, x2.grad)
    assert st["flushes"].get("autograd", 0) >= 1
    assert "aten.tanh_backward.default" not in st["torch_ops"]


def test_mutating_a_tensor_a_pending_segment_reads():
    x = torch.ones(3, 3)
    kt.reset_stats()
    with kt.fusion():
        y = x * 2  # reads x
        x.add_(5)  # x changes: y must keep the old value
        z = x + 0
    same(y, torch.full((3, 3), 2.0))
    same(z, torch.full((3, 3), 6.0))
    assert kt.stats()["flushes"].get("inplace", 0) >= 1


def test_inplace_on_views_and_aliases():
    base = torch.randn(4, 4)
    want = base.clone()
    want[1:3].mul_(2)
    want2 = want.t() + 1
    with kt.fusion():
        b = base * 1
        b[1:3].mul_(2)  # in-place on a view: PyTorch runs it on the flushed storage
        c = b.t() + 1
    same(b, want * 1)
    same(c, want2)


def test_results_are_plain_tensors_and_pytorch_stays_usable_after_a_kiln_error(monkeypatch):
    def broken(self):
        # Records an op the back end cannot compile: the error comes at the flush.
        return _lower.rec("cumsum", [_lower.kv(self)], {"axis": 0})

    monkeypatch.setitem(_lower.TABLE, aten.neg.default, broken)
    x = torch.randn(3, 5)
    with pytest.raises(kt.KilnError, match=r"aten\.neg\.default.*\(3, 5\)"):
        with kt.fusion():
            y = -x
            y.sum().item()
    monkeypatch.undo()
    with kt.fusion():
        z = x * 2
    assert type(z) is torch.Tensor
    same(z, x * 2)
    same(x + 1, x + 1)


def test_dump_as_text_writes_each_segment(tmp_path):
    code = (
        "import torch, kiln.torch as kt\n"
        "x = torch.randn(4, 4)\n"
        "with kt.fusion():\n"
        "    y = (x * 2).exp().sum(1)\n"
        "print(y.shape)\n"
    )
    env = dict(os.environ, KILN_FUSION_FLAGS=f"--dump_as_text --dump_dir={tmp_path}")
    subprocess.run([sys.executable, "-c", code], check=True, env=env, capture_output=True)
    names = sorted(p.name for p in tmp_path.iterdir())
    for suffix in ("hl", "fused", "npuvec"):
        assert any(n.endswith(f".{suffix}.mlir") for n in names), names


def test_supported_ops_are_documented():
    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "frontends", "torch.md")).read()
    missing = []
    for op in kt.supported_ops():
        name = op.split(".")[1]
        packet = name.rstrip("_")
        if f"`{packet}`" not in doc and f"`{name}`" not in doc:
            missing.append(op)
    assert not missing, missing


def test_promotion_matches_torch_result_type():
    vals = [torch.ones(2, dtype=d) for d in (torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int8, torch.bool)]
    zero_dim = [torch.tensor(1, dtype=d) for d in (torch.float32, torch.float16, torch.int32, torch.bool)]
    scalars = [2, 2.5, True]
    s = kt._state.session()
    for a in vals + zero_dim:
        for b in vals + zero_dim + scalars:
            want = torch.result_type(a, b)
            ka = s.tensor(a.numpy().tobytes() if a.dtype != torch.bfloat16 else a.view(torch.int16).numpy().tobytes(),
                          list(a.shape), _lower.KILN_DTYPE[a.dtype])
            kb = b
            if isinstance(b, torch.Tensor):
                raw = b.numpy().tobytes() if b.dtype != torch.bfloat16 else b.view(torch.int16).numpy().tobytes()
                kb = s.tensor(raw, list(b.shape), _lower.KILN_DTYPE[b.dtype])
            assert _lower.result_type(ka, kb) == want, (a.dtype, a.dim(), b)


def test_asarray_copies_once_and_float64_policy():
    import kiln

    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    k = kiln.asarray(a)
    a[0, 0] = 100  # the copy is Kiln's own
    assert kiln.asarray(a.T).numpy().tolist() == a.T.tolist()
    assert k.numpy()[0, 0] == 0
    with pytest.raises(TypeError):
        kiln.asarray(np.zeros(3))
    assert kiln.asarray(np.zeros(3), dtype=np.float32).dtype == np.float32
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kiln.asarray(np.float32(2.0)).shape == ()


def test_other_devices_run_in_pytorch():
    m = torch.empty(3, 4, device="meta")
    got, st = fused(lambda: (m * 2 + 1).exp())
    assert got.device.type == "meta" and got.shape == (3, 4)
    assert st["aten_ops_torch"] >= 3 and st["aten_ops_kiln"] == 0, st
