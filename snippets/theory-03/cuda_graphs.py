# /// snippet
# devices = ["cuda"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
from collections import Counter

import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch.profiler import ProfilerActivity, profile

torch.manual_seed(0)
W, b = lm_head("cuda")


# --8<-- [start:probs]
def probs(x):
    return F.linear(x, W, b).softmax(-1)
# --8<-- [end:probs]


def launches(fn, x, calls=3):
    """The CUDA API calls that launch work, over `calls` calls of fn after three calls to warm it up."""
    for _ in range(3):
        fn(x)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn(x)
        torch.cuda.synchronize()
    counted = Counter(e.name for e in prof.events() if "Launch" in e.name and e.device_type.name == "CPU")
    kernels = Counter(e.name for e in prof.events()
                      if e.device_type.name == "CUDA" and not e.name.startswith(("Memcpy", "Memset")))
    return dict(sorted(counted.items())), len(kernels), sum(kernels.values())


x = torch.randn(2, 64, device="cuda")
# --8<-- [start:three_ways]
for label, fn in (("eager", probs), ("default", torch.compile(probs)),
                  ("reduce-overhead", torch.compile(probs, mode="reduce-overhead"))):
    api, distinct, total = launches(fn, x)
    # --8<-- [end:three_ways]
    print(f"{label:<16} 3 calls: launch calls {api}; GPU kernels run: {total} ({distinct} distinct)")

# A replay writes its outputs into the same memory every time: an output kept from an earlier call is overwritten.
# --8<-- [start:replay]
torch._dynamo.reset()
graphed = torch.compile(probs, mode="reduce-overhead")
for _ in range(3):
    graphed(x)
first = graphed(x)
second = graphed(torch.randn(2, 64, device="cuda"))
# --8<-- [end:replay]
try:
    print("first output still readable:", first.sum().item() > 0)
except RuntimeError as error:
    print("reading the first output after the second call:", type(error).__name__ + ":", str(error).splitlines()[0])
# --8<-- [start:clone]
kept = graphed(x).clone()  # a copy outside the graph's memory pool survives the next replay
graphed(torch.randn(2, 64, device="cuda"))
# --8<-- [end:clone]
print("a clone of an output survives the next call:", torch.allclose(kept, probs(x)))
