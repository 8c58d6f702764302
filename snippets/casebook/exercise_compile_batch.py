# /// snippet
# devices = ["cpu"]
# timeout = 600
# deps = ["scripts/minigpt"]
# ///
"""Exercise: the same counts for 16 sequences instead of 2: which grow with the batch, which do not."""

import re

import torch
from minigpt import encode, load_model
from torch._inductor.utils import run_and_get_code
from torch.utils._python_dispatch import TorchDispatchMode

model = load_model().eval()
prompts = ["walk : yesterday she", "eat : yesterday they", "comer : ayer yo", "vivir : ayer tú"]


class Writes(TorchDispatchMode):
    """Aten ops whose result does not share an input's memory, and the bytes of those results."""

    def __init__(self):
        super().__init__()
        self.ops, self.bytes = 0, 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        first = out[0] if isinstance(out, tuple) else out
        inputs = {a.untyped_storage().data_ptr() for a in args if isinstance(a, torch.Tensor)}
        if isinstance(first, torch.Tensor) and first.untyped_storage().data_ptr() not in inputs:
            self.ops, self.bytes = self.ops + 1, self.bytes + first.numel() * first.element_size()
        return out


# --8<-- [start:solution]
for batch in (2, 16):
    idx = torch.cat([encode(prompts[i % 4]) for i in range(batch)])
    torch._dynamo.reset()  # a fresh compilation for each batch, as in the case above
    with torch.no_grad():
        writes = Writes()
        with writes:
            model(idx)
        _, (code,) = run_and_get_code(torch.compile(model), idx)
    body = code[code.index("def call(self, args)"):]
    calls = len(re.findall(r"^\s+cpp_fused\w+\(", body, re.M))
    library = len(re.findall(r"^\s+(?:\w+ = )?(?:extern_kernels|torch\.ops\.aten)\.\w+", body, re.M))
    fresh = re.findall(r"empty_strided_cpu\((\([\d, ]+\)), \([\d, ]+\), torch.float32\)", body)
    new_bytes = sum(4 * torch.Size(eval(shape)).numel() for shape in fresh)
    print(f"{batch:>2} sequences: eager {writes.ops} ops, {writes.bytes} bytes | compiled {calls} kernel calls "
          f"+ {library} library calls, {len(fresh)} buffers, {new_bytes} bytes")
# --8<-- [end:solution]
