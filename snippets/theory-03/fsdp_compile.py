# /// snippet
# devices = ["cpu"]
# timeout = 600
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
from collections import Counter

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import encode, load_model
from torch._dynamo import compiled_autograd
from torch._dynamo.backends.registry import lookup_backend
from torch._dynamo.utils import counters
from torch.distributed.fsdp import fully_shard
from torch.profiler import profile

PROMPTS = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]
EVENTS = {"c10d::_allgather_base_": "all-gather", "c10d::_reduce_scatter_base_": "reduce-scatter",
          "FSDP::root_post_backward_callback": "final callback"}


def loss_of(model, idx):
    return F.cross_entropy(model(idx[:, :-1]).flatten(0, 1), idx[:, 1:].flatten())


def plain_gradients(idx):
    """One backward of the unsharded model on these prompts: its loss and its gradients."""
    model = load_model().train()
    loss = loss_of(model, idx)
    loss.backward()
    return loss, [p.grad for p in model.parameters()]


def compiled_fsdp(rank, idx, with_compiled_autograd):
    """Two compiled training steps of the sharded MiniGPT: graphs, FSDP's collectives, the gradients."""
    # --8<-- [start:shard]
    torch._dynamo.reset()
    counters.clear()
    torch._dynamo.config.compiled_autograd = with_compiled_autograd
    model = load_model().train()
    for unit in (*model.blocks, model.lm_head, model):  # as in the FSDP section: blocks, head, then the root
        fully_shard(unit)
    # --8<-- [end:shard]
    graphs = []

    def aot_eager(gm, example_inputs, **kwargs):
        calls = [n.target if n.op == "call_method" else getattr(n.target, "__name__", str(n.target))
                 for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
        backward = compiled_autograd.in_compiled_autograd_region
        graphs.append(("backward" if backward else "forward", len(calls), ", ".join(dict.fromkeys(calls))))
        graphs.extend(("collective",) for n in gm.graph.nodes if "c10d" in str(n.target))
        return lookup_backend("aot_eager")(gm, example_inputs, **kwargs)

    # --8<-- [start:step]
    def train_step(idx):
        loss = loss_of(model, idx)
        loss.backward()
        return loss

    step = torch.compile(train_step, backend=aot_eager)
    lines, losses = [], []
    for i in (1, 2):
        model.zero_grad()
        with profile() as prof:
            losses.append(step(idx))
    # --8<-- [end:step]
        seen = Counter(EVENTS[e.name] for e in prof.events() if e.name in EVENTS)
        lines.append(f"    step {i}: " + ", ".join(f"{seen[k]} {k}" for k in EVENTS.values()))
    kinds = Counter(g[0] for g in graphs)
    breaks = sum(n for reason, n in counters["graph_break"].items() if "skipping FSDP hooks" in reason)
    lines[:0] = [f"=== compiled autograd {'on' if with_compiled_autograd else 'off'}: {kinds['forward']} forward and "
                 f"{kinds['backward']} backward graphs, {kinds['collective']} collective nodes in them, "
                 f"{breaks} graph breaks at FSDP's hooks ('skipping FSDP hooks')",
                 *(f"    forward graph, {n} call{'s' if n > 1 else ''} of: {names}"
                   for kind, n, names in graphs if kind == "forward")]
    return lines, losses, model


def main(rank):
    idx = torch.cat([encode(p) for p in PROMPTS])
    _, full = plain_gradients(idx)  # the whole batch: what FSDP's averaged gradients should equal
    mine = idx[2 * rank : 2 * rank + 2]  # this rank's 2 prompts
    own_loss, own = plain_gradients(mine)
    lines = []
    for with_ca in (False, True):
        more, losses, model = compiled_fsdp(rank, mine, with_ca)
        grads = [p.grad.full_tensor() if hasattr(p.grad, "full_tensor") else p.grad for p in model.parameters()]
        lines += [*more, f"    losses as the unsharded model's: {all(torch.allclose(x, own_loss) for x in losses)}",
                  f"    after step 2: parameters {dict(Counter(type(p).__name__ for p in model.parameters()))}, "
                  f"gradients {dict(Counter(type(p.grad).__name__ for p in model.parameters()))}",
                  f"    gradients: of the whole batch {all(map(torch.allclose, grads, full))}, "
                  f"of this rank's prompts {all(map(torch.allclose, grads, own))}"]
    everyone = [None, None]
    dist.all_gather_object(everyone, lines)
    return lines if rank == 0 else [f"same lines as rank 0: {lines == everyone[0]}"]


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
for line in main(dist.get_rank()):
    print(line)
dist.destroy_process_group()
