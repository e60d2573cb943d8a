"""The models of kiln.torch's training checks (python/tests/test_torch_training.py) and of
benches/torch_training.py: a GPT-2-style transformer (Hugging Face's GPT2LMHeadModel from a
config built here) and a ResNet-18 (torchvision's), random init, small inputs, trained for a
few SGD-with-momentum steps under eager PyTorch, ``torch.compile(backend="kiln")`` or
``kiln.torch.fusion()``. Dropout is off (p = 0): its random masks would differ between the
runs, not their arithmetic."""

import contextlib

import torch

import kiln.torch as kt


def gpt2(layers=2, embd=64, heads=4, vocab=256, positions=64):
    import transformers

    cfg = transformers.GPT2Config(
        n_layer=layers, n_embd=embd, n_head=heads, vocab_size=vocab, n_positions=positions,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, bos_token_id=0, eos_token_id=0,
        loss_type="ForCausalLM",
    )
    cfg._attn_implementation = "eager"
    return transformers.GPT2LMHeadModel(cfg)


def gpt2_batch(batch=2, seq=16, vocab=256):
    g = torch.Generator().manual_seed(1)
    return torch.randint(0, vocab, (batch, seq), generator=g)


def gpt2_loss(model, ids):
    return model(input_ids=ids, labels=ids).loss


def resnet18(classes=10):
    import torchvision

    return torchvision.models.resnet18(num_classes=classes)


def resnet_batch(batch=4, size=64, classes=10):
    g = torch.Generator().manual_seed(1)
    return torch.randn(batch, 3, size, size, generator=g), torch.randint(0, classes, (batch,), generator=g)


def resnet_loss(model, batch):
    x, y = batch
    return torch.nn.functional.cross_entropy(model(x), y)


MODELS = {
    "gpt2": (gpt2, gpt2_batch, gpt2_loss),
    "resnet18": (resnet18, resnet_batch, resnet_loss),
}

#: Learning rates. ResNet-18 on 4 images memorizes them fast: at lr 0.01 its third step's
#: gradients change by 3% in eager PyTorch itself when its logits move by 3e-7 (BatchNorm's
#: backward cancels), so no f32 implementation can be compared there; at 0.002 the same
#: perturbation moves them by 6e-6.
LR = {"gpt2": 0.01, "resnet18": 0.002}


def train(name, mode, steps=3, options=None, seed=0, model_args=None, batch_args=None, lr=None):
    """Trains model ``name`` for ``steps`` steps under ``mode`` (``eager``, ``compile`` or
    ``fusion``); returns per step the loss, every parameter's gradient, and kiln.torch's stats
    of the step."""
    build, make_batch, loss_fn = MODELS[name]
    torch.manual_seed(seed)
    model = build(**(model_args or {}))
    model.train()
    batch = make_batch(**(batch_args or {}))
    opt = torch.optim.SGD(model.parameters(), lr=lr or LR[name], momentum=0.9, foreach=True)
    options = dict(options or {})
    run = model
    if mode == "compile":
        torch._dynamo.reset()
        run = torch.compile(model, backend="kiln", options=options)
    steps_out = []
    for _ in range(steps):
        kt.reset_stats()
        ctx = kt.fusion(**options) if mode == "fusion" else contextlib.nullcontext()
        with ctx:
            loss = loss_fn(run, batch)
            loss.backward()
            grads = {n: p.grad.detach().clone() for n, p in model.named_parameters() if p.grad is not None}
            opt.step()
            opt.zero_grad()
        steps_out.append({"loss": loss.item(), "grads": grads, "stats": kt.stats()})
    return steps_out


def max_scaled_error(a, b):
    """``max |a - b| / max |b|`` (0 for two zero tensors)."""
    scale = b.abs().max().item()
    err = (a - b).abs().max().item()
    return err / scale if scale else err
