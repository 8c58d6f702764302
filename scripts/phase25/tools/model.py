"""``python -m phase25 model``: retrain the running example with the runner's math pins.

The pins decide which kernels compute and are read when torch is imported, so
the training runs in a child interpreter that starts with them set.
"""

from __future__ import annotations

import os
import sys

from ..core import bounded
from ..core.environment import MATH_PINS
from ..core.paths import Layout

RETRAIN_S = 6 * 3600  # seconds: retraining the running example on two cores takes well under an hour


def main(layout: Layout, *, check: bool) -> int:
    env = {**os.environ, **MATH_PINS, "PYTHONPATH": str(layout.root / "scripts")}
    command = [sys.executable, "-m", "minigpt.retrain", *(["--check"] if check else [])]
    return bounded.run(command, env=env, cwd=layout.root, timeout=RETRAIN_S).returncode
