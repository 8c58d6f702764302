# /// snippet
# devices = ["cuda"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
"""The three collectives of the CPU tables, on GPUs with NCCL: which kernels run them, and on which stream."""

import json
import os
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from minigpt import lm_head
from torch.profiler import ProfilerActivity, profile

WORLD = min(2, torch.cuda.device_count())  # NCCL takes one GPU per rank; NVML answers without touching CUDA


def kernels(trace_file):
    """(name, stream) of every GPU kernel in a profiler trace."""
    with open(trace_file) as f:
        events = json.load(f)["traceEvents"]
    return [(e["name"].split("(")[0], e["args"].get("stream")) for e in events if e.get("cat") == "kernel"]


def collectives(rank):
    device = torch.device("cuda", rank)
    torch.manual_seed(0)
    W, b = lm_head(device)
    grad = torch.cat([W.flatten(), b]).contiguous()  # 39,000 values, the size of the head's gradient
    x = torch.randn(4, 64, device=device)
    shard = torch.empty(grad.numel() // WORLD, device=device)
    full = torch.empty_like(grad)
    lines = [f"world size {WORLD}, {torch.cuda.get_device_name(device)}, NCCL {torch.cuda.nccl.version()}"]
    found = {}
    # --8<-- [start:collectives]
    for label, op in (("matmul", lambda: x @ W.T), ("all_reduce", lambda: dist.all_reduce(grad)),
                      ("reduce_scatter_tensor", lambda: dist.reduce_scatter_tensor(shard, grad)),
                      ("all_gather_into_tensor", lambda: dist.all_gather_into_tensor(full, shard))):
        op()  # once outside the profiler: NCCL sets up its communicator on first use
        torch.cuda.synchronize(device)
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            op()
            # --8<-- [end:collectives]
            torch.cuda.synchronize(device)
        trace = os.path.join(tempfile.mkdtemp(), "trace.json")
        prof.export_chrome_trace(trace)
        found[label] = kernels(trace)
    compute_streams = {stream for _, stream in found["matmul"]}
    for label, ran in found.items():
        names = sorted({name for name, _ in ran})
        where = ("" if label == "matmul" else
                 f"; on the matmul's stream: {any(stream in compute_streams for _, stream in ran)}")
        lines.append(f"{label}: kernels {names}{where}")
    return lines


def worker(rank, store):
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # NCCL's own messages would interleave between ranks
    torch.cuda.set_device(rank)
    # --8<-- [start:nccl]
    dist.init_process_group("nccl", init_method=f"file://{store}", rank=rank, world_size=WORLD,
                            device_id=torch.device("cuda", rank))
    # --8<-- [end:nccl]
    try:
        lines = collectives(rank)
        gathered = [None] * WORLD
        dist.all_gather_object(gathered, lines)
        if rank == 0:
            for r, report in enumerate(gathered):
                for line in report:
                    print(f"[rank {r}] {line}")
    finally:
        dist.destroy_process_group()


with tempfile.TemporaryDirectory() as tmp:
    # --8<-- [start:ranks]
    mp.start_processes(worker, args=(os.path.join(tmp, "store"),), nprocs=WORLD, join=True, start_method="fork")
# --8<-- [end:ranks]
