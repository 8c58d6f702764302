# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# deps = ["scripts/minigpt"]
# artifacts = ["head.mmd", "head_and_loss.mmd"]
# ///
import torch
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model, vocab

device = "cuda" if torch.cuda.is_available() else "cpu"
model = load_model(device)
W, b = (t.clone().requires_grad_() for t in lm_head(device))  # leaves of the graph
with torch.no_grad():
    x = torch.cat([model.hidden(encode(p).to(device))[:, -1] for p in ("walk : yesterday she", "comer : ayer yo")])
x.requires_grad_()
target = torch.tensor([vocab().index("walked"), vocab().index("comí")], device=device)


def walk(root, diagram):
    """Breadth-first over grad_fn and next_functions, as .backward() will visit them."""
    names, edges, queue, index = {}, [], [root], 0
    while index < len(queue):
        node = queue[index]
        index += 1
        names.setdefault(node, f"n{len(names)}")
        for child, _ in node.next_functions:
            if child is None:
                continue
            if child not in names:
                names[child] = f"n{len(names)}"
                queue.append(child)
            edges.append((node, child))
    labels = {W: "W", b: "b", x: "x"}
    lines = ["flowchart TB"]
    for node, ident in names.items():
        variable = getattr(node, "variable", None)
        extra = f" ({labels.get(variable, 'leaf')} {tuple(variable.shape)})" if variable is not None else ""
        saved = sorted(a.removeprefix("_saved_") for a in dir(node) if a.startswith("_saved_") and "sym" not in a)
        print(f"  {ident}: {node.name()}{extra}" + (f"  saves {saved}" if saved else ""))
        lines.append(f'  {ident}["{node.name().split("::")[-1]}{extra}"]')
    lines += [f"  {names[a]} --> {names[c]}" for a, c in edges]
    with open(diagram, "w") as f:
        f.write("\n".join(lines) + "\n")


y = F.linear(x, W, b)
print("graph of y = F.linear(x, W, b):")
walk(y.grad_fn, "head.mmd")
loss = F.cross_entropy(y, target)
print("\ngraph of loss = F.cross_entropy(y, target):")
walk(loss.grad_fn, "head_and_loss.mmd")
