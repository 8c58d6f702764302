# /// snippet
# devices = ["cuda"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
import triton
import triton.language as tl
from functorch.compile import make_boxed_func
from minigpt import lm_head
from torch._dynamo.backends.common import aot_autograd
from torch.library import triton_op, wrap_triton


@triton.jit
def add_bias_and_scale(y_ptr, b_ptr, n_cols, inv_T, BLOCK: tl.constexpr):
    """One program per row, in place: y = (y + b) / T."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    y = tl.load(y_ptr + row * n_cols + cols, mask=mask)
    bias = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * n_cols + cols, (y + bias) * inv_T, mask=mask)


# triton_op: a custom operator whose implementation torch.compile may look into.
# --8<-- [start:op]
@triton_op("phase25::tempered_head_triton", mutates_args=())
def tempered_head_triton(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor, T: float) -> torch.Tensor:
    y = x @ W.T  # a library matmul, into a new (rows, 600) tensor
    grid = (y.shape[0],)
    wrap_triton(add_bias_and_scale)[grid](y, b, y.shape[1], 1.0 / T, BLOCK=triton.next_power_of_2(y.shape[1]))
    return y
# --8<-- [end:op]


def setup_context(ctx, inputs, output):
    x, W, b, T = inputs
    ctx.save_for_backward(x, W)
    ctx.T = T


def backward(ctx, grad):
    x, W = ctx.saved_tensors
    g = grad / ctx.T
    return g @ W, g.T @ x, g.sum(0), None


tempered_head_triton.register_autograd(backward, setup_context=setup_context)
print("kernels for:", [k for k in ("CompositeExplicitAutograd", "CPU", "CUDA", "Meta", "Autograd")
                       if torch._C._dispatch_has_kernel_for_dispatch_key("phase25::tempered_head_triton", k)])

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head("cuda"))
x = torch.randn(4, 64, device="cuda")
target = torch.tensor([3, 7, 11, 13], device="cuda")
y = tempered_head_triton(x, W, b, 2.0)
print("eager, same scores as F.linear / T within 1e-5:", torch.allclose(y, F.linear(x, W, b) / 2.0, atol=1e-5))

# The graphs AOTAutograd hands to the compiler: the operator is opened up, its Triton kernel visible.
graphs = {}


def keep(kind):
    def compiler(gm, example_inputs):
        graphs[kind] = gm
        return make_boxed_func(gm.forward)
    return compiler


def loss_fn(x, W, b, target):
    return F.cross_entropy(tempered_head_triton(x, W, b, 2.0), target)


loss = torch.compile(loss_fn, backend=aot_autograd(fw_compiler=keep("forward"), bw_compiler=keep("backward")),
                     fullgraph=True)(x, W, b, target)
loss.backward()
for kind, gm in graphs.items():
    print(f"{kind} graph calls:", [node.target.name() for node in gm.graph.nodes
                                  if node.op == "call_function" and hasattr(node.target, "name")])

# A training step through Inductor: forward and backward compiled, gradients as in eager.
grads = [t.grad.clone() for t in (W, b)]
W.grad = b.grad = None
loss = torch.compile(loss_fn, fullgraph=True)(x, W, b, target)
loss.backward()
print("Inductor training step, same gradients as eager within 1e-5:",
      all(torch.allclose(g, t.grad, atol=1e-5) for g, t in zip(grads, (W, b), strict=True)))
