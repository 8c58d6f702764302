"""Where and with what a run happened; collected inside the snippet's process."""

from __future__ import annotations

import platform
import sys
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


def collect(device: str) -> dict[str, Any]:
    """Versions and device facts; torch's only if the snippet imported it (never imported here)."""
    info: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
    }
    torch = sys.modules.get("torch")
    if torch is not None:
        info["torch"] = torch.__version__.split("+")[0]
        info["torch_build"] = torch.__version__
        info["cuda"] = torch.version.cuda
        try:
            import triton

            info["triton"] = triton.__version__
        except ImportError:
            info["triton"] = None
    if device == "cuda" and torch is not None and torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        info["device_name"] = props.name
        info["compute_capability"] = f"sm_{props.major}{props.minor}"
    else:
        info.update(cpu())
        if torch is not None:
            info["cpu_capability"] = torch.backends.cpu.get_cpu_capability()
            info["threads"] = torch.get_num_threads()
    return info
