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
from minigpt import encode, load_model
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from torch.distributed.tensor import DTensor
from torch.profiler import profile, record_function

PROMPTS = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]
DTYPE = {"float": "float32", "c10::BFloat16": "bfloat16"}


def unit_of(label):
    """'FSDP::all_gather (blocks.1)' -> 'blocks.1'; the root unit's labels carry no name."""
    found = re.search(r"\((.+)\)$", label)
    return found.group(1) if found else "root"


def order(prof, phase):
    """The phase as this rank ran it: each unit's pre-forward or pre-backward, and each collective in it."""
    events = sorted(prof.events(), key=lambda e: e.time_range.start)
    window = next(e for e in events if e.name == phase)
    steps = []
    for e in events:
        if e.thread != window.thread or not window.time_range.start <= e.time_range.start <= window.time_range.end:
            continue
        if e.name.startswith(("FSDP::pre_forward (", "FSDP::pre_backward (")) or e.name == "FSDP::pre_forward":
            steps.append(f"[{unit_of(e.name)}]")
        elif e.name in ("c10d::_allgather_base_", "c10d::_reduce_scatter_base_"):
            up = e.cpu_parent
            while not up.name.startswith(("FSDP::all_gather", "FSDP::post_backward_reduce")):
                up = up.cpu_parent
            kind = "all-gather" if "allgather" in e.name else "reduce-scatter"
            steps.append(f"{kind} {unit_of(up.name)} ({DTYPE[e.input_dtypes[0]]})")
    return " ".join(steps)


def held(model):
    """Bytes of full (unsharded) parameters this rank holds, per unit, after the forward."""
    units = {"root": [model.tok, model.pos, model.ln_f], "blocks.0": [model.blocks[0]],
             "blocks.1": [model.blocks[1]], "lm_head": [model.lm_head]}
    sizes = {}
    for unit, modules in units.items():
        params = [p for m in modules for p in m.parameters(recurse=True)]
        sizes[unit] = sum(p.untyped_storage().nbytes() for p in params if not isinstance(p, DTensor))
    return ", ".join(f"{unit} {n}" for unit, n in sizes.items())


# --8<-- [start:configure]
def configure(model, option):
    mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32) if option == "mixed" else None
    kwargs = {"mp_policy": mp} if mp else {}
    for unit in (*model.blocks, model.lm_head):
        fully_shard(unit, reshard_after_forward=option != "keep", **kwargs)
    fully_shard(model, **kwargs)
    if option == "prefetch":  # ask for each unit's all-gather one unit early, in both directions
        model.blocks[0].set_modules_to_forward_prefetch([model.blocks[1]])
        model.blocks[1].set_modules_to_forward_prefetch([model.lm_head])
        model.lm_head.set_modules_to_backward_prefetch([model.blocks[1]])
        model.blocks[1].set_modules_to_backward_prefetch([model.blocks[0]])
# --8<-- [end:configure]


def fsdp_options(rank):
    lines = []
    idx = torch.cat([encode(p) for p in PROMPTS])[2 * rank : 2 * rank + 2]  # this rank's 2 prompts
    for option, title in (("default", "fully_shard() defaults"), ("keep", "reshard_after_forward=False"),
                          ("prefetch", "explicit prefetching"),
                          ("mixed", "MixedPrecisionPolicy(param_dtype=bfloat16, reduce_dtype=float32)")):
        # --8<-- [start:run]
        model = load_model().train()
        configure(model, option)
        seen = []
        model.lm_head.register_forward_pre_hook(lambda m, args, seen=seen: seen.append(m.weight.dtype))
        with profile(record_shapes=True) as prof:
            with record_function("forward"):
                loss = F.cross_entropy(model(idx[:, :-1]).float().flatten(0, 1), idx[:, 1:].flatten())
            between = held(model)
            with record_function("backward"):
                loss.backward()
        # --8<-- [end:run]
        lines.append(f"=== {title}")
        lines.append(f"forward:  {order(prof, 'forward')}")
        lines.append(f"full parameters held between forward and backward (bytes): {between}")
        lines.append(f"backward: {order(prof, 'backward')}")
        grad = model.lm_head.weight.grad
        lines.append(f"lm_head: weight in its forward {seen[0]}; after the backward, weight "
                     f"{type(model.lm_head.weight).__name__} {model.lm_head.weight.dtype}, gradient {grad.dtype} "
                     f"local {tuple(grad.to_local().shape)}")
    # Rank 0 prints its lines; rank 1 says whether it ran the same sequence.
    everyone = [None, None]
    dist.all_gather_object(everyone, lines)
    return lines if rank == 0 else [f"same lines as rank 0: {lines == everyone[0]}"]


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in fsdp_options(dist.get_rank()):
    print(line)
dist.destroy_process_group()
