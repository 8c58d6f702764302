"""Each header field is declared once (core/header.py's FIELDS): its reader, its help, how it enters the
environment key and through what the reproduction kit honours it. These tests hold the declaration to the code."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from phase25.core import environment, header
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.core.snippets import Snippet

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scripts" / "phase25"


def test_every_field_of_a_header_is_declared_once_in_order():
    assert tuple(header.FIELDS) == tuple(f.name for f in dataclasses.fields(header.Header)) == header.KEYS
    assert all(
        spec.help and spec.keyed in ("always", "when set", "through the environment", "no")
        for spec in header.FIELDS.values()
    )


def test_every_field_is_in_the_documented_example_header():
    blocks = re.findall(
        r"# /// snippet\n(.*?)# ///\n", ROOT.joinpath("maintaining", "site.md").read_text(encoding="utf-8"), re.S
    )
    example = next(b for b in blocks if "# devices = " in b)
    assert [name for name in header.FIELDS if not re.search(rf"^\s*# {name} = ", example, re.M)] == []


def test_a_field_that_changes_how_a_snippet_runs_is_honoured_by_the_reproduction_kit():
    kit = "".join(p.read_text(encoding="utf-8") for p in PACKAGE.rglob("reproduce*.py"))
    missing = {
        name: spec.reproduce for name, spec in header.FIELDS.items() if spec.reproduce and spec.reproduce not in kit
    }
    assert missing == {}


def test_a_field_keyed_when_set_leaves_the_key_of_every_snippet_that_does_not_set_it():
    plain = header.keyed(header.Header())
    assert {n for n, s in header.FIELDS.items() if s.keyed == "always"} == set(plain)
    for name, spec in header.FIELDS.items():
        if spec.keyed == "when set":
            assert name not in plain
    assert header.keyed(header.Header(ranks=2))["ranks"] == 2
    assert "timeout" not in header.keyed(header.Header(timeout=5.0))  # a limit cannot change what a run prints


@pytest.mark.parametrize("name", [n for n, s in header.FIELDS.items() if s.keyed == "no"])
def test_a_field_outside_the_key_does_not_change_it(name):
    snippet = Catalog(DEFAULT_LAYOUT).snippets["00-orientation/linear_grad_fn"]
    other = {"devices": ("cpu", "cuda"), "timeout": 7.0, "deps": ("scripts",), "volatile": ("^x$",)}.get(name, 17)
    changed = dataclasses.replace(snippet.header, **{name: other})
    twin = Snippet(snippet.id, snippet.path, changed)
    assert environment.env_key(twin, "cpu") == environment.env_key(snippet, "cpu")


def test_every_committed_record_keeps_its_key():
    """The declaration moved the key's rule, not its value: no record went stale."""
    catalog = Catalog(DEFAULT_LAYOUT)
    stale = [k for k, s in catalog.standings.items() if k[1] == "cpu" and s.state == "stale"]
    assert stale == []
