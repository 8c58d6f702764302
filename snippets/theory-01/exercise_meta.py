# /// snippet
# devices = ["cpu"]
# timeout = 60
# ///
import torch
import torch.nn.functional as F

# A batch of 4096 hidden states, without a single byte of data.
# --8<-- [start:meta]
x = torch.empty(4096, 64, device="meta")
W = torch.empty(600, 64, device="meta")
b = torch.empty(600, device="meta")
y = F.linear(x, W, b)
# --8<-- [end:meta]
print("output:", y.shape, y.dtype, y.device, "| bytes it would need:", y.numel() * y.element_size())
print("keys:", torch._C._dispatch_keys(x))
entry = [line for line in torch._C._dispatch_dump_table("aten::addmm").splitlines() if line.startswith("Meta:")]
print("aten::addmm's Meta entry:", entry[0].split("registered at ")[1].split("site-packages/")[-1])
