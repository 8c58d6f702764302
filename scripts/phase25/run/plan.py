"""Which (snippet, device) runs are needed, in which order, on which shard, and which share a warm interpreter."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..core import environment
from ..core.catalog import Catalog
from ..core.devices import warm
from ..core.snippets import Snippet
from .execute import COMPILES


@dataclass(frozen=True)
class Job:
    snippet: Snippet
    device: str

    @property
    def key(self) -> str:
        return f"{self.snippet.id} ({self.device})"


MAX_SHARDS = 256  # machines one run is spread over: each gets a list, and far more shards than runs is a mistake


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` -> (2, 4); shards are numbered from 1. ASCII digits only: ``int`` takes fullwidth digits,
    spaces and underscores, and a shard count of millions would make millions of lists."""
    match = re.fullmatch(r"([0-9]{1,4})/([0-9]{1,4})", text)
    if not match:
        raise ValueError(f"--shard takes i/n, e.g. 1/4, not {text!r}")
    index, total = int(match.group(1)), int(match.group(2))
    if not 1 <= index <= total <= MAX_SHARDS:
        raise ValueError(f"--shard {text}: need 1 <= i <= n <= {MAX_SHARDS}")
    return index, total


UNKNOWN_WALL_S = 60.0  # what a run without a record is expected to take when shards are balanced


def estimate(job: Job, estimates: Catalog | None) -> float | None:
    """The wall time of the job's recorded run, None when there is none."""
    standing = estimates.standings.get((job.snippet.id, job.device)) if estimates else None
    return float(standing.record.run["wall_s"]) if standing and standing.record else None


def split(selected: list[Job], total: int, estimates: Catalog | None) -> list[list[Job]]:
    """``total`` shards of about equal recorded wall time (longest first, each to the lightest shard).

    Every machine that reads the same commit computes the same split, so shards run on separate
    machines cover every job exactly once; merging their records checks it (see run/travel/merge.py).
    """
    loads = [0.0] * total
    shards: list[list[Job]] = [[] for _ in range(total)]
    for job in sorted(selected, key=lambda j: (-(estimate(j, estimates) or UNKNOWN_WALL_S), j.key)):
        lightest = min(range(total), key=lambda i: (loads[i], i))
        shards[lightest].append(job)
        loads[lightest] += estimate(job, estimates) or UNKNOWN_WALL_S
    return shards


def jobs(
    catalog: Catalog,
    devices: Iterable[str],
    *,
    select: Iterable[str] = (),
    force: bool = False,
    shard: tuple[int, int] | None = None,
    estimates: Catalog | None = None,
) -> tuple[list[Job], list[Job]]:
    """Split the selected jobs into (to run, already current); with ``shard`` (i, n), only this machine's
    share, balanced by the wall times of ``estimates`` (the catalog's own records by default)."""
    wanted = set(select)
    unknown = wanted - set(catalog.snippets)
    if unknown:
        raise KeyError(f"no such snippet: {', '.join(sorted(unknown))}")
    selected = [
        Job(snippet, device)
        for snippet in catalog.snippets.values()
        for device in devices
        if (not wanted or snippet.id in wanted) and device in snippet.header.devices
    ]
    if shard is not None:
        selected = split(selected, shard[1], estimates or catalog)[shard[0] - 1]
    todo: list[Job] = []
    current: list[Job] = []
    for job in selected:
        standing = catalog.standing(job.snippet.id, job.device)
        (current if standing.state == "current" and not force else todo).append(job)
    return todo, current


def longest_first(jobs_: list[Job], estimates: Catalog | None) -> list[Job]:
    """Start the long runs (compiles, multi-process demos) first, judging by recorded wall times.

    Unknown ones come first of all: they might be long, and they are usually the one just edited.
    """
    return sorted(jobs_, key=lambda job: (-(estimate(job, estimates) or float("inf")), job.key))


def warm_groups(jobs: list[Job]) -> set[str]:
    """CPU jobs whose environment (and warm flavour) is shared by at least two jobs: worth a warm interpreter."""
    envs = {
        job.key: (
            any(w in job.snippet.source for w in COMPILES),
            *sorted(environment.warm_env(job.snippet, job.device, {}).items()),
        )
        for job in jobs
    }
    counts = Counter(envs.values())
    return {job.key for job in jobs if warm(job.device) and counts[envs[job.key]] >= 2}
