# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import torch
import torch._functorch.config as functorch_config
import torch.nn.functional as F
from functorch.compile import default_partition, make_boxed_func, min_cut_rematerialization_partition
from minigpt import lm_head
from torch._dynamo.backends.common import aot_autograd
from torch._inductor.decomposition import select_decomp_table

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(4, 64)
target = torch.tensor([3, 7, 11, 13])


# --8<-- [start:loss]
def loss_fn(x, target):
    return F.cross_entropy(F.linear(x, W, b), target)
# --8<-- [end:loss]


# --8<-- [start:saved]
def forward_compiler(gm, example_inputs):
    """Print what the forward graph returns beyond the loss: the tensors saved for the backward."""
    saved = [n for n in next(n for n in gm.graph.nodes if n.op == "output").args[0][1:]]
    # --8<-- [end:saved]
    nbytes = sum(n.meta["val"].numel() * n.meta["val"].element_size() for n in saved)
    for n in saved:
        made = "an input" if n.op == "placeholder" else f"{n.target}({', '.join(str(a) for a in n.args[:2])})"
        print(f"    saves {n.name:<20} {list(n.meta['val'].shape)!s:<9} = {made}")
    print(f"    saved in all: {nbytes} bytes")
    return make_boxed_func(gm.forward)


def backward_compiler(gm, example_inputs):
    ops = [n.name for n in gm.graph.nodes if n.op == "call_function"]
    print("    the backward computes:", ", ".join(ops))
    return make_boxed_func(gm.forward)


# The same joint graph (with Inductor's decompositions), cut by two partitioners.
# --8<-- [start:partitioners]
for title, partition, patch in (
    ("default_partition: save what the forward computed", default_partition, {}),
    ("min_cut_rematerialization_partition (what Inductor uses)", min_cut_rematerialization_partition, {}),
    ("min-cut with ban_recompute_reductions=False", min_cut_rematerialization_partition,
     {"ban_recompute_reductions": False}),
):
    print(title)
    torch._dynamo.reset()
    backend = aot_autograd(fw_compiler=forward_compiler, bw_compiler=backward_compiler, partition_fn=partition,
                           decompositions=select_decomp_table())
    with functorch_config.patch(patch):
        torch.compile(loss_fn, backend=backend)(x, target).backward()
# --8<-- [end:partitioners]
