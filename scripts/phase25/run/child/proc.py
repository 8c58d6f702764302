"""The processes below a process and the memory they hold, read from /proc (Linux; standard library only).

The supervisor of a run uses it to find every process of its run (to kill them all, and to check
that none survived) and to hold the run to its limits of processes and resident memory.
"""

from __future__ import annotations

import os

PAGE = os.sysconf("SC_PAGE_SIZE")


def below(root: int) -> dict[int, int]:
    """Every live process below ``root`` -> its resident memory in bytes (zombies are dead already)."""
    children: dict[int, list[tuple[int, int]]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()  # fields[0] is the state, [1] the parent, [21] the RSS
        if fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append((int(entry), int(fields[21]) * PAGE))
    found: dict[int, int] = {}
    todo = [root]
    while todo:
        for child, rss in children.get(todo.pop(), []):
            found[child] = rss
            todo.append(child)
    return found


def over_limit(root: int, max_processes: int, max_memory_mb: int) -> str | None:
    """Why the processes below ``root`` exceed their limits, or None (memory: resident, summed)."""
    found = below(root)
    if len(found) > max_processes:
        return f"more than {max_processes} processes at once"
    memory = sum(found.values()) / 2**20
    if memory > max_memory_mb:
        return f"more than {max_memory_mb} MB of resident memory ({memory:.0f} MB, all its processes together)"
    return None
