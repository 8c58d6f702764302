# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch.utils._python_dispatch import TorchDispatchMode

device = "cuda" if torch.cuda.is_available() else "cpu"
W, b = lm_head(device)
x = torch.randn(2, 64, device=device)


class Dtypes(TorchDispatchMode):
    # --8<-- [start:mode]
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        print(f"  {func.name():<20} -> {str(out.dtype).replace('torch.', '')}")
    # --8<-- [end:mode]
        return out


# --8<-- [start:dtypes]
with Dtypes(), torch.autocast(device, dtype=torch.bfloat16):
    logp = F.log_softmax(F.linear(x, W, b), dim=-1)
# --8<-- [end:dtypes]
print("result:", logp.dtype)
