# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
import re

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model
from torch.distributed.fsdp import fully_shard
from torch.profiler import profile, record_function

PROMPTS = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]


def unit_of(label):
    """'FSDP::all_gather (blocks.1)' -> 'blocks.1'; the root unit's labels carry no name."""
    found = re.search(r"\((.+)\)$", label)
    return found.group(1) if found else "root"


def ancestors(event):
    while event.cpu_parent is not None:
        event = event.cpu_parent
        yield event


def order_of_events(prof, phase):
    """What the main thread did during one phase: FSDP's collectives, and the autograd nodes between them."""
    events = sorted(prof.events(), key=lambda e: (e.time_range.start, -e.time_range.end))
    window = next(e for e in events if e.name == phase)
    lines, nodes = [], 0

    def flush():
        nonlocal nodes
        if nodes:
            lines.append(f"  ... {nodes} autograd node{'s' if nodes > 1 else ''}")
            nodes = 0

    for e in events:
        if e.thread != window.thread or not window.time_range.start <= e.time_range.start <= window.time_range.end:
            continue
        up = [a.name for a in ancestors(e)]
        if e.name.startswith("autograd::engine::evaluate_function") and not any("evaluate_function" in a for a in up):
            nodes += 1
        elif e.name.startswith("FSDP::pre_backward ("):
            flush()
            lines.append(f"  {unit_of(e.name)}: its backward begins")
        elif e.name == "FSDP::root_post_backward_callback":
            flush()
            lines.append("  the autograd engine's final callback (every node has run):")
        elif e.name in ("c10d::_allgather_base_", "c10d::_reduce_scatter_base_"):
            flush()
            out, inp = (s[0] for s in e.structured_input_shapes[:2])
            kind = "all-gather" if "allgather" in e.name else "reduce-scatter"
            unit = unit_of(next(a for a in up if a.startswith(("FSDP::all_gather", "FSDP::post_backward_reduce"))))
            ahead = " (prefetched)" if any(a.startswith("FSDP::backward_prefetch") for a in up) else ""
            lines.append(f"  {kind} {unit}{ahead}: {inp} -> {out} values")
    flush()
    return lines


def fsdp(rank):
    W, _ = lm_head()
    # --8<-- [start:shard]
    model = load_model().train()
    for block in model.blocks:
        fully_shard(block)  # one unit per transformer block
    fully_shard(model.lm_head)  # the running example, a unit of its own
    fully_shard(model)  # the root unit: embeddings and the final norm
    weight = model.lm_head.weight
    local = weight.to_local()
    # --8<-- [end:shard]
    lines = [f"lm_head.weight {tuple(weight.shape)} {weight.placements}: local {tuple(local.shape)}, "
             f"equal to W[{rank * 300}:{rank * 300 + 300}]: {torch.equal(local, W[rank * 300 : (rank + 1) * 300])}"]
    # --8<-- [start:step]
    idx = torch.cat([encode(p) for p in PROMPTS])[2 * rank : 2 * rank + 2]  # this rank's 2 prompts
    with profile(record_shapes=True) as prof:
        with record_function("forward"):
            loss = F.cross_entropy(model(idx[:, :-1]).flatten(0, 1), idx[:, 1:].flatten())
        with record_function("backward"):
            loss.backward()
    # --8<-- [end:step]
    order = ["forward, in the order this rank ran it:", *order_of_events(prof, "forward"),
             "backward, in the order this rank ran it:", *order_of_events(prof, "backward")]
    everyone = [None, None]
    dist.all_gather_object(everyone, order)
    lines += order if rank == 0 else [f"forward and backward: same order of events as rank 0: {order == everyone[0]}"]
    # --8<-- [start:optimizer]
    opt = torch.optim.AdamW(model.parameters())
    opt.step()
    # --8<-- [end:optimizer]
    lines.append(f"lm_head.weight: gradient local {tuple(weight.grad.to_local().shape)}, "
                 f"AdamW exp_avg local {tuple(opt.state[weight]['exp_avg'].to_local().shape)}")
    return lines


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in fsdp(dist.get_rank()):
    print(line)
dist.destroy_process_group()
