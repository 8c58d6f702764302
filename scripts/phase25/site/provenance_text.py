"""The line under every output that says where, with what and when it was produced, in each language."""

from __future__ import annotations

from ..core.records import Record
from .strings import count, number, text


def provenance_line(record: Record, lang: str) -> str:
    """One line: where, with what and when this output was produced."""
    p, run = record.provenance, record.run
    if record.device == "cuda":
        where = f"{text(lang, 'captured_on')} {p.get('device_name', 'CUDA')}"
        if p.get("compute_capability"):
            where += f" ({p['compute_capability']})"
        parts = [where, f"torch {p.get('torch', '?')}", f"CUDA {p.get('cuda', '?')}"]
        if p.get("triton"):
            parts.append(f"Triton {p['triton']}")
    else:
        where = f"{text(lang, 'ran_on')} CPU · {p.get('device_name', '?')}"
        extras = [str(p["cpu_capability"])] if p.get("cpu_capability") else []
        if isinstance(p.get("threads"), int):
            extras.append(count(lang, p["threads"], "thread"))
        if extras:
            where += f" ({', '.join(extras)})"
        parts = [where, f"torch {p.get('torch', '?')}"]
    parts += [f"Python {p.get('python', '?')}", str(run.get("date", "?")), f"{number(lang, run.get('wall_s', 0))} s"]
    if run.get("git_commit"):
        parts.append(f"{text(lang, 'commit')} {run['git_commit'][:7]}")
    return " · ".join(parts)
