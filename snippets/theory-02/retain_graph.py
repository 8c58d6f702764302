# /// snippet
# devices = ["cpu"]
# timeout = 60
# expect_error = { type = "RuntimeError", match = "Trying to backward through the graph a second time" }
# ///
import torch
import torch.nn.functional as F

W = torch.randn(600, 64, requires_grad=True)
x = torch.randn(2, 64)

# --8<-- [start:passes]
loss = F.linear(x, W).logsumexp(-1).sum()
loss.backward(retain_graph=True)  # keep the saved tensors for another pass
one_pass = W.grad.clone()
loss.backward()  # the second pass frees them
print("W.grad after two passes equals 2 x one pass:", torch.allclose(W.grad, 2 * one_pass))
loss.backward()  # nothing saved is left
# --8<-- [end:passes]
