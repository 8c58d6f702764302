# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt", "snippets/theory-03/_dist.py"]
# ///
import torch
import torch.nn.functional as F
from _dist import run
from minigpt import lm_head
from torch.distributed.fsdp import fully_shard
from torch.profiler import profile


def collectives(prof):
    """The communication calls the profiler saw, with how often each ran."""
    return {e.key: e.count for e in prof.key_averages() if e.key.startswith(("gloo:", "c10d::", "nccl:"))}


def fsdp(rank):
    W, b = lm_head()
    head = torch.nn.Linear(64, 600)
    head.load_state_dict({"weight": W, "bias": b})
    fully_shard(head)  # parameters become DTensors sharded along dim 0
    weight = head.weight
    local = weight.to_local()
    lines = [f"weight {tuple(weight.shape)} {weight.placements}: holds rows of W, local {tuple(local.shape)}",
             f"  equal to W[{rank * 300}:{rank * 300 + 300}]: {torch.equal(local, W[rank * 300 : (rank + 1) * 300])}",
             f"bias {tuple(head.bias.shape)}: local {tuple(head.bias.to_local().shape)}"]
    x = torch.randn(4, 64) + rank
    with profile() as prof:
        loss = F.cross_entropy(head(x), torch.tensor([3, 7, 11, 13]))
    lines.append(f"forward collectives: {collectives(prof)}")
    with profile() as prof:
        loss.backward()
    lines.append(f"backward collectives: {collectives(prof)}")
    lines.append(f"after backward: local gradient {tuple(weight.grad.to_local().shape)}, the shard of this rank")
    return lines


run(fsdp)
