# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 300
# env = { TORCH_LOGS = "output_code", TORCH_LOGS_FORMAT = "%(message)s" }
# deps = ["scripts/minigpt"]
# ///
import re

import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch._inductor.utils import run_and_get_code

device = "cuda" if torch.cuda.is_available() else "cpu"
W, b = lm_head(device)


# --8<-- [start:compile]
def head(x):
    return F.linear(x, W, b).softmax(-1)


_, (code,) = run_and_get_code(torch.compile(head), torch.randn(2, 64, device=device))
# --8<-- [end:compile]
QUOTES = "'" * 3
name, kernel = re.findall(rf"(\w+) = async_compile\.\w+\((?:'\w+', )?.*?r?{QUOTES}(.*?){QUOTES}", code, re.DOTALL)[0]
call = [line.strip() for line in code.splitlines() if "extern_kernels." in line or re.match(rf"\s*{name}\w*\(", line)]
print(f"generated kernel {name} ({'Triton' if device == 'cuda' else 'C++'}), line by line:")
for number, line in enumerate(kernel.strip("\n").splitlines(), start=1):
    print(f"{number:3d} | {line}")
print("\nhow the module calls it:")
for line in call:
    print("    " + line[:110])
