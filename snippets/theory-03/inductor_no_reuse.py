# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
import re

import torch
import torch._inductor.config as inductor_config
import torch.nn.functional as F
from minigpt import lm_head
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(4, 64)
target = torch.tensor([3, 7, 11, 13])


# --8<-- [start:step]
def loss_fn(x, target):
    return F.cross_entropy(F.linear(x, W, b), target)


# The same training step with buffer reuse and in-place buffers switched off.
with inductor_config.patch(allow_buffer_reuse=False, inplace_buffers=False):
    loss, (forward,) = run_and_get_code(torch.compile(loss_fn), x, target)
    _, (backward,) = run_and_get_code(loss.backward)
# --8<-- [end:step]
for name, code in (("forward", forward), ("backward", backward)):
    body = code[code.index("def call("):code.index("runner = ")].rstrip().splitlines()
    print(f"=== {name}: call(), without its assert_size_stride lines")
    for line in body:
        if "assert_size_stride" not in line:
            shown = re.sub(r"\b(cpp_fused_\w{30})\w+?(_\d+)\(", r"\1...\2(", line.strip())  # long names cut
            print("    " + shown[:112])
    sizes = [eval(shape) for shape in re.findall(r"empty_strided_cpu\((\([^)]*\)), ", "\n".join(body))]
    elements = sum(torch.Size(size).numel() for size in sizes)
    print(f"    {len(sizes)} buffers allocated ({elements} elements), "
          f"{sum('# reuse' in line for line in body)} reused in place of a dead one")
