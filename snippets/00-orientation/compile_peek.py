# /// snippet
# title = "What Inductor writes for the LM head followed by softmax"
# devices = ["cpu", "cuda"]
# timeout = 300
# artifacts = ["output_code.py"]
# ///
import torch
import torch.nn.functional as F
from torch._inductor.utils import run_and_get_code

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
W = torch.randn(600, 64, device=device)
b = torch.randn(600, device=device)
x = torch.randn(2, 64, device=device)


def head(x):
    return F.linear(x, W, b).softmax(dim=-1)


compiled = torch.compile(head)
out, (code,) = run_and_get_code(compiled, x)
torch.testing.assert_close(out, head(x))

with open("output_code.py", "w") as f:
    f.write(code)
lines = code.splitlines()
print(f"Inductor wrote a {len(lines)}-line module for {device}; its kernels and calls:")
for line in lines:
    if any(k in line for k in ("def triton_", "cpp_fused", "extern_kernels.", "@triton.jit")):
        print("  " + line.strip()[:110])
