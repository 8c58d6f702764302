# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
"""Exercise: GPipe and interleaved 1F1B with 8 micro-batches instead of 4; what happens to the bubble?"""

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import encode, load_model
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe, ScheduleInterleaved1F1B

PROMPTS = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"] * 2
MICRO = 8


class Embed(torch.nn.Module):
    """The first quarter of the model: the token and position embeddings."""

    def __init__(self, model):
        super().__init__()
        self.tok, self.pos = model.tok, model.pos

    def forward(self, idx):
        return self.tok(idx) + self.pos(torch.arange(idx.shape[1]))


def quarters(model):
    """MiniGPT in four pieces: embeddings, block 0, block 1, final norm and the running example nn.Linear(64, 600)."""
    return [Embed(model), model.blocks[0], model.blocks[1], torch.nn.Sequential(model.ln_f, model.lm_head)]


def loss_fn(logits, target):
    return F.cross_entropy(logits.flatten(0, 1), target.flatten())


def record(stage, order):
    """Note each forward and backward as the stage starts it, as pipeline_order writes it: 2F0 = stage 2, F, mb 0."""
    def note(kind, run):
        def wrapped(i, *args, **kwargs):
            order.append(f"{stage.stage_index}{kind}{i}")
            return run(i, *args, **kwargs)
        return wrapped
    stage.forward_one_chunk = note("F", stage.forward_one_chunk)
    stage.backward_one_chunk = note("B", stage.backward_one_chunk)


def timeline(orders, n_stages):
    """Each rank runs its operations in its order, each as soon as the one it needs is done (F of stage s after F of
    s-1, B of s after B of s+1). A step is a forward, or a backward, of a quarter of the model."""
    size, done, start, free, pending = 4 // n_stages, {}, {}, [0, 0], [list(o) for o in orders]
    while any(pending):
        for r in (0, 1):
            while pending[r]:
                op = pending[r][0]
                s, step = int(op[0]), 1 if op[1] == "F" else -1
                needs = f"{s - step}{op[1:]}" if 0 <= s - step < n_stages else None
                if needs and needs not in done:
                    break
                start[op] = max(free[r], done.get(needs, 0))
                free[r] = done[op] = start[op] + size
                pending[r].pop(0)
    return start, max(free), size


def grid(orders, n_stages):
    """Rank 0's count of the step: its length in steps, and the share of rank-steps spent idle."""
    start, total, size = timeline(orders, n_stages)
    lines = []
    p, v, m, idle = 2, n_stages // 2, MICRO, 2 * total - size * sum(len(o) for o in orders)
    lines.append(f"    {total} steps, idle {idle} of {2 * total} rank-steps: bubble {idle / (2 * total):.3f}, "
                 f"(p-1)/(v*m+p-1) = {(p - 1) / (v * m + p - 1):.3f}")
    return lines


def schedules(rank):
    batch = torch.cat([encode(p) for p in PROMPTS])  # 8 sequences, 5 tokens each: one per micro-batch
    reference = load_model().train()
    loss_fn(reference(batch[:, :-1]), batch[:, 1:]).backward()
    lines = []
        # --8<-- [start:solution]
    for schedule in (ScheduleGPipe, ScheduleInterleaved1F1B):
        model, order, orders = load_model().train(), [], [None, None]
        pieces, cpu = quarters(model), torch.device("cpu")
        if schedule is ScheduleInterleaved1F1B:  # 4 stages, 2 per rank: rank 0 holds stages 0 and 2, rank 1 1 and 3
            stages = [PipelineStage(pieces[s], s, 4, cpu) for s in (rank, rank + 2)]
        else:  # 2 stages, 1 per rank: rank 0 holds quarters 0 and 1, rank 1 quarters 2 and 3
            stages = [PipelineStage(torch.nn.Sequential(*pieces[2 * rank : 2 * rank + 2]), rank, 2, cpu)]
        for stage in stages:
            record(stage, order)
        pipe = schedule(stages if len(stages) == 2 else stages[0], n_microbatches=MICRO, loss_fn=loss_fn)
        if rank == 0:
            pipe.step(batch[:, :-1])
        else:
            pipe.step(target=batch[:, 1:])
    # --8<-- [end:solution]
        dist.all_gather_object(orders, order)
        lines.append(f"{schedule.__name__}, {MICRO} micro-batches: this rank ran {len(order)} operations")
        if rank == 1:
            same = torch.allclose(model.lm_head.weight.grad, reference.lm_head.weight.grad, atol=1e-6)
            lines.append(f"    lm_head gradient equal to one process's on the whole batch: {same}")
        else:
            lines += grid(orders, 2 * len(stages))
    return lines


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in schedules(dist.get_rank()):
    print(line)
dist.destroy_process_group()
