# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head


@torch.library.custom_op("phase25::tempered_head", mutates_args=())
def tempered_head(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor, T: float) -> torch.Tensor:
    return F.linear(x, W, b) / T


@tempered_head.register_fake
def _(x, W, b, T):
    return x.new_empty(x.shape[0], W.shape[0])


class TemperedHead(torch.autograd.Function):
    """The same computation as an autograd.Function, as in the snippet above."""

    @staticmethod
    def forward(x, W, b, T):
        return F.linear(x, W, b) / T

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, W, b, T = inputs
        ctx.save_for_backward(x, W)
        ctx.T = T

    @staticmethod
    def backward(ctx, grad):
        x, W = ctx.saved_tensors
        g = grad / ctx.T
        return g @ W, g.T @ x, g.sum(0), None


class Predict(torch.nn.Module):
    """The head with a temperature of 0.5, then a softmax over the 600 words."""

    def __init__(self, head):
        super().__init__()
        W, b = lm_head()
        self.W, self.b, self.head = torch.nn.Parameter(W), torch.nn.Parameter(b), head

    # --8<-- [start:forward]
    def forward(self, x):
        return self.head(x, self.W, self.b, 0.5).softmax(-1)
# --8<-- [end:forward]


torch.manual_seed(0)
x = torch.randn(2, 64)
# --8<-- [start:export]
for title, head in (("custom_op", tempered_head), ("autograd.Function", TemperedHead.apply)):
    program = torch.export.export(Predict(head), (x,))
    # --8<-- [end:export]
    calls = [str(node.target) for node in program.graph.nodes if node.op == "call_function"]
    print(f"torch.export of the {title} version: {calls}")
