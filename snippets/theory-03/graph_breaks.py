# /// snippet
# devices = ["cpu"]
# timeout = 300
# env = { TORCH_LOGS = "graph_breaks", TORCH_LOGS_FORMAT = "%(message)s" }
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head, vocab

torch.manual_seed(0)
W, b = lm_head()
words = vocab()


def predict(x):
    probs = F.linear(x, W, b).softmax(-1)
    best = probs.argmax(-1)
    print("predicted", [words[i] for i in best.tolist()])  # Python side effect on tensor values
    if probs.max() > 0.5:  # control flow that depends on data
        return probs * 2
    return probs


explanation = torch._dynamo.explain(predict)(torch.randn(2, 64))
print("graphs:", explanation.graph_count, "| graph breaks:", explanation.graph_break_count)
for reason in explanation.break_reasons:
    print("-", reason.reason.splitlines()[0][:160])
    print("  at", reason.user_stack[-1].filename.rsplit("/", 1)[-1], "line", reason.user_stack[-1].lineno)
