# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import os
import re

import depyf
import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = lm_head()


def predict(x):
    probs = F.linear(x, W, b).softmax(-1)
    print("best:", probs.argmax(-1))  # a graph break: Dynamo cannot put print in a graph
    return probs.amax(-1)


# --8<-- [start:compile]
# The "eager" backend runs Dynamo's graphs as they are, without compiling them.
compiled = torch.compile(predict, backend="eager")
with depyf.prepare_debug("dump"):  # depyf decompiles the bytecode Dynamo writes into Python files
    compiled(torch.randn(2, 64))
# --8<-- [end:compile]

files = sorted(os.listdir("dump"))
print("depyf wrote:", *files, sep="\n    ")
for name in files:
    if name.startswith("__transformed_code_") or (name.startswith("__compiled_fn_") and "pre_insert" not in name):
        with open(os.path.join("dump", name)) as f:
            print(f"\n=== {name}\n{f.read().strip()}")

# depyf renders the cache lookup as one Python function: check the guards, run the transformed code, else fall back.
with open(os.path.join("dump", "full_code_for_predict_0.py")) as f:
    full = f.read()
print("\n=== full_code_for_predict_0.py, depyf's Python rendering of the lookup")
print(re.search(r"^def transformed_predict\(.*?(?=^#=+ end)", full, re.DOTALL | re.MULTILINE).group(0).strip())
guard = re.search(r"^def __guard_0_for_predict\(.*?^    return __guard_hit$", full, re.DOTALL | re.MULTILINE).group(0)
lines = guard.splitlines()
rendered = [line for line in lines if line.startswith("    __guard_hit = __guard_hit and ")]
print(f"\n=== full_code_for_predict_0.py, the guard function: one line per check, {len(rendered)} lines; the one on x")
print(*(line for line in lines if line.startswith("def ") or "check_tensor(L['x']" in line or "return" in line),
      sep="\n")

# What runs instead: the C frame callback finds the code object's cache entry and walks its guard manager,
# a tree of C++ objects (the same tree TORCH_LOGS="guards" prints).
# --8<-- [start:cache_entry]
(entry,) = torch._dynamo.eval_frame._debug_get_cache_entry_list(predict.__code__)
root = entry.guard_manager.root
# --8<-- [end:cache_entry]
print(f"\n=== what runs: the code object's cache entry ({type(entry).__module__}.{type(entry).__name__}), "
      f"its guard manager a tree of C++ objects from {type(root).__module__}")
leaves = []


# --8<-- [start:walk]
def walk(manager, depth):
    guards = manager.get_leaf_guards()
    leaves.extend(guards)
    names = [type(g).__name__ + (f" ({len(g.verbose_code_parts())} checks)" if len(g.verbose_code_parts()) > 1 else "")
             for g in guards]
    source = manager.get_source() if depth else type(manager).__name__
    print(f"{'  ' * depth}{source}: {', '.join(names) or 'no leaf guard'}")
    for child in manager.get_child_managers():
        walk(child, depth + 1)
# --8<-- [end:walk]


walk(root, 0)
distinct = {id(g): g for g in leaves}.values()
print(f"leaf guards: {len(leaves)}, of which {len(distinct)} distinct objects "
      f"(NO_TENSOR_ALIASING is one guard attached under x, W and b)")
parts = sum(len(g.verbose_code_parts()) for g in distinct)
print(f"checks of the distinct leaf guards: {parts}; lines in depyf's guard function: {len(rendered)}")
# --8<-- [start:check]
for shape in ((2, 64), (3, 64)):
    verdict = entry.guard_manager.check_verbose({"x": torch.randn(*shape)})
    why = "" if verdict.result else f": {verdict.verbose_code_parts[0]}"
    print(f"guards on a {shape} input: {bool(verdict.result)} after {verdict.num_guards_executed} guards{why}")
# --8<-- [end:check]
