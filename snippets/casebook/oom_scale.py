# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
"""What one MiniGPT training step keeps alive for its backward, how it grows, and what each remedy changes."""

from collections import Counter

import torch
import torch.distributed as dist
import torch.nn.functional as F
from minigpt import data, load_model
from minigpt.train import encode
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

dist.init_process_group("gloo")
torch.manual_seed(0)
tokens = encode([example.tokens for example in data.corpus()[::97][:32]], 16)  # 32 sentences, 16 tokens each
started = Counter()  # block forwards started, counted by pre-hooks


def fresh_model():
    model = load_model().train()
    for i, block in enumerate(model.blocks):
        block.register_forward_pre_hook(lambda module, args, i=i: started.update([i]))
    return model


# --8<-- [start:measure]
def saved_bytes(model, batch, length, use_checkpoint=False, wrapper=None):
    """A training step under saved-tensor hooks: new bytes kept for backward, by part (each storage once)."""
    inputs, targets = tokens[:batch, :length], tokens[:batch, 1 : length + 1]
    parameters = {p.untyped_storage().data_ptr() for p in model.parameters()}
    rows, seen, part = Counter(), set(), ["embeddings"]

    def pack(t):
        ptr = t.untyped_storage().data_ptr()
        if ptr not in parameters and ptr not in seen:
            seen.add(ptr)
            rows[part[0]] += t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        if wrapper is not None:  # the whole forward through a wrapper (DDP), counted as one part
            part[0] = "whole model"
            loss = F.cross_entropy(wrapper(inputs).reshape(-1, 600), targets.reshape(-1), ignore_index=0)
            loss.backward()
            return rows
        x = model.tok(inputs) + model.pos(torch.arange(length))
        for i, block in enumerate(model.blocks):
            part[0] = f"block {i}"
            x = checkpoint(block, x, use_reentrant=False) if use_checkpoint else block(x)
        part[0] = "ln_f + head + loss"
        logits = model.lm_head(model.ln_f(x))
        loss = F.cross_entropy(logits.reshape(-1, 600), targets.reshape(-1), ignore_index=0)
    loss.backward()
    return rows
# --8<-- [end:measure]


# --8<-- [start:symptom]
model = fresh_model()
for batch, length in [(8, 8), (8, 15), (32, 8), (32, 15)]:
    total = sum(saved_bytes(model, batch, length).values())
    per_token = total // (batch * length)
    print(f"batch {batch:>2} x {length:>2} positions: {total:>9,} bytes kept for backward, {per_token:,} per token")
params = sum(p.numel() * p.element_size() for p in model.parameters())
print(f"for comparison: the parameters, {params:,} bytes")
# --8<-- [end:symptom]
# --8<-- [start:where]
rows = saved_bytes(model, 32, 15)
print("batch 32 x 15, by part: " + ", ".join(f"{name} {b:,}" for name, b in rows.items()))
# --8<-- [end:where]
# --8<-- [start:checkpoint]
started.clear()
plain = sum(saved_bytes(model, 32, 15).values())
plain_forwards = dict(started)
started.clear()
kept = sum(saved_bytes(model, 32, 15, use_checkpoint=True).values())
print(f"checkpointed blocks: {plain:,} -> {kept:,} bytes; block forwards started {plain_forwards} -> {dict(started)}")
# --8<-- [end:checkpoint]
# --8<-- [start:find_unused]
for flag in (False, True):
    ddp = DDP(fresh_model(), find_unused_parameters=flag)
    total = sum(saved_bytes(ddp.module, 32, 15, wrapper=ddp).values())
    print(f"DDP, find_unused_parameters={flag}: {total:,} bytes kept for backward")
# --8<-- [end:find_unused]
# --8<-- [start:fsdp]
model = fresh_model()
for block in model.blocks:
    fully_shard(block)
fully_shard(model)
local = sum(p.to_local().numel() * p.element_size() for p in model.parameters())
print(f"FSDP on 2 ranks: parameters held by this rank {local:,} bytes of {params:,}")
with torch.profiler.profile() as prof:
    F.cross_entropy(model(tokens[:32, :15]).reshape(-1, 600), tokens[:32, 1:16].reshape(-1), ignore_index=0).backward()
sent = Counter(e.name for e in prof.events() if e.name in ("c10d::_allgather_base_", "c10d::_reduce_scatter_base_"))
gathers, scatters = sent["c10d::_allgather_base_"], sent["c10d::_reduce_scatter_base_"]
print(f"  the price, one training step: all-gathers {gathers}, reduce-scatters {scatters}")
# --8<-- [end:fsdp]
dist.destroy_process_group()
