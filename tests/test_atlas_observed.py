"""The atlas against an independent observation: what a real call does, seen by code written apart from the
atlas snippet (tests/atlas_observer.py), in a fresh interpreter, for a seeded sample of overloads.

Each derived column is compared with its observation: the walk (spy kernels at every key), the grad_fn (a
direct call of that very overload) and what Inductor does (a compiled call's generated code). A mismatch fails.
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
COMPILED = ("aten::addmm", "aten::mm", "aten::_softmax", "aten::mul.Tensor", "aten::cat")
# An overload no sample reaches: its walk is inferred, and a call made here checks the inference too.
# A {"tensor": shape} argument is a float CPU tensor of that shape.
INFERRED_CALLS = {
    "aten::hann_window": [4],
    "aten::bartlett_window": [5],
    "aten::randperm": [6],
    "aten::clamp": [{"tensor": [3]}, 0.0],
}


@pytest.fixture(scope="module")
def record_entries() -> dict[str, dict[str, Any]]:
    standing = Catalog(DEFAULT_LAYOUT).standing("atlas/operators", "cpu")
    assert standing.usable and standing.record is not None, standing.why()
    return {e["name"]: e for items in atlas.entries(standing.record).values() for e in items}


@pytest.fixture(scope="module")
def observed(record_entries) -> tuple[dict[str, Any], list[str]]:
    sampled = sorted(n for n, e in record_entries.items() if e["walked"] == "observed" and n.startswith("aten::"))
    drawn = random.Random(SEED).sample(sampled, 24)
    names = sorted(set(drawn) | set(NAMED) | set(COMPILED))
    wanted = [
        {"name": n, "sample": record_entries[n]["sample"], "compile": n in COMPILED}
        for n in names
        if "sample" in record_entries[n]
    ]
    wanted += [{"name": n, "call": args} for n, args in INFERRED_CALLS.items()]
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
        assert record_entries[name]["walked"] == "inferred"
        assert record_entries[name]["walks"]["call"] == seen[name]["keys"], name
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


@pytest.mark.parametrize("name", COMPILED)
def test_what_inductor_does_is_what_its_generated_code_shows(record_entries, observed, name):
    seen = observed[0][name]["inductor"]
    treatment = record_entries[name]["inductor"]
    expected = {
        "decomposed": {"loops"},
        "lowered": {"loops", "extern"},
        "lowered_declined": {"loops", "extern"},
        "fallback": {"fallback"},
        "implicit_fallback": {"fallback"},
    }[treatment]
    assert seen in expected, f"{name}: the record says {treatment}, the generated code shows {seen}"
