# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
import re

import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch._dynamo.eval_frame import _debug_get_cache_entry_list
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)
W, b = lm_head()


# --8<-- [start:head]
def head(x):
    return F.linear(x, W, b).softmax(-1)
# --8<-- [end:head]


def signature(gm):
    return re.search(r"def forward\(self, (.*)\):", gm.print_readable(print_output=False)).group(1)


said = set()


def guards_on_x(fn):
    """The guards of each compiled version of fn (oldest first) that read the input x."""
    for i, entry in enumerate(reversed(_debug_get_cache_entry_list(fn)), start=1):
        for line in str(entry.guard_manager).splitlines():
            if "TENSOR_MATCH" in line and "L['x']" in line:
                print(f"    graph {i}: TENSOR_MATCH ...", re.search(r"size=\[.*?\], stride=\[.*?\]", line).group(0))
            elif "LAMBDA_GUARD" in line and "L['x']" in line:
                print(f"    graph {i}: LAMBDA_GUARD", line.split("LAMBDA_GUARD: ")[1].split("  #")[0])
                why = re.search(r"\((user code shown is first use.*?dim\))\)", line)
                if why and why.group(1) not in said:
                    print("      its comment says:", why.group(1))
                    said.add(why.group(1))


# 1. Automatic dynamic: a backend that only records the graphs Dynamo hands it (no Inductor here).
graphs = []


# --8<-- [start:automatic]
def record(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


compiled = torch.compile(head, backend=record)
for batch in (2, 3, 4, 1):
    before = len(graphs)
    compiled(torch.randn(batch, 64))
    # --8<-- [end:automatic]
    if len(graphs) > before:
        print(f"batch {batch}: new graph {len(graphs)} | {signature(graphs[-1])}")
    else:
        print(f"batch {batch}: no new graph")
print("guards on x:")
guards_on_x(head)


# 2. mark_dynamic: dynamic from the first call, with a declared range, through Inductor.
def head_marked(x):
    return F.linear(x, W, b).softmax(-1)


torch._dynamo.reset()
graphs.clear()
# --8<-- [start:mark_dynamic]
x = torch.randn(3, 64)
torch._dynamo.mark_dynamic(x, 0, min=2, max=64)
compiled = torch.compile(head_marked)
_, (code,) = run_and_get_code(compiled, x)
# --8<-- [end:mark_dynamic]
print("\nmark_dynamic(x, 0, min=2, max=64), first call with batch 3:")
guards_on_x(head_marked)
unique = torch._dynamo.utils.counters["stats"]["unique_graphs"]
# --8<-- [start:batch5]
compiled(torch.randn(5, 64))
# --8<-- [end:batch5]
print("batch 5 then runs the same graph:", torch._dynamo.utils.counters["stats"]["unique_graphs"] == unique)
print("the generated module, every line with a symbolic size:")
for line in code.splitlines():
    if re.search(r"\b(ks0|s77)\b", line):
        print("    " + line.strip()[:110])
