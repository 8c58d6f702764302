# /// snippet
# devices = ["cpu"]
# timeout = 240
# deps = ["scripts/minigpt"]
# ///
import textwrap

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
x, target, calls = torch.randn(4, 64), torch.tensor([3, 7, 11, 13]), torch.zeros(())
seen = {}


# --8<-- [start:step]
def step(x, calls):
    calls.add_(1)  # an input mutated in place
    scores = F.linear(x, W, b)
    return scores, scores.t(), calls.view(1)  # an output, a view of it, a view of an input
# --8<-- [end:step]


def loss_fn(x, target):
    return F.cross_entropy(F.linear(x, W, b), target)


# --8<-- [start:fw_metadata]
def forward_compiler(gm, example_inputs):
    """Keep the forward graph, and the metadata AOTAutograd computed for the function."""
    seen["forward"], seen["meta"] = gm.graph, TracingContext.get().fw_metadata
    return make_boxed_func(gm.forward)
# --8<-- [end:fw_metadata]


def backward_compiler(gm, example_inputs):
    """Keep what the backward receives from the forward, and what it computes again."""
    done = {n.name for n in seen["forward"].nodes}
    seen["saved"] = [n for n in gm.graph.find_nodes(op="placeholder") if not n.name.startswith("tangents")]
    seen["again"] = [n.name for n in gm.graph.nodes if n.op == "call_function" and n.name in done]
    return make_boxed_func(gm.forward)


aot = aot_autograd(fw_compiler=forward_compiler, bw_compiler=backward_compiler, decompositions=select_decomp_table(),
                   partition_fn=min_cut_rematerialization_partition)
def backend(gm, example_inputs):
    """Dynamo's names for the graph's inputs, then AOTAutograd."""
    seen["inputs"] = [n.name for n in gm.graph.find_nodes(op="placeholder")]
    return aot(gm, example_inputs)


print("1. step(x, calls): the metadata")
# --8<-- [start:call]
out = torch.compile(step, backend=backend)(x, calls)
meta = seen["meta"]
# --8<-- [end:call]
for name, info in zip(seen["inputs"], meta.input_info, strict=True):
    print(f"    input  {name:<8} mutates_data={info.mutates_data!s:<5}  requires_grad={info.requires_grad}")
for i, info in enumerate(meta.output_info):
    print(f"    output {i}        {info.output_type.name}, base_idx={info.base_idx}")
print(f"    num_mutated_inp_runtime_indices={meta.num_mutated_inp_runtime_indices}"
      f"  num_outputs_aliased={meta.num_outputs_aliased}  num_forward_returns={meta.num_forward_returns}")
print("    the forward graph returns:", ", ".join(n.name for n in seen["forward"].find_nodes(op="output")[0].args[0]))
print(f"    after the call: calls={calls.item()}, out[1]._base is out[0]: {out[1]._base is out[0]},"
      f" out[2]._base is calls: {out[2]._base is calls}")

print("2. the training step: donated buffers")
# --8<-- [start:donated]
torch.compile(loss_fn, backend=backend)(x, target).backward()
donated = seen["meta"].bw_donated_idxs
# --8<-- [end:donated]
print(f"    donated_buffer={functorch_config.donated_buffer}, bw_donated_idxs={donated}")
print("    the backward receives:", ", ".join(n.name for n in seen["saved"]))
print("    donated:", ", ".join(n.name for i, n in enumerate(seen["saved"]) if i in donated))
# --8<-- [start:retain]
try:  # a second step, whose backward must keep its saved tensors
    torch.compile(loss_fn, backend=backend)(x, target).backward(retain_graph=True)
# --8<-- [end:retain]
except RuntimeError as error:
    message = f"backward(retain_graph=True): {error}"
    print(textwrap.fill(message, 116, initial_indent="    ", subsequent_indent="      "))
torch._dynamo.reset()
torch.compile(loss_fn, backend=backend)(x, target).backward(retain_graph=True)
print(f"    compiled again, first backward(retain_graph=True): ran, bw_donated_idxs={seen['meta'].bw_donated_idxs}")

print("3. activation_memory_budget, with a batch of 512 rows")
x, target = torch.randn(512, 64), torch.randint(0, 600, (512,))
# --8<-- [start:budget]
for budget in (1.0, 0.5, 0.0):
    torch._dynamo.reset()
    with functorch_config.patch(activation_memory_budget=budget):
        torch.compile(loss_fn, backend=backend)(x, target).backward()
    # --8<-- [end:budget]
    nbytes = sum(n.meta["val"].nbytes for n in seen["saved"])
    print(f"    budget {budget}: saves {', '.join(n.name for n in seen['saved'])} ({nbytes} bytes)")
    print(f"                computed again in the backward: {', '.join(seen['again'])}")
