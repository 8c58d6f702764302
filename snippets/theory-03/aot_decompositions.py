# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from functorch.compile import make_boxed_func
from minigpt import lm_head
from torch._dynamo.backends.common import aot_autograd
from torch._inductor.decomposition import select_decomp_table


def show(title):
    def compiler(gm, example_inputs):
        print(f"--- {title}")
        print(gm.code.strip())
        return make_boxed_func(gm.forward)
    return compiler


# --8<-- [start:log_probs]
def log_probs(scores):
    return F.log_softmax(scores, -1)
# --8<-- [end:log_probs]


torch.manual_seed(0)
W, b = lm_head()
scores = F.linear(torch.randn(2, 64), W, b)  # the head's scores, computed eagerly
# --8<-- [start:tables]
torch.compile(log_probs, backend=aot_autograd(fw_compiler=show("no decomposition table")))(scores)
torch._dynamo.reset()
table = select_decomp_table()
# --8<-- [end:tables]
overloads = [key for key in table if isinstance(key, torch._ops.OpOverload)]  # one overload each: .default, .out...
others = [type(key).__name__ for key in table if not isinstance(key, torch._ops.OpOverload)]
print(f"Inductor's decomposition table: {len(table)} keys: {len(overloads)} OpOverloads of "
      f"{len({key.overloadpacket for key in overloads})} operators, and {others}")
print(f"{torch.ops.aten._log_softmax.default} among them:", torch.ops.aten._log_softmax.default in table)
# --8<-- [start:inductor_table]
torch.compile(log_probs, backend=aot_autograd(fw_compiler=show("Inductor's decomposition table"),
                                              decompositions=table))(scores)
# --8<-- [end:inductor_table]
