# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
from collections import Counter

import torch
import torch.nn.functional as F
from functorch.compile import make_boxed_func
from minigpt import encode, lm_head, load_model, vocab
from torch._dynamo.backends.common import aot_autograd


@torch.library.custom_op("phase25::tempered_head", mutates_args=())
def tempered_head(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor, T: float) -> torch.Tensor:
    return F.linear(x, W, b) / T


@tempered_head.register_fake
def _(x, W, b, T):
    return x.new_empty(x.shape[0], W.shape[0])


def setup_context(ctx, inputs, output):
    x, W, b, T = inputs
    ctx.save_for_backward(x, W)
    ctx.T = T


# --8<-- [start:formula]
def backward(ctx, grad):
    x, W = ctx.saved_tensors
    g = grad / ctx.T
    return g @ W, g.T @ x, g.sum(0), None
# --8<-- [end:formula]


tempered_head.register_autograd(backward, setup_context=setup_context)

# A backend that prints the forward and backward graphs AOTAutograd hands to a compiler,
# then runs them as they are (no Inductor here: what you see is AOTAutograd's work).
graphs, compiles = {}, Counter()


def keep(kind):
    def compiler(gm, example_inputs):
        graphs[kind] = gm
        compiles[kind] += 1
        return make_boxed_func(gm.forward)
    return compiler


# --8<-- [start:backend]
backend = aot_autograd(fw_compiler=keep("forward"), bw_compiler=keep("backward"))
# --8<-- [end:backend]

# Fine-tune the head on four prompts: x holds their last hidden states (data, no gradient).
model = load_model()
prompts = ["walk : yesterday she", "eat : now they are", "comer : ayer nosotros", "vivir : mañana tú"]
with torch.no_grad():
    x = torch.cat([model.hidden(encode(p))[:, -1] for p in prompts])
target = torch.tensor([vocab().index(w) for w in ("walked", "eating", "comimos", "vivirás")])


def train(step_fn):
    W, b = (t.clone().requires_grad_() for t in lm_head())
    opt = torch.optim.SGD([W, b], lr=0.5)
    losses = []
    for _ in range(3):
        loss = step_fn(x, W, b, target)
        loss.backward()  # runs the compiled backward graph when step_fn is compiled
        opt.step()
        opt.zero_grad()
        losses.append(loss.item())
    return W, losses


def loss_fn(x, W, b, target):
    return F.cross_entropy(tempered_head(x, W, b, 2.0), target)


W_eager, losses = train(loss_fn)
# --8<-- [start:step]
W_compiled, compiled_losses = train(torch.compile(loss_fn, backend=backend, fullgraph=True))
# --8<-- [end:step]
for kind, gm in graphs.items():
    print(f"{kind} graph:")
    print(gm.code.strip())
print("\ncompiled for 3 steps:", dict(compiles), "| the loss goes down:",
      compiled_losses == sorted(compiled_losses, reverse=True))
print("same weights as eager after 3 steps, within 1e-6:", torch.allclose(W_compiled, W_eager, atol=1e-6))
