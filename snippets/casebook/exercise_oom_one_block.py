# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
"""Exercise: checkpoint one block of two; what it keeps, and what it recomputes."""

from collections import Counter

import torch
import torch.nn.functional as F
from minigpt import data, load_model
from minigpt.train import encode
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
tokens = encode([example.tokens for example in data.corpus()[::97][:32]], 16)
inputs, targets = tokens[:, :15], tokens[:, 1:16]
model = load_model().train()
started = Counter()
for i, block in enumerate(model.blocks):
    block.register_forward_pre_hook(lambda module, args, i=i: started.update([i]))
parameters = {p.untyped_storage().data_ptr() for p in model.parameters()}


def step(checkpointed):
    seen, kept = set(), [0]

    def pack(t):
        ptr = t.untyped_storage().data_ptr()
        if ptr not in parameters and ptr not in seen:
            seen.add(ptr)
            kept[0] += t.untyped_storage().nbytes()
        return t

    started.clear()
    # --8<-- [start:solution]
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        x = model.tok(inputs) + model.pos(torch.arange(15))
        for i, block in enumerate(model.blocks):
            x = checkpoint(block, x, use_reentrant=False) if i in checkpointed else block(x)
        loss = F.cross_entropy(model.lm_head(model.ln_f(x)).reshape(-1, 600), targets.reshape(-1), ignore_index=0)
    loss.backward()
    # --8<-- [end:solution]
    print(f"checkpointed {sorted(checkpointed)}: {kept[0]:,} bytes kept; block forwards started {dict(started)}")


for checkpointed in ({0, 1}, {1}, set()):
    step(checkpointed)
