# /// snippet
# devices = ["cpu"]
# timeout = 60
# env = { ONEDNN_MAX_CPU_ISA = "ALL" }
# deps = ["scripts/minigpt"]
# volatile = ["^oneDNN detects:", "^  computed by:"]
# ///
import ctypes
import os
import tempfile

import torch
import torch.nn.functional as F
from minigpt import lm_head

# The same bfloat16 product as above, with oneDNN allowed every instruction set
# this CPU has (the site's other runs cap it at AVX2).
W, b = lm_head()
torch.manual_seed(0)
x = torch.randn(2, 64)
Wb, bb, xb = W.bfloat16(), b.bfloat16(), x.bfloat16()
libc = ctypes.CDLL(None)


def library_log(fn):
    """Run fn under oneDNN's verbose mode and return what oneDNN printed (with C stdio, on fd 1)."""
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as log:
        os.dup2(log.fileno(), 1)
        try:
            with torch.backends.mkldnn.verbose(torch.backends.mkldnn.VERBOSE_ON):
                out = fn()
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        log.seek(0)
        return out, log.read().decode().splitlines()


F.linear(xb, Wb, bb)  # warm up
y, lines = library_log(lambda: F.linear(xb, Wb, bb))
isa = next((line.split("isa:", 1)[1] for line in lines if ",isa:" in line), "(nothing printed)")
matmuls = [line.split(",")[5:7] for line in lines if ",primitive,exec,cpu," in line]
print("ONEDNN_MAX_CPU_ISA =", os.environ["ONEDNN_MAX_CPU_ISA"])
print("oneDNN detects:", isa)
print("bfloat16 F.linear(x, W, b), x of shape (2, 64):")
if matmuls:
    print("  computed by: oneDNN,", ", ".join(" ".join(m) for m in matmuls))
else:
    print("  computed by: no library logged it, so ATen's own CPU kernel")
reference = F.linear(xb.float(), Wb.float(), bb.float())
print("  result:", y.dtype, tuple(y.shape))
print("  agrees with float32 on the same inputs, to bfloat16 precision:",
      torch.allclose(y.float(), reference, rtol=2**-7, atol=2**-7))
