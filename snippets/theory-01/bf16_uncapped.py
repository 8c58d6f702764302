# /// snippet
# devices = ["cpu"]
# timeout = 90
# deps = ["scripts/minigpt", "snippets/theory-01/_onednn_caps.py"]
# volatile = ["^(AVX512_CORE|ALL) +\\|"]
# ///
import os

import torch
import torch.nn.functional as F
from _onednn_caps import as_child, library_log, under_caps  # oneDNN's log, one process per cap
from minigpt import lm_head


# --8<-- [start:product]
def bf16_product():
    """The bfloat16 product above, under this process's cap: oneDNN's instruction set,
    then who computed the product, from oneDNN's verbose log."""
    W, b = lm_head()
    torch.manual_seed(0)
    x = torch.randn(2, 64)
    Wb, bb, xb = W.bfloat16(), b.bfloat16(), x.bfloat16()
    # A float32 copy into oneDNN's own layout always runs in oneDNN: its first
    # verbose lines name the instruction set oneDNN uses under this cap.
    _, lines = library_log(x.to_mkldnn)
    isa = next(line.split("isa:", 1)[1] for line in lines if ",isa:" in line)
    F.linear(xb, Wb, bb)  # warm up
    y, lines = library_log(lambda: F.linear(xb, Wb, bb))
    matmuls = [line.split(",")[6] for line in lines if ",primitive,exec,cpu,matmul," in line]
    close = torch.allclose(y.float(), F.linear(xb.float(), Wb.float(), bb.float()), rtol=2**-7, atol=2**-7)
    return {"isa": isa, "matmuls": matmuls, "result": f"{y.dtype} {tuple(y.shape)} {close}"}
# --8<-- [end:product]


as_child(bf16_product)  # in a process under_caps started: its one line of JSON, then the end
# --8<-- [start:caps]
# This process keeps the site's cap; two children lift it, to AVX-512 without bfloat16
# instructions and to everything this CPU has.
runs = {os.environ.get("ONEDNN_MAX_CPU_ISA", "ALL"): bf16_product()}
runs.update(under_caps(__file__, ("AVX512_CORE", "ALL")))
# --8<-- [end:caps]

print("bfloat16 F.linear(x, W, b), x of shape (2, 64), under each ONEDNN_MAX_CPU_ISA")
print(f"{'cap':<12} | oneDNN's instruction set, as oneDNN names it")
for cap, run in runs.items():
    print(f"{cap:<12} | {run['isa']}")
print(f"{'cap':<12} | at least AVX-512 | names bfloat16 | computed by")
# --8<-- [start:rule]
rule = True
for cap, run in runs.items():
    avx512 = run["isa"].startswith(("Intel AVX-512", "Intel AVX10"))  # oneDNN's names from avx512_core up
    by = f"oneDNN, {' '.join(run['matmuls'])}" if run["matmuls"] else "ATen's own CPU kernel (no oneDNN matmul)"
    print(f"{cap:<12} | {avx512!s:<16} | {'bfloat16' in run['isa']!s:<14} | {by}")
    rule = rule and avx512 == bool(run["matmuls"])
print("oneDNN computed the product exactly where its instruction set was at least AVX-512:", rule)
# --8<-- [end:rule]
print("every result (dtype, shape, equal to float32 within bfloat16 precision):",
      *sorted({run["result"] for run in runs.values()}))
