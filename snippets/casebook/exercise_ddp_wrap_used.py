# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
"""Exercise: DDP around only what every step uses; the second head stays outside it."""

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import lm_head
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
# --8<-- [start:solution]
head = torch.nn.Linear(64, 600)
W, b = lm_head()
head.load_state_dict({"weight": W, "bias": b})
aux = torch.nn.Linear(64, 600)  # used by some steps only: not inside the DDP module
model = DDP(head)
sent = []


def noted_allreduce(state, bucket):
    sent.append(bucket.buffer().numel())
    fut = dist.all_reduce(bucket.buffer().div_(2), async_op=True).get_future()
    return fut.then(lambda f: f.value()[0])


model.register_comm_hook(None, noted_allreduce)
for _ in range(3):
    x = torch.randn(4, 64, generator=torch.Generator().manual_seed(dist.get_rank()))
    F.cross_entropy(model(x), torch.tensor([3, 7, 11, 13])).backward()
# --8<-- [end:solution]
both = [torch.empty_like(head.weight.grad) for _ in range(2)]
dist.all_gather(both, head.weight.grad)
print(f"3 steps, no error: buckets sent {len(sent)}, {sent[-1]} values each")
print(f"head's gradient equal on both ranks: {torch.equal(both[0], both[1])}")
print(f"DDP's count of unused parameter bytes: {model._get_ddp_logging_data()['unused_parameter_size']}")
dist.destroy_process_group()
