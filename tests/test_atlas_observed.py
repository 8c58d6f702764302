"""The atlas against an independent observation: what a real call does, seen by code written apart from the
atlas snippet (tests/atlas_observer.py), in a fresh interpreter, for a seeded sample of overloads.

Each derived column is compared with its observation: the walk (spy kernels at every key), the grad_fn (a
direct call of that very overload), the composite kind (the alias keys torch holds a kernel at) and what Inductor
does (a compiled call's generated code), for a seeded draw of every Inductor label and of the classes a review
found mislabelled: in-place and out= overloads, special functions, prims, legacy registrations, and walks that
stop at a key with no kernel. A label read from a table is held to what that table means. A mismatch fails.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.kinds import atlas

pytestmark = pytest.mark.slow
SEED = 73
OBSERVER = Path(__file__).with_name("atlas_observer.py")
# Named besides the seeded draw: the operators the site teaches, and one of each Inductor treatment.
NAMED = ("aten::addmm", "aten::mm", "aten::linear", "aten::mul.Tensor", "aten::_softmax", "aten::clamp_min")
COMPILED = ("aten::addmm", "aten::mm", "aten::_softmax", "aten::mul.Tensor", "aten::cat", "aten::igamma")
PER_LABEL = 2  # sampled overloads compiled per Inductor label, drawn with SEED
# What a compiled call's generated code may show, per label (observer.inductor): a label that says the overload
# never reaches Inductor as itself (decomposed, functionalized) is held to code that does not call it.
SHOWS = {
    "composite": {"loops", "extern"},
    "decomposed": {"loops", "extern"},
    "decomposed_some": {"loops", "extern"},
    "functionalized": {"loops", "extern", "fallback"},
    "lowered": {"loops", "extern"},
    "fallback": {"fallback"},
    "implicit_fallback": {"fallback"},
}
NOT_ITSELF = ("composite", "decomposed", "decomposed_some", "functionalized")
# A reader's shapes for a decomposition that applied only to a degenerate sample: [8, 16] @ [16, 4] keeps mm.
READER_CALLS = {"aten::mm": [{"tensor": [8, 16]}, {"tensor": [16, 4]}]}
# An overload no sample reaches: its walk is inferred, and a call made here checks the inference too.
# A {"tensor": shape} argument is a float CPU tensor of that shape.
INFERRED_CALLS = {
    "aten::hann_window": [4],
    "aten::bartlett_window": [5],
    "aten::randperm": [6],
    "aten::clamp": [{"tensor": [3]}, 0.0],
    "prims::full": [[2, 3], 1.0],  # a Python BackendSelect kernel computes the result: the walk ends there
    "aten::cudnn_convolution_relu": [
        {"tensor": [1, 1, 3, 3]},
        {"tensor": [1, 1, 1, 1]},
        None,
        [1, 1],
        [0, 0],
        [1, 1],
        1,
    ],  # no CPU kernel: the call raises there
}
INFERRED_KWARGS = {"prims::full": {"dtype": "torch.float32", "device": "cpu", "requires_grad": False}}
LEGACY = ("_test::cat",)


@pytest.fixture(scope="module")
def record_entries() -> dict[str, dict[str, Any]]:
    standing = Catalog(DEFAULT_LAYOUT).standing("atlas/operators", "cpu")
    assert standing.usable and standing.record is not None, standing.why()
    return {e["name"]: e for items in atlas.entries(standing.record).values() for e in items}


@pytest.fixture(scope="module")
def observed(record_entries) -> tuple[dict[str, Any], list[str]]:
    sampled = sorted(n for n, e in record_entries.items() if e["walked"] == "observed" and n.startswith("aten::"))
    draw = random.Random(SEED)
    drawn = draw.sample(sampled, 24)
    compiled = set(COMPILED) | set(per_label(record_entries, sampled, draw))
    names = sorted(n for n in set(drawn) | set(NAMED) | compiled if "sample" in record_entries[n])
    wanted = [
        {"name": n, "sample": record_entries[n]["sample"], "compile": n in compiled}
        for n in names
        if "sample" in record_entries[n]
    ]
    wanted += [{"name": n, "call": args, "kwargs": INFERRED_KWARGS.get(n, {})} for n, args in INFERRED_CALLS.items()]
    wanted += [{"name": n, "call": [[{"tensor": [2]}]]} for n in LEGACY]
    wanted += [{"name": n, "key": f"{n} reader", "call": a, "compile": True} for n, a in READER_CALLS.items()]
    done = subprocess.run(
        [sys.executable, str(OBSERVER)],
        check=False,
        input=json.dumps(wanted),
        capture_output=True,
        text=True,
        timeout=600,
        env={"CUDA_VISIBLE_DEVICES": "", "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout), names


def per_label(entries: dict[str, dict[str, Any]], sampled: list[str], draw: random.Random) -> list[str]:
    """PER_LABEL sampled overloads of each Inductor label (its _declined form counts as its label)."""
    chosen = []
    for label in SHOWS:
        carrying = [n for n in sampled if entries[n]["inductor"].removesuffix("_declined") == label]
        chosen += draw.sample(carrying, min(PER_LABEL, len(carrying)))
    return chosen


def test_every_walk_the_record_shows_is_the_keys_a_real_call_runs(record_entries, observed):
    seen, names = observed
    assert len(names) >= 24
    wrong = {
        n: (record_entries[n]["walks"]["call"], seen[n]["keys"])
        for n in names
        if not seen[n].get("missing") and record_entries[n]["walks"]["call"] != seen[n]["keys"]
    }
    assert wrong == {}
    assert sum(1 for n in names if not seen[n].get("missing")) >= 24  # the sample was rebuilt, not skipped


def test_an_inferred_walk_is_what_a_real_call_runs(record_entries, observed):
    seen, _ = observed
    for name, call in INFERRED_CALLS.items():
        entry = record_entries[name]
        assert entry["walked"] == "inferred"
        missing = entry.get("no_kernel", {}).get("call")
        expected = entry["walks"]["call"] + (["error: NotImplementedError"] if missing else [])
        assert expected == seen[name]["keys"], name
        if not any(isinstance(a, dict) for a in call):  # no tensor carries an autograd key
            assert not any(k.startswith("Autograd") for k in seen[name]["keys"]), name


def test_every_grad_fn_is_what_a_direct_call_of_that_overload_records(record_entries, observed):
    seen, names = observed
    wrong = {
        n: (record_entries[n].get("grad_fn"), record_entries[n].get("error"), seen[n])
        for n in names
        if not seen[n].get("missing")
        and (record_entries[n].get("grad_fn"), record_entries[n].get("error"))
        != (seen[n].get("grad_fn"), seen[n].get("error"))
    }
    assert wrong == {}


def test_what_inductor_does_is_what_its_generated_code_shows(record_entries, observed):
    seen, names = observed
    compiled = [n for n in names if "inductor" in seen.get(n, {})]
    labels = {record_entries[n]["inductor"].removesuffix("_declined") for n in compiled}
    assert labels >= {"composite", "functionalized", "decomposed_some", "lowered", "fallback", "implicit_fallback"}
    wrong = {}
    for name in compiled:
        label, shown = record_entries[name]["inductor"], seen[name]
        base = label.removesuffix("_declined")
        if label.endswith("_declined") and base == "lowered" and record_entries[name].get("fallback_set"):
            continue  # a lowering that hands some calls to the ATen kernel: either may show
        if shown["inductor"] not in SHOWS[base] or (base in NOT_ITSELF and shown["calls_itself"]):
            wrong[name] = (label, shown)
        if base == "lowered" and not record_entries[name].get("fallback_set") and shown["calls_itself"]:
            wrong[name] = (label, shown)
    assert wrong == {}


def test_a_decomposition_seen_on_a_degenerate_sample_claims_no_more(record_entries, observed):
    """mm's sample is [1, 2] @ [2, 1], which its decomposition accepts on the CPU; a reader's [8, 16] @ [16, 4]
    keeps extern_kernels.mm, so the label says "some calls only" and the entry says the sample is degenerate."""
    entry = record_entries["aten::mm"]
    assert entry["inductor"] == "decomposed_some" and entry.get("degenerate") is True
    assert observed[0]["aten::mm reader"]["inductor"] == "extern"


def test_the_composite_kind_is_where_torch_holds_a_kernel(record_entries, observed):
    seen, names = observed
    alias = {
        "implicit": "CompositeImplicitAutograd",
        "explicit": "CompositeExplicitAutograd",
        "explicit-non-functional": "CompositeExplicitAutogradNonFunctional",
    }
    for name in [*names, *LEGACY]:
        if "composite" not in seen[name]:  # a sample that could not be rebuilt (the walk test counts those)
            continue
        kind = record_entries[name]["composite"]
        assert (kind == "none") == (not seen[name]["composite"]), (name, kind, seen[name]["composite"])
        assert kind == "none" or alias[kind] in seen[name]["composite"], (name, kind, seen[name]["composite"])
