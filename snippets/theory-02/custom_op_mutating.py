# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import torch
from functorch.compile import make_boxed_func
from minigpt import lm_head, vocab
from torch._dynamo.backends.common import aot_autograd
from torch.func import functionalize
from torch.fx.experimental.proxy_tensor import make_fx


# --8<-- [start:op]
@torch.library.custom_op("phase25::bias_scale_", mutates_args=("scores",))
def bias_scale_(scores: torch.Tensor, b: torch.Tensor, T: float) -> None:
    scores.add_(b).div_(T)  # in place: the caller's scores become (scores + b) / T
# --8<-- [end:op]


@bias_scale_.register_fake
def _(scores, b, T):
    return None  # nothing to allocate: the result is written into scores


def table():
    """The keys that have a kernel for the operator."""
    return [k for k in ("CompositeExplicitAutograd", "ADInplaceOrView", "Meta", "Autograd")
            if torch._C._dispatch_has_kernel_for_dispatch_key("phase25::bias_scale_", k)]


def predict(scores, b):
    """Finish the head in place, then pick the most likely next word."""
    bias_scale_(scores, b, 2.0)
    return scores.argmax(-1)


print("schema:", bias_scale_._opoverload._schema)
print("kernels for:", table())
torch.manual_seed(0)
W, b = lm_head()
x = torch.randn(2, 64)
expected = (x @ W.T + b) / 2.0
scores = x @ W.T
version = scores._version
print("eager: predicts", [vocab()[i] for i in predict(scores, b)], "| scores edited in place:",
      torch.allclose(scores, expected, atol=1e-6), "| version counter", version, "->", scores._version)

try:
    # --8<-- [start:functionalize]
    make_fx(functionalize(predict))(x @ W.T, b)
# --8<-- [end:functionalize]
except RuntimeError as e:
    print("\ntorch.func.functionalize:", str(e).split(". ")[0])


def show(gm, example_inputs):
    """A compiler that prints the graph AOTAutograd hands it, then runs it as it is."""
    print(gm.code.strip())
    return make_boxed_func(gm.forward)


for keep in (False, True):
    torch._dynamo.reset()
    print(f"\n--- aot_autograd, keep_inference_input_mutations={keep}")
    # --8<-- [start:compile]
    compiled = torch.compile(predict, fullgraph=True,
                             backend=aot_autograd(fw_compiler=show, keep_inference_input_mutations=keep))
    # --8<-- [end:compile]
    scores = x @ W.T
    words = compiled(scores, b)
    print("the caller's scores edited:", torch.allclose(scores, expected, atol=1e-6),
          "| same words as eager:", torch.equal(words, expected.argmax(-1)))
