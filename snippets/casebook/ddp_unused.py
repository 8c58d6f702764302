# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# env = { TORCH_DISTRIBUTED_DEBUG = "INFO" }
# deps = ["scripts/minigpt"]
# ///
"""DDP's error about parameters that received no gradient, on 2 ranks: where to look, two fixes and their cost."""

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import lm_head
from torch.nn.parallel import DistributedDataParallel as DDP


# --8<-- [start:model]
class HeadWithAux(torch.nn.Module):
    """The running example's head, and a second head that only some steps use."""

    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(64, 600)
        self.aux = torch.nn.Linear(64, 600)

    def forward(self, x, use_aux=False):
        scores = self.head(x)
        return scores + self.aux(x) if use_aux else scores
# --8<-- [end:model]


def make(**options):
    """The module under DDP, with a comm hook that notes each bucket it sends."""
    torch.manual_seed(0)
    net = HeadWithAux()
    W, b = lm_head()
    net.head.load_state_dict({"weight": W, "bias": b})
    model = DDP(net, **options)
    sent = []

    def noted_allreduce(state, bucket):
        sent.append(bucket.buffer().numel())
        fut = dist.all_reduce(bucket.buffer().div_(2), async_op=True).get_future()
        return fut.then(lambda f: f.value()[0])

    model.register_comm_hook(None, noted_allreduce)
    return model, sent


def step(model, use_aux=False):
    x = torch.randn(4, 64, generator=torch.Generator().manual_seed(dist.get_rank()))  # each rank its own batch
    loss = F.cross_entropy(model(x, use_aux), torch.tensor([3, 7, 11, 13]))
    loss.backward()
    return loss


def synced(model):
    """Whether the head's gradient is the same on both ranks, as DDP promises."""
    grad = model.module.head.weight.grad
    both = [torch.empty_like(grad) for _ in range(2)]
    dist.all_gather(both, grad)
    return torch.equal(both[0], both[1])


# --8<-- [start:walk]
def reached(loss, module):
    """Walk the graph from the loss; an AccumulateGrad node names the parameter it feeds."""
    names = {id(p): n for n, p in module.named_parameters()}
    seen, todo, found = set(), [loss.grad_fn], set()
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if hasattr(node, "variable"):
            found.add(names[id(node.variable)])
        todo.extend(n for n, _ in node.next_functions)
    return sorted(found), len(seen)
# --8<-- [end:walk]


dist.init_process_group("gloo")
# --8<-- [start:symptom]
model, sent = make()
step(model)
print(f"step 1: backward returned; buckets sent: {len(sent)}; head's gradient equal on both ranks: {synced(model)}")
try:
    step(model)
except RuntimeError as error:
    print("step 2 raised:", str(error).split(". ")[0])
    print(next(line for line in str(error).splitlines() if line.startswith("Parameters which")))
# --8<-- [end:symptom]
# --8<-- [start:where]
plain = HeadWithAux()  # the same module without DDP, whose hooks would fire on its parameters
names, nodes = reached(step(plain), plain)
unreached = sorted(n for n, _ in plain.named_parameters() if n not in names)
print(f"walk from the loss: {nodes} nodes, reaches {', '.join(names)}; never reaches {', '.join(unreached)}")
data = model._get_ddp_logging_data()
sizes, reduced = data["bucket_sizes"], data["num_buckets_reduced"]
print(f"DDP's buckets: {sizes} bytes in one bucket (all four parameters); reduced: {reduced}")
# --8<-- [end:where]
# --8<-- [start:find_unused]
model, sent = make(find_unused_parameters=True)
for _ in range(3):
    step(model)
print(f"find_unused_parameters=True, 3 steps: buckets sent {len(sent)}, {sent[-1]} values each")
no_grad = model.module.aux.weight.grad is None
print(f"  head's gradient equal on both ranks: {synced(model)}; aux.weight.grad is None: {no_grad}")
print(f"  DDP's count of unused parameter bytes: {model._get_ddp_logging_data()['unused_parameter_size']}")
step(model, use_aux=True)
print(f"  step 4 uses aux: buckets sent {len(sent)}; torch's warning about the flag below, on stderr")
# --8<-- [end:find_unused]
# --8<-- [start:static_graph]
model, sent = make(static_graph=True)
for _ in range(3):
    step(model)
print(f"static_graph=True, 3 steps: buckets sent {len(sent)}, {sent[-1]} values each; equal: {synced(model)}")
try:
    step(model, use_aux=True)
except RuntimeError as error:
    print("  step 4 uses aux, raised:", str(error).split(", e.g.")[0])
# --8<-- [end:static_graph]
dist.destroy_process_group()
