# /// snippet
# devices = ["cpu"]
# timeout = 600
# env = { TORCH_TRACE = "trace" }
# publish = ["tlparse/*"]
# deps = ["scripts/minigpt"]
# ///
import os
import re
import shutil
import subprocess
import sys

import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())


# --8<-- [start:compile]
def loss_fn(x, target):
    return F.cross_entropy(F.linear(x, W, b), target)


compiled = torch.compile(loss_fn)
for batch in (4, 8):  # the second size triggers a recompilation, which the report shows too
    compiled(torch.randn(batch, 64), torch.arange(batch)).backward()
# --8<-- [end:compile]

# TORCH_TRACE wrote a structured log of every compile step; tlparse turns it
# into a browsable report. The raw logs and the timing trace stay out of the site.
# --8<-- [start:tlparse]
tlparse = shutil.which("tlparse") or os.path.join(os.path.dirname(sys.executable), "tlparse")
logs = [os.path.join("trace", name) for name in sorted(os.listdir("trace"))]
subprocess.run([tlparse, *logs, "-o", "tlparse", "--overwrite", "--no-browser"], check=True,
               capture_output=True, text=True)
# --8<-- [end:tlparse]
for name in ("raw.log", "raw.jsonl", "chromium_events.json", "payloads"):
    path = os.path.join("tlparse", name)
    shutil.rmtree(path) if os.path.isdir(path) else os.path.exists(path) and os.remove(path)
# Every link of the published report must lead somewhere: tlparse 0.4.3 links a frame's pages from inside the
# frame's folder as if from the top ("-_0_0_0/x.txt" from "-_0_0_0/"), and links files it did not write or
# that stay out of the site (the timing trace, the collectives report): those links become plain text.
for folder, _, names in os.walk("tlparse"):
    for name in (n for n in names if n.endswith(".html")):
        path = os.path.join(folder, name)
        with open(path) as f:
            page = f.read()
        frame = os.path.relpath(folder, "tlparse")
        if frame != ".":
            page = page.replace(f'href="{frame}/', 'href="')
        for gone in ("chromium_events.json", "collectives_parity.json"):
            page = re.sub(rf"<a href=['\"]{re.escape(gone)}['\"]>(.*?)</a>", r"\1", page)
        with open(path, "w") as f:
            f.write(page)

frames = sorted(d for d in os.listdir("tlparse") if os.path.isdir(os.path.join("tlparse", d)))
print("compilations in the report:", frames)
for frame in frames:
    files = os.listdir(os.path.join("tlparse", frame))
    kinds = sorted({f.rsplit("_", 1)[0] for f in files if not f.startswith("inductor_output_code")})
    code = sum(f.startswith("inductor_output_code") for f in files)  # named by a hash of the code
    print(f"  {frame}: {', '.join(kinds)}, and {code} inductor_output_code pages")
