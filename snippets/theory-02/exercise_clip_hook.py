# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(2, 64, requires_grad=True)
loss = F.cross_entropy(F.linear(x, W, b), torch.tensor([3, 7]))
events, seen = [], {}


# --8<-- [start:hook]
def clip_to_norm_1(grad):
    seen["before"] = grad.clone()
    events.append(f"clip hook on W: norm in {grad.norm():.4f}")
    return grad * min(1.0, 1.0 / grad.norm().item())  # the returned tensor replaces the gradient
# --8<-- [end:hook]


# --8<-- [start:register]
W.register_hook(clip_to_norm_1)
# --8<-- [end:register]
t_node = loss.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[2][0]  # TBackward0
accumulate = t_node.next_functions[0][0]  # W's AccumulateGrad
t_node.register_hook(lambda grad_in, grad_out: events.append("leave TBackward0"))
accumulate.register_prehook(lambda grad_out: events.append(
    f"enter AccumulateGrad of W: norm in {grad_out[0].norm():.4f}"))
loss.backward()
print("\n".join(events))
print("W.grad norm is 1 within 1e-6:", abs(W.grad.norm().item() - 1) < 1e-6)
print("same direction as the unclipped gradient:",
      torch.allclose(W.grad, seen["before"] / seen["before"].norm(), atol=1e-6))
