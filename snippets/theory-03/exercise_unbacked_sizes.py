# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
"""Exercise: one graph with an unbacked size, called on inputs whose number of confident positions differs."""

import torch
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model

W, b = lm_head()
model = load_model()
graphs = []


def record(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


def confident(x):
    """The positions where the head gives its top word a probability above 0.5."""
    return F.linear(x, W, b).softmax(-1).amax(-1).gt(0.5).nonzero().squeeze(1)


# --8<-- [start:solution]
torch._dynamo.config.capture_dynamic_output_shape_ops = True
compiled = torch.compile(confident, backend=record, fullgraph=True)
with torch.no_grad():
    states = model.hidden(encode("walk : yesterday she"))[0]  # 5 positions, 64 features
for scale in (1.0, 0.5, 2.0, 0.1):  # the same shape each time; scaled states make the head more or less sure
    x = states * scale
    got = compiled(x)
    print(f"states x {scale}: confident positions {got.tolist()}, same as eager: {torch.equal(got, confident(x))}, "
          f"graphs so far: {len(graphs)}")
# --8<-- [end:solution]
