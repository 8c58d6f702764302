# /// snippet
# devices = ["cpu"]
# timeout = 240
# deps = ["scripts/minigpt"]
# ///
import os
import subprocess
import sys
import tempfile

import torch
from minigpt import lm_head
from torch import nn

torch.manual_seed(0)
head = nn.Linear(64, 600)
W, b = lm_head()
with torch.no_grad():
    head.weight.copy_(W)
    head.bias.copy_(b)
x = torch.randn(4, 64)
folder = tempfile.mkdtemp()
artifact, cache = os.path.join(folder, "head.py"), os.path.join(folder, "head.cache")

# --8<-- [start:capture]
with torch.compiler.precompile.capture(lambda model, x: model(x).softmax(-1), artifact_path=artifact,
                                       cache_path=cache) as captured:
    eager = captured(head, x)
# --8<-- [end:capture]
source = open(artifact).read().splitlines()
print(f"artifact: {os.path.basename(artifact)}, Python source; cache beside it: {os.path.basename(cache)}")
print("its sections:")
for above, title, below in zip(source, source[1:], source[2:], strict=False):
    if above.startswith("# ====") and below.startswith("# ====") and not title.startswith("# ===="):
        print("  ", title[2:])
start = source.index("    def call(self, args):")
print("-- Inductor's call(), as the artifact holds it:")
print("\n".join(source[start : source.index("        return (buf4, )", start) + 1]))
print("-- the calling convention, as constants:")
print("\n".join(line for line in source if line.split(" = ")[0] in ("BACKEND", "PARAM_NAMES", "USER_INPUT_SHAPES")))
# --8<-- [start:load]
# Reload in a fresh process, as a deployment would: nothing of this process's compile state is there.
check = f"""
import torch, torch.nn as nn
torch.manual_seed(1)
head = nn.Linear(64, 600)
head.load_state_dict(torch.load({os.path.join(folder, "head.pt")!r}))
run = torch.compiler.precompile.load({artifact!r}, {cache!r})
x = torch.load({os.path.join(folder, "x.pt")!r})
print("fresh process: loaded", type(run).__name__, "| max |difference| from eager:",
      (run(head, x) - torch.load({os.path.join(folder, "eager.pt")!r})).abs().max().item())
try:
    run(head, torch.randn(5, 64))
except Exception as error:
    print("a batch of 5:", type(error).__name__, "-", str(error).splitlines()[0][:110])
"""
# --8<-- [end:load]
torch.save(head.state_dict(), os.path.join(folder, "head.pt"))
torch.save(x, os.path.join(folder, "x.pt"))
torch.save(eager.detach(), os.path.join(folder, "eager.pt"))
done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=False)
print(done.stdout, end="")
print(done.stderr[-800:] if done.returncode else "", end="")
