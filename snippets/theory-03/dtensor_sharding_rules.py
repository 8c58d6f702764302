# /// snippet
# devices = ["cpu"]
# timeout = 300
# ranks = 4
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.distributed as dist
from minigpt import lm_head
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.debug import CommDebugMode

# --8<-- [start:propagator]
mm = torch.ops.aten.mm.default
propagator = DTensor._op_dispatcher.sharding_propagator
# --8<-- [end:propagator]


# --8<-- [start:registries]
def registries():
    """Where DTensor looks up an operator's rule, and mm's rule for one mesh dimension."""
    lines = [f"{name}: {len(getattr(propagator, name))} operators, aten.mm.default among them: "
             f"{mm in getattr(propagator, name)}"
             for name in ("op_single_dim_strategy_funcs", "op_strategy_funcs", "op_to_rules")]
    rule = propagator.op_single_dim_strategy_funcs[mm].func
    lines.append(f"mm's rule {rule.__name__}, one line per strategy: output, self, mat2")
    lines += ["    " + ", ".join(map(str, strategy)) for strategy in rule(mm, (), {})]
    # --8<-- [end:registries]
    return lines


def collectives(comm):
    """The collectives CommDebugMode counted, by name."""
    return ", ".join(f"{str(op).split('.')[-1]} x {n}" for op, n in comm.get_comm_counts().items()) or "none"


# --8<-- [start:propagate]
def propagate(mesh, x, Wt, x_place, w_place):
    """The output placement propagation computes for x @ W.T, and whether the inputs must move first."""
    a, b = distribute_tensor(x, mesh, [x_place]), distribute_tensor(Wt, mesh, [w_place])
    out = propagator.propagate_op_sharding(DTensor._op_dispatcher.unwrap_to_op_info(mm, (a, b), {}).schema)
    line = f"x {x_place} @ W.T {w_place} -> {out.output_spec.placements[0]}"
    if out.needs_redistribute:
        moved = [spec.placements[0] for spec in out.redistribute_schema.args_spec]
        line += f", inputs moved to {moved[0]}, {moved[1]} first"
    with CommDebugMode() as comm:
        same = torch.mm(a, b).placements == out.output_spec.placements
    # --8<-- [end:propagate]
    return line + f"; x @ W.T agrees: {same}, collectives: {collectives(comm)}"


def sharding_rules(rank):
    W, _ = lm_head()
    torch.manual_seed(0)
    x = torch.randn(4, 64)  # the same 4 hidden states on every rank
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    lines = registries() + [f"on the 2 ranks of mesh dimension tp of {mesh}:"]
    for x_place, w_place in ((Shard(0), Replicate()), (Replicate(), Shard(1)), (Shard(1), Shard(0)),
                             (Shard(0), Shard(1)), (Shard(1), Replicate())):
        lines.append("    " + propagate(mesh["tp"], x, W.T, x_place, w_place))

    # --8<-- [start:two_dims]
    # One tensor placed on both mesh dimensions: W's rows split over dp, its columns over tp.
    dW = distribute_tensor(W, mesh, [Shard(0), Shard(1)])
    dx = distribute_tensor(x, mesh, [Replicate(), Shard(1)])
    scores = dx @ dW.T  # per mesh dimension: dp R @ S(1), tp S(1) @ S(0)
    with CommDebugMode() as comm:
        gathered = scores.redistribute(mesh, [Shard(1), Replicate()])
    # --8<-- [end:two_dims]
    lines += [f"W {dW.placements}: local {tuple(dW.to_local().shape)}; x {dx.placements}",
              f"x @ W.T: {scores.placements}, local {tuple(scores.to_local().shape)}",
              f"redistribute to {gathered.placements}: {collectives(comm)}"
              f", equal to x @ W.T: {torch.allclose(gathered.full_tensor(), x @ W.T, atol=1e-4)}"]
    i, j = mesh.get_coordinate()
    own = [f"rank {rank} at mesh coordinate ({i}, {j}) holds W[{300 * i}:{300 * i + 300}, {32 * j}:{32 * j + 32}]: "
           f"{torch.equal(dW.to_local(), W[300 * i : 300 * i + 300, 32 * j : 32 * j + 32])}"]
    everyone = [None] * 4
    dist.all_gather_object(everyone, lines)
    return own + (lines if rank == 0 else [f"every other line the same as rank 0's: {lines == everyone[0]}"])


dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by the runner, as by torchrun
torch.manual_seed(0)
for line in sharding_rules(dist.get_rank()):
    print(line)
dist.destroy_process_group()
