# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
import os
import subprocess
import sys
import warnings
import zipfile

import torch
from minigpt import lm_head
from torch.export import Dim, export

warnings.filterwarnings("ignore", message=".*LeafSpec", category=FutureWarning)  # torch's own deprecation notice
torch.manual_seed(0)
W, b = lm_head()
head = torch.nn.Linear(64, 600)
with torch.no_grad():
    head.weight.copy_(W)
    head.bias.copy_(b)
# --8<-- [start:package]
ep = export(head, (torch.randn(2, 64),), dynamic_shapes={"input": {0: Dim("batch", min=1, max=64)}})

# AOTInductor: Inductor's code with a C++ wrapper instead of a Python one, compiled into a shared library.
path = torch._inductor.aoti_compile_and_package(ep, package_path="head.pt2")
# --8<-- [end:package]
with zipfile.ZipFile(path) as package:
    names = package.namelist()
    wrapper = package.read(next(n for n in names if n.endswith(".wrapper.cpp"))).decode()
model = [n.split("/")[-1].split(".", 1)[1] for n in names if "/aotinductor/model/" in n]
print(f"{path}: {len(names)} files; the model's: {', '.join(sorted(model))}")
print("weights compiled into the .so:", torch._inductor.config.aot_inductor.package_constants_in_so)
print("what the C++ wrapper runs for the linear layer, and when it checks its input:")
for line in wrapper.splitlines():
    if "aoti_torch_cpu_" in line or ("_check_aoti_runtime_check_inputs_env()" in line and "if (" in line):
        print("    " + line.strip()[:112])

# --8<-- [start:load]
runner = torch._inductor.aoti_load_package(path)  # no Dynamo, no guards: a call goes straight into the .so
print(f"loaded: {type(runner).__name__}")
for batch in (5, 65):
    x = torch.randn(batch, 64)
    out = runner(x)
    # --8<-- [end:load]
    print(f"batch {batch}: output {tuple(out.shape)}, same as eager: {torch.allclose(out, head(x), atol=1e-5)}")

# The same package in another process, with the wrapper's input checks switched on.
check = f"""
import torch
runner = torch._inductor.aoti_load_package({path!r})
try:
    runner(torch.randn(65, 64))
except RuntimeError as error:
    print("batch 65 with AOTI_RUNTIME_CHECK_INPUTS=1:", type(error).__name__ + ":", str(error).strip())
"""
# --8<-- [start:check_inputs]
result = subprocess.run([sys.executable, "-c", check], env={**os.environ, "AOTI_RUNTIME_CHECK_INPUTS": "1"},
                        capture_output=True, text=True, check=True)
# --8<-- [end:check_inputs]
print(result.stdout.strip())
