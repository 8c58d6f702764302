# /// snippet
# devices = ["cpu"]
# timeout = 120
# cells = true
# deps = ["scripts/minigpt"]
# ///
# %% setup
import torch
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model, vocab

torch.manual_seed(0)
words = vocab()
model = load_model()
W, b = (t.clone().requires_grad_() for t in lm_head())  # the trained head: W 600x64, b 600
prompts = ["walk : yesterday she", "eat : now they are", "comer : ayer nosotros", "vivir : mañana tú"]
answers = ["walked", "eating", "comimos", "vivirás"]
with torch.no_grad():
    x = torch.cat([model.hidden(encode(p))[:, -1] for p in prompts])  # 4 hidden states, 64 numbers each
x.requires_grad_()
target = torch.tensor([words.index(a) for a in answers])
print("x", tuple(x.shape), "| W", tuple(W.shape), "| b", tuple(b.shape), "| targets", answers)

# %% forward
y = F.linear(x, W, b)  # scores, 4 x 600
loss = F.cross_entropy(y, target)  # mean over the 4 rows of -log softmax(y)[target]
print(f"loss {loss.item():.4f}")
print("predicted:", [words[i] for i in y.argmax(-1).tolist()])
print("loss.grad_fn:", loss.grad_fn.name())

# %% derive
# By hand, with N = 4 rows, one node at a time from the loss down (p = softmax(y)):
#   loss = -mean of logp[row, target]   =>  dL/dlogp = -onehot(target) / N
#   logp = log_softmax(y)               =>  dL/dy = g - p * (sum of g over the row), g = dL/dlogp
#   y = x W^T + b  =>  dL/dx = dL/dy W,   dL/dW = (dL/dy)^T x,   dL/db = sum of dL/dy over rows
with torch.no_grad():
    N = y.shape[0]
    p = y.softmax(-1)
    dlogp = -F.one_hot(target, 600).float() / N
    dy = dlogp - p * dlogp.sum(-1, keepdim=True)
    dx, dW, db = dy @ W, dy.T @ x, dy.sum(0)
print("dL/dlogp", tuple(dlogp.shape), "| dL/dy", tuple(dy.shape), "| dL/dx", tuple(dx.shape),
      "| dL/dW", tuple(dW.shape), "| dL/db", tuple(db.shape))
print("dL/dy is (p - onehot) / N, the usual shortcut:",
      torch.allclose(dy, (p - F.one_hot(target, 600).float()) / N, atol=1e-6))

# %% compare
loss.backward(retain_graph=True)  # keep the saved tensors: the next cell walks the graph by hand
for name, mine, theirs in (("x", dx, x.grad), ("W", dW, W.grad), ("b", db, b.grad)):
    err = (mine - theirs).abs().max().item()
    # The exact error depends on the order of sums inside the libraries: print the bound, not the digits.
    print(f"dL/d{name}: allclose {torch.allclose(mine, theirs, atol=1e-6)}, "
          f"largest absolute error < 1e-6: {err < 1e-6}")

# %% walk
# Each node is callable: give it the gradient of its output, get those of its inputs
# (a tuple, in next_functions order; a single tensor when there is one input).
def call(node, grad):
    out = node(grad)
    return out if isinstance(out, tuple) else (out,)


def check(node, what, mine, theirs):
    print(f"{node.name():<20} -> {what:<10} {tuple(theirs.shape)!s:<10} equals ours within 1e-6: "
          f"{torch.allclose(theirs, mine, atol=1e-6)}")


nll = loss.grad_fn
(g_logp,) = call(nll, torch.ones(()))  # dL/dL = 1
check(nll, "dL/dlogp", dlogp, g_logp)
log_softmax = nll.next_functions[0][0]
(g_y,) = call(log_softmax, g_logp)
check(log_softmax, "dL/dy", dy, g_y)
addmm = log_softmax.next_functions[0][0]
g_bias, g_x, g_wt = call(addmm, g_y)
print("  its inputs, in next_functions order:", [f[0].name().split("::")[-1] for f in addmm.next_functions])
print("  the gradients it returns, in that order:", [tuple(g.shape) for g in (g_bias, g_x, g_wt)])
check(addmm, "dL/dx", dx, g_x)
check(addmm, "dL/d(W.T)", dW.T, g_wt)
print("  the first, summed over its rows, is our dL/db:", torch.allclose(g_bias.sum(0), db, atol=1e-6))
t_node = addmm.next_functions[2][0]
(g_w,) = call(t_node, g_wt)
check(t_node, "dL/dW", dW, g_w)

# %% gradcheck
# Finite differences against the analytic backward, in float64 on a slice of the head.
inputs = (x.detach()[:2].double().requires_grad_(), W.detach()[:50].double().requires_grad_(),
          b.detach()[:50].double().requires_grad_())
ok = torch.autograd.gradcheck(lambda x, W, b: F.cross_entropy(F.linear(x, W, b), target[:2] % 50), inputs)
print("gradcheck:", ok)
