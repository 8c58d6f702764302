# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 2
# deps = ["scripts/minigpt", "snippets/theory-03/_profiled.py"]
# ///
import torch
import torch.distributed as dist
import torch.nn.functional as F
from _profiled import collectives  # snippets/theory-03/_profiled.py: what the profiler saw sent
from minigpt import lm_head
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Partial, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.parallel import loss_parallel
from torch.profiler import profile


def describe(t):
    return f"{t.placements}, global {tuple(t.shape)}, local {tuple(t.to_local().shape)}"


def dtensor(rank):
    W, b = lm_head()
    torch.manual_seed(0)
    x = torch.randn(4, 64)  # the same 4 hidden states on both ranks
    target = torch.tensor([3, 7, 311, 599])
    # --8<-- [start:mesh]
    mesh = init_device_mesh("cpu", (2,))
    # --8<-- [end:mesh]
    lines = []

    # Three layouts of the head's matmul, and what sharding propagation makes of each output.
    # --8<-- [start:layouts]
    cases = (
        ("x Replicate, W Shard(0)", [Replicate()], [Shard(0)]),  # W's rows: the vocabulary
        ("x Shard(1), W Shard(1)", [Shard(1)], [Shard(1)]),  # both split along the 64 features
        ("x Shard(0), W Replicate", [Shard(0)], [Replicate()]),  # the batch: data parallel
    )
    for label, x_places, w_places in cases:
        dx, dW = distribute_tensor(x, mesh, x_places), distribute_tensor(W, mesh, w_places)
        with profile(record_shapes=True) as prof:
            scores = dx @ dW.T
        # --8<-- [end:layouts]
        lines.append(f"{label}: x @ W.T is {describe(scores)}, collectives: {collectives(prof)}")
        if scores.placements == (Partial(),):
            partial = scores
        if label.startswith("x Replicate"):
            vocab_sharded = scores
    mine = slice(rank * 32, rank * 32 + 32)
    lines.append(f"Partial: this rank's local (4, 600) is the sum over its 32 features only: "
                 f"{torch.allclose(partial.to_local(), x[:, mine] @ W[:, mine].T, atol=1e-5)}")
    # --8<-- [start:redistribute]
    for source, placements in ((partial, [Replicate()]), (partial, [Shard(1)]), (vocab_sharded, [Replicate()])):
        with profile(record_shapes=True) as prof:
            moved = source.redistribute(mesh, placements)
        # --8<-- [end:redistribute]
        lines.append(f"redistribute {source.placements} -> {moved.placements}: {collectives(prof)}, "
                     f"equal to x @ W.T: {torch.allclose(moved.full_tensor(), x @ W.T, atol=1e-4)}")

    # The loss over the vocabulary dimension without gathering the 600 columns.
    # --8<-- [start:loss_parallel]
    scores = (distribute_tensor(x, mesh, [Replicate()]) @ distribute_tensor(W, mesh, [Shard(0)]).T
              + distribute_tensor(b, mesh, [Shard(0)]))
    scores = scores.detach().requires_grad_()
    with loss_parallel():
        with profile(record_shapes=True) as forward:
            loss = F.cross_entropy(scores, target)
        with profile(record_shapes=True) as backward:
            loss.backward()
    # --8<-- [end:loss_parallel]
    reference = (x @ W.T + b).requires_grad_()
    expected = F.cross_entropy(reference, target)
    expected.backward()
    lines.append(f"loss_parallel: scores {describe(scores)}")
    lines.append(f"    forward: {collectives(forward)}; backward: {collectives(backward)}")
    mine = reference.grad[:, rank * 300 : rank * 300 + 300]
    lines.append(f"loss {loss.placements} equal to the loss on the full scores: "
                 f"{torch.allclose(loss.full_tensor(), expected)}; gradient {scores.grad.placements}, "
                 f"this rank's columns equal: {torch.allclose(scores.grad.to_local(), mine, atol=1e-6)}")
    # Rank 0 prints everything; rank 1 only what is its own, and whether the rest matches rank 0's lines.
    everyone = [None, None]
    dist.all_gather_object(everyone, lines)
    own = [f"mesh {mesh}, this rank's coordinate {mesh.get_coordinate()}",
           f"W Shard(0): local rows are W[{rank * 300}:{rank * 300 + 300}]: "
           f"{torch.equal(distribute_tensor(W, mesh, [Shard(0)]).to_local(), W[rank * 300 : rank * 300 + 300])}"]
    return own + (lines if rank == 0 else [f"every other line the same as rank 0's: {lines == everyone[0]}"])


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in dtensor(dist.get_rank()):
    print(line)
dist.destroy_process_group()
