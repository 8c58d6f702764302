"""The line under every output that says where, with what and when it was produced, in each language."""

from __future__ import annotations

import re

from ...core.devices import captured, emulated
from ...core.records import Record
from .strings import count, number, text


def cpu_summary(flags: list[str], lang: str) -> str:
    """The widest vector extensions a CPU has, as a reader compares two machines: "AVX-512 (bf16), AMX"."""
    have = set(flags)
    if "avx512f" in have:
        widest = "AVX-512" + (" (bf16)" if "avx512_bf16" in have else "")
    else:
        widest = "AVX2" if "avx2" in have else "AVX" if "avx" in have else "SSE"
    return widest + (", AMX" if "amx_tile" in have else "") + ("" if "avx512f" in have else text(lang, "no_avx512"))


def cpu_model_text(recorded: str, lang: str) -> str:
    """The record's ``family 6 model 167`` (core/machine.py writes it once, in English) in the page's language;
    a value of another shape is shown as it is."""
    match = re.fullmatch(r"family (\S+) model (\S+)", recorded)
    return text(lang, "cpu_family_model", family=match.group(1), model=match.group(2)) if match else recorded


def provenance_line(record: Record, lang: str) -> str:
    """One line: where, with what and when this output was produced."""
    p, run = record.provenance, record.run
    if captured(record.device):
        where = f"{text(lang, 'captured_on')} {p.get('device_name', 'CUDA')}"
        if p.get("compute_capability"):
            where += f" ({p['compute_capability']})"
        parts = [where, f"torch {p.get('torch', '?')}", f"CUDA {p.get('cuda', '?')}"]
        if p.get("triton"):
            parts.append(f"Triton {p['triton']}")
    else:
        ran = "generated_on" if emulated(record.device) else "ran_on"
        where = f"{text(lang, ran)} CPU · {p.get('device_name', '?')}"
        if p.get("cpu_model"):
            where += f", {cpu_model_text(str(p['cpu_model']), lang)}"
        extras = [text(lang, "kernels_for", isa=p["cpu_capability"])] if p.get("cpu_capability") else []
        if isinstance(p.get("cpu_flags"), list):
            extras.append(text(lang, "cpu_has", isa=cpu_summary(p["cpu_flags"], lang)))
        if isinstance(p.get("threads"), int):
            extras.append(count(lang, p["threads"], "thread"))
        if extras:
            where += f" ({', '.join(extras)})"
        parts = [where, f"torch {p.get('torch', '?')}"]
        if emulated(record.device):
            properties = [str(v) for v in p.get("emulated_properties") or [] if not str(v).startswith("name=")]
            device = f"{p.get('emulated_device', '?')} [{', '.join(properties)}]"
            parts[1:1] = [text(lang, "for_emulated", device=device)]
            parts.append(f"Triton {p.get('triton', '?')}")
    parts += [f"Python {p.get('python', '?')}", str(run.get("date", "?")), f"{number(lang, run.get('wall_s', 0))} s"]
    if run.get("git_commit"):
        parts.append(f"{text(lang, 'commit')} {run['git_commit'][:7]}")
    return " · ".join(parts)
