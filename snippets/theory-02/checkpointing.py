# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
from collections import Counter

import torch
import torch.nn.functional as F
from minigpt import data, load_model
from minigpt.train import encode
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
model = load_model().train()
tokens = encode([example.tokens for example in data.corpus()[::97][:32]], 16)  # 32 sentences of the corpus
inputs, targets = tokens[:, :-1], tokens[:, 1:]  # predict each next token: 32 x 15 positions
parameters = {p.untyped_storage().data_ptr() for p in model.parameters()}

# Count the forwards of each block: a pre-hook fires when one starts, a hook when it returns.
started, finished = Counter(), Counter()
for i, block in enumerate(model.blocks):
    # --8<-- [start:count]
    block.register_forward_pre_hook(lambda module, args, i=i: started.update([i]))
    block.register_forward_hook(lambda module, args, output, i=i: finished.update([i]))
# --8<-- [end:count]


def training_step(use_checkpoint, table=True):
    saved, part = [], ["embeddings"]

    def pack(t):  # every tensor the graph keeps for backward passes through here
        saved.append((part[0], t))
        return t

    # --8<-- [start:step]
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        x = model.tok(inputs) + model.pos(torch.arange(inputs.shape[1]))
        for i, block in enumerate(model.blocks):
            part[0] = f"block {i}"
            x = checkpoint(block, x, use_reentrant=False) if use_checkpoint else block(x)
        # --8<-- [end:step]
        part[0] = "ln_f + head"
        logits = model.lm_head(model.ln_f(x))
        part[0] = "loss"
        loss = F.cross_entropy(logits.reshape(-1, 600), targets.reshape(-1), ignore_index=0)

    # Bytes kept alive: each storage once, parameters left out (they live anyway).
    rows, counted = {}, set()
    for name, t in saved:
        storage = t.untyped_storage()
        new = storage.data_ptr() not in parameters and storage.data_ptr() not in counted
        counted.add(storage.data_ptr())
        row = rows.setdefault(name, {"tensors": 0, "bytes": 0, "shapes": Counter()})
        row["tensors"] += 1
        row["bytes"] += storage.nbytes() if new else 0
        row["shapes"][tuple(t.shape)] += 1
    total = sum(row["bytes"] for row in rows.values())
    if table:
        print(f"  {'part':<12} {'tensors saved':>13} {'new bytes kept':>15}")
        for name, row in rows.items():
            print(f"  {name:<12} {row['tensors']:>13} {row['bytes']:>15,}")
        print(f"  {'total':<12} {len(saved):>13} {total:>15,}")

    forward = (dict(started), dict(finished))
    started.clear(), finished.clear()
    loss.backward()
    if table:
        print("  block forwards in the forward pass: started", forward[0], "finished", forward[1])
    print("  block forwards during backward:     started", dict(started), "finished", dict(finished))
    started.clear(), finished.clear()
    grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    return rows, total, loss.detach(), grads


print("plain training step:")
rows, plain, loss, grads = training_step(use_checkpoint=False)
print("  what block 0 saves, by shape:", dict(rows["block 0"]["shapes"]))
print("\nwith both blocks checkpointed:")
rows, kept, loss_ckpt, grads_ckpt = training_step(use_checkpoint=True)
print("  what block 0 saves, by shape:", dict(rows["block 0"]["shapes"]))
print(f"\nbytes kept for backward: {plain:,} -> {kept:,} ({100 * (plain - kept) / plain:.0f} % less)")
print("same loss and gradients, bit for bit:",
      torch.equal(loss, loss_ckpt) and all(torch.equal(a, b) for a, b in zip(grads, grads_ckpt, strict=True)))

# The recomputed forwards never finished: checkpoint stops each one as soon as it has rebuilt
# the last tensor the backward needs. Without that early stop, they run to the end.
print("\nagain, with torch.utils.checkpoint.set_checkpoint_early_stop(False):")
# --8<-- [start:early_stop]
with torch.utils.checkpoint.set_checkpoint_early_stop(False):
    training_step(use_checkpoint=True, table=False)
# --8<-- [end:early_stop]
