"""An observer of operator calls written apart from the atlas snippet: it reads a list of overloads as JSON on
stdin and prints what torch does with each, as JSON on stdout. Run in a fresh interpreter by test_atlas_observed.

For each overload it rebuilds the arguments a call receives from the OpInfo sample the record names (caught
below autograd with a dispatch mode, or the sample itself where the overload takes it), then:
- ``keys``: which dispatch keys' kernels run, seen by a spy around the kernel each key holds;
- ``grad_fn``: the node a direct call of that overload records when its floating inputs require grad;
- ``inductor``: how Inductor's generated code treats a compiled call of it, read from the code itself, and
  ``calls_itself``: whether that code calls this very overload;
- ``composite``: the alias keys torch holds a kernel at for it (``_dispatch_has_kernel_for_dispatch_key``).
An overload no sample reaches is called as the test names it (``call``, ``kwargs``: a factory, or float tensors
of given shapes); a call that raises gives ``error`` beside the keys whose kernels ran before it.
"""

from __future__ import annotations

import json
import sys
import warnings

import torch
from torch.utils._python_dispatch import TorchDispatchMode

C = torch._C


def resolve(name: str) -> torch._ops.OpOverload:
    namespace, _, rest = name.partition("::")
    base, _, variant = rest.partition(".")
    return getattr(getattr(getattr(torch.ops, namespace), base), variant or "default")


class Catch(TorchDispatchMode):
    def __init__(self, wanted: torch._ops.OpOverload) -> None:
        super().__init__()
        self.wanted, self.caught = wanted, None

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is self.wanted and self.caught is None:
            self.caught = torch.utils._pytree.tree_map(
                lambda a: a.detach().clone() if isinstance(a, torch.Tensor) else a, (args, kwargs)
            )
        return func(*args, **kwargs)


def arguments(op: torch._ops.OpOverload, sample_name: str):
    from torch.testing._internal.common_methods_invocations import op_db
    from torch.testing._internal.common_utils import SEED, set_rng_seed

    for info in op_db:
        if (f"{info.name} ({info.variant_test_name})" if info.variant_test_name else info.name) != sample_name:
            continue
        generated = iter(info.sample_inputs_func(info, "cpu", torch.float32, False))
        set_rng_seed(SEED)
        sample = next(generated)
        direct = ((sample.input, *sample.args), dict(sample.kwargs))
        try:
            op(*direct[0], **direct[1])
            return torch.utils._pytree.tree_map(lambda a: a.clone() if isinstance(a, torch.Tensor) else a, direct)
        except Exception:  # noqa: BLE001 - this overload does not take the sample itself: catch it below
            pass
        catch = Catch(op)
        with catch:
            info.op(sample.input, *sample.args, **sample.kwargs)
        return catch.caught
    return None


def dispatch_keys() -> list[str]:
    names = []
    for key in C.DispatchKey.__members__:
        try:
            C._dispatch_key_parse(key)
        except RuntimeError:
            continue
        names.append(key)
    return [k for k in names if k != "Undefined" and not C._dispatch_is_alias_key(C._dispatch_key_parse(k))]


def keys_run(op: torch._ops.OpOverload, call) -> list[str]:
    """Spies at every key that holds a kernel (the originals read first); the keys whose spies fire, in order."""
    name = op.name()
    held = []
    for key in dispatch_keys():
        if not C._dispatch_has_computed_kernel_for_dispatch_key(name, key):
            continue
        try:
            if C._dispatch_kernel_for_dispatch_key_is_fallthrough(name, C._dispatch_key_parse(key)):
                continue
        except RuntimeError:  # no registration of its own there: the computed entry decides
            if "fallthrough" in next(
                (line for line in C._dispatch_dump_table(name).splitlines() if line.startswith(key + ":")), ""
            ):
                continue
        held.append((key, C._dispatch_get_computed_kernel_for_dispatch_key(name, key)))
    fired: list[str] = []
    library = torch.library.Library(op.namespace, "IMPL")
    for key, kernel in held:

        def spy(keyset, *args, _key=key, _kernel=kernel, **kwargs):
            fired.append(_key)
            return _kernel.call_boxed(keyset, *args, **kwargs)

        try:
            library.m.impl(name.split("::")[1], key, spy, True)
        except RuntimeError:
            pass
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except Exception as exc:  # noqa: BLE001 - a key with no kernel: the keys that ran before it, and the error
        return [*dict.fromkeys(fired), f"error: {type(exc).__name__}"]
    finally:
        library._destroy()
    return list(dict.fromkeys(fired)) or ["Undefined"]


def grad_fn(op, args, kwargs):
    def leaf(a):
        return a.detach().requires_grad_().clone() if isinstance(a, torch.Tensor) and a.is_floating_point() else a

    a, k = torch.utils._pytree.tree_map(leaf, (args, kwargs))
    try:
        out = op(*a, **k)
    except Exception as exc:  # noqa: BLE001 - reported as the record reports it
        return {"error": type(exc).__name__}
    leaves = [t for t in torch.utils._pytree.tree_leaves(out) if isinstance(t, torch.Tensor)]
    node = leaves[0].grad_fn if leaves else None
    return {"grad_fn": type(node).__name__ if node is not None else None}


def composite(name: str) -> list[str]:
    keys = ("CompositeImplicitAutograd", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional")
    return [k for k in keys if C._dispatch_has_kernel_for_dispatch_key(name, k)]


def inductor(op, args, kwargs) -> tuple[str, bool]:
    """decomposed (no trace of the operator), extern (a library call), fallback (the ATen kernel), or loops; and
    whether the code calls this very overload (aten.<name>.<overload>)."""
    from torch._inductor.utils import run_and_get_code

    torch._dynamo.reset()
    compiled = torch.compile(lambda *a: op(*a, **kwargs), backend="inductor", fullgraph=True)
    _, codes = run_and_get_code(compiled, *args)
    code = "\n".join(codes)
    base = op.name().split("::")[1].split(".")[0]
    itself = f"aten.{base}.{op._overloadname}" in code
    if f"extern_kernels.{base}(" in code:
        return "extern", itself
    if f"aten.{base}." in code or f"aten.{base}(" in code:
        return "fallback", itself
    return "loops", itself


def main() -> None:
    wanted = json.load(sys.stdin)
    found = {}
    for item in wanted:
        op = resolve(item["name"])
        if item.get("sample"):
            try:
                captured = arguments(op, item["sample"])
            except Exception as exc:  # noqa: BLE001 - the sample cannot be rebuilt here: said, not guessed
                print(f"{item['name']}: its sample cannot be rebuilt ({type(exc).__name__})", file=sys.stderr)
                captured = None
            if captured is None:
                found[item["name"]] = {"missing": True}
                continue
            args, kwargs = captured
        else:
            args = [torch.randn(a["tensor"]) if isinstance(a, dict) else a for a in item["call"]]
            kwargs = {
                k: getattr(torch, v.removeprefix("torch.")) if str(v).startswith("torch.") else v
                for k, v in item.get("kwargs", {}).items()
            }
        observed = {"keys": keys_run(op, lambda op=op, a=args, k=kwargs: op(*a, **k)), **grad_fn(op, args, kwargs)}
        observed["composite"] = composite(item["name"])
        if item.get("compile"):
            try:
                observed["inductor"], observed["calls_itself"] = inductor(op, args, kwargs)
            except Exception as exc:  # noqa: BLE001 - reported: a label is never held to a compile that failed
                observed["inductor"], observed["calls_itself"] = f"error: {type(exc).__name__}", False
        found[item.get("key", item["name"])] = observed
    json.dump(found, sys.stdout)


if __name__ == "__main__":
    main()
