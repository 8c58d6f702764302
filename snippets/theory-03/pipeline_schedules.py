# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import encode, load_model
from torch.distributed.pipelining import PipelineStage, Schedule1F1B, ScheduleGPipe

PROMPTS = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]


class Body(torch.nn.Module):
    """Stage 0: embeddings and the transformer blocks."""

    def __init__(self, model):
        super().__init__()
        self.tok, self.pos, self.blocks = model.tok, model.pos, model.blocks

    def forward(self, idx):
        h = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
        for block in self.blocks:
            h = block(h)
        return h


class Head(torch.nn.Module):
    """Stage 1: the final norm and the running example, nn.Linear(64, 600)."""

    def __init__(self, model):
        super().__init__()
        self.ln_f, self.lm_head = model.ln_f, model.lm_head

    def forward(self, h):
        return self.lm_head(self.ln_f(h))


# --8<-- [start:loss]
def loss_fn(logits, target):
    return F.cross_entropy(logits.flatten(0, 1), target.flatten())
# --8<-- [end:loss]


def record(stage, order):
    """Note each forward and backward of a micro-batch as this stage starts it."""
    forward, backward = stage.forward_one_chunk, stage.backward_one_chunk

    def forward_one_chunk(i, *args, **kwargs):
        order.append(f"F{i}")
        return forward(i, *args, **kwargs)

    def backward_one_chunk(i, *args, **kwargs):
        order.append(f"B{i}")
        return backward(i, *args, **kwargs)

    stage.forward_one_chunk, stage.backward_one_chunk = forward_one_chunk, backward_one_chunk


def timeline(orders, backward_steps):
    """Each stage runs its operations in the order it ran them, each as soon as it may: F_i on stage 1 after
    F_i on stage 0, B_i on stage 0 after B_i on stage 1. A forward takes 1 step, a backward `backward_steps`."""
    done, start, free, pending = {}, {}, [0, 0], [list(o) for o in orders]
    while any(pending):
        for s in (0, 1):
            while pending[s]:
                op = pending[s][0]
                needs = (1 - s, op) if (op[0] == "F") == (s == 1) else None  # the other stage's same operation
                if needs and needs not in done:
                    break
                begin = max(free[s], done.get(needs, 0))
                free[s] = done[(s, op)] = begin + (1 if op[0] == "F" else backward_steps)
                start[(s, op)] = begin
                pending[s].pop(0)
    return start, max(free)


def schedules(rank):
    batch = torch.cat([encode(p) for p in PROMPTS])  # 4 prompts, 5 tokens each
    reference = load_model().train()
    loss_fn(reference(batch[:, :-1]), batch[:, 1:]).backward()
    lines = []
    # --8<-- [start:schedules]
    for schedule, m in ((ScheduleGPipe, 2), (ScheduleGPipe, 4), (Schedule1F1B, 4)):
        model = load_model().train()
        stage = PipelineStage(Body(model) if rank == 0 else Head(model), rank, 2, torch.device("cpu"))
        order = []
        record(stage, order)
        pipe = schedule(stage, n_microbatches=m, loss_fn=loss_fn)
        if rank == 0:
            pipe.step(batch[:, :-1])
        else:
            pipe.step(target=batch[:, 1:])
    # --8<-- [end:schedules]
        orders = [None, None]
        dist.all_gather_object(orders, order)
        in_flight = max(sum(1 if op[0] == "F" else -1 for op in order[: k + 1]) for k in range(len(order)))
        lines.append(f"{schedule.__name__}, {m} micro-batches: this stage ran {' '.join(order)}; "
                     f"activations of at most {in_flight} micro-batch{'es' if in_flight > 1 else ''} held at once")
        if rank == 1:
            same = torch.allclose(model.lm_head.weight.grad, reference.lm_head.weight.grad, atol=1e-6)
            lines.append(f"    lm_head gradient equal to one process's on the whole batch: {same}")
        if rank == 0:
            p = 2
            for backward_steps in (1, 2):
                start, total = timeline(orders, backward_steps)
                busy = sum(1 if op[0] == "F" else backward_steps for o in orders for op in o)
                if backward_steps == 1:
                    lines.append(("    step      " + "".join(f"{t:<3}" for t in range(total))).rstrip())
                    for s in (0, 1):
                        cells = ["." for _ in range(total)]
                        for (stage_id, op), t in start.items():
                            if stage_id == s:
                                cells[t] = op
                        lines.append((f"    stage {s}   " + "".join(f"{c:<3}" for c in cells)).rstrip())
                lines.append(f"    a backward of {backward_steps} step{'s' if backward_steps > 1 else ''}: "
                             f"{total} steps, idle {p * total - busy} of {p * total} stage-steps: bubble "
                             f"{(p * total - busy) / (p * total):.3f}, (p-1)/(m+p-1) = {(p - 1) / (m + p - 1):.3f}")
    return lines


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in schedules(dist.get_rank()):
    print(line)
dist.destroy_process_group()
