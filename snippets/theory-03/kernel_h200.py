# /// snippet
# devices = ["sm90-codegen"]
# timeout = 300
# deps = ["scripts/minigpt", "scripts/emulated_h200"]
# env = { TRITON_DISABLE_LINE_INFO = "1" }
# artifacts = ["output_code.py"]
# ///
from collections import Counter

import emulated_h200
import torch
import torch.nn.functional as F
from minigpt import lm_head

# --8<-- [start:h200]
with emulated_h200.session() as h200:  # an H200 that answers torch.compile's questions and runs nothing
    W, b = (h200.place(t) for t in lm_head("cpu"))  # the head's weights, as fake tensors on "cuda:0"

    def head(x):
        return F.linear(x, W, b).softmax(-1)

    generated = h200.compile(head, h200.place(torch.randn(2, 64)))
    (kernel,) = generated.kernels
    builds = h200.build(kernel)
# --8<-- [end:h200]

with open("output_code.py", "w") as handle:  # the whole module Inductor wrote, as it would have loaded it
    handle.write(generated.code)
print("generated for:", kernel.device)
print(f"the kernel's heuristic: {kernel.heuristic}, size_hints={kernel.size_hints}, "
      f"reduction_hint={kernel.reduction_hint}")
print(f"\ngenerated kernel {kernel.name} (Triton), line by line:")
for number, line in enumerate(kernel.body, start=1):
    print(f"{number:3d} | {line}")
print("\nhow the module calls it:")
print("\n".join(line for line in generated.call.rstrip().splitlines() if line.strip()))
print("\nthe launch configuration Inductor's heuristics give it, compiled by Triton for sm_90 (never run):")
for build in builds:
    memory = Counter(op for op in (line.split()[0] for line in build.sass) if op.startswith(("LDG", "STG")))
    print(f"  {build.config}")
    print(f"  {build.threads} threads per program, {build.registers} registers per thread, "
          f"{build.shared_bytes} bytes of shared memory, {len(build.sass)} SASS instructions")
    print("  global loads and stores:", ", ".join(f"{op} x {n}" for op, n in sorted(memory.items())))
print("\nquestions the emulation answered:", ", ".join(f"{q} x {n}" for q, n in sorted(emulated_h200.ASKED.items())))
print("decided without timing:", "; ".join(f"{name}: {why}" for name, why in emulated_h200.ASSUMED.items()))
