# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
W = torch.empty(600, 64, device=device)
print("plain weight:         ", torch._C._dispatch_keys(W))
print("requires_grad=True:   ", torch._C._dispatch_keys(W.requires_grad_()))
with torch.inference_mode():
    print("made in inference_mode:", torch._C._dispatch_keys(torch.empty(600, 64, device=device)))
print("meta tensor:          ", torch._C._dispatch_keys(torch.empty(600, 64, device="meta")))

# What a call on W dispatches on: the tensor's keys, plus the thread's include set,
# minus the thread's exclude set. The thread excludes autocast until torch.autocast is entered.
C = torch._C
autocast_key = C.DispatchKey.AutocastCUDA if device == "cuda" else C.DispatchKey.AutocastCPU
print(f"the thread excludes {autocast_key.name}:", C._dispatch_tls_is_dispatch_key_excluded(autocast_key))
call = (C._dispatch_keys(W) | C._dispatch_tls_local_include_set()) - C._dispatch_tls_local_exclude_set()
print("a call on W starts at:", C._dispatch_key_name(call.highestPriorityTypeId()))
