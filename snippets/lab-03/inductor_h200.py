# /// snippet
# devices = ["sm90-codegen"]
# timeout = 300
# deps = ["scripts/minigpt", "scripts/emulated_h200"]
# env = { TRITON_DISABLE_LINE_INFO = "1" }
# ///
import re

import emulated_h200
import torch
from minigpt import encode, load_model

model = load_model()
with torch.no_grad():
    h = torch.cat([model.blocks[1](model.blocks[0](model.tok(encode(p)) + model.pos(torch.arange(5))))[:, -1]
                   for p in ("walk : yesterday she", "comer : ayer yo")])

with emulated_h200.session() as h200:  # answers torch.compile's questions as an H200 would; runs nothing
    on_h200 = h200.place_module(model)  # the same model, its weights as fake tensors on "cuda:0"

    def tail(h):
        """Section 1's small model: final norm, the LM head, softmax."""
        return on_h200.lm_head(on_h200.ln_f(h)).softmax(-1)

    with torch.no_grad():
        generated = h200.compile(tail, h200.place(h))
    builds = {kernel.name: h200.build(kernel)[0] for kernel in generated.kernels}

print("What call() runs, in order:")
for line in generated.call.splitlines():
    if re.search(r"triton_\w+\.run\(|extern_kernels\.\w+\(", line):
        print("   ", line.strip())
for kernel in generated.kernels:
    build = builds[kernel.name]
    print(f"\n{kernel.name}: {kernel.heuristic}, size_hints={kernel.size_hints}")
    print(f"  {build.config}")
    print(f"  {build.threads} threads per program, {build.registers} registers, {build.shared_bytes} bytes of shared "
          "memory")
    for line in kernel.body[1:]:
        if re.search(r"tl\.(load|store)|tl\.sum|max2|rsqrt", line):
            print("   ", line.strip()[:110])
print("\ndecided without timing:", "; ".join(f"{name}: {why}" for name, why in emulated_h200.ASSUMED.items()))
