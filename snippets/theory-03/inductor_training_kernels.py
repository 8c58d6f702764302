# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 300
# artifacts = ["forward.py", "backward.py"]
# deps = ["scripts/minigpt"]
# ///
import re

import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch._inductor.utils import run_and_get_code

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head(device))
x = torch.randn(4, 64, device=device)
target = torch.tensor([3, 7, 11, 13], device=device)


# --8<-- [start:step]
def loss_fn(x, target):
    return F.cross_entropy(F.linear(x, W, b), target)


compiled = torch.compile(loss_fn)
loss, (forward,) = run_and_get_code(compiled, x, target)
_, (backward,) = run_and_get_code(loss.backward)
# --8<-- [end:step]
for name, code in (("forward", forward), ("backward", backward)):
    with open(f"{name}.py", "w") as f:
        f.write(code)
    kernels = re.findall(r"^(\w+) = async_compile\.(\w+)\(", code, re.MULTILINE)
    calls = sorted(set(re.findall(r"extern_kernels\.(\w+)", code)))
    print(f"{name}: {len(code.splitlines())} lines, generated kernels {[k for k, _ in kernels]}, library calls {calls}")
    for source in re.findall(r"# Topologically Sorted Source Nodes: (\[.*?\])", code)[:6]:
        print("    fused from:", source[:110])
