# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 300
# artifacts = ["atlas/*.jsonl"]
# ///
"""Every operator the installed torch registers, one JSON line per overload: the atlas's only source.

For each overload: its schema and tags; the keys that hold a kernel of its own (no fallthrough, no backend
fallback) and the file that registered each; its composite kind; whether torch._decomp has a decomposition
(in the core-ATen set or not); what Inductor does with it; the path a call takes through the dispatcher on a
CPU tensor, under autocast, in inference mode and on a meta tensor; and, for the operators OpInfo can call on
sample inputs, the grad_fn a call records and the aten operators its Python decomposition produces.
"""
import json
import os
import re
import warnings
from collections import Counter

import torch

# Importing these registers their own operators and kernels (Python meta kernels, Inductor's ops): the
# atlas reads the registry after them, so it is the same on every run.
import torch._decomp as decomp
import torch._inductor.decomposition as inductor_decompositions
from torch._inductor import lowering
from torch.fx.experimental.proxy_tensor import make_fx

C = torch._C
device = "cuda" if torch.cuda.is_available() else "cpu"
REGISTERED = re.compile(r"^(?P<key>\w+)(?P<alias>\[alias\])?(?P<inactive> \(inactive\))?: registered at "
                        r"(?P<file>\S+?):\d+(?: :: .*?)? \[ (?P<kind>[^\]]*) \]$", re.MULTILINE)
TABLE = re.compile(r"^(?P<key>\w+): (?:registered at \S+ |fallthrough registered at \S+ )?\[(?P<kind>[^\]]+)\]$",
                   re.MULTILINE)
CORE = set(decomp.core_aten_decompositions())
# Keys whose kernels do one job and hand the call on to the keys below their own (theory 01's walk).
PASSES_ON = ("Autograd", "Autocast", "ADInplaceOrView", "Functionalize", "Python", "FuncTorch", "Tracer",
             "Batched", "Conjugate", "Negative", "ZeroTensor", "Named", "VmapMode", "PreDispatch", "PreAutograd")


def source(path):
    """Where a kernel was registered, without the build machine's folders."""
    for marker in ("/site-packages/", "/pytorch/pytorch/", "/pytorch/"):
        if marker in path:
            return path.split(marker, 1)[1].removeprefix("build/")
    return os.path.basename(path)


def overload(name):
    namespace, _, rest = name.partition("::")
    base, _, variant = rest.partition(".")
    try:
        return getattr(getattr(getattr(torch.ops, namespace), base), variant or "default")
    except (AttributeError, RuntimeError):
        return None


def walk(rows, keys):
    """The keys a call visits, as the dispatcher does: a fallthrough passes it on, a kernel runs (an
    autograd or view kernel redispatches below its own key), a backend or math kernel ends the walk."""
    path = []
    for _ in range(64):
        key = keys.highestPriorityTypeId()
        if key == C.DispatchKey.Undefined:
            break
        name = C._dispatch_key_name(key)
        kind = rows.get(name, "no kernel")
        if kind != "fallthrough":
            path.append(f"{name}:{kind}")
        if kind in ("math kernel", "default backend kernel", "no kernel") or (
                kind == "kernel" and not name.startswith(PASSES_ON)):
            break
        keys = keys & C._dispatch_keyset_full_after(key)
    return path


def call_key_set(tensor):
    """What the dispatcher computes for a call on ``tensor``: its keys, plus the thread's include set, minus
    its exclude set (theory 01 shows the rule on linear)."""
    return (C._dispatch_keys(tensor) | C._dispatch_tls_local_include_set()) - C._dispatch_tls_local_exclude_set()


def call_key_sets():
    """The key set each kind of call starts from, read off real tensors and the thread's sets."""
    sets = {"call": call_key_set(torch.empty(1, device=device)),
            "meta": call_key_set(torch.empty(1, device="meta"))}
    with torch.autocast(device, dtype=torch.bfloat16):
        sets["autocast"] = call_key_set(torch.empty(1, device=device))
    with torch.inference_mode():
        sets["inference_mode"] = call_key_set(torch.empty(1, device=device))
    return sets


def inductor_treatment(op, composite):
    if op in inductor_decompositions.decompositions:
        return "decomposed"
    if op in lowering.fallbacks:
        return "fallback"
    if op in lowering.lowerings:
        return "lowered"
    return "composite" if composite == "implicit" else "none"


def samples():
    """grad_fn and decomposition of every operator OpInfo can call on float32 sample inputs (its first one)."""
    try:
        from torch.testing._internal.common_methods_invocations import op_db
        from torch.testing._internal.common_utils import SEED, set_rng_seed
    except ImportError:  # OpInfo needs expecttest; without it the atlas says so instead of guessing
        return None
    found = {}
    for info in op_db:
        if info.variant_test_name or not info.supports_autograd:
            continue
        name = f"aten::{info.aten_name or info.name}"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                # info.sample_inputs(...) gives these samples, seeded the same way, but first walks the
                # whole call stack with inspect to find the unit test it runs under: 80 % of this harvest.
                generated = iter(info.sample_inputs_func(info, device, torch.float32, True))
                set_rng_seed(SEED)
                sample = next(generated)
                out = info.op(sample.input, *sample.args, **sample.kwargs)
        except Exception:  # noqa: BLE001 - an operator OpInfo cannot call here keeps no sample
            continue
        first = out[0] if isinstance(out, (tuple, list)) and out else out
        grad_fn = type(first.grad_fn).__name__ if isinstance(first, torch.Tensor) and first.grad_fn else None
        found.setdefault(name, {"grad_fn": grad_fn, "sample": (info, sample)})
    return found


def decomposes_to(op, info, sample):
    """The aten operators a call produces when this operator is replaced by its Python decomposition."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            args = [a.detach() if isinstance(a, torch.Tensor) else a for a in (sample.input, *sample.args)]
            graph = make_fx(lambda *a: info.op(*a, **sample.kwargs),
                            decomposition_table={op: decomp.decomposition_table[op]})(*args)
    except Exception:  # noqa: BLE001 - a decomposition that cannot be traced on this sample is not shown
        return None
    return sorted({str(n.target) for n in graph.graph.nodes if n.op == "call_function"})


def entry(name, starts, sampled):
    op = overload(name)
    dump = C._dispatch_dump(name)
    kernels = {m.group("key"): source(m.group("file")) for m in REGISTERED.finditer(dump)
               if "fallthrough" not in m.group("kind") and not m.group("inactive") and not m.group("alias")}
    aliases = {m.group("key") for m in REGISTERED.finditer(dump) if m.group("alias")}
    composite = ("implicit" if "CompositeImplicitAutograd" in aliases else "explicit-non-functional"
                 if "CompositeExplicitAutogradNonFunctional" in aliases else "explicit"
                 if "CompositeExplicitAutograd" in aliases else "none")
    rows = {m.group("key"): m.group("kind") for m in TABLE.finditer(C._dispatch_dump_table(name))}
    found = {
        "name": name, "schema": dump.split("schema: ", 1)[1].split("\n", 1)[0] if "schema: " in dump else None,
        "tags": sorted(str(t).removeprefix("Tag.") for t in op.tags) if op is not None else [],
        "kernels": dict(sorted(kernels.items())), "aliases": sorted(aliases), "composite": composite,
        "decomposition": ("core" if op in CORE else "yes" if op in decomp.decomposition_table else "no")
        if op is not None else "no",
        "inductor": inductor_treatment(op, composite) if op is not None else "none",
        "walks": {kind: walk(rows, keys) for kind, keys in starts.items()},
    }
    # OpInfo calls an operator by its Python name: its sample stands for the default overload only.
    sample = sampled.get(name) if sampled is not None and "." not in name.split("::")[1] else None
    found["grad_fn"] = sample["grad_fn"] if sample else None
    if sample and op is not None and op in decomp.decomposition_table:
        found["decomposes_to"] = decomposes_to(op, *sample["sample"])
    return found


torch.manual_seed(0)
starts = call_key_sets()
sampled = samples()
names = sorted(C._dispatch_get_all_op_names())
entries = [entry(name, starts, sampled) for name in names]

os.makedirs("atlas", exist_ok=True)
shards = Counter()
for item in entries:
    namespace, _, rest = item["name"].partition("::")
    letters = rest[:2] if rest.startswith("_") else rest[:1]  # private ops are many: split them further
    shard = f"aten-{letters.lower()}" if namespace == "aten" else (
        namespace if namespace in ("quantized", "prims") else "other")
    shards[shard] += 1
    with open(f"atlas/{shard}.jsonl", "a") as handle:
        handle.write(json.dumps(item, sort_keys=True, ensure_ascii=False) + "\n")

namespaces = Counter(e["name"].split("::")[0] for e in entries)
print(f"torch {torch.__version__.split('+')[0]} on {device}: {len(entries)} operator overloads in "
      f"{len(namespaces)} namespaces ({namespaces['aten']} of them aten)")
for key in ("CPU", "CUDA", "Meta", "AutogradCPU", "AutogradCUDA", "FuncTorchBatched", "Functionalize"):
    print(f"  a kernel of their own under {key:<18} {sum(key in e['kernels'] for e in entries):>5}")
print("  composite kind:", dict(sorted(Counter(e["composite"] for e in entries).items())))
print("  a Python decomposition:", dict(sorted(Counter(e["decomposition"] for e in entries).items())))
print("  what Inductor does:", dict(sorted(Counter(e["inductor"] for e in entries).items())))
if sampled is None:
    print("  grad_fn and decompositions on sample inputs: not read (OpInfo needs expecttest, absent here)")
else:
    with_grad = sum(1 for e in entries if e["grad_fn"])
    traced = sum(1 for e in entries if e.get("decomposes_to"))
    print(f"  called on OpInfo's sample inputs: {len(sampled)} operators; a grad_fn recorded for {with_grad}; "
          f"a decomposition traced for {traced}")
print("  the call of one CPU tensor starts at:", starts["call"].highestPriorityTypeId().name)
print(f"written: {len(shards)} files under atlas/, one JSON line per overload:", dict(sorted(shards.items())))
