# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import torch

# --8<-- [start:kinds]
has = torch._C._dispatch_has_kernel_for_dispatch_key
# --8<-- [end:kinds]
KINDS = {
    "CompositeImplicitAutograd": "implicit",
    "CompositeExplicitAutograd": "explicit",
    "CompositeExplicitAutogradNonFunctional": "explicit-nf",
    "CPU": "CPU",
    "CUDA": "CUDA",
    "Meta": "Meta",
    "Autograd": "Autograd",
}
OPS = ["linear", "matmul", "t", "transpose.int", "addmm", "mm", "softmax.int", "_softmax", "log_softmax.int",
       "cross_entropy_loss", "nll_loss_forward", "gelu", "relu"]

print(f"{'aten::':<22}" + "".join(f"{short:<13}" for short in KINDS.values()))
# --8<-- [start:query]
for op in OPS:
    name = "aten::" + op
    marks = "".join(f"{'yes' if has(name, key) else '.':<13}" for key in KINDS)
# --8<-- [end:query]
    print(f"{op:<22}{marks}")
