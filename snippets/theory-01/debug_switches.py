# /// snippet
# devices = ["cpu"]
# timeout = 120
# ///
import os
import subprocess
import sys

import torch

# Each switch in a fresh interpreter, on the same small program that fails.
PROGRAM = "import torch; torch.ones(2, 65) @ torch.ones(64, 600)"
SWITCHES = {
    "(none)": {},
    "TORCH_SHOW_DISPATCH_TRACE=1": {"TORCH_SHOW_DISPATCH_TRACE": "1"},
    "TORCH_SHOW_CPP_STACKTRACES=1": {"TORCH_SHOW_CPP_STACKTRACES": "1", "TORCH_DISABLE_ADDR2LINE": "1"},
}
for label, extra in SWITCHES.items():
    result = subprocess.run([sys.executable, "-c", PROGRAM], env={**os.environ, **extra},
                            capture_output=True, text=True, check=False)
    lines = result.stderr.strip().splitlines()
    print(f"{label}: {len(lines)} lines on stderr; the last and the C++ ones:")
    print("   ", lines[-1] if "RuntimeError" in lines[-1] else next(line for line in lines if "RuntimeError" in line))
    frames = [line.split(" from ")[0] for line in lines if line.startswith("#") and not line.startswith("#4 ??")]
    for line in [line for line in lines if line.startswith("Exception raised")] + frames[:4]:
        print("   ", line[:110])

print("\nthis build: torch.version.debug =", torch.version.debug)
