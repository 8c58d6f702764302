# /// snippet
# devices = ["cpu"]
# timeout = 300
# expect_error = { type = "TorchRuntimeError", match = "There was no fake impl registered" }
# ///
import torch
import torch.nn.functional as F


# --8<-- [start:mistake]
# The typical mistake: an operator with no fake kernel. Eager mode works...
@torch.library.custom_op("phase25::head_without_fake", mutates_args=())
def head_without_fake(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.linear(x, W, b)


x, W, b = torch.randn(2, 64), torch.randn(600, 64), torch.randn(600)
print("eager:", head_without_fake(x, W, b).shape)

# ...but the compiler traces with fake tensors, which have no data to run it on.
torch.compile(head_without_fake, fullgraph=True)(x, W, b)
# --8<-- [end:mistake]
