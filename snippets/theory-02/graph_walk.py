# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# deps = ["scripts/minigpt"]
# artifacts = ["head.mmd", "head_and_loss.mmd", "head_on_states.mmd"]
# ///
import torch
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model, vocab

device = "cuda" if torch.cuda.is_available() else "cpu"
model = load_model(device)
W, b = (t.clone().requires_grad_() for t in lm_head(device))  # leaves of the graph
prompts = torch.cat([encode("walk : yesterday she"), encode("comer : ayer yo")]).to(device)  # 2 prompts, 5 tokens
with torch.no_grad():
    states = model.hidden(prompts)  # what the head reads in the model: (B, T, 64)
x = states[:, -1].clone().requires_grad_()  # the last position of each prompt: (2, 64)
states.requires_grad_()
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
    labels = {W: "W", b: "b", x: "x", states: "states"}
    lines = ["flowchart TB"]
    for node, ident in names.items():
        variable = getattr(node, "variable", None)
        extra = f" ({labels.get(variable, 'leaf')} {tuple(variable.shape)})" if variable is not None else ""
        saved = sorted(a.removeprefix("_saved_") for a in dir(node) if a.startswith("_saved_") and "sym" not in a)
        if node.name() == "ViewBackward0":  # a view saves only the shape it came from
            saved = [f"self_sym_sizes {tuple(node._saved_self_sym_sizes)}"]
        print(f"  {ident}: {node.name()}{extra}" + (f"  saves {saved}" if saved else ""))
        lines.append(f'  {ident}["{node.name().split("::")[-1]}{extra}"]')
    lines += [f"  {names[a]} --> {names[c]}" for a, c in edges]
    with open(diagram, "w") as f:
        f.write("\n".join(lines) + "\n")


# --8<-- [start:graphs]
y = F.linear(x, W, b)
print("graph of y = F.linear(x, W, b):")
walk(y.grad_fn, "head.mmd")
loss = F.cross_entropy(y, target)
print("\ngraph of loss = F.cross_entropy(y, target):")
walk(loss.grad_fn, "head_and_loss.mmd")
scores = F.linear(states, W, b)
print(f"\ngraph of F.linear(states, W, b) on the model's states {tuple(states.shape)} -> {tuple(scores.shape)}:")
walk(scores.grad_fn, "head_on_states.mmd")
# --8<-- [end:graphs]
