# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 300
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


device = "cuda" if torch.cuda.is_available() else "cpu"
W, b = lm_head(device)
x = torch.randn(2, 64, device=device)
graphs = []


def show_graph(gm, example_inputs):
    """A compile backend that records the FX graph Dynamo captured, then runs it as is."""
    graphs.append(gm)
    return gm


# --8<-- [start:predict]
def predict(x):
    return tempered_head(x, W, b, 0.5).softmax(-1).argmax(-1)
# --8<-- [end:predict]


# --8<-- [start:compile]
compiled = torch.compile(predict, backend=show_graph, fullgraph=True)  # fullgraph: any graph break is an error
# --8<-- [end:compile]
print("same answer as eager:", torch.equal(compiled(x), predict(x)))
print(f"{len(graphs)} graph captured:")
graph = graphs[0].graph
for node in graph.nodes:
    if node.op == "call_function":
        print("  call", node.target)
print("the custom op is one node of the graph:",
      any(node.target is torch.ops.phase25.tempered_head.default for node in graph.nodes))

# And through Inductor: the op stays a call to our kernel, around generated code.
full = torch.compile(predict, fullgraph=True)
print("with Inductor:", torch.equal(full(x), predict(x)))
