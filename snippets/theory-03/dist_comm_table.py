# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
"""Three training steps of each pattern; the profiler records every call that reaches a process group."""

import math

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import encode, load_model
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import profile, record_function

PROMPTS = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]
ITEMSIZE = {"float": 4, "int": 4, "long int": 8, "unsigned char": 1}  # gloo's names for the element types
PHASES = ("setup", "forward", "backward", "optimizer step")


def phase_of(event):
    """The phase a call was made in: our own labels, or the pipeline schedule's 'Forward i' / 'Backward i'."""
    while event is not None:
        if event.name in PHASES:
            return event.name
        if event.name.startswith(("Forward ", "Backward ")):
            return event.name.split()[0].lower()
        event = event.cpu_parent
    return "setup"


def calls(prof):
    """(phase, c10d op, gloo op, bytes) for every call that reached the process group, in order."""
    events = sorted(prof.events(), key=lambda e: e.time_range.start)
    gloo = [e for e in events if e.name.startswith("gloo:")]  # what the gloo backend ran, with its element type
    found = []
    for e in (e for e in events if e.name.startswith("c10d::")):
        shapes = [s for item in e.structured_input_shapes for s in (item if item and isinstance(item[0], list)
                                                                     else [item] if item else [])]
        run_by = next(g for g in gloo if g.input_shapes and g.input_shapes[0] in shapes)
        gloo.remove(run_by)
        size = ITEMSIZE[run_by.input_dtypes[0]]
        out_bytes, in_bytes = math.prod(shapes[0]) * size, math.prod(shapes[-1]) * size
        nbytes = f"{in_bytes} -> {out_bytes}" if in_bytes != out_bytes else str(in_bytes)
        found.append((phase_of(e), e.name.removeprefix("c10d::"), run_by.name.removeprefix("gloo:"), nbytes))
    return found


def patterns(rank):
    """One training step function per pattern, each on the running example."""
    model = load_model().train()
    batch = torch.cat([encode(p) for p in PROMPTS])  # 4 prompts, 5 tokens each

    def head():
        layer = torch.nn.Linear(64, 600)
        layer.load_state_dict(model.lm_head.state_dict())
        return layer

    def data_parallel(net):  # DDP and FSDP: each rank its own 2 prompts
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        mine = batch[2 * rank : 2 * rank + 2]
        x = model.hidden(mine[:, :-1]).detach()

        # --8<-- [start:step]
        def step():
            with record_function("forward"):
                loss = F.cross_entropy(net(x).flatten(0, 1), mine[:, 1:].flatten())
            with record_function("backward"):
                loss.backward()
            with record_function("optimizer step"):
                opt.step()
                opt.zero_grad()
        # --8<-- [end:step]
        return step

    # --8<-- [start:ddp_fsdp]
    ddp = DDP(head())
    fsdp = head()
    fully_shard(fsdp)
    # --8<-- [end:ddp_fsdp]

    # --8<-- [start:tensor_parallel]
    # Tensor parallel: the head column-wise, then a projection back to 64 row-wise; the same input on both ranks.
    pair = torch.nn.Sequential(head(), torch.nn.Linear(600, 64))
    parallelize_module(pair, init_device_mesh("cpu", (2,)), {"0": ColwiseParallel(), "1": RowwiseParallel()})
    # --8<-- [end:tensor_parallel]
    tp_opt = torch.optim.SGD(pair.parameters(), lr=0.1)
    tp_x = model.hidden(batch[:2]).detach()

    def tensor_parallel():
        x = tp_x.clone().requires_grad_()  # the layers below would need the gradient of x
        with record_function("forward"):
            loss = pair(x).square().mean()
        with record_function("backward"):
            loss.backward()
        with record_function("optimizer step"):
            tp_opt.step()
            tp_opt.zero_grad()

    # Pipeline parallel: the MiniGPT cut after its blocks, two micro-batches of 2 prompts.
    class Body(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.tok, self.pos, self.blocks = model.tok, model.pos, model.blocks

        def forward(self, idx):
            h = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
            for block in self.blocks:
                h = block(h)
            return h

    class Head(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.ln_f, self.lm_head = model.ln_f, model.lm_head

        def forward(self, h):
            return self.lm_head(self.ln_f(h))

    # --8<-- [start:pipeline]
    stage_module = Body() if rank == 0 else Head()
    schedule = ScheduleGPipe(PipelineStage(stage_module, rank, 2, torch.device("cpu")), n_microbatches=2,
                             loss_fn=lambda logits, target: F.cross_entropy(logits.flatten(0, 1), target.flatten()))
    # --8<-- [end:pipeline]
    pp_opt = torch.optim.SGD(stage_module.parameters(), lr=0.1)

    def pipeline_parallel():
        if rank == 0:
            schedule.step(batch[:, :-1])
        else:
            schedule.step(target=batch[:, 1:])
        with record_function("optimizer step"):
            pp_opt.step()
            pp_opt.zero_grad()

    return {"DDP": data_parallel(ddp), "FSDP": data_parallel(fsdp), "tensor parallel": tensor_parallel,
            "pipeline parallel": pipeline_parallel}


def table(rank):
    rows = {}  # (pattern, phase, call, gloo, bytes) -> number of calls in steps 1, 2 and 3, in order of first call
    # --8<-- [start:profile]
    for name, step in patterns(rank).items():
        for i in range(3):
            with profile(record_shapes=True) as prof:
                step()
            for phase, op, gloo, nbytes in calls(prof):
                rows.setdefault((name, phase, op, gloo, nbytes), [0, 0, 0])[i] += 1
    # --8<-- [end:profile]
    first = list(rows)
    keys = sorted(rows, key=lambda k: (first.index(next(f for f in first if f[0] == k[0])), PHASES.index(k[1]),
                                       first.index(k)))
    header = f"{'pattern':18} {'phase':9} {'call (c10d::)':21} {'gloo runs':10} {'bytes per call':>15}  step 1  2  3"
    lines = [header] + [f"{k[0]:18} {k[1]:9} {k[2]:21} {k[3]:10} {k[4]:>15}  {rows[k][0]:>6} {rows[k][1]:>2} "
                        f"{rows[k][2]:>2}" for k in keys]
    everyone = [None, None]
    dist.all_gather_object(everyone, rows)
    if rank == 1:  # only the pipeline's rows differ: one stage receives what the other sends
        def others(r):
            return {k: v for k, v in r.items() if k[0] != "pipeline parallel"}
        lines = [header, *(line for line in lines if line.startswith("pipeline")),
                 f"DDP, FSDP and tensor parallel: the same calls as rank 0: {others(rows) == others(everyone[0])}"]
    lines.append(f"calls during the optimizer steps, all patterns: "
                 f"{sum(sum(n) for k, n in rows.items() if k[1] == 'optimizer step')}")
    return lines


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in table(dist.get_rank()):
    print(line)
dist.destroy_process_group()
