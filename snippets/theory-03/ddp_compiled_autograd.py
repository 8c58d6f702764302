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
from torch._dynamo import compiled_autograd
from torch._dynamo.backends.registry import lookup_backend
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import profile

HIDDEN = {"getitem", "validate_outputs", "call_aot_bwd_prologue", "call_accumulate_grad", "detach", "t"}


def label(node):
    """An FX node by what it calls: `mm`, `all_reduce(600, 64)` (a collective, with its tensor's shape)."""
    name = node.target if isinstance(node.target, str) else getattr(node.target, "__name__", str(node.target))
    name = name.split(".")[0]
    if "c10d" in str(node.target) and name != "wait_tensor":
        name += str(tuple(node.args[0].meta["example_value"].shape))
    return name


# --8<-- [start:train_step]
def train_step(model, x, target):
    loss = F.cross_entropy(model(x), target)
    loss.backward()
    return loss
# --8<-- [end:train_step]


# --8<-- [start:modes]
def compiled_ddp(rank, optimize_ddp, with_compiled_autograd):
    """Two compiled training steps of DDP(head): the graphs Dynamo compiled, the all-reduces of step 2."""
    torch._dynamo.reset()
    torch._dynamo.config.optimize_ddp = optimize_ddp  # DDP reads it when it is built
    torch._dynamo.config.compiled_autograd = with_compiled_autograd
    # --8<-- [end:modes]
    W, b = lm_head()
    head = torch.nn.Linear(64, 600)
    head.load_state_dict({"weight": W, "bias": b})
    # --8<-- [start:compile]
    model = DDP(head)
    graphs = []

    def aot_eager(gm, example_inputs, **kwargs):
        graphs.append(("backward" if compiled_autograd.in_compiled_autograd_region else "forward", gm))
        return lookup_backend("aot_eager")(gm, example_inputs, **kwargs)

    step = torch.compile(train_step, backend=aot_eager)
    # --8<-- [end:compile]
    x = torch.randn(4, 64, generator=torch.Generator().manual_seed(rank))  # each rank its own half of the batch
    target = torch.tensor([3, 7, 11, 13])
    for _step in (1, 2):
        model.zero_grad()
        with profile(record_shapes=True) as prof:
            step(model, x, target)
    lines = [f"=== optimize_ddp={optimize_ddp!r}, compiled autograd {'on' if with_compiled_autograd else 'off'}: "
             f"{len(graphs)} graph{'s' if len(graphs) > 1 else ''} compiled"]
    for i, (kind, gm) in enumerate(graphs):
        calls = [label(n) for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
        lines.append(f"    graph {i} ({kind}): {', '.join(c for c in calls if c not in HIDDEN)}")
    sizes = [e.structured_input_shapes[0][0] for e in sorted(prof.events(), key=lambda e: e.time_range.start)
             if e.name == "c10d::allreduce_"]
    lines.append(f"    step 2: this rank ran {len(sizes)} all-reduce{'s' if len(sizes) > 1 else ''}, of "
                 f"{' then '.join(str(s) for s in sizes)} values")
    return lines, torch.cat([head.weight.grad.flatten(), head.bias.grad])


def main(rank):
    # --8<-- [start:main]
    hooks, grads_hooks = compiled_ddp(rank, "ddp_optimizer", False)  # the default: DDP's C++ reducer, its hooks
    traced, grads_traced = compiled_ddp(rank, "python_reducer", True)
    # --8<-- [end:main]
    lines = [*hooks, *traced, f"same gradients on this rank either way: {torch.allclose(grads_hooks, grads_traced)}"]
    everyone = [None, None]
    dist.all_gather_object(everyone, [lines, grads_traced])
    if rank == 1:
        return [f"same lines as rank 0: {lines == everyone[0][0]}"]
    return [*lines, f"same gradients on both ranks: {torch.equal(everyone[0][1], everyone[1][1])}"]

dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
for line in main(dist.get_rank()):
    print(line)
dist.destroy_process_group()
