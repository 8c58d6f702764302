# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 120
# env = { MKL_VERBOSE = "1" }
# deps = ["scripts/minigpt"]
# ///
import ctypes

import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch.profiler import ProfilerActivity, profile

device = "cuda" if torch.cuda.is_available() else "cpu"
W, b = lm_head(device)
x = torch.randn(2, 64, device=device)
libc = ctypes.CDLL(None)  # MKL prints with C stdio: flush it so its lines land in order

activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
for dtype in (torch.float32, torch.bfloat16):
    Wd, bd, xd = W.to(dtype), b.to(dtype), x.to(dtype)
    F.linear(xd, Wd, bd)  # warm up: first calls pick algorithms
    libc.fflush(None)
    print(f"\n=== {str(dtype).replace('torch.', '')}: F.linear under oneDNN's verbose mode, then under the profiler")
    # On a CPU the profiler names aten ops only; the libraries' own logs say who
    # did the arithmetic (MKL_VERBOSE for MKL, oneDNN's verbose mode for oneDNN).
    # --8<-- [start:logs]
    with torch.backends.mkldnn.verbose(torch.backends.mkldnn.VERBOSE_ON):
        F.linear(xd, Wd, bd)
        libc.fflush(None)
    with profile(activities=activities, record_shapes=True) as prof:
        F.linear(xd, Wd, bd)
    # --8<-- [end:logs]
        if device == "cuda":
            torch.cuda.synchronize()
    libc.fflush(None)
    print("profiler, CPU side (aten ops, each under its caller, with input shapes):")
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CPU and event.name.startswith("aten::"):
            depth, parent = 0, event.cpu_parent
            while parent is not None:
                depth, parent = depth + 1, parent.cpu_parent
            print(f"  {'  ' * depth}{event.name} {event.input_shapes}")
    if device == "cuda":
        print("profiler, GPU kernels:")
        for kernel in sorted({e.key for e in prof.key_averages() if e.device_type == torch.autograd.DeviceType.CUDA}):
            print("  " + kernel[:110])
