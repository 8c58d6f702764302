# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.distributed as dist
from minigpt import encode, load_model, vocab
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe
from torch.profiler import profile


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


def messages(prof):
    """The point-to-point calls this rank made, with the shape of each tensor, as the profiler recorded them."""
    events = sorted(prof.events(), key=lambda e: e.time_range.start)
    return [f"{e.name.removeprefix('c10d::').rstrip('_')} {tuple(e.structured_input_shapes[0][0])}"
            for e in events if e.name in ("c10d::send", "c10d::recv_")]


def pipeline(rank):
    model = load_model()
    words = vocab()
    # --8<-- [start:stages]
    stage_module = Body(model) if rank == 0 else Head(model)
    params = sum(p.numel() for p in stage_module.parameters())
    lines = [f"stage {rank}: {type(stage_module).__name__}, {params:,} parameters"]
    stage = PipelineStage(stage_module, rank, 2, torch.device("cpu"))
    schedule = ScheduleGPipe(stage, n_microbatches=2)
    prompts = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]
    batch = torch.cat([encode(p) for p in prompts])  # 4 prompts, 5 tokens each
    with torch.no_grad(), profile(record_shapes=True) as prof:
        if rank == 0:
            schedule.step(batch)
        else:
            logits = schedule.step()
    # --8<-- [end:stages]
    lines.append(f"messages: {', '.join(messages(prof))}")
    if rank == 1:
        lines.append(f"produced logits {tuple(logits.shape)}")
        lines.append(f"next words: {[words[i] for i in logits[:, -1].argmax(-1).tolist()]}")
        lines.append(f"same as the whole model on one process: {torch.allclose(logits, model(batch), atol=1e-5)}")
    dist.barrier()
    return lines


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in pipeline(dist.get_rank()):
    print(line)
dist.destroy_process_group()
