# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head, vocab
from torch.func import functionalize
from torch.fx.experimental.proxy_tensor import make_fx

W, b = lm_head()
torch.manual_seed(0)
x = torch.randn(2, 64)
print("the first two words of the vocabulary:", vocab()[:2])


# --8<-- [start:function]
def next_word_probs(x, W, b):
    scores = F.linear(x, W, b)
    scores[:, :2].fill_(float("-inf"))  # never predict <pad> or <bos>: in place, through a view
    return scores.softmax(-1)
# --8<-- [end:function]


expected = next_word_probs(x, W, b)
for title, program in (
    ("as written", next_word_probs),
    # --8<-- [start:functionalize]
    ("functionalize(next_word_probs)", functionalize(next_word_probs)),
    ('functionalize(next_word_probs, remove="mutations_and_views")',
     functionalize(next_word_probs, remove="mutations_and_views")),
):
    graph = make_fx(program)(x, W, b)  # trace the aten ops that run, into an FX graph
    # --8<-- [end:functionalize]
    print(f"--- {title}")
    print(graph.code.strip())
    print("same probabilities, within 1e-6:", torch.allclose(graph(x, W, b), expected, rtol=0, atol=1e-6))
