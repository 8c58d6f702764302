# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

device = "cuda" if torch.cuda.is_available() else "cpu"
W, b = (t.clone().requires_grad_() for t in lm_head(device))
x = torch.randn(2, 64, device=device, requires_grad=True)
target = torch.tensor([3, 7], device=device)

saved = []


def pack(t):  # called for every tensor a node saves for backward
    saved.append(t)
    return t


# --8<-- [start:hooks]
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = F.linear(x, W, b)
    after_head = len(saved)
    loss = F.cross_entropy(y, target)
# --8<-- [end:hooks]

node = y.grad_fn
print(f"{node.name()} saved mat1 {tuple(node._saved_mat1.shape)} and mat2 {tuple(node._saved_mat2.shape)}")
print("  mat1 shares x's memory:", node._saved_mat1.data_ptr() == x.data_ptr())
print("  mat2 shares W's memory (a transposed view):", node._saved_mat2.data_ptr() == W.data_ptr())
print("  alpha, beta:", node._saved_alpha, node._saved_beta)


def describe(tensors):
    storages = {t.untyped_storage().data_ptr(): t.untyped_storage().nbytes() for t in tensors}
    return f"{len(tensors)} tensors on {len(storages)} storages, {sum(storages.values()):,} bytes"


print("\nsaved by the head:           ", describe(saved[:after_head]))
print("saved by head + cross-entropy:", describe(saved))
print("of which new memory (not x, W, b):", sum(
    t.untyped_storage().nbytes() for t in {t.untyped_storage().data_ptr(): t for t in saved}.values()
    if t.untyped_storage().data_ptr() not in {x.data_ptr(), W.data_ptr(), b.data_ptr()}), "bytes")
