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


# The "eager" backend runs Dynamo's graphs as they are, without compiling them.
compiled = torch.compile(predict, backend="eager")
with depyf.prepare_debug("dump"):  # depyf decompiles the bytecode Dynamo writes into Python files
    compiled(torch.randn(2, 64))

files = sorted(os.listdir("dump"))
print("depyf wrote:", *files, sep="\n    ")
for name in files:
    if name.startswith("__transformed_code_") or (name.startswith("__compiled_fn_") and "pre_insert" not in name):
        with open(os.path.join("dump", name)) as f:
            print(f"\n=== {name}\n{f.read().strip()}")

# The function that runs on every call: check the guards, then run the transformed code, else fall back.
with open(os.path.join("dump", "full_code_for_predict_0.py")) as f:
    full = f.read()
print("\n=== full_code_for_predict_0.py, the entry point")
print(re.search(r"^def transformed_predict\(.*?(?=^#=+ end)", full, re.DOTALL | re.MULTILINE).group(0).strip())
guard = re.search(r"^def __guard_0_for_predict\(.*?^    return __guard_hit$", full, re.DOTALL | re.MULTILINE).group(0)
lines = guard.splitlines()
print(f"\n=== full_code_for_predict_0.py, the guard function: {len(lines) - 3} checks; the one on x's shape")
print(*(line for line in lines if line.startswith("def ") or "check_tensor(L['x']" in line or "return" in line),
      sep="\n")
