# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import re

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

C = torch._C
K = C.DispatchKey
device = "cuda" if torch.cuda.is_available() else "cpu"


def entry(op, key):
    """The computed table's entry for one key: its kind, and the file that registered it."""
    for line in C._dispatch_dump_table(op).splitlines():
        name, _, rest = line.partition(": ")
        if name == key:
            kind = re.search(r"\[(.*?)\]", rest).group(1)
            where = re.search(r"registered at (\S+?):\d+", rest).group(1).rsplit("/", 1)[-1]
            return ("fallthrough " if rest.startswith("fallthrough") else "") + kind + ", " + where
    return "no kernel"


def names(keys):
    return [C._dispatch_key_name(k) for k in (K.ADInplaceOrView, K.BackendSelect) if keys.has(k)]


# 1. BackendSelect. A factory function has no tensor argument to take a backend key from:
# its call's keys are the thread's include set only.
call = C._dispatch_tls_local_include_set() - C._dispatch_tls_local_exclude_set()
print("torch.empty(2, 600): the call's keys are the thread's", ", ".join(names(call)))
for key in ("ADInplaceOrView", "BackendSelect"):
    print(f"  {key:<16} aten::empty: {entry('aten::empty.memory_format', key)}")
    print(f"  {'':<16} aten::addmm: {entry('aten::addmm', key)}")
for where in dict.fromkeys(("cpu", "meta", device)):
    print(f"  torch.empty(2, 600, device={where!r}) lands on", torch.empty(2, 600, device=where).device.type)
# --8<-- [start:backend-select]
with C._ExcludeDispatchKeyGuard(C.DispatchKeySet(K.BackendSelect)):
    try:
        torch.empty(2, 600)
# --8<-- [end:backend-select]
    except NotImplementedError as error:
        message = re.sub(r" \(e\.g\.[^)]*\)", "", str(error)).split(".  ")[0]
        print("  with BackendSelect excluded:")
        print("    " + message)

# 2. A fallthrough registered by one operator. The Conjugate key's fallback is a real
# kernel: it makes a lazily conjugated tensor concrete before the operator sees it.
# mm and addmm register a fallthrough there instead: they read the conjugate bit themselves.
print("\nthe Conjugate key (a tensor made by .conj() carries it)")
print("  backend fallback:", entry("aten::sin", "Conjugate"))
# --8<-- [start:conjugate]
for op in ("aten::t", "aten::addmm", "aten::sin"):
    own = C._dispatch_has_kernel_for_dispatch_key(op, K.Conjugate)
    fall = own and C._dispatch_kernel_for_dispatch_key_is_fallthrough(op, K.Conjugate)
# --8<-- [end:conjugate]
    print(f"  {op:<12} registers its own entry: {own!s:<5}  a fallthrough: {fall}")


class Seen(TorchDispatchMode):
    """Print each op that reaches the Python key, below Conjugate, and which inputs are still lazy."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        lazy = [a.is_conj() for a in args if isinstance(a, torch.Tensor)]
        print(f"    {func.name():<16} inputs still conjugated lazily: {lazy}")
        return func(*args, **(kwargs or {}))


torch.manual_seed(0)
x = torch.randn(2, 64, dtype=torch.complex64, device=device)
W = torch.randn(600, 64, dtype=torch.complex64, device=device)
b = torch.randn(600, dtype=torch.complex64, device=device)
W_conj = W.conj()  # a view with the conjugate bit set: no number has changed yet
print("  F.linear(x, W.conj(), b), the head with complex weights:")
# --8<-- [start:lazy]
with Seen():
    F.linear(x, W_conj, b)
# --8<-- [end:lazy]
print("  torch.sin(W.conj()):")
with Seen():
    torch.sin(W_conj)
