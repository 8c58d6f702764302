# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# artifacts = ["dispatch_path.mmd"]
# ///
import re

import torch

C = torch._C
device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.randn(2, 64, device=device)
W = torch.randn(600, 64, device=device, requires_grad=True)
b = torch.randn(600, device=device, requires_grad=True)

keys = C._dispatch_keys(x) | C._dispatch_keys(W) | C._dispatch_keys(b) | C._dispatch_tls_local_include_set()
keys = keys - C._dispatch_tls_local_exclude_set()


def table(op):
    """The operator's computed dispatch table: key -> (kind of entry, file that registered it)."""
    rows = {}
    for line in C._dispatch_dump_table(op).splitlines():
        key, _, entry = line.partition(": ")
        kind = re.search(r"\[(.*?)\]", entry)
        where = re.search(r"registered at (\S+?):\d+", entry)
        rows[key] = ("fallthrough" if entry.startswith("fallthrough") else kind.group(1) if kind else entry,
                     where.group(1).rsplit("/", 1)[-1] if where else "")
    return rows


# --8<-- [start:walk]
def walk(op, keys):
# --8<-- [end:walk]
    """Follow one call down its key set, as the dispatcher does: take the highest
    key; a fallthrough passes the call on; a kernel runs, and an autograd or view
    kernel redispatches with only the keys below its own."""
    # --8<-- [start:loop]
    rows, path = table(op), []
    while True:
        key = keys.highestPriorityTypeId()
        name = C._dispatch_key_name(key)
        kind, where = rows.get(name, ("no kernel", ""))
        path.append((name, kind, where))
        if kind not in ("fallthrough", "autograd kernel", "kernel") or name in ("CPU", "CUDA", "Meta"):
            return path  # a backend kernel does the work; a math kernel decomposes the op
        keys = keys & C._dispatch_keyset_full_after(key)
    # --8<-- [end:loop]


print("call key set:", keys)
lines = ["flowchart LR"]
for op in ("aten::linear", "aten::t", "aten::addmm"):
    path = walk(op, keys)
    print(f"\n{op}")
    for name, kind, where in path:
        print(f"  {name:<16} {kind:<22} {where}")
    ident = op.split("::")[1]
    nodes = [f'{ident}_{i}["{name}<br/>{kind}"]' for i, (name, kind, _) in enumerate(path)]
    lines.append(f'  {ident}(["{op}"]) --> ' + " --> ".join(nodes))
last = f"linear_{len(walk('aten::linear', keys)) - 1}"
lines.append(f'  {last} -. "calls" .-> t')
lines.append(f'  {last} -. "calls" .-> addmm')
with open("dispatch_path.mmd", "w") as f:
    f.write("\n".join(lines) + "\n")
