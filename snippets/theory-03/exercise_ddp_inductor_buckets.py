# /// snippet
# devices = ["cpu"]
# timeout = 600
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
"""Exercise: DDP with python_reducer and compiled autograd, compiled by Inductor: how many all-reduces in step 2?"""

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import lm_head
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import profile


def train_step(model, x, target):
    loss = F.cross_entropy(model(x), target)
    loss.backward()
    return loss


def allreduces(rank, backend):
    """Two compiled training steps of DDP(head); the all-reduces this rank ran in step 2, by size."""
    torch._dynamo.reset()
    torch._dynamo.config.optimize_ddp = "python_reducer"
    torch._dynamo.config.compiled_autograd = True
    W, b = lm_head()
    head = torch.nn.Linear(64, 600)
    head.load_state_dict({"weight": W, "bias": b})
    # --8<-- [start:solution]
    model = DDP(head)
    step = torch.compile(train_step, backend=backend)
    x = torch.randn(4, 64, generator=torch.Generator().manual_seed(rank))
    target = torch.tensor([3, 7, 11, 13])
    for _ in (1, 2):
        model.zero_grad()
        with profile(record_shapes=True) as prof:
            step(model, x, target)
    sizes = [e.structured_input_shapes[0][0] for e in sorted(prof.events(), key=lambda e: e.time_range.start)
             if e.name == "c10d::allreduce_"]
    # --8<-- [end:solution]
    return f"backend {backend}: step 2 ran {len(sizes)} all-reduce(s), of {' then '.join(map(str, sizes))} values", \
        torch.cat([head.weight.grad.flatten(), head.bias.grad])


dist.init_process_group("gloo")
rank = dist.get_rank()
line_eager, grads_eager = allreduces(rank, "aot_eager")
line_inductor, grads_inductor = allreduces(rank, "inductor")
print(line_eager)
print(line_inductor)
print(f"same gradients with both backends (within 1e-6): {torch.allclose(grads_eager, grads_inductor, atol=1e-6)}")
dist.destroy_process_group()
