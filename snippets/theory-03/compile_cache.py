# /// snippet
# devices = ["cpu"]
# timeout = 600
# deps = ["scripts/minigpt"]
# ///
import json
import os
import subprocess
import sys

import torch  # noqa: F401 - the child processes compile with it; the record names its version

# Two fresh processes compile the same function with the same on-disk cache
# (this run's TORCHINDUCTOR_CACHE_DIR). The second finds the first one's work.
# --8<-- [start:program]
PROGRAM = """
import json, torch, torch.nn.functional as F
from minigpt import lm_head
from torch._dynamo.utils import counters
W, b = lm_head()
torch.compile(lambda x: F.linear(x, W, b).softmax(-1))(torch.randn(2, 64))
print(json.dumps({k: v for k, v in counters["inductor"].items() if "cache" in k}))
"""
# --8<-- [end:program]
cache = os.environ["TORCHINDUCTOR_CACHE_DIR"]
# --8<-- [start:two_processes]
for attempt in ("first", "second"):
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True).stdout
    # --8<-- [end:two_processes]
    print(f"{attempt} process:", json.loads(out.strip().splitlines()[-1]))
named = sorted(d for d in os.listdir(cache) if os.path.isdir(os.path.join(cache, d)) and len(d) > 2)
print("named cache folders:", named, "(plus one folder per generated kernel, named by its hash)")
