"""Start two CPU processes with a gloo process group; rank 0 prints what every rank reports.

Shared by the distributed snippets of theory 03 (the runner skips files named _*).
"""

import os
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD = 2


def _worker(rank, store_file, fn):
    # The ranks' own stderr (library chatter such as the profiler's start and stop
    # lines) would interleave in a different order on every run: drop it. A rank
    # that fails still reports, through the exception the parent process raises.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    # One compute thread per rank: two ranks that each spin two OpenMP threads (plus gloo's
    # threads) on a two-core machine wait on each other, and every step slows down many times over.
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{store_file}", rank=rank, world_size=WORLD)
    try:
        torch.manual_seed(0)
        lines = fn(rank)
        gathered = [None] * WORLD
        dist.all_gather_object(gathered, lines)  # one ordered report, whatever order the ranks finish in
        if rank == 0:
            for r, report in enumerate(gathered):
                for line in report:
                    print(f"[rank {r}] {line}")
    finally:
        dist.destroy_process_group()


def run(fn):
    """Run fn(rank) -> list of lines on every rank."""
    with tempfile.TemporaryDirectory() as tmp:
        # fork: the ranks inherit fn as it is, with no re-import of the snippet
        mp.start_processes(_worker, args=(os.path.join(tmp, "store"), fn), nprocs=WORLD, join=True,
                           start_method="fork")
