# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import re

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
backend = "CUDA" if device == "cuda" else "CPU"
KEYS = [f"Autocast{backend}", f"Autograd{backend}", "ADInplaceOrView", "BackendSelect", backend, "Meta",
        # the two keys a nested tensor (a batch of rows of different lengths) dispatches on
        "AutogradNestedTensor", f"NestedTensor{backend}"]

# The computed table: for each key, which kernel a call that reaches it runs.
# --8<-- [start:table]
for op in ("aten::linear", "aten::t", "aten::addmm"):
    print(op)
    rows = dict(line.split(": ", 1) for line in torch._C._dispatch_dump_table(op).splitlines() if ": " in line)
# --8<-- [end:table]
    for key in KEYS:
        entry = rows.get(key, "no kernel")
        kind = re.search(r"\[(.*?)\]", entry)
        source = re.search(r"registered at (\S+?):\d+", entry)
        where = source.group(1).rsplit("/", 1)[-1] if source else ""
        fall = "fallthrough " if entry.startswith("fallthrough") else ""
        print(f"  {key:<20} {fall + (kind.group(1) if kind else entry):<32} {where}".rstrip())
