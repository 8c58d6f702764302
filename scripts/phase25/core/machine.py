"""The machine a run happened on: its CPU's model, vendor, numbers and the extensions that decide a kernel.

Read by the snippet's process (the record's provenance) and by the reproduction kit a reader runs
(to show the two machines side by side). Standard library only.
"""

from __future__ import annotations

import platform
from typing import Any

# The instruction-set extensions that decide which kernel computes (ATen's, oneDNN's, MKL's): two CPUs
# with the same model name but a different set take different paths, and the provenance says so.
DECIDING_FLAGS = (
    "sse4_2",
    "avx",
    "avx2",
    "fma",
    "avx512f",
    "avx512bw",
    "avx512_vnni",
    "avx512_bf16",
    "avx512_fp16",
    "amx_tile",
    "amx_bf16",
    "amx_int8",
    "avx_vnni",
)


def _cpuinfo() -> dict[str, str]:
    """The first processor's fields of /proc/cpuinfo (empty elsewhere)."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    return fields


def cpu() -> dict[str, Any]:
    """The CPU's model name, vendor, family and model numbers, and the deciding extensions it has."""
    info = _cpuinfo()
    flags = set(info.get("flags", "").split())
    return {
        "device_name": info.get("model name") or platform.processor() or platform.machine(),
        "cpu_vendor": info.get("vendor_id", ""),
        "cpu_model": f"family {info.get('cpu family', '?')} model {info.get('model', '?')}",
        "cpu_flags": [flag for flag in DECIDING_FLAGS if flag in flags],
    }
