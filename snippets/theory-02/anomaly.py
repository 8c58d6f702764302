# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# expect_error = { type = "RuntimeError", match = "Function 'LogBackward0' returned nan values in its 0th output" }
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(2, 64)


# --8<-- [start:naive]
def entropy(T):
    """Entropy of the head's distribution at temperature T, written the naive way."""
    probs = (F.linear(x, W, b) / T).softmax(-1)
    return -(probs * probs.log()).sum(-1)
# --8<-- [end:naive]


print("T=1.0:  entropy is nan", entropy(1.0).isnan().tolist())
# --8<-- [start:silent]
h = entropy(0.05)  # a low temperature: probabilities underflow to exactly 0, and 0 * log(0) is nan
with torch.no_grad():
    zeros = ((F.linear(x, W, b) / 0.05).softmax(-1) == 0).any(-1)
print("T=0.05: entropy is nan", h.isnan().tolist(), "| some probabilities are exactly 0:", zeros.tolist())
h.sum().backward()  # no error: the nan just flows into the gradients
# --8<-- [end:silent]
print("        W.grad has nan:", W.grad.isnan().any().item())


# --8<-- [start:fixed]
def entropy_fixed(T):
    """The same entropy from log_softmax, which stays finite where softmax underflows."""
    logp = (F.linear(x, W, b) / T).log_softmax(-1)
    return -(logp.exp() * logp).sum(-1)
# --8<-- [end:fixed]


W.grad = None
h = entropy_fixed(0.05)
h.sum().backward()
print("fixed:  entropy is nan", h.isnan().tolist(), "| W.grad has nan:", W.grad.isnan().any().item())

# --8<-- [start:anomaly]
# Anomaly mode checks every node's output during backward and names the forward line that made it.
W.grad = None
with torch.autograd.detect_anomaly():
    h = entropy(0.05)
    h.sum().backward()
# --8<-- [end:anomaly]
