"""Each definition the atlas shows beside a composite kind, against the rows of the entries it is shown on.

A definition is a claim about the dispatch table: which kernel each key computes to. Every claim a definition
makes is written here twice: as the words the definition must say (in English; the Spanish twin is checked to
exist) and as a property of an entry's rows. The property is checked on a seeded sample of the entries that
carry the label, and on named entries the review found (linear, matmul, chunk, narrow, _fused_rms_norm).
The precedence the claims state is PyTorch's own (OperatorEntry::computeDispatchTableEntryWithDebug: a direct
registration, then CompositeExplicitAutogradNonFunctional, CompositeExplicitAutograd, CompositeImplicitAutograd
unless the backend has a kernel of its own, then Autograd, then the backend fallback).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.kinds import atlas
from phase25.site.lang.strings import STRINGS

SEED = 89
DRAWN = 60  # entries per label
NAMED = ("aten::linear", "aten::matmul", "aten::chunk", "aten::narrow", "aten::_fused_rms_norm", "aten::addmm")

Entry = dict[str, Any]


def _row(entry: Entry, key: str) -> str:
    """The kind the table computes at a key; "shared" for the backend fallback every operator shares."""
    return entry["table"].get(key, ["shared", ""])[0]


def _own(entry: Entry, key: str) -> bool:
    return key in entry["kernels"]


def _implicit_backend(entry: Entry) -> bool:
    return _row(entry, "CPU") == ("kernel" if _own(entry, "CPU") else "math kernel")


def _implicit_autograd(entry: Entry) -> bool:
    if _own(entry, "AutogradCPU"):
        return _row(entry, "AutogradCPU") == "kernel"
    if not (_own(entry, "CPU") or "CompositeExplicitAutograd" in entry["aliases"]):
        return _row(entry, "AutogradCPU") == "math kernel"
    return _row(entry, "AutogradCPU") == ("autograd kernel" if "Autograd" in entry["aliases"] else "shared")


def _explicit_backend(entry: Entry) -> bool:
    return _row(entry, "CPU") == ("kernel" if _own(entry, "CPU") else "default backend kernel")


def _explicit_autograd(entry: Entry) -> bool:
    if _own(entry, "AutogradCPU"):
        return _row(entry, "AutogradCPU") == "kernel"
    return _row(entry, "AutogradCPU") == ("autograd kernel" if "Autograd" in entry["aliases"] else "shared")


# label -> (words its English definition says, the property of an entry's rows those words claim)
CLAIMS: dict[str, list[tuple[str, Callable[[Entry], bool]]]] = {
    "implicit": [
        ("takes it at each backend key that has no kernel of its own", _implicit_backend),
        (
            "the composite kernel also wins over an Autograd registration, unless the backend has a kernel of its own",
            _implicit_autograd,
        ),
    ],
    "explicit": [
        ("it fills each backend key that has no kernel of its own", _explicit_backend),
        ("It is never taken at an autograd key", _explicit_autograd),
    ],
    "explicit-non-functional": [("A backend's own kernel takes precedence", _explicit_backend)],
    "none": [("No composite registration", lambda e: _row(e, "AutogradCPU") != "math kernel")],
}


@pytest.fixture(scope="module")
def every() -> dict[str, Entry]:
    standing = Catalog(DEFAULT_LAYOUT).standing("atlas/operators", "cpu")
    assert standing.usable and standing.record is not None, standing.why()
    return {e["name"]: e for items in atlas.entries(standing.record).values() for e in items}


@pytest.mark.parametrize("kind", atlas.COMPOSITES)
def test_each_definition_says_the_rule_its_entries_rows_follow(every, kind):
    definition = STRINGS["en"]["atlas_define_" + kind]
    assert STRINGS["es"]["atlas_define_" + kind] != definition
    carrying = sorted(n for n, e in every.items() if e["composite"] == kind)
    drawn = random.Random(SEED).sample(carrying, min(DRAWN, len(carrying)))
    drawn += [n for n in NAMED if every[n]["composite"] == kind]
    for words, holds in CLAIMS[kind]:
        assert words in definition, f"the definition of {kind} does not say: {words}"
        wrong = [n for n in drawn if not holds(every[n])]
        assert wrong == [], f"{kind}: {words!r} is false for {wrong[:8]}"


def test_a_legacy_registration_is_read_as_the_composite_torch_makes_it(every):
    """RegisterOperators registers without a file ('registered by RegisterOperators'): still CompositeImplicit."""
    for name in ("_test::cat", "_test::get_first", "_test::leaky_relu"):
        assert every[name]["composite"] == "implicit", name
        assert _row(every[name], "AutogradCPU") == "math kernel", name


def test_the_autograd_filter_says_what_it_counts(every):
    """Its label names the table's row, not a derivative formula: some flagged overloads record no node."""
    assert "formula" not in STRINGS["en"]["atlas_filter_backward"]
    flagged = [e for e in every.values() if atlas.has_autograd_kernel(e)]
    assert all(_row(e, "AutogradCPU") in ("autograd kernel", "kernel") for e in flagged)
