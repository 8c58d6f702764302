# /// snippet
# devices = ["cpu"]
# timeout = 120
# ///
import os
import re
import subprocess
import sys

import torch

# Each switch in a fresh interpreter, on the same failing call: the head fed 65 features.
# --8<-- [start:switches]
PROGRAM = "import torch, torch.nn.functional as F; F.linear(torch.ones(2, 65), torch.ones(600, 64), torch.ones(600))"
SWITCHES = {
    "(none)": {},
    "TORCH_SHOW_DISPATCH_TRACE=1": {"TORCH_SHOW_DISPATCH_TRACE": "1"},
    "TORCH_SHOW_CPP_STACKTRACES=1": {"TORCH_SHOW_CPP_STACKTRACES": "1", "TORCH_DISABLE_ADDR2LINE": "1"},
}
# --8<-- [end:switches]
plain = None
for label, extra in SWITCHES.items():
    result = subprocess.run([sys.executable, "-c", PROGRAM], env={**os.environ, **extra},
                            capture_output=True, text=True, check=False)
    plain = result.stderr if plain is None else plain
    lines = result.stderr.strip().splitlines()
    frames = [line.split(" from ")[0] for line in lines if re.match(r"#\d+ ", line)]
    print(f"{label}: C++ frames on stderr: {bool(frames)} | stderr as without any switch: {result.stderr == plain}")
    print("   ", next(line for line in lines if line.startswith("RuntimeError")))
    for line in lines:
        if line.startswith("Exception raised"):
            print("   ", re.sub(r"/\S*/(aten/src/)", r"\1", line.split(" (most recent")[0]))
    # From the frame that raised up to the call of linear, C++ function names only.
    first = next((i for i, f in enumerate(frames) if "::meta(" in f), None)
    last = next((i for i, f in enumerate(frames) if "_ops::linear::call" in f), None)
    if first is not None and last is not None:
        for frame in frames[first:last + 1]:
            number, _, name = frame.partition(" ")
            print(f"    {number:<4} {name.split('(')[0]}")

print("\nthis build: torch.version.debug =", torch.version.debug)
