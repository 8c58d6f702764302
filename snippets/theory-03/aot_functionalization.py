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

torch.manual_seed(0)
W, b = lm_head()


def show(title):
    """A compiler for AOTAutograd's forward graph that prints it and runs it as it is."""
    def compiler(gm, example_inputs):
        print(f"--- {title}")
        print(gm.code.strip())
        return make_boxed_func(gm.forward)
    return compiler


# --8<-- [start:mutations]
def scores_(x, calls):
    scores = F.linear(x, W, b)
    scores.sub_(scores.amax(-1, keepdim=True))  # in place, on an intermediate
    calls.add_(1)  # in place, on an input
    return scores.exp()
# --8<-- [end:mutations]


calls = torch.zeros(())
x = torch.randn(2, 64)
# --8<-- [start:default]
torch.compile(scores_, backend=aot_autograd(fw_compiler=show("AOTAutograd's default")))(x, calls)
# --8<-- [end:default]
print("calls after the first compiled call:", calls.item())
torch._dynamo.reset()
# --8<-- [start:keep_mutations]
torch.compile(scores_, backend=aot_autograd(fw_compiler=show("keep_inference_input_mutations=True"),
                                            keep_inference_input_mutations=True))(x, calls)
# --8<-- [end:keep_mutations]
print("calls after the second compiled call:", calls.item())
