# /// snippet
# devices = ["cpu"]
# timeout = 300
# publish = ["ddp_timeline.svg"]
# volatile = ["^measured"]
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
"""DDP on the whole MiniGPT with small buckets: which bucket is sent when, and a timeline from the profiler."""

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import encode, load_model
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import profile, record_function

PROMPTS = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]
LAYERS = ["lm_head", "ln_f", "blocks.1", "blocks.0"]  # in the order the backward reaches them


def mark_backward_of_layers(model):
    """A profiler range per layer, from the gradient of its output to the gradient of its input."""
    open_ranges = {}
    for name in LAYERS:
        def begin(module, grad_output, name=name):
            open_ranges[name] = record_function(f"backward of {name}").__enter__()

        def end(module, grad_input, grad_output, name=name):
            open_ranges.pop(name).__exit__(None, None, None)

        model.get_submodule(name).register_full_backward_pre_hook(begin)
        model.get_submodule(name).register_full_backward_hook(end)


def contents(names, model):
    """A bucket's parameter names, said per module: 'lm_head, ln_f, blocks.1 (mlp.2)'."""
    owners = {}
    for name in names:
        parts = name.split(".")
        owner = ".".join(parts[:2]) if parts[0] == "blocks" else parts[0]
        owners.setdefault(owner, []).append(".".join(parts[len(owner.split(".")):-1]))
    said = []
    for owner, subs in owners.items():
        whole = sum(1 for _ in model.get_submodule(owner).parameters()) == len(subs)
        said.append(owner if whole else f"{owner} ({', '.join(dict.fromkeys(subs))})")
    return ", ".join(said)


def timeline(events):
    """The measured times (in microseconds) the picture is drawn from, for one rank's step."""
    def span(name):
        return next((e.time_range.start, e.time_range.end) for e in events if e.name == name)
    issued = [e for e in events if e.name == "c10d::allreduce_"]
    runs = [e for e in events if e.name == "gloo:all_reduce"]
    ran = [next((g.time_range.start, g.time_range.end) for g in runs
                if g.input_shapes[0] == c.structured_input_shapes[0][0]) for c in issued]
    return {"backward": span("backward"), "layers": {n: span(f"backward of {n}") for n in LAYERS},
            "issued": [c.time_range.start for c in issued], "ran": ran}


def svg(ranks):
    """One group of lanes per rank, each timed from its own backward: two processes' clocks need not agree."""
    width, left, right, lane = 900, 150, 20, 125
    length = max(max(r["backward"][1], *(b for _, b in r["ran"])) - r["backward"][0] for r in ranks)
    # The axis ends on a tick past the last thing drawn, so every bar ends inside the chart, before the axis does.
    step = next(s for s in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if length / 1000 / s <= 10)
    ticks = int(length / 1000 / step) + 1
    scale = (width - left - right) / (ticks * step * 1000)
    colours = {"lm_head": "#4e79a7", "ln_f": "#f28e2b", "blocks.1": "#59a14f", "blocks.0": "#b07aa1"}
    height = 80 + lane * len(ranks) + 50
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
             f'font-size="12"><rect width="{width}" height="{height}" fill="white"/>',
             '<text x="10" y="20" font-weight="bold">DDP, step 2: the backward of each layer and the all-reduce of '
             'each bucket, as measured (the times differ on every run)</text>']
    legend = [*colours.items(), ("rest of the backward", "#dddddd"), ("all-reduce running", "#e15759")]
    for i, (name, colour) in enumerate(legend):
        parts.append(f'<rect x="{10 + 140 * i}" y="34" width="12" height="12" fill="{colour}"/>'
                     f'<text x="{26 + 140 * i}" y="45">{name}</text>')
    for rank, r in enumerate(ranks):
        top, start = 70 + lane * rank, r["backward"][0]

        def x(t, start=start):
            return left + (t - start) * scale

        parts.append(f'<text x="10" y="{top + 18}" font-weight="bold">rank {rank}</text>'
                     f'<text x="10" y="{top + 34}">main thread</text>'
                     f'<text x="10" y="{top + 62}">all-reduce issued</text>'
                     f'<text x="10" y="{top + 90}">gloo threads</text>')
        a, b = r["backward"]
        parts.append(f'<rect x="{x(a):.1f}" y="{top + 20}" width="{(b - a) * scale:.1f}" height="22" fill="#dddddd"/>')
        for name, (a, b) in r["layers"].items():
            parts.append(f'<rect x="{x(a):.1f}" y="{top + 20}" width="{max((b - a) * scale, 1):.1f}" height="22" '
                         f'fill="{colours[name]}"/>')
        for k, t in enumerate(r["issued"]):
            parts.append(f'<path d="M{x(t):.1f},{top + 60} l-5,-10 h10 z" fill="black"/>'
                         f'<text x="{x(t) + 7:.1f}" y="{top + 60}">{k}</text>')
        for k, (a, b) in enumerate(r["ran"]):
            y = top + 70 + 12 * k
            if x(b) + 60 < width:  # the label after the bar, else before it, else inside it
                label = f'<text x="{x(b) + 3:.1f}" y="{y + 9}">bucket {k}</text>'
            elif x(a) - 60 > left:
                label = f'<text x="{x(a) - 3:.1f}" y="{y + 9}" text-anchor="end">bucket {k}</text>'
            else:
                label = f'<text x="{x(a) + 3:.1f}" y="{y + 9}" fill="white">bucket {k}</text>'
            parts.append(f'<rect x="{x(a):.1f}" y="{y}" width="{max((b - a) * scale, 1):.1f}" height="10" '
                         f'fill="#e15759"/>{label}')
    axis = 80 + lane * len(ranks)
    parts.append(f'<line x1="{left}" y1="{axis}" x2="{width - right}" y2="{axis}" stroke="black"/>')
    for i in range(ticks + 1):
        t = left + i * step * 1000 * scale
        parts.append(f'<line x1="{t:.1f}" y1="{axis}" x2="{t:.1f}" y2="{axis + 5}" stroke="black"/>'
                     f'<text x="{t:.1f}" y="{axis + 18}" text-anchor="middle">{i * step:g}</text>')
    parts.append(f'<text x="{width - right}" y="{axis + 36}" text-anchor="end">ms since the backward began on that '
                 'rank</text></svg>')
    return "\n".join(parts)


# --8<-- [start:ddp]
def ddp_overlap(rank):
    model = load_model().train()
    mark_backward_of_layers(model)
    names = {p: n for n, p in model.named_parameters()}
    ddp = DDP(model, bucket_cap_mb=0.2)  # small buckets: a 0.7 MB model gets several
    bucket_names = {}

    def allreduce(state, bucket):  # DDP's default all-reduce, noting which parameters each bucket holds
        bucket_names[bucket.index()] = [names[p] for p in bucket.parameters()]
        return default_hooks.allreduce_hook(state, bucket)

    ddp.register_comm_hook(None, allreduce)
    # --8<-- [end:ddp]
    mine = torch.cat([encode(p) for p in PROMPTS])[2 * rank : 2 * rank + 2]
    lines = [f"MiniGPT: {len(names)} parameters, {sum(p.numel() for p in model.parameters())} values; "
             "bucket_cap_mb=0.2"]
    steps = []
    # --8<-- [start:steps]
    for _ in range(2):
        with profile(record_shapes=True) as prof:
            with record_function("forward"):
                loss = F.cross_entropy(ddp(mine[:, :-1]).flatten(0, 1), mine[:, 1:].flatten())
            dist.barrier()  # start both backwards together, so the picture shows overlap rather than a late rank
            with record_function("backward"):
                loss.backward()
        steps.append(sorted(prof.events(), key=lambda e: e.time_range.start))
    # --8<-- [end:steps]

    def calls(events, name):
        return [e for e in events if e.name == name]

    def values(call):
        return call.structured_input_shapes[0][0][0]

    first = calls(steps[0], "c10d::allreduce_")
    lines.append(f"step 1: {len(first)} all-reduce, of {values(first[0])} values: every gradient in one bucket")
    events = steps[1]
    sync = calls(events, "c10d::broadcast_")
    lines.append(f"step 2, forward: {len(sync)} broadcasts from rank 0, of "
                 f"{' and '.join(str(values(e)) for e in sync)} values: the new bucket assignment")
    seen = timeline(events)
    issued = calls(events, "c10d::allreduce_")
    lines.append(f"step 2, backward: {len(issued)} buckets, issued in this order:")
    measured = []
    for k, call in enumerate(issued):
        t = call.time_range.start
        inside = [n for n, (a, b) in seen["layers"].items() if a <= t <= b]
        done = [n for n, (a, b) in seen["layers"].items() if b < t]
        when = f"during the backward of {inside[0]}" if inside else f"after the backward of {done[-1]}"
        lines.append(f"  bucket {k}: {values(call)} values, issued {when}: {contents(bucket_names[k], model)}")
        a, b = seen["ran"][k]
        alongside = [n for n, (c, d) in seen["layers"].items() if d > t and c < b and a < d]
        measured.append(f"measured: bucket {k}'s all-reduce ran while this rank computed the backward of: "
                        f"{', '.join(alongside) or 'no layer (its backward was over)'}")
    everyone = [None, None]
    dist.all_gather_object(everyone, (lines, seen))
    if rank == 1:
        return [f"same buckets, issued at the same points as on rank 0: {lines == everyone[0][0]}"]
    with open("ddp_timeline.svg", "w") as f:
        f.write(svg([seen for _, seen in everyone]))
    return lines + measured


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in ddp_overlap(dist.get_rank()):
    print(line)
dist.destroy_process_group()
