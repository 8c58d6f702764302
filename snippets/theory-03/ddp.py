# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import lm_head
from torch.nn.parallel import DistributedDataParallel as DDP


# --8<-- [start:ddp]
def ddp(rank):
    W, b = lm_head()
    head = torch.nn.Linear(64, 600)
    head.load_state_dict({"weight": W, "bias": b})
    model = DDP(head)
    # --8<-- [end:ddp]
    lines = [f"holds weight {tuple(model.module.weight.shape)} and bias {tuple(model.module.bias.shape)}: a full copy"]

    # --8<-- [start:hook]
    def logged_allreduce(state, bucket):  # what DDP sends, and when
        sizes = [tuple(p.shape) for p in bucket.parameters()]
        lines.append(f"backward: all-reduce of bucket {bucket.index()}, {bucket.buffer().numel()} values for {sizes}")
        fut = dist.all_reduce(bucket.buffer().div_(dist.get_world_size()), async_op=True).get_future()
        return fut.then(lambda f: f.value()[0])

    model.register_comm_hook(None, logged_allreduce)
    x = torch.randn(4, 64) + rank  # each rank sees its own half of the batch
    target = torch.tensor([3, 7, 11, 13])
    loss = F.cross_entropy(model(x), target)
    lines.append(f"forward: local loss {loss.item():.4f} (no communication)")
    loss.backward()
    # --8<-- [end:hook]
    grads = torch.cat([model.module.weight.grad.flatten(), model.module.bias.grad])
    everyone = [torch.empty_like(grads) for _ in range(2)]
    dist.all_gather(everyone, grads)
    lines.append(f"after backward, gradients equal on both ranks: {torch.equal(everyone[0], everyone[1])}")
    return lines


# --8<-- [start:init]
dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
# --8<-- [end:init]
torch.manual_seed(0)
for line in ddp(dist.get_rank()):
    print(line)
dist.destroy_process_group()
