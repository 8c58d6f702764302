# /// snippet
# devices = ["cpu"]
# timeout = 180
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = lm_head()
W.requires_grad_(True)
x = torch.randn(4, 64)
calls = []


# --8<-- [start:scores]
def scores(x, W, b):
    """Logs the shapes it is given: a print is a side effect Dynamo will not put in a graph."""
    print("   scores() runs with x of type", type(x).__name__)
    return F.linear(x, W, b)
# --8<-- [end:scores]


def count_graphs(fn):
    graphs = []

    def backend(gm, example_inputs):
        calls = [n for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
        graphs.append([getattr(n.target, "__name__", n.target) for n in calls])
        return gm.forward

    torch._dynamo.reset()
    compiled = torch.compile(fn, backend=backend)
    out = compiled(x, W, b)
    print("   second call:")
    compiled(x, W, b)
    return out, graphs


# --8<-- [start:plain]
plain = lambda x, W, b: scores(x, W, b).softmax(-1)  # noqa: E731
# --8<-- [end:plain]
print("-- the plain function, compiled, first call:")
out, graphs = count_graphs(plain)
print(f"   {len(graphs)} graph(s):", *graphs)

# --8<-- [start:marked]
marked = torch.compiler.nonstrict_trace(scores)
wrapped = lambda x, W, b: marked(x, W, b).softmax(-1)  # noqa: E731
# --8<-- [end:marked]
print("-- marked with nonstrict_trace, compiled, first call:")
out, graphs = count_graphs(wrapped)
print(f"   {len(graphs)} graph(s):", *graphs)

print("-- under aot_eager, AOTAutograd traces into it: the print runs while tracing, then never again")
torch._dynamo.reset()
# --8<-- [start:aot_eager]
compiled = torch.compile(wrapped, backend="aot_eager")
first = compiled(x, W, b)
print("   second call:")
second = compiled(x, W, b)
# --8<-- [end:aot_eager]
reference = F.linear(x, W, b).softmax(-1)
print("   same result as eager:", torch.allclose(second, reference), "| grad reaches W:", end=" ")
second.sum().backward()
print(W.grad is not None)
