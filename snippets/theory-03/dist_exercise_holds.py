# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
"""What each rank holds of the running example, and what it computes, in the four set-ups of the table."""

import torch
import torch.distributed as dist
from minigpt import encode, load_model
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module
from torch.nn.parallel import DistributedDataParallel as DDP

PROMPTS = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]


# --8<-- [start:local]
def local(module):
    """How many parameter values this rank stores for the module."""
    return sum((p.to_local() if isinstance(p, DTensor) else p).numel() for p in module.parameters())
# --8<-- [end:local]


def holds(rank):
    model = load_model()

    def head():
        layer = torch.nn.Linear(64, 600)
        layer.load_state_dict(model.lm_head.state_dict())
        return layer

    prompts = torch.cat([encode(p) for p in PROMPTS])
    mine = model.hidden(prompts[2 * rank : 2 * rank + 2]).detach()  # data parallel: this rank's 2 prompts
    # --8<-- [start:ddp]
    ddp = DDP(head())
    # --8<-- [end:ddp]
    lines = [f"DDP: stores {local(ddp.module)} of the head's 39000 values; scores {tuple(ddp(mine).shape)} "
             "for its own 2 prompts"]

    # --8<-- [start:fsdp]
    fsdp = head()
    fully_shard(fsdp)
    stored, during = local(fsdp), []
    fsdp.register_forward_pre_hook(lambda module, args: during.append(tuple(module.weight.shape)))
    scores = fsdp(mine)
    # --8<-- [end:fsdp]
    lines.append(f"FSDP: stores {stored} before the step; the weight is {during[0]} while the forward runs; "
                 f"scores {tuple(scores.shape)} for its own 2 prompts")

    # --8<-- [start:tensor_parallel]
    pair = torch.nn.Sequential(head(), torch.nn.Linear(600, 64))
    parallelize_module(pair, init_device_mesh("cpu", (2,)), {"0": ColwiseParallel(), "1": RowwiseParallel()})
    scores = pair[0](model.hidden(prompts[:2]).detach())  # the same 2 prompts on both ranks
    # --8<-- [end:tensor_parallel]
    lines.append(f"tensor parallel: stores {local(pair[0])} of the head; scores {tuple(scores.shape)}: "
                 "half the vocabulary, for the prompts both ranks see")

    # --8<-- [start:pipeline]
    stage = torch.nn.ModuleList([model.tok, model.pos, model.blocks]) if rank == 0 else \
        torch.nn.ModuleList([model.ln_f, model.lm_head])
    # --8<-- [end:pipeline]
    lines.append(f"pipeline parallel: stage {rank} stores {local(stage)} of the MiniGPT's "
                 f"{sum(p.numel() for p in model.parameters())} values, the head "
                 f"{'not at all' if rank == 0 else 'whole'}")
    dist.barrier()
    return lines


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in holds(dist.get_rank()):
    print(line)
dist.destroy_process_group()
