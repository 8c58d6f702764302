# /// snippet
# devices = ["cpu"]
# timeout = 300
# env = { TORCH_LOGS_FORMAT = "%(message)s" }
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

W, b = lm_head()
count = {"compiled": 0, "ran": 0}


def counting(gm, example_inputs):
    """A backend that counts its compilations, and the calls of the code it returns."""
    count["compiled"] += 1

    def run(*args):
        count["ran"] += 1
        return gm.forward(*args)

    return run


def head(x):
    return F.linear(x, W, b).softmax(-1)


def call(label, batch):
    """Call the compiled head on a batch; say whether it compiled, and whether compiled code ran."""
    before = dict(count)
    try:
        compiled(torch.randn(batch, 64))
    except RuntimeError as e:
        print(f"{label:20} batch {batch}: RuntimeError: {str(e).split('. filename')[0]}")
        return
    new = count["compiled"] - before["compiled"]
    print(f"{label:20} batch {batch}: compiled {new}, compiled code ran: {count['ran'] > before['ran']}")


# --8<-- [start:limit]
config = torch._dynamo.config
print("recompile_limit:", config.recompile_limit, "| cache_size_limit:", config.cache_size_limit)
config.cache_size_limit = 3
print("after cache_size_limit = 3, recompile_limit:", config.recompile_limit)
compiled = torch.compile(head, backend=counting, dynamic=False)  # no automatic dynamic: one graph per batch size
for batch in (1, 2, 3, 4, 5, 2):
    call("limit 3", batch)
# --8<-- [end:limit]

# --8<-- [start:stances]
torch._dynamo.reset()
compiled = torch.compile(head, backend=counting, dynamic=False)
call("default stance", 2)
for stance, batch in [("force_eager", 2), ("eager_on_recompile", 3), ("eager_on_recompile", 2),
                      ("fail_on_recompile", 2), ("fail_on_recompile", 3)]:
    with torch.compiler.set_stance(stance):
        call(stance, batch)
call("default stance", 3)
# --8<-- [end:stances]
