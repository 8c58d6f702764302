# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
"""Exercise: the bias gradient's node for batches of 4 and 16 rows, around the unroll threshold of 8."""

import logging
import re

import torch
import torch._inductor.config as inductor_config
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
inductor_config.fx_graph_cache = False  # a compile served from a cache skips the lowering, and its log
torch._functorch.config.enable_autograd_cache = False


def loss_fn(x, target):
    return F.cross_entropy(F.linear(x, W, b), target)


# What TORCH_LOGS="ir_pre_fusion" writes (Inductor's loop IR, before fusion), kept here instead of on stderr.
messages = []
ir_log = logging.getLogger("torch._inductor.debug.__ir_pre_fusion")
ir_log.addHandler(type("Keep", (logging.Handler,), {"emit": lambda self, r: messages.append(r.getMessage())})())
ir_log.setLevel(logging.INFO)
ir_log.propagate = False

HEAD = re.compile(r"^(op\d+): (\w+)\((\w+)\)$", re.MULTILINE)
SKIP = {"get_index", "load", "constant", "store", "store_reduction"}


def show(message, only=None):
    """Each node: its buffer and ranges, then what its loop body indexes, loads, computes and stores."""
    parts = HEAD.split(message)
    for op, scheduler_node, ir_node, text in zip(parts[1::4], parts[2::4], parts[3::4], parts[4::4], strict=True):
        if only and op not in only:
            continue
        buffer, size = re.search(r"(buf\d+)\.layout = \w+\('cpu', torch\.\w+, size=(\[.*?\])", text).groups()
        print(f"  {op}  {scheduler_node}({ir_node}) -> {buffer} {size}", end="")
        if kernel := re.search(r"\.node\.kernel = (\S+)", text):
            print(f": {kernel.group(1)}")
            continue
        iteration = re.search(r"\.group\.iteration = (.*)", text).group(1)
        var_ranges = re.search(r"var_ranges = (.*)", text).group(1)
        print(f", iteration {iteration}, var_ranges {var_ranges}")
        indices = re.findall(r"^    index\d+ = (.*)$", text, re.MULTILINE)
        calls = [(name, args.split(", ")) for name, args in re.findall(r"ops\.(\w+)\(([^)]*)\)", text)]
        loads = [args[0].strip("'") for name, args in calls if name == "load"]
        count = f"{len(loads)} load" + "s" * (len(loads) != 1)
        print(f"        indices {'; '.join(indices)} | {count} from {', '.join(dict.fromkeys(loads))}")
        ops = [f"reduction {args[2]}" if name == "reduction" else name for name, args in calls if name not in SKIP]
        store = next(f"{name} {args[0]}" for name, args in calls if name.startswith("store"))
        print(f"        computes {', '.join(dict.fromkeys(ops))}; {store.replace(chr(39), '')}")


# --8<-- [start:solution]
for rows in (4, 16):
    x, target = torch.randn(rows, 64), torch.arange(rows) * 7
    torch._dynamo.reset()
    messages.clear()
    torch.compile(loss_fn)(x, target).backward()
    threshold = inductor_config.unroll_reductions_threshold
    print(f"=== backward, batch of {rows} rows (unroll_reductions_threshold = {threshold}): the bias gradient")
    show(messages[1], ["op3"])
    W.grad = b.grad = None
# --8<-- [end:solution]
