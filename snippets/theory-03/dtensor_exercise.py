# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt", "snippets/theory-03/_profiled.py"]
# ///
import torch
import torch.distributed as dist
from _profiled import collectives  # snippets/theory-03/_profiled.py: what the profiler saw sent
from minigpt import lm_head
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Partial, Replicate, Shard, distribute_tensor
from torch.profiler import profile


def moves(rank):
    # --8<-- [start:redistribute]
    W, _ = lm_head()
    mesh = init_device_mesh("cpu", (2,))
    lines = []
    for source, target in (([Shard(0)], [Shard(1)]), ([Replicate()], [Shard(0)]), ([Shard(0)], [Replicate()]),
                           ([Replicate()], [Partial()])):
        start = distribute_tensor(W, mesh, source)
        try:
            with profile(record_shapes=True) as prof:
                moved = start.redistribute(mesh, target)
        # --8<-- [end:redistribute]
        except RuntimeError as error:
            lines.append(f"{source[0]!r} -> {target[0]!r}: RuntimeError: {error}")
            continue
        lines.append(f"{source[0]!r} -> {target[0]!r}: {collectives(prof)}; local {tuple(moved.to_local().shape)}, "
                     f"the full tensor still W: {torch.equal(moved.full_tensor(), W)}")
    everyone = [None, None]
    dist.all_gather_object(everyone, lines)
    return lines if rank == 0 else [f"same lines as rank 0: {lines == everyone[0]}"]


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in moves(dist.get_rank()):
    print(line)
dist.destroy_process_group()
