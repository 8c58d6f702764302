# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model, vocab

device = "cuda" if torch.cuda.is_available() else "cpu"
model = load_model(device)
W, b = lm_head(device)  # the trained nn.Linear(64, 600)
words = vocab()

# --8<-- [start:predict]
for prompt in ("walk : yesterday she", "comer : ayer nosotros"):
    with torch.no_grad():
        h = model.hidden(encode(prompt).to(device))[0, -1]  # the 64 numbers the head reads
        probs = F.linear(h, W, b).softmax(-1)  # 600 scores -> a distribution over words
    top = probs.topk(5)
# --8<-- [end:predict]
    print(f"{prompt} ...")
    for p, i in zip(top.values.tolist(), top.indices.tolist(), strict=True):
        print(f"  {words[i]:<12} {p:.3f}")
