# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 300
# artifacts = ["output_code.py"]
# ///
import re

import torch
import torch.nn.functional as F
from torch._inductor.utils import run_and_get_code

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
W = torch.randn(600, 64, device=device)
b = torch.randn(600, device=device)
x = torch.randn(2, 64, device=device)


# --8<-- [start:compile]
def head(x):
    return F.linear(x, W, b).softmax(dim=-1)


compiled = torch.compile(head)
out, (code,) = run_and_get_code(compiled, x)
torch.testing.assert_close(out, head(x))
# --8<-- [end:compile]

with open("output_code.py", "w") as f:
    f.write(code)

# The generated kernels are the string literals handed to async_compile: C++
# on a CPU, Triton on a GPU. Everything else in the module is glue.
QUOTES = "'" * 3
kernels = re.findall(rf"(\w+) = async_compile\.\w+\((?:'\w+', )?.*?r?{QUOTES}(.*?){QUOTES}", code, re.DOTALL)
print(f"Inductor wrote a {len(code.splitlines())}-line module for {device}.")
print("Library calls:", sorted(set(re.findall(r"extern_kernels\.(\w+)", code))))

# --8<-- [start:settings]
# Why the matrix multiply is a library call: in the default mode Inductor does
# not autotune matrix multiplies, so the ATen kernel is its only candidate.
config = torch._inductor.config
print("\nInductor's matrix-multiply settings in the default mode:")
for name in ("max_autotune", "max_autotune_gemm", "max_autotune_gemm_backends"):
    print(f"  {name} = {getattr(config, name)!r}")
print('mode="max-autotune" sets:', torch._inductor.list_mode_options("max-autotune"))
# --8<-- [end:settings]
for name, source in kernels:
    print(f"\n--- generated kernel {name} ---")
    print(source.strip())
