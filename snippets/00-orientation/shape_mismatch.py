# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# expect_error = { type = "RuntimeError", match = "mat1 and mat2 shapes cannot be multiplied" }
# ///
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
W = torch.randn(600, 64, device=device)
b = torch.randn(600, device=device)
x = torch.randn(2, 65, device=device)  # one feature too many
F.linear(x, W, b)
