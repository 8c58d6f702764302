"""Multi-rank snippets (header ``ranks = N``): the runner starts every rank, keeps each rank's output apart.

A snippet that declares ``ranks = 2`` is written the way ``torchrun --nproc-per-node 2`` runs it: each rank
reads ``RANK``, ``WORLD_SIZE``, ``MASTER_ADDR`` and ``MASTER_PORT`` from its environment
(``dist.init_process_group("gloo")`` does), and prints its own lines. Inside the run, the snippet's
process becomes a launcher: it forks one process per rank (each under the run's supervisor, so
timeouts, limits, interrupts and cleanup hold for every rank as for one process), reads each rank's
stdout and stderr from pipes of their own, and writes every line on its own streams behind a marker
naming the rank, so that the record splits them again, rank by rank. A rank's ``torch.distributed``
collective calls are counted as it makes them (the functions of ``torch.distributed``; a library's
calls from C++, such as DDP's bucket all-reduces, do not go through them).

Standard library only here; torch is imported in the rank's process.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...core import environment
from ...core.cells import Forged
from .. import handoff
from ..handoff import Lost, RunDescription, RunResult

PREFIX = "⟪phase25 rank {tag} {rank}⟫ "  # the run's tag: a secret of the runner's the snippet does not see
_SHAPE = "⟪phase25 rank"  # a line that starts so and holds another tag was forged by the run
COLLECTIVES = (
    "all_reduce",
    "all_gather",
    "all_gather_into_tensor",
    "all_gather_object",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "all_to_all",
    "all_to_all_single",
    "broadcast",
    "broadcast_object_list",
    "reduce",
    "gather",
    "gather_object",
    "scatter",
    "scatter_object_list",
    "send",
    "recv",
    "isend",
    "irecv",
    "batch_isend_irecv",
    "barrier",
)
COUNTS: Counter[str] = Counter()
_INSIDE = threading.local()  # how deep this thread is in counted calls: only the outermost one counts


def count_collectives() -> None:
    """Wrap torch.distributed's collective functions so that each call of this rank is counted once.

    The wrapper replaces the function in ``torch.distributed`` and in ``distributed_c10d``, where it is
    defined, so that both names keep meaning the same object: ``P2POp(dist.isend, ...)`` names its
    direction by the function itself, and torch checks it against its own global with ``in`` and ``is``.
    A call made from inside another counted call (``send`` runs ``isend``, ``all_gather_object`` runs
    ``all_gather``) is not counted again: the count is of what the rank asked for.
    """
    import torch.distributed as dist
    import torch.distributed.distributed_c10d as c10d

    for name in COLLECTIVES:
        original = getattr(c10d, name, None) or getattr(dist, name, None)
        if original is None or getattr(original, "_phase25_counted", False):
            continue

        def counted(*args: Any, _name: str = name, _original: Any = original, **kwargs: Any) -> Any:
            depth = getattr(_INSIDE, "depth", 0)
            if depth == 0:
                COUNTS[_name] += 1
            _INSIDE.depth = depth + 1
            try:
                return _original(*args, **kwargs)
            finally:
                _INSIDE.depth = depth

        counted._phase25_counted = True  # type: ignore[attr-defined]
        counted.__wrapped__ = original  # type: ignore[attr-defined]
        for module in (dist, c10d):
            if getattr(module, name, None) is original:
                setattr(module, name, counted)


def split(text: str, ranks: int, tag: str) -> tuple[str, list[str]]:
    """A launcher's stream as (its own lines, each rank's lines); :class:`cells.Forged` names the first line in
    the shape of a rank's prefix that the run's tag did not write (a snippet that printed one)."""
    prefixed = re.compile(rf"^{_SHAPE} {re.escape(tag)} (?P<rank>\d+)⟫ (?P<line>.*)$")
    own: list[str] = []
    per_rank: list[list[str]] = [[] for _ in range(ranks)]
    for number, line in enumerate(text.split("\n"), 1):
        found = prefixed.match(line)
        if found and int(found.group("rank")) < ranks:
            per_rank[int(found.group("rank"))].append(found.group("line"))
        elif line.startswith(_SHAPE):
            raise Forged(f"line {number} has the shape of a rank's prefix, which only the runner writes: {line[:80]!r}")
        else:
            own.append(line)
    return "\n".join(own), ["\n".join(lines) + ("\n" if lines else "") for lines in per_rank]


def _one_thread() -> None:
    """One compute thread per rank, as torchrun sets it for more than one process per machine.

    Two ranks that each spin the run's OpenMP threads (plus gloo's own) on a two-core machine wait on
    each other, and every step slows down many times over. A warm interpreter imported torch before
    it forked, so the setting is made in torch as well as in the environment.
    """
    import sys

    os.environ["OMP_NUM_THREADS"] = "1"
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _start(run: RunDescription, rank: int, execute: Callable[[RunDescription], int]) -> tuple[int, int, int]:
    """Fork rank ``rank``: its environment, its own stdout and stderr pipes; (pid, out, err) to the launcher."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(out_r)
            os.close(err_r)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            os.environ.update(environment.rank_env(run["ranks"], run["port"])[rank])
            _one_thread()
            own: RunDescription = {**run, "ranks": 1, "rank": rank, "result": f"{run['result']}.rank{rank}"}
            code = execute(own)
        finally:
            os._exit(code if "code" in locals() else 127)
    os.close(out_w)
    os.close(err_w)
    return pid, out_r, err_r


LOST_GRACE = 2.0  # seconds the launcher keeps reading after it stopped the ranks a lost rank left waiting


def _relay(
    pipes: dict[int, tuple[int, Any]], tag: str, pids: dict[int, int]
) -> tuple[dict[int, int], int | None, list[int]]:
    """Copy every rank's lines to the launcher's streams, each behind its rank's marker, until all close; watch
    the ranks (``pids``: rank -> PID) meanwhile. The first rank that ends with a non-zero status is *lost*: the
    others are killed at once (a collective would wait for it until the run's timeout). Returns every rank's
    exit status, the lost rank and the ranks it made the launcher stop."""
    selector = selectors.DefaultSelector()
    partial: dict[int, bytes] = {}
    for fd in pipes:
        selector.register(fd, selectors.EVENT_READ)
        partial[fd] = b""
    ended: dict[int, int] = {}
    lost: int | None = None
    stopped: list[int] = []
    stop_at = float("inf")
    while selector.get_map() and time.monotonic() < stop_at:
        for key, _ in selector.select(timeout=0.1):
            rank, stream = pipes[key.fd]
            data = os.read(key.fd, 65536)
            lines = (partial[key.fd] + data).split(b"\n")
            partial[key.fd] = lines.pop() if data else b""
            if not data:
                selector.unregister(key.fd)
                os.close(key.fd)
                lines = [line for line in lines if line]
            marker = PREFIX.format(tag=tag, rank=rank).encode()
            for line in lines:
                stream.write(marker + line + b"\n")
            stream.flush()
        for rank, pid in pids.items():
            if rank not in ended and (status := os.waitpid(pid, os.WNOHANG))[0]:
                ended[rank] = os.waitstatus_to_exitcode(status[1])
                if ended[rank] != 0 and lost is None:
                    lost, stop_at = rank, time.monotonic() + LOST_GRACE
                    for other, other_pid in pids.items():
                        if other not in ended:
                            stopped.append(other)
                            with contextlib.suppress(ProcessLookupError):
                                os.kill(other_pid, signal.SIGKILL)
    selector.close()
    for rank, pid in pids.items():
        if rank not in ended:  # its pipes closed before its end was seen: a failing one is lost all the same
            ended[rank] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            if ended[rank] != 0 and lost is None:
                lost = rank
    return ended, lost, stopped


def launch(run: RunDescription, execute: Callable[[RunDescription], int]) -> int:
    """Run every rank of the snippet and write the launcher's result file; the exit status of the run."""
    import sys

    ranks = run.get("ranks", 1)
    started = [_start(run, rank, execute) for rank in range(ranks)]
    pipes = {}
    for rank, (_, out, err) in enumerate(started):
        pipes[out], pipes[err] = (rank, sys.stdout.buffer), (rank, sys.stderr.buffer)
    ended, lost, stopped = _relay(pipes, run["tag"], {rank: pid for rank, (pid, _, _) in enumerate(started)})
    codes = [ended[rank] for rank in range(ranks)]
    results: list[RunResult] = []
    for rank in range(ranks):
        try:
            results.append(handoff.result(Path(f"{run['result']}.rank{rank}")))
        except (OSError, handoff.Refused):
            results.append(handoff.no_result(codes[rank]))
    failed = results[lost] if lost is not None else next((r for r in results if r["error"]), None)
    code = codes[lost] if lost is not None else next((c for c in codes if c != 0), 0)
    lost_rank: Lost | None = None if lost is None else {"rank": lost, "exit_code": codes[lost], "stopped": stopped}
    handoff.write_result(
        run["result"],
        {
            **results[0],
            "error": failed["error"] if failed else None,
            "exit_code": code,
            "lost": lost_rank,
            "warnings": [w for r in results for w in r["warnings"]],
            "ranks": [{"exit_code": c, "collectives": r["collectives"]} for c, r in zip(codes, results, strict=True)],
        },
    )
    return code
