# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
"""Exercise: torch.export of the torch.cond branch; are both branches in the exported program?"""

import torch
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model

W, b = lm_head()
with torch.no_grad():
    x = load_model().hidden(encode("walk : yesterday she"))[0]


def unsure(z):
    return z.softmax(-1).amax(-1).lt(0.5).any()


class WithCond(torch.nn.Module):
    def forward(self, x):
        z = F.linear(x, W, b)
        return torch.cond(unsure(z), lambda z: (z / 0.5).softmax(-1), lambda z: z.softmax(-1), (z,))


# --8<-- [start:solution]
program = torch.export.export(WithCond(), (x[[1, 4]],))  # traced on confident rows: the false branch is taken
code = program.graph_module.code
print("exported:", next(line.strip() for line in code.splitlines() if "higher_order.cond" in line))
for name, sub in program.graph_module.named_children():
    print(f"  {name}:", " ".join(str(n.target).split(".")[-2] for n in sub.graph.nodes if n.op == "call_function"))
module = program.module()
for rows in ([1, 4], [2, 3]):
    print(f"rows {rows}: unsure {unsure(F.linear(x[rows], W, b)).item()}, "
          f"same as eager: {torch.equal(module(x[rows]), WithCond()(x[rows]))}")
# --8<-- [end:solution]
