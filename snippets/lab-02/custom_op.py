# /// snippet
# devices = ["cpu"]
# timeout = 300
# cells = true
# deps = ["scripts/minigpt"]
# ///
# %% define
import re

import torch
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model, vocab


@torch.library.custom_op("lab02::tempered_head", mutates_args=())
def tempered_head(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor, T: float) -> torch.Tensor:
    """The LM head with a temperature: (x W^T + b) / T."""
    return F.linear(x, W, b) / T


def kernels(name):
    return [k for k in ("CompositeExplicitAutograd", "Meta", "Autograd")
            if torch._C._dispatch_has_kernel_for_dispatch_key(name, k)]


print("kernels right after custom_op:", kernels("lab02::tempered_head"))


@tempered_head.register_fake
def _(x, W, b, T):
    return x.new_empty(x.shape[0], W.shape[0])


def setup_context(ctx, inputs, output):
    x, W, b, T = inputs
    ctx.save_for_backward(x, W)
    ctx.T = T


def backward(ctx, grad):
    x, W = ctx.saved_tensors
    g = grad / ctx.T
    return g @ W, g.T @ x, g.sum(0), None


tempered_head.register_autograd(backward, setup_context=setup_context)
print(torch.ops.lab02.tempered_head.default._schema)

# %% use
words = vocab()
model = load_model()
W, b = lm_head()
with torch.no_grad():
    x = model.hidden(encode("walk : yesterday she"))[:, -1]
for T in (0.5, 1.0, 4.0):
    probs = tempered_head(x, W, b, T).softmax(-1)[0]
    top = probs.topk(3)
    print(f"T={T}: " + ", ".join(f"{words[i]} {p:.3f}" for p, i in zip(top.values.tolist(), top.indices.tolist(),
                                                                         strict=True)))

# %% opcheck
args = (x, W.clone().requires_grad_(), b.clone().requires_grad_(), 2.0)
for test, result in torch.library.opcheck(tempered_head, args).items():
    print(f"{test:<28} {result}")

# %% gradcheck
small = tuple(t.double().requires_grad_() for t in (x, W[:20], b[:20])) + (2.0,)
print("gradcheck:", torch.autograd.gradcheck(tempered_head, small))

# %% compile
graphs = []


def record(gm, example_inputs):
    graphs.append(gm)
    return gm


def predict(x):
    return tempered_head(x, W, b, 0.5).softmax(-1).argmax(-1)


compiled = torch.compile(predict, backend=record, fullgraph=True)
print("prediction:", words[compiled(x).item()], "| graphs captured:", len(graphs))
print(graphs[0].code.strip())
print("with Inductor, same prediction:", torch.equal(torch.compile(predict, fullgraph=True)(x), predict(x)))

# %% mistake
@torch.library.custom_op("lab02::head_without_fake", mutates_args=())
def head_without_fake(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.linear(x, W, b)


print("eager works:", tuple(head_without_fake(x, W, b).shape))
try:
    torch.compile(head_without_fake, fullgraph=True)(x, W, b)
except Exception as error:  # noqa: BLE001 - showing the error is the point
    print(type(error).__name__ + ":", str(error).splitlines()[0])
    print(re.search(r"There was no fake impl.*?to add an fake impl\.", str(error)).group(0))
