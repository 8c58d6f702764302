# /// snippet
# devices = ["cpu"]
# timeout = 60
# ///
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode


# --8<-- [start:function]
class TemperedHead(torch.autograd.Function):
    """The same operator as a Python autograd.Function: a forward, a backward, nothing registered."""

    @staticmethod
    def forward(x, W, b, T):
        return F.linear(x, W, b) / T
    # --8<-- [end:function]

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


x = torch.randn(2, 64, dtype=torch.float64, requires_grad=True)
W = torch.randn(600, 64, dtype=torch.float64, requires_grad=True)
b = torch.randn(600, dtype=torch.float64, requires_grad=True)
# --8<-- [start:apply]
y = TemperedHead.apply(x, W, b, 2.0)
# --8<-- [end:apply]
print("grad_fn:", y.grad_fn.name())
# --8<-- [start:gradcheck]
print("gradcheck:", torch.autograd.gradcheck(TemperedHead.apply, (x[:1], W[:5], b[:5], 2.0)))
# --8<-- [end:gradcheck]
print("an operator the dispatcher knows?", torch._C._dispatch_has_kernel("phase25::TemperedHead"))


class SeenOps(TorchDispatchMode):
    """Lists the operators that reach the dispatcher."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(func.overloadpacket._qualified_op_name)
        return func(*args, **(kwargs or {}))


with SeenOps() as seen:
    TemperedHead.apply(x, W, b, 2.0)
print("what the dispatcher sees of it:", seen.ops)
print("compiles without a graph break:", torch.equal(torch.compile(TemperedHead.apply, fullgraph=True, backend="eager")(
    x, W, b, 2.0), y))
