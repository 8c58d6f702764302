"""Whether an interpreter's torch sees a CUDA device: asked in a child, so this process never imports torch."""

from __future__ import annotations

import functools
import subprocess

PROBE = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"


@functools.cache  # an interpreter's answer does not change while this process runs
def cuda_available(python: str) -> bool:
    try:
        return subprocess.run([python, "-c", PROBE], capture_output=True, timeout=300, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False
