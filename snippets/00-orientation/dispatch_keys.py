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
