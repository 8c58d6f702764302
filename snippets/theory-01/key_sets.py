# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import torch

C = torch._C
device = "cuda" if torch.cuda.is_available() else "cpu"

# 1. What each tensor carries.
W = torch.empty(600, 64, device=device)
print("tensor key sets")
# --8<-- [start:tensors]
print("  weight                   ", C._dispatch_keys(W))
# --8<-- [end:tensors]
print("  weight, requires_grad    ", C._dispatch_keys(W.detach().requires_grad_()))
print("  weight, bfloat16         ", C._dispatch_keys(W.bfloat16()))
print("  meta                     ", C._dispatch_keys(torch.empty(600, 64, device="meta")))
with torch.inference_mode():
    print("  made in inference_mode   ", C._dispatch_keys(torch.empty(600, 64, device=device)))


# 2. What the thread adds or removes: modes change thread-local sets, not tensors.
# --8<-- [start:thread]
def tls(label):
    print(f"  {label:<24} include {C._dispatch_tls_local_include_set()}")
    print(f"  {'':<24} exclude {C._dispatch_tls_local_exclude_set()}")
# --8<-- [end:thread]


print("\nthread-local include/exclude sets")
tls("default")
with torch.no_grad():
    tls("no_grad")
# --8<-- [start:modes]
with torch.autocast(device, dtype=torch.bfloat16):
    tls("autocast")
with torch.inference_mode():
    tls("inference_mode")
# --8<-- [end:modes]
