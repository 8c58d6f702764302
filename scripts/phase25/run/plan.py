"""Which (snippet, device) runs are needed, in which order, on which shard, and which share a warm interpreter."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..core import environment
from ..core.catalog import Catalog
from ..core.snippets import Snippet
from .execute import COMPILES


@dataclass(frozen=True)
class Job:
    snippet: Snippet
    device: str

    @property
    def key(self) -> str:
        return f"{self.snippet.id} ({self.device})"


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` -> (2, 4); shards are numbered from 1."""
    try:
        index, total = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard takes i/n, e.g. 1/4, not {text!r}") from None
    if not 1 <= index <= total:
        raise ValueError(f"--shard {text}: need 1 <= i <= n")
    return index, total


def in_shard(job: Job, shard: tuple[int, int] | None) -> bool:
    """Stable assignment by hash: adding a snippet never moves the others."""
    if shard is None:
        return True
    index, total = shard
    return int.from_bytes(hashlib.sha256(job.key.encode()).digest()[:8], "big") % total == index - 1


def jobs(
    catalog: Catalog,
    devices: Iterable[str],
    *,
    select: Iterable[str] = (),
    force: bool = False,
    shard: tuple[int, int] | None = None,
) -> tuple[list[Job], list[Job]]:
    """Split the selected jobs into (to run, already current)."""
    wanted = set(select)
    unknown = wanted - set(catalog.snippets)
    if unknown:
        raise KeyError(f"no such snippet: {', '.join(sorted(unknown))}")
    todo: list[Job] = []
    current: list[Job] = []
    for snippet in catalog.snippets.values():
        for device in devices:
            job = Job(snippet, device)
            if wanted and snippet.id not in wanted:
                continue
            if device not in snippet.header.devices or not in_shard(job, shard):
                continue
            standing = catalog.standing(snippet.id, device)
            (current if standing.state == "current" and not force else todo).append(job)
    return todo, current


def longest_first(jobs: list[Job], estimates: Catalog | None) -> list[Job]:
    """Start the long runs (compiles, multi-process demos) first, judging by recorded wall times.

    Unknown ones come first of all: they might be long, and they are usually the one just edited.
    """

    def estimate(job: Job) -> float:
        standing = estimates.standings.get((job.snippet.id, job.device)) if estimates else None
        return float(standing.record.run["wall_s"]) if standing and standing.record else float("inf")

    return sorted(jobs, key=lambda job: (-estimate(job), job.key))


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
    return {job.key for job in jobs if job.device == "cpu" and counts[envs[job.key]] >= 2}
