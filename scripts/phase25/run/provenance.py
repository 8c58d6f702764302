"""Where and with what a run happened; collected inside the snippet's process."""

from __future__ import annotations

import platform
import sys
from typing import Any

from ..core.machine import cpu


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
