"""The dispatcher atlas: rendered from its record alone, light, searchable without a script; its drift named."""

from __future__ import annotations

import json

import pytest
from phase25.core import atlas_drift, records
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site import atlas
from phase25.site.assemble import render_markdown
from phase25.site.highlight import Highlighter
from phase25.site.page import Page


def overload(name, **extra):
    entry = {
        "name": name,
        "schema": f"{name}(Tensor self) -> Tensor",
        "tags": ["core"],
        "kernels": {"CPU": "x.cpp"},
        "aliases": [],
        "composite": "none",
        "decomposition": "no",
        "inductor": "lowered",
        "grad_fn": None,
        "walks": {"call": ["AutogradCPU:autograd kernel", "CPU:kernel"]},
    }
    return {**entry, **extra}


def lines(*entries) -> str:
    return "".join(json.dumps(e, sort_keys=True) + "\n" for e in entries)


@pytest.fixture
def atlas_project(toy):
    return with_an_atlas(toy)


def with_an_atlas(toy):
    """A toy project whose atlas record holds three overloads in two shards, made for the tests."""
    toy.add("atlas/operators", "print('walked')\n", extra='artifacts = ["atlas/*.jsonl"]')
    toy.run()
    record = records.load(toy.layout, "atlas/operators", "cpu")
    record.artifacts = {
        "atlas/aten-a.jsonl": lines(
            overload("aten::abs", grad_fn="AbsBackward0"), overload("aten::addmm", composite="explicit-non-functional")
        ),
        "atlas/prims.jsonl": lines(overload("prims::sin", kernels={}, inductor="decomposed")),
    }
    record.status, record.error = "ok", None  # made for the test: the renderer reads records only
    records.save(toy.layout, record)
    return toy


def page(toy, lang="en"):
    return Page(lang, f"docs/{lang}/reference/dispatcher-atlas.md", Catalog(toy.layout, "2.13.0"), Highlighter())


def test_every_overload_is_listed_with_the_data_its_filters_read(atlas_project):
    html, problems = render_markdown("::: atlas atlas/operators\n", page(atlas_project))
    assert problems == []
    assert html.count("<li ") == 3 and '<button type="button" class="atlas-op" aria-expanded="false">aten::abs' in html
    assert 'data-shard="prims" data-composite="none" data-cpu="0" data-inductor="decomposed"' in html
    assert 'data-backward="1"' in html  # AbsBackward0
    assert "3 operator overloads in 2 namespaces (2 of them aten)" in html
    assert "CUDA column: not captured on a GPU yet" in html and "assets/javascripts/atlas.js" in html
    assert 'class="atlas-facts" data-search-exclude' in html  # names only reach the search index


def test_the_labels_and_the_counts_are_in_the_pages_language(atlas_project):
    html, _ = render_markdown("::: atlas atlas/operators\n", page(atlas_project, "es"))
    assert "El registro de ejecución enumera 3 sobrecargas" in html and "compuesto (explícito, no funcional)" in html
    assert "Busca un operador" in html


def test_the_detail_data_is_published_per_shard(atlas_project):
    record = records.load(atlas_project.layout, "atlas/operators", "cpu")
    files = atlas.data_files(record)
    assert sorted(files) == ["atlas-data/cpu/aten-a.json", "atlas-data/cpu/prims.json"]
    assert json.loads(files["atlas-data/cpu/aten-a.json"])["aten::abs"]["grad_fn"] == "AbsBackward0"


def test_a_stale_or_broken_atlas_record_is_a_problem(atlas_project):
    atlas_project.add("atlas/operators", "print('edited')\n", extra='artifacts = ["atlas/*.jsonl"]')
    _, problems = render_markdown("::: atlas atlas/operators\n", page(atlas_project))
    assert any("its CPU record is stale" in p.message for p in problems)
    _, problems = render_markdown("::: atlas nope/nothing\n", page(atlas_project))
    assert problems and "no such snippet" in problems[0].message


def test_an_upgrade_names_what_it_changes_in_the_atlas():
    a = {"artifacts": {"atlas/x.jsonl": lines(overload("aten::abs"), overload("aten::old"))}}
    b = {
        "artifacts": {
            "atlas/x.jsonl": lines(
                overload("aten::abs", kernels={"CPU": "x.cpp", "CUDA": "y.cu"}, composite="implicit"),
                overload("aten::new"),
            )
        }
    }
    found = atlas_drift.changes(a, b)
    assert found["added"] == ["aten::new"] and found["removed"] == ["aten::old"]
    assert found["kernels_gained"] == {"aten::abs": ["CUDA"]} and found["composite"] == {
        "aten::abs": ["none", "implicit"]
    }
    assert atlas_drift.changes({"artifacts": {}}, b) is None


def test_the_real_atlas_lists_every_registered_operator_from_its_record():
    standing = Catalog(DEFAULT_LAYOUT).standing("atlas/operators", "cpu")
    found = atlas.entries(standing.record)
    every = [e for items in found.values() for e in items]
    assert len(every) > 3000 and len({e["name"] for e in every}) == len(every)
    addmm = next(e for e in every if e["name"] == "aten::addmm")
    assert addmm["grad_fn"] == "AddmmBackward0" and "CPU" in addmm["kernels"]
    assert addmm["walks"]["call"][0] == "AutogradCPU:autograd kernel" and addmm["walks"]["call"][-1] == "CPU:kernel"
    linear = next(e for e in every if e["name"] == "aten::linear")
    assert linear["composite"] == "implicit" and linear["walks"]["call"] == ["AutogradCPU:math kernel"]
    assert all(len(content.encode()) <= 512 * 1024 for content in standing.record.artifacts.values())
