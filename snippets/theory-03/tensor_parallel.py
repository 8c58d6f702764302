# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt", "snippets/theory-03/_dist.py"]
# ///
import torch
from _dist import run
from minigpt import lm_head, vocab
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.parallel import ColwiseParallel, parallelize_module


def tensor_parallel(rank):
    W, b = lm_head()
    words = vocab()
    head = torch.nn.Linear(64, 600)
    head.load_state_dict({"weight": W, "bias": b})
    mesh = init_device_mesh("cpu", (2,))
    # Column-wise for the math (x W^T): each rank owns 300 output words, all 64 inputs.
    parallelize_module(head, mesh, ColwiseParallel(use_local_output=False))
    local = head.weight.to_local()
    first = words[rank * 300]
    lines = [f"weight {head.weight.placements}: local {tuple(local.shape)}, rows for words {first!r}..."
             f"{words[rank * 300 + 299]!r}"]
    x = torch.randn(4, 64)  # the same input on both ranks
    comm = CommDebugMode()
    with comm:
        y = head(x)
    lines.append(f"output {y.placements}: local scores {tuple(y.to_local().shape)}; "
                 f"collectives {dict(comm.get_comm_counts())}")
    with comm:
        full = y.full_tensor()  # all 600 scores, e.g. to take a softmax over the vocabulary
    lines.append(f"gathering all 600 scores: {tuple(full.shape)}, collectives "
                 f"{dict((str(k).split('.')[-1], v) for k, v in comm.get_comm_counts().items())}")
    lines.append(f"same as one process: {torch.allclose(full, torch.nn.functional.linear(x, W, b), atol=1e-6)}")
    return lines


run(tensor_parallel)
