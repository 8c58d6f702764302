# /// snippet
# devices = ["cpu"]
# timeout = 240
# deps = ["scripts/minigpt"]
# ///
"""Exercise: the way out the error names, donated_buffer=False; what is donated, and does the second step run?"""

import torch
import torch._functorch.config as functorch_config
import torch.nn.functional as F
from functorch.compile import make_boxed_func, min_cut_rematerialization_partition
from minigpt import lm_head
from torch._dynamo.backends.common import aot_autograd
from torch._guards import TracingContext
from torch._inductor.decomposition import select_decomp_table

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x, target = torch.randn(4, 64), torch.tensor([3, 7, 11, 13])
seen = {}


def loss_fn(x, target):
    return F.cross_entropy(F.linear(x, W, b), target)


def forward_compiler(gm, example_inputs):
    seen["meta"] = TracingContext.get().fw_metadata
    return make_boxed_func(gm.forward)


backend = aot_autograd(fw_compiler=forward_compiler, bw_compiler=lambda gm, inputs: make_boxed_func(gm.forward),
                       decompositions=select_decomp_table(), partition_fn=min_cut_rematerialization_partition)
# --8<-- [start:solution]
functorch_config.donated_buffer = False
torch.compile(loss_fn, backend=backend)(x, target).backward()
print(f"donated_buffer={functorch_config.donated_buffer}, bw_donated_idxs={seen['meta'].bw_donated_idxs}")
loss = torch.compile(loss_fn, backend=backend)(x, target)
loss.backward(retain_graph=True)
loss.backward()  # the same graph a second time: its saved tensors were kept
print(f"second step, backward(retain_graph=True) then backward(): ran; W.grad equals 3 steps' gradient: "
      f"{torch.allclose(W.grad, 3 * torch.autograd.grad(loss_fn(x, target), W)[0], atol=1e-6)}")
# --8<-- [end:solution]
