# /// snippet
# devices = ["cpu"]
# timeout = 60
# ///
import torch
import torch.nn.functional as F

W = torch.randn(600, 64, requires_grad=True)
x = torch.randn(2, 64)

# --8<-- [start:modes]
with torch.no_grad():
    a = F.linear(x, W)
with torch.inference_mode():
    c = F.linear(x, W)
# --8<-- [end:modes]

for name, t in (("no_grad", a), ("inference_mode", c)):
    print(f"{name:<15} requires_grad={t.requires_grad}  is_inference={torch.is_inference(t)}  "
          f"keys={torch._C._dispatch_keys(t)}")

print("\nversion counter:", a._version, "(no_grad output tracks in-place changes)")
try:
    c._version
except RuntimeError as error:
    print("version counter:", error)

# Using each later in a graph that needs it for backward:
for name, t in (("no_grad", a), ("inference_mode", c)):
    try:
        # --8<-- [start:later]
        (t * W[:2, :1]).sum().backward()  # t is saved for backward
        # --8<-- [end:later]
        print(f"{name}: usable in a later graph")
    except RuntimeError as error:
        print(f"{name}: {error}")
