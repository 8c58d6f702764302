# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 600
# artifacts = ["atlas/*.jsonl"]
# ///
"""Every operator the installed torch registers, one JSON line per overload: the atlas's only source.

Nothing here is a guess. Each field is what a torch API returns for that overload (the registrations and the
computed dispatch table, tags, schema annotations, torch._decomp, Inductor's own tables, py_impl), or what a
call of that very overload is seen to do. The calls: every operator OpInfo's first sample inputs reach is
recorded with its arguments, then called directly, once per context, with a spy kernel wrapped around the
kernel at each key: the keys whose kernels ran are the walk. The rule that infers a walk from the table (for
the operators no sample reaches) is checked against every observed walk, and the run fails on a mismatch.
"""
import inspect
import json
import os
import re
import subprocess
import sys
import warnings
from collections import Counter

import torch
import torch._decomp as decomp
from torch._inductor import lowering
from torch._inductor.decomposition import select_decomp_table
from torch.fx.experimental.proxy_tensor import make_fx
from torch.utils._python_dispatch import TorchDispatchMode

C = torch._C
# Each import registers operators of its own. The registry is counted after each one in an interpreter of its own:
# this one may have imported more before the snippet began (a runner's warm interpreter imports Dynamo).
STAGES = """
import json, torch
names = lambda: sorted(torch._C._dispatch_get_all_op_names())
stages = [["import torch", names()]]
import torch._dynamo
stages.append(["+ torch._dynamo", names()])
import torch._decomp, torch._inductor.lowering, torch._inductor.decomposition
stages.append(["+ torch._inductor", names()])
print(json.dumps(stages))
"""
STAGE_NAMES = [(stage, set(names)) for stage, names in json.loads(subprocess.run(
    [sys.executable, "-c", STAGES], capture_output=True, text=True, check=True, timeout=300).stdout)]

device = "cuda" if torch.cuda.is_available() else "cpu"
backend = "CUDA" if device == "cuda" else "CPU"
# Rows of the computed table the atlas keeps: the keys a call on a CPU, CUDA or meta tensor can reach.
KEYS = ("PythonDispatcher", "PreDispatch", "FuncTorchDynamicLayerFrontMode", "AutocastCPU", "AutocastCUDA",
        "FuncTorchBatched", "AutogradCPU", "AutogradCUDA", "AutogradMeta", "ADInplaceOrView", "ZeroTensor",
        "Negative", "Conjugate", "Functionalize", "FuncTorchDynamicLayerBackMode", "Python", "BackendSelect", "CPU",
        "CUDA", "Meta", "Undefined")
# Functionality keys: their kernels do one job and hand the call on below their own key (theory 01).
HANDS_ON = ("Autograd", "Autocast", "ADInplaceOrView", "Functionalize", "Python", "FuncTorch", "Tracer",
            "Batched", "Conjugate", "Negative", "ZeroTensor", "PreDispatch", "BackendSelect")
ENDS = ("math kernel", "default backend kernel")  # composite kernels: they call other operators afresh
ROW = re.compile(r"^(?P<key>\w+): (?P<fallthrough>fallthrough )?registered (?:at (?P<site>\S+?:\d+)|by "
                 r"(?P<by>\w+))(?: :: .*?)? \[ ?(?P<kind>[^\]]*?) ?\]$")
# "registered by RegisterOperators": the legacy registration path names no file (torch's own _test operators)
REGISTERED = re.compile(r"^(?P<key>\w+)(?P<alias>\[alias\])?(?P<inactive> \(inactive\))?: registered (?:at "
                        r"(?P<site>\S+?:\d+)|by (?P<by>\w+))(?: :: .*?)? \[ (?P<kind>[^\]]*) \]$")
WHEEL = os.path.dirname(torch.__file__)
YAMLS = {"native": os.path.join(WHEEL, "..", "torchgen", "packaged", "ATen", "native", "native_functions.yaml"),
         "derivatives": os.path.join(WHEEL, "..", "torchgen", "packaged", "autograd", "derivatives.yaml")}


def source(site):
    """Where a kernel was registered, without the build machine's folders or the line."""
    path = site.rsplit(":", 1)[0]
    for marker in ("/site-packages/", "/pytorch/pytorch/", "/pytorch/"):
        if marker in path:
            return path.split(marker, 1)[1].removeprefix("build/")
    return os.path.basename(path)


def table_rows(name):
    """The computed dispatch table, key -> (kind, registration site, shared): torch's own, every line read.
    ``shared`` marks a backend fallback, the same for every operator."""
    rows = {}
    for line in C._dispatch_dump_table(name).splitlines():
        match = ROW.match(line)
        if match is None:
            raise RuntimeError(f"{name}: a dispatch table line the atlas cannot read: {line!r}")
        kind = "fallthrough" if match["fallthrough"] else match["kind"]
        rows[match["key"]] = (kind, match["site"] or match["by"], match["kind"] == "backend fallback")
    return rows


def registrations(name):
    """Every registration of the overload: key (alias keys included) -> (site, kind), and the C++ kernels that
    a later registration at the same key hides."""
    found, hidden = {}, {}
    for line in C._dispatch_dump(name).splitlines():
        match = REGISTERED.match(line)
        if match is None:
            continue
        target = hidden if match["inactive"] else found
        key = match["key"] + ("[alias]" if match["alias"] else "")
        target[key] = (match["site"] or match["by"], "fallthrough" if "fallthrough" in match["kind"] else "kernel")
    return found, hidden


def nameable():
    """The runtime keys torch.library can register a kernel at (a per-backend key such as AutogradHIP it
    cannot name: no call made here reaches one)."""
    found = set()
    for key in C.DispatchKey.__members__:
        try:
            C._dispatch_key_parse(key)
        except RuntimeError:
            continue
        found.add(key)
    return found - {"Undefined"}


def overload(name):
    namespace, _, rest = name.partition("::")
    base, _, variant = rest.partition(".")
    try:
        return getattr(getattr(getattr(torch.ops, namespace), base), variant or "default")
    except (AttributeError, RuntimeError):
        return None


def call_keys(tensors):
    """The key set the dispatcher computes for a call: its tensors' keys, plus the thread's include set,
    minus its exclude set."""
    keys = C.DispatchKeySet(C.DispatchKey.Undefined)
    for tensor in tensors:
        keys = keys | C._dispatch_keys(tensor)
    return (keys | C._dispatch_tls_local_include_set()) - C._dispatch_tls_local_exclude_set()


# --8<-- [start:rule]
def inferred_walk(rows, keys, target):
    """The walk the table implies for a key set, and the key where it fails (or None): a fallthrough passes
    the call on unseen; a functionality kernel runs and hands it on below its key; a math or default backend
    kernel, or any other kernel, runs and ends it; a key with no kernel at all ends it with an error
    (NotImplementedError). BackendSelect hands the call to the backend its options name (``target``), unless
    its kernel is written in Python (the prims): that kernel computes the result itself. An empty set runs
    the table's Undefined entry."""
    path = []
    for _ in range(64):
        key = keys.highestPriorityTypeId()
        name = C._dispatch_key_name(key)
        kind, site = rows.get(name, ("missing", ""))[:2]
        if key == C.DispatchKey.Undefined:
            if not path:
                path.append(name)
            return path, None
        if kind == "fallthrough":
            keys = keys & C._dispatch_keyset_full_after(key)
            continue
        if kind == "missing":
            return path, name
        path.append(name)
        if kind in ENDS or not name.startswith(HANDS_ON) or (name == "BackendSelect" and ".py:" in site):
            return path, None
        if name == "BackendSelect":
            keys = keys | C.DispatchKeySet(C._dispatch_key_parse(target))
        keys = keys & C._dispatch_keyset_full_after(key)
    return path, None
# --8<-- [end:rule]


# --8<-- [start:spies]
class Spies:
    """A spy kernel around the kernel each key of one overload computes to: it notes the key and calls that
    very kernel, so the call behaves as it would, and the keys whose kernels ran are seen, not inferred."""

    def __init__(self, name, rows):
        self.seen = []
        self.library = torch.library.Library(name.split("::")[0], "IMPL")
        wrapped = [(key, C._dispatch_get_computed_kernel_for_dispatch_key(name, key)) for key, (kind, *_) in
                   rows.items() if kind != "fallthrough" and key in NAMEABLE]
        for key, kernel in wrapped:  # every original is read before the first spy changes the table
            def spy(keys, *args, _key=key, _kernel=kernel, **kwargs):
                self.seen.append(_key)
                return _kernel.call_boxed(keys, *args, **kwargs)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    # torch.library's own checks refuse a Meta kernel beside a composite one: a spy is no kernel
                    self.library.m.impl(name.split("::")[1], key, spy, True)
            except RuntimeError:  # a per-backend key torch.library cannot name: no call here reaches it
                pass

    def close(self):
        self.library._destroy()
# --8<-- [end:spies]


class Harvest(TorchDispatchMode):
    """Records, for every overload a sample reaches below autograd, the first arguments it was called with."""

    def __init__(self, found, origin):
        super().__init__()
        self.found, self.origin = found, origin

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func.name() not in self.found:
            self.found[func.name()] = (self.origin, *copied(args, kwargs))
        return func(*args, **kwargs)


def copied(args, kwargs):
    tree = torch.utils._pytree
    return tree.tree_map(lambda a: a.detach().clone() if isinstance(a, torch.Tensor) else a, (args, kwargs))


def harvest():
    """overload -> (the OpInfo whose first sample reached it, args, kwargs)."""
    try:
        from torch.testing._internal.common_methods_invocations import op_db
        from torch.testing._internal.common_utils import SEED, set_rng_seed
    except ImportError:  # OpInfo needs expecttest; without it the atlas says so instead of guessing
        return None
    found = {}
    for info in op_db:
        origin = f"{info.name} ({info.variant_test_name})" if info.variant_test_name else info.name
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                generated = iter(info.sample_inputs_func(info, device, torch.float32, False))
                set_rng_seed(SEED)
                sample = next(generated)
                for name in overloads_of(info):  # the operator OpInfo names, called directly: a composite
                    if name not in found and binds(name, sample):  # one never reaches the mode below it
                        found[name] = (origin, *copied((sample.input, *sample.args), sample.kwargs))
                with Harvest(found, origin):
                    info.op(sample.input, *sample.args, **sample.kwargs)
        except Exception:  # noqa: BLE001 - an OpInfo that cannot run here contributes no sample
            continue
    return found


def overloads_of(info):
    packet = getattr(torch.ops.aten, info.aten_name or info.name, None)
    return [f"aten::{packet._qualified_op_name.split('::')[1]}{'' if o == 'default' else '.' + o}"
            for o in packet.overloads()] if isinstance(packet, torch._ops.OpOverloadPacket) else []


def binds(name, sample):
    """Whether this overload takes the sample's arguments: a call of it is the only test torch offers."""
    args, kwargs = copied((sample.input, *sample.args), sample.kwargs)
    try:
        overload(name)(*args, **kwargs)
        return True
    except Exception:  # noqa: BLE001 - a schema these arguments do not fit
        return False


def contexts(args, kwargs):
    """Each context a walk is observed in: how to enter it, and the call's arguments there."""
    tree = torch.utils._pytree
    meta = tree.tree_map(lambda a: a.to("meta") if isinstance(a, torch.Tensor) else a, (args, kwargs))
    target = options_backend(kwargs)
    found = {"call": (Nothing, args, kwargs, target),
             "autocast": (lambda: torch.autocast(device, dtype=torch.bfloat16), args, kwargs, target),
             "inference_mode": (torch.inference_mode, args, kwargs, target)}
    if tensors_of(args, kwargs):  # "on a meta tensor": a call without one has no meta walk
        found["meta"] = (Nothing, *meta, options_backend(meta[1]))
    return found


def options_backend(kwargs):
    """The backend key BackendSelect hands a call to: the one its device option names, else the default
    device's (torch's factories allocate on the CPU unless told otherwise)."""
    named = kwargs.get("device")
    kind = torch.device(named).type if named is not None else "cpu"
    return {"cpu": "CPU", "cuda": "CUDA", "meta": "Meta"}.get(kind, "CPU")


class Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def tensors_of(args, kwargs):
    return [a for a in torch.utils._pytree.tree_leaves((args, kwargs)) if isinstance(a, torch.Tensor)]


# --8<-- [start:observe]
def observe(name, op, rows, args, kwargs):
    """Each context's walk, observed with spies and inferred from the table; they must agree."""
    walks = {}
    for context, (enter, given, named, target) in contexts(args, kwargs).items():
        a, k = copied(given, named)
        spies = Spies(name, rows)
        try:
            with enter(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                inferred, _ = inferred_walk(rows, call_keys(tensors_of(a, k)), target)
                op(*a, **k)
        except Exception:  # noqa: BLE001 - a context this sample cannot run in is not shown
            continue
        finally:
            spies.close()
        seen = [key for i, key in enumerate(spies.seen) if key not in spies.seen[:i]] or ["Undefined"]
        if seen != inferred:
            raise RuntimeError(f"{name} in {context}: observed {seen}, the table implies {inferred}")
        walks[context] = seen
    return walks
# --8<-- [end:observe]


def describe(args, kwargs):
    """The arguments of a call as a reader needs them to read its grad_fn: tensors by shape and dtype."""
    def one(value):
        if isinstance(value, torch.Tensor):
            return f"Tensor{list(value.shape)} {str(value.dtype).removeprefix('torch.')}"
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(one(v) for v in value) + "]"
        return repr(value)[:40]
    return ", ".join([one(a) for a in args] + [f"{k}={one(v)}" for k, v in kwargs.items()])


def direct_grad_fn(op, args, kwargs):
    """The node a direct call of this overload records when its floating-point inputs require grad."""
    def leaf(a):
        if isinstance(a, torch.Tensor) and a.is_floating_point():
            return a.detach().clone().requires_grad_().clone()
        return a
    a, k = torch.utils._pytree.tree_map(leaf, copied(args, kwargs))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = op(*a, **k)
    except Exception as exc:  # noqa: BLE001 - said in the entry: the call failed with requires_grad inputs
        return {"error": type(exc).__name__}
    first = torch.utils._pytree.tree_leaves(out)
    first = first[0] if first else None
    node = first.grad_fn if isinstance(first, torch.Tensor) else None
    return {"grad_fn": type(node).__name__ if node is not None else None}


def decomposition_trace(function, op, args, kwargs):
    """What a decomposition of this overload does on the sample: the aten overloads it produces, or that it
    declines (returns NotImplemented) and leaves the operator as it is."""
    declined = []

    def run(*a):
        result = function(*a, **kwargs)
        if result is NotImplemented:
            declined.append(True)
            return op(*a, **kwargs)
        return result
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            graph = make_fx(run)(*copied(args, {})[0])
    except Exception:  # noqa: BLE001 - a decomposition that cannot be traced on this sample is not shown
        return None
    produced = sorted({n.target.name() for n in graph.graph.nodes if isinstance(n.target, torch._ops.OpOverload)})
    if declined or op.name() in produced:  # returned NotImplemented, or called the operator itself again
        return {"declined": True}
    return {"produces": produced}


def conditional(function):
    """Whether a decomposition can decline a call: its source returns NotImplemented somewhere (unreadable
    source counts as can)."""
    try:
        return "NotImplemented" in inspect.getsource(inspect.unwrap(function))
    except (OSError, TypeError):
        return True


def degenerate(args, kwargs):
    """A sample whose tensors have a dimension of size 0 or 1: the shapes a shape-dependent decomposition
    most often accepts (mm's dot and outer products), not the shapes a reader's model passes."""
    return any(size <= 1 for t in tensors_of(args, kwargs) for size in t.shape)


def inductor(op, found, trace):
    """What Inductor does with the overload, and how that is known. Observed: its Inductor decomposition run on
    the sample, applied (always, or some calls only) or declined. Read: a math kernel at AutogradCPU decomposes
    while AOTAutograd traces; an overload that writes an argument and has a Functionalize kernel reaches
    Inductor in its functional form; a lowering that is Inductor's fallback handler calls the ATen kernel;
    another lowering writes code of its own; no entry at all: the ATen kernel is called (implicit fallback).
    An Inductor decomposition that was not run says only that it is in the table."""
    if found["table"].get("AutogradCPU", [""])[0] == "math kernel":
        return "composite", "table"
    if found.get("annotations", {}).get("writes") and "Functionalize" in found["table"]:
        return "functionalized", "table"
    declined = ""
    if op in INDUCTOR_DECOMPOSITIONS:
        if trace is None:
            return "decomposition_table", "table"
        if not trace.get("declined"):
            return ("decomposed_some" if conditional(INDUCTOR_DECOMPOSITIONS[op]) else "decomposed"), "observed"
        declined = "_declined"
    lowered = lowering.lowerings.get(op)
    treatment = ("implicit_fallback" if lowered is None else "fallback"
                 if getattr(lowered, "_is_fallback_handler", False) else "lowered")
    return treatment + declined, "observed" if declined else "table"


def yaml_index(path, prefix):
    """name.overload -> (line, the lines of its entry) of a yaml file torchgen ships in the wheel."""
    found, current = {}, None
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.startswith(prefix):
                signature = line[len(prefix):].strip()
                current = signature.split("(", 1)[0]
                found[current] = (number, [])
            elif line.startswith("- "):
                current = None
            elif current and line.startswith("  ") and ":" in line and not line.startswith("   "):
                found[current][1].append(line.strip())
    return found


def annotations(op):
    """The schema's alias annotations: which arguments are written in place, which outputs alias an input."""
    schema = op._schema
    marks = {"writes": [], "aliases": []}
    sets = {}
    for argument in schema.arguments:
        info = argument.alias_info
        if info is not None:
            sets.update({s: argument.name for s in info.before_set})
            if info.is_write:
                marks["writes"].append(argument.name)
    for index, value in enumerate(schema.returns):
        info = value.alias_info
        if info is not None:
            for s in info.before_set:
                if s in sets:
                    marks["aliases"].append([index, sets[s]])
    return marks


def python_kernels(op):
    return sorted(k.name if isinstance(k, C.DispatchKey) else getattr(k, "__name__", str(k))
                  for k in op.py_kernels)


def entry(name, sample):
    op = overload(name)
    rows = table_rows(name)
    registered, hidden = registrations(name)
    sites = {site: key.removesuffix("[alias]") for key, (site, _) in registered.items()}
    aliases = sorted(k.removesuffix("[alias]") for k in registered if k.endswith("[alias]"))
    # The rows of its own: each names the registration it comes from (a key or an alias key).
    kept = {key: [kind, sites.get(site, source(site))] for key, (kind, site, shared) in rows.items()
            if key in KEYS and not shared}
    found = {
        "name": name,
        "schema": str(op._schema) if op is not None else None,
        "tags": sorted(str(t).removeprefix("Tag.") for t in op.tags) if op is not None else [],
        "kernels": {k: source(s) for k, (s, kind) in sorted(registered.items())
                    if kind != "fallthrough" and not k.endswith("[alias]")},
        "aliases": {k: source(registered[k + "[alias]"][0]) for k in aliases},
        "hidden": {k: source(s) for k, (s, _) in sorted(hidden.items())},
        "table": kept,
        "composite": composite_kind(aliases),
        "python": python_kernels(op) if op is not None else [],
        "decomposition": [flag for flag, table in (("torch._decomp", decomp.decomposition_table),
                                                   ("core_aten_decompositions", CORE_DECOMPOSITIONS),
                                                   ("inductor", INDUCTOR_DECOMPOSITIONS)) if op in table],
        "registered_by": next(stage for stage, names in STAGE_NAMES if name in names),
    }
    if op is not None:
        found["annotations"] = annotations(op)
        base = name.split("::")[1]
        if name.startswith("aten::") and base.removesuffix(".default") in NATIVE:
            found["native_functions"] = NATIVE[base][0]
        if name.startswith("aten::") and base in DERIVATIVES:
            found["derivatives"] = {"line": DERIVATIVES[base][0], "formula": DERIVATIVES[base][1]}
    trace = None
    if sample is not None and op is not None:
        origin, args, kwargs = sample
        found["sample"] = origin
        found["arguments"] = describe(args, kwargs)
        found["walks"] = observe(name, op, rows, args, kwargs)
        found["walked"] = "observed"
        found.update(direct_grad_fn(op, args, kwargs))
        if op in decomp.decomposition_table:
            traced = decomposition_trace(decomp.decomposition_table[op], op, args, kwargs)
            if traced is not None and "produces" in traced:
                found["decomposes_to"] = traced["produces"]
        if op in INDUCTOR_DECOMPOSITIONS:  # Inductor's own table: its entry may differ from torch._decomp's
            trace = decomposition_trace(INDUCTOR_DECOMPOSITIONS[op], op, args, kwargs)
    else:
        schema_tensors = op is not None and any("Tensor" in str(a.type) for a in op._schema.arguments)
        generic = [torch.empty(1, device=device)] if schema_tensors else []
        walks, missing = {}, {}
        for context, (enter, tensors, _, target) in contexts(generic, {}).items():
            with enter():
                walks[context], fails = inferred_walk(rows, call_keys(tensors), target)
            if fails is not None:
                missing[context] = fails
        found["walks"], found["walked"] = walks, "inferred"
        if missing:  # the key where such a call raises NotImplementedError: no kernel there
            found["no_kernel"] = missing
    treatment, how = inductor(op, found, trace) if op is not None else ("none", "table")
    found["inductor"], found["inductor_how"] = treatment, how
    if op is not None and op in lowering.fallbacks and treatment.startswith("lowered"):
        found["fallback_set"] = True  # a lowering of its own that hands some calls to the ATen kernel
    if treatment == "decomposed_some" and degenerate(*sample[1:]):
        found["degenerate"] = True
    return found


def composite_kind(aliases):
    return ("implicit" if "CompositeImplicitAutograd" in aliases else "explicit-non-functional"
            if "CompositeExplicitAutogradNonFunctional" in aliases else "explicit"
            if "CompositeExplicitAutograd" in aliases else "none")


torch.manual_seed(0)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    INDUCTOR_DECOMPOSITIONS = select_decomp_table()
NAMEABLE = nameable()
CORE_DECOMPOSITIONS = decomp.core_aten_decompositions()
NATIVE = yaml_index(YAMLS["native"], "- func: ")
DERIVATIVES = yaml_index(YAMLS["derivatives"], "- name: ")
sampled = harvest()
STAGE_NAMES.append(("+ OpInfo's samples run", set(C._dispatch_get_all_op_names())))
NAMES = sorted(STAGE_NAMES[-1][1])
entries = [entry(name, (sampled or {}).get(name)) for name in NAMES]

os.makedirs("atlas", exist_ok=True)
groups = {}
for item in entries:
    namespace, _, rest = item["name"].partition("::")
    letters = rest[:2] if rest.startswith("_") else rest[:1]  # private ops are many: split them further
    group = f"aten-{letters.lower()}" if namespace == "aten" else (
        namespace if namespace in ("quantized", "prims") else "other")
    groups.setdefault(group, []).append(json.dumps(item, sort_keys=True, ensure_ascii=False) + "\n")
shards = Counter()
for group, lines in groups.items():  # a file stays well under a record's limit for one artifact (512 KiB)
    part, size = 1, 0
    for line in lines:
        if size + len(line.encode()) > 400_000:
            part, size = part + 1, 0
        shard = group if part == 1 else f"{group}-{part}"
        size += len(line.encode())
        shards[shard] += 1
        with open(f"atlas/{shard}.jsonl", "a", encoding="utf-8") as handle:
            handle.write(line)

print(f"torch {torch.__version__.split('+')[0]} on {device}: registered operator overloads after each import")
for stage, names in STAGE_NAMES:
    print(f"  {stage:<26} {len(names):>5}")
namespaces = Counter(e["name"].split("::")[0] for e in entries)
print(f"the atlas lists {len(entries)} in {len(namespaces)} namespaces ({namespaces['aten']} of them aten)")
for key in ("CPU", "CUDA", "Meta", "FuncTorchBatched", "Functionalize"):
    print(f"  a kernel of their own under {key:<18} {sum(key in e['kernels'] for e in entries):>5}")
print("  a kernel at AutogradCPU of their own (not a math kernel, not the shared fallback):",
      sum(e["table"].get("AutogradCPU", [""])[0] in ("autograd kernel", "kernel") for e in entries))
print("  registered under an alias:", dict(sorted(Counter(a for e in entries for a in e["aliases"]).items())))
print("  what runs at the CPU key:", dict(sorted(Counter(
    e["table"].get("CPU", ["none", ""])[0] for e in entries).items())))
print("  tagged core:", sum("core" in e["tags"] for e in entries), "· a torch._decomp decomposition:",
      sum("torch._decomp" in e["decomposition"] for e in entries), "· in Inductor's table:",
      sum("inductor" in e["decomposition"] for e in entries))
print("  what Inductor does:", dict(sorted(Counter(e["inductor"] for e in entries).items())))
print("    seen on a call:", dict(sorted(Counter(e["inductor"] for e in entries if e["inductor_how"] == "observed")
                                     .items())), "· a degenerate sample:", sum("degenerate" in e for e in entries))
print("  inferred walks that end where no kernel is registered (the call raises):",
      sum("no_kernel" in e for e in entries))
print("  Python kernels (py_impl):", sum(bool(e["python"]) for e in entries),
      "· a Python Meta kernel hiding a C++ one:", sum("Meta" in e["hidden"] for e in entries))
if sampled is None:
    print("  calls on sample inputs: none made (OpInfo needs expecttest, absent here)")
else:
    observed = [e for e in entries if e["walked"] == "observed"]
    print(f"  reached by OpInfo's first samples and called directly: {len(observed)} overloads; "
          f"walks observed: {sum(len(e['walks']) for e in observed)}, each equal to the table's; "
          f"a grad_fn recorded by {sum(1 for e in observed if e.get('grad_fn'))}")
print(f"written: {len(shards)} files under atlas/, one JSON line per overload")
