# /// snippet
# devices = ["cpu"]
# timeout = 300
# env = { TORCH_LOGS_FORMAT = "%(message)s" }
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model

W, b = lm_head()
with torch.no_grad():
    x = load_model().hidden(encode("walk : yesterday she"))[0]  # the head's input: 5 positions, 64 features
graphs = []


def record(gm, example_inputs):
    """A backend that keeps each graph Dynamo hands it and runs it as it is."""
    graphs.append(gm)
    return gm.forward


def show(fn, label, *needles):
    """Compile fn afresh, run it on x, print the graph count and the graph lines that contain a needle."""
    torch._dynamo.reset()
    graphs.clear()
    same = torch.equal(torch.compile(fn, backend=record)(x), fn(x))
    print(f"{label}: {len(graphs)} graph(s), same as eager: {same}")
    for gm in graphs:
        values = {n.name: n.meta.get("example_value") for n in gm.graph.nodes}
        for line in (line.strip().split(";")[0] for line in gm.code.splitlines()):
            if any(needle in line for needle in needles) and not line.startswith("return"):
                value = values[line.split(" = ")[0]]
                print(f"    {line:54} # {tuple(value.shape) if hasattr(value, 'shape') else value}")


def confident(x):
    """The positions where the head gives its top word a probability above 0.5."""
    return F.linear(x, W, b).softmax(-1).amax(-1).gt(0.5).nonzero().squeeze(1)


def top_row(x):
    """The row of W that scores the last position's top word."""
    return W[F.linear(x, W, b)[-1].argmax().item()]


print("eager: confident positions", confident(x).tolist())
print("eager: top word of the last position", F.linear(x, W, b)[-1].argmax().item())
# --8<-- [start:flags]
show(confident, "nonzero, default config", "nonzero")
torch._dynamo.config.capture_dynamic_output_shape_ops = True
show(confident, "nonzero, capture_dynamic_output_shape_ops=True", "nonzero", "sym_size")
show(top_row, "item, default config", ".item()", "_[")
torch._dynamo.config.capture_scalar_outputs = True
show(top_row, "item, capture_scalar_outputs=True", ".item()", "select")
# --8<-- [end:flags]


# --8<-- [start:branch]
def unsure(z):
    """True if, at some position, the head gives its top word a probability below 0.5."""
    return z.softmax(-1).amax(-1).lt(0.5).any()


def branchy(x):
    """Sharpen the scores (temperature 0.5) if the head is unsure: a Python if on a tensor's value."""
    z = F.linear(x, W, b)
    return (z / 0.5).softmax(-1) if unsure(z).item() else z.softmax(-1)


def with_cond(x):
    """The same branch, as torch.cond."""
    z = F.linear(x, W, b)
    return torch.cond(unsure(z), lambda z: (z / 0.5).softmax(-1), lambda z: z.softmax(-1), (z,))
# --8<-- [end:branch]


# --8<-- [start:fullgraph_if]
try:
    torch.compile(branchy, backend=record, fullgraph=True)(x)
# --8<-- [end:fullgraph_if]
except torch._dynamo.exc.UserError as e:
    print(f"if on .item(), fullgraph=True: {type(e).__module__}.{type(e).__name__}\n    {str(e).splitlines()[0]}")
torch._dynamo.reset()
graphs.clear()
# --8<-- [start:cond]
compiled = torch.compile(with_cond, backend=record, fullgraph=True)
for rows in ([1, 4], [2, 3]):
    same = torch.equal(compiled(x[rows]), with_cond(x[rows]))
    # --8<-- [end:cond]
    print(f"torch.cond, rows {rows}: unsure {unsure(F.linear(x[rows], W, b)).item()}, same as eager: {same}")
print(f"graphs for both calls: {len(graphs)}; nodes:", " ".join(n.name for n in graphs[0].graph.nodes))
print("   ", next(line.strip().split(";")[0] for line in graphs[0].code.splitlines() if "higher_order" in line))
for name, sub in graphs[0].named_children():
    print(f"    {name}:", " ".join(n.name for n in sub.graph.nodes))
