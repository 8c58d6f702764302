# /// snippet
# devices = ["cpu"]
# timeout = 300
# env = { TORCH_LOGS = "graph_breaks", TORCH_LOGS_FORMAT = "%(message)s" }
# deps = ["scripts/minigpt"]
# ///
import gc
import inspect

import torch
import torch.nn.functional as F
from minigpt import lm_head, vocab

torch.manual_seed(0)
W, b = lm_head()
words = vocab()


# --8<-- [start:predict]
def predict(x):
    probs = F.linear(x, W, b).softmax(-1)
    best = probs.argmax(-1)
    print("predicted", [words[i] for i in best.tolist()])  # Python side effect on tensor values
    if probs.max() > 0.5:  # control flow that depends on data
        return probs * 2
    return probs
# --8<-- [end:predict]


x = torch.randn(2, 64)
# --8<-- [start:explain]
explanation = torch._dynamo.explain(predict)(x)
print(f"explain: graph_count {explanation.graph_count} | graph_break_count {explanation.graph_break_count}"
      f" | break_reasons {len(explanation.break_reasons)}")
for i, (graph, reason) in enumerate(zip(explanation.graphs, explanation.break_reasons, strict=True), start=1):
    nodes = [n.name for n in graph.graph.nodes if n.op not in ("placeholder", "output")]
    print(f"  graph {i}: {', '.join(nodes)}; ended at line {reason.user_stack[-1].lineno}:",
          reason.reason.splitlines()[0][:80])
# --8<-- [end:explain]
source = inspect.getsource(torch._dynamo.eval_frame.explain)
print("explain computes:", next(line.strip() for line in source.splitlines() if "graph_break_count =" in line))
print("the branch on this input: probs.max() > 0.5 is", bool(F.linear(x, W, b).softmax(-1).max() > 0.5))
# Drop the compiled code while Dynamo's caches still exist, so nothing of it is finalized at interpreter exit.
explanation = None
torch._dynamo.reset()
gc.collect()
