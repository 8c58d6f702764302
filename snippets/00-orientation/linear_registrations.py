# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import re

import torch

# --8<-- [start:registrations]
# One line per dispatch key that has a kernel for the operator, and the file
# that registered it (the wheel's build paths shortened to the file name).
for op in ("aten::linear", "aten::addmm"):
    print(op)
    for line in torch._C._dispatch_dump(op).splitlines():
        found = re.match(r"(\S[^:]*): registered at (\S+?):\d+ ", line)
        if found and "fallthrough" not in line:
            key, where = found.groups()
            print(f"  {key:<45} {where.rsplit('/', 1)[-1]}")
# --8<-- [end:registrations]
