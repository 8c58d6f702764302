# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.distributed as dist
from minigpt import encode, load_model, vocab
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module


def new_calls(comm, before):
    """The collectives CommDebugMode counted since the snapshot `before`."""
    now = {str(op).split(".")[-1]: n for op, n in comm.get_comm_counts().items()}
    return {op: n - before.get(op, 0) for op, n in now.items() if n > before.get(op, 0)} or "none", now


def tensor_parallel(rank):
    model = load_model()
    words = vocab()
    # --8<-- [start:parallelize]
    # The head (64 -> 600) and a projection back to 64 (600 -> 64): the shape of a transformer MLP.
    pair = torch.nn.Sequential(torch.nn.Linear(64, 600), torch.nn.Linear(600, 64))
    pair[0].load_state_dict(model.lm_head.state_dict())  # the running example; the projection keeps its seeded init
    W2 = pair[1].weight.detach().clone()
    reference = [p.detach().clone() for p in pair.parameters()]
    mesh = init_device_mesh("cpu", (2,))
    parallelize_module(pair, mesh, {"0": ColwiseParallel(), "1": RowwiseParallel()})
    head, proj = pair
    # --8<-- [end:parallelize]
    lines = [f"head.weight {head.weight.placements}: local {tuple(head.weight.to_local().shape)}, the rows of "
             f"words {words[rank * 300]!r}...{words[rank * 300 + 299]!r}",
             f"proj.weight {proj.weight.placements}: local {tuple(proj.weight.to_local().shape)}, the columns that "
             f"read those same 300 scores: {torch.equal(proj.weight.to_local(), W2[:, rank * 300 : rank * 300 + 300])}"]
    prompts = torch.cat([encode("walk : yesterday she"), encode("comer : ayer yo")])
    x = model.hidden(prompts).detach().requires_grad_()  # the same (2, 5, 64) states on both ranks
    # --8<-- [start:step]
    comm = CommDebugMode()
    with comm:
        scores = head(x)  # ColwiseParallel hands on the local shard: 300 of the 600 scores
        calls, seen = new_calls(comm, {})
        lines.append(f"head: local scores {tuple(scores.shape)}, collectives {calls}")
        y = proj(scores)  # each rank's 300 scores give a partial sum of the 64 outputs
        calls, seen = new_calls(comm, seen)
        lines.append(f"proj: output {tuple(y.shape)}, collectives {calls}")
        y.square().mean().backward()
        calls, seen = new_calls(comm, seen)
        lines.append(f"backward: collectives {calls}")
    # --8<-- [end:step]
    W, b, W2_, b2 = reference
    xr = x.detach().clone().requires_grad_()
    expected = torch.nn.functional.linear(torch.nn.functional.linear(xr, W, b), W2_, b2)
    expected.square().mean().backward()
    lines.append(f"same output as one process: {torch.allclose(y, expected, atol=1e-5)}; "
                 f"same gradient of x: {torch.allclose(x.grad, xr.grad, atol=1e-6)}")
    return lines


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in tensor_parallel(dist.get_rank()):
    print(line)
dist.destroy_process_group()
