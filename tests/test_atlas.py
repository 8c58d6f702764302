"""The dispatcher atlas: rendered from its record alone, light, searchable without a script; its drift named."""

from __future__ import annotations

import json

import pytest
from phase25.core import atlas_drift, drift, records
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.kinds import atlas
from phase25.site.kinds.assemble import render_markdown
from phase25.site.lang.strings import STRINGS
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter


def overload(name, **extra):
    entry = {
        "name": name,
        "schema": f"{name}(Tensor self) -> Tensor",
        "tags": ["core"],
        "kernels": {"CPU": "x.cpp"},
        "aliases": {},
        "table": {"CPU": ["kernel", "CPU"]},
        "composite": "none",
        "decomposition": [],
        "inductor": "lowered",
        "inductor_how": "table",
        "walks": {"call": ["AutogradCPU", "CPU"]},
        "walked": "inferred",
        "registered_by": "import torch",
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
            overload(
                "aten::abs",
                grad_fn="AbsBackward0",
                sample="abs",
                walked="observed",
                table={"AutogradCPU": ["autograd kernel", "Autograd"], "CPU": ["kernel", "CPU"]},
            ),
            overload("aten::addmm", composite="explicit-non-functional"),
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
    assert html.count('data-backward="1"') == 1  # abs: an autograd kernel in its table, the others none
    assert html.count('data-observed="1"') == 1
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


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"walked": "observed"}, "names no sample"),
        ({"walks": {"sideways": ["CPU"]}}, "'walks' cannot be"),
        ({"walks": {"call": "CPU"}}, "'walks' cannot be"),
        ({"table": {"CPU": ["kernel"]}}, "'table' cannot be"),
        ({"inductor": "decomposes it first"}, "'inductor' cannot be"),
        ({"grad_fn": 3}, "'grad_fn' cannot be"),
        ({"walked": "guessed"}, "'walked' cannot be"),
    ],
)
def test_an_entry_that_claims_what_it_cannot_back_is_refused(change, message):
    record = type("R", (), {"artifacts": {"atlas/x.jsonl": lines(overload("aten::abs", **change))}})()
    with pytest.raises(atlas.Refused, match=message):
        atlas.entries(record)


def test_every_label_is_defined_in_both_languages_and_counted(atlas_project):
    for lang in ("en", "es"):
        html, _ = render_markdown("::: atlas atlas/operators\n", page(atlas_project, lang))
        assert html.count('<details class="atlas-legend">') == 2
        for kind in atlas.COMPOSITES + atlas.INDUCTOR:
            key = ("atlas_composite_" if kind in atlas.COMPOSITES else "atlas_inductor_") + kind
            assert key in STRINGS[lang]
    html, _ = render_markdown("::: atlas atlas/operators\n", page(atlas_project))
    assert "composite (explicit, non-functional) · 1 overloads" in html and "no composite kernel · 2 overloads" in html


def test_the_real_atlas_lists_every_registered_operator_from_its_record():
    standing = Catalog(DEFAULT_LAYOUT).standing("atlas/operators", "cpu")
    found = atlas.entries(standing.record)
    every = [e for items in found.values() for e in items]
    assert len(every) > 3000 and len({e["name"] for e in every}) == len(every)
    by_name = {e["name"]: e for e in every}
    addmm, linear = by_name["aten::addmm"], by_name["aten::linear"]
    assert addmm["grad_fn"] == "AddmmBackward0" and "CPU" in addmm["kernels"]
    assert addmm["walks"]["call"] == ["AutogradCPU", "CPU"] and addmm["walked"] == "observed"
    # addmm's own CPU kernel takes precedence over its CompositeExplicitAutogradNonFunctional one
    assert addmm["table"]["CPU"] == ["kernel", "CPU"] and "CompositeExplicitAutogradNonFunctional" in addmm["aliases"]
    assert linear["composite"] == "implicit" and linear["walks"]["call"] == ["AutogradCPU"]
    assert linear["table"]["AutogradCPU"] == ["math kernel", "CompositeImplicitAutograd"]
    assert all(len(content.encode()) <= 512 * 1024 for content in standing.record.artifacts.values())


def test_the_real_atlas_derives_nothing_the_tables_contradict():
    """The rows of the wrong-derivation table the atlas was reviewed against, each as a property of the record."""
    standing = Catalog(DEFAULT_LAYOUT).standing("atlas/operators", "cpu")
    every = {e["name"]: e for items in atlas.entries(standing.record).values() for e in items}
    for name, entry in every.items():
        for context, path in entry["walks"].items():
            # a walk lists only keys whose kernel runs: a fallthrough key never
            assert all(entry["table"].get(k, ["shared", ""])[0] != "fallthrough" for k in path), (name, context)
            # a walk that names no key stopped at the first: a key with no kernel, which the entry names
            assert path or context in entry.get("no_kernel", {}), (name, context)
            # BackendSelect ends a walk only where its kernel is Python's (the prims compute the result there),
            # or where the backend it hands the call to has no kernel
            python = entry["kernels"].get("BackendSelect", "").endswith(".py")
            handed = context in entry.get("no_kernel", {})  # handed on to a backend with no kernel
            assert not path or path[-1] != "BackendSelect" or python or handed, (name, context)
            for key in ("ADInplaceOrView", "BackendSelect", "AutocastCPU"):
                assert key not in path or key in entry["table"], (name, context, key)
        if entry["schema"] and "Tensor" not in entry["schema"].split("->")[0]:
            assert not any(k.startswith("Autograd") for k in entry["walks"].get("call", [])), name
    # has a backward: every overload whose autograd key holds an autograd kernel (mul.Tensor among them)
    assert sum(atlas.has_autograd_kernel(e) for e in every.values()) > 2000
    assert atlas.has_autograd_kernel(every["aten::mul.Tensor"])
    # the core tag alone says core: 193 tagged, far fewer than the overloads that decompose into core ATen
    tagged = sum("core" in e["tags"] for e in every.values())
    assert tagged < sum("core_aten_decompositions" in e["decomposition"] for e in every.values())
    # Inductor: a decomposition that applies to some shapes only is judged on the sample, never from the table
    for name in ("aten::addmm", "aten::mm", "aten::bmm", "aten::cat"):
        assert every[name]["inductor_how"] == "observed", name
    assert every["aten::addmm"]["inductor"] == "lowered_declined"
    assert every["aten::convolution"]["inductor"] == "lowered"
    # "decomposed" is said only where the decomposition was run: never from the table's membership
    assert all(e["inductor_how"] == "observed" for e in every.values() if e["inductor"].startswith("decomposed"))
    assert every["aten::convolution_backward"]["inductor"] == "decomposition_table"
    # and "before Inductor" only where the autograd key holds the math kernel
    assert all(e["table"]["AutogradCPU"][0] == "math kernel" for e in every.values() if e["inductor"] == "composite")
    # grad_fn belongs to the overload called: clamp_min and clamp_max are not swapped
    assert every["aten::clamp_min"].get("grad_fn") in (None, "ClampMinBackward0")
    assert every["aten::clamp_max"].get("grad_fn") in (None, "ClampMaxBackward0")
    # decompositions name aten or prims overloads only
    assert all(op.startswith(("aten::", "prims::")) for e in every.values() for op in e.get("decomposes_to") or [])
    # the sampled overloads include those the review found called but listed as not called
    for name in ("aten::add.Tensor", "aten::mul.Tensor", "aten::_softmax", "aten::embedding", "aten::convolution"):
        assert every[name]["walked"] == "observed", name


def test_each_entry_says_what_it_registers_differently_since_the_last_upgrade(atlas_project):
    record = records.load(atlas_project.layout, "atlas/operators", "cpu")
    torch = record.provenance["torch"] = "2.13.0"  # the torch the test page is built with
    records.save(atlas_project.layout, record)
    old = lines(
        overload("aten::abs", kernels={"CPU": "x.cpp", "Meta": "m.py"}, tags=[]),
        overload("aten::addmm"),  # a CPU-only build: the CUDA kernel added below is no release change
        overload("aten::gone"),
    )
    nothing = {"a": None, "b": None}
    entry = {"snippet": "atlas/operators", "device": "cpu", "state": "only-a", "kind": None, "diff": "", "atlas": None}
    entry |= {"volatile": [], "source_sha256": nothing, "failed": nothing, "warnings": {"new": [], "gone": []}}
    report = {
        "schema": drift.SCHEMA,
        "a": {"torch": "1.0.0", "build": "1.0.0+cpu", "python": None, "date": None},
        "b": {"torch": torch, "build": None, "python": None, "date": None},
        "device": "cpu",  # as an older report names the one device it compared
        "entries": [{**entry, "output": {"a": {"artifacts": {"atlas/x.jsonl": old}}, "b": None}}],
    }
    folder = atlas_project.layout.root / "reports" / "drift"
    folder.mkdir(parents=True)
    (folder / f"torch-1.0.0-to-{torch}.json").write_text(json.dumps(report))
    record.artifacts["atlas/aten-a.jsonl"] = record.artifacts["atlas/aten-a.jsonl"].replace(
        '"kernels": {"CPU": "x.cpp"}, "name": "aten::addmm"',
        '"kernels": {"CPU": "x.cpp", "CUDA": "y.cu"}, "name": "aten::addmm"',
    )
    before, changes, removed = atlas.since(atlas_project.layout.root, record)
    assert before == "1.0.0+cpu" and removed == ["aten::gone"]
    assert changes == {"aten::abs": {"kernels_lost": ["Meta"], "tags": []}, "prims::sin": {"added": True}}
    published = json.loads(atlas.data_files(record, atlas_project.layout.root)["atlas-data/cpu/aten-a.json"])
    assert published["aten::abs"]["since"] == {"torch": "1.0.0+cpu", "kernels_lost": ["Meta"], "tags": []}
    assert "since" not in published["aten::addmm"]
    html, _ = render_markdown("::: atlas atlas/operators\n", page(atlas_project))
    assert html.count('data-changed="1"') == 2 and "changed since 1.0.0+cpu" in html
    assert "1 overloads added, 1 removed (aten::gone), 1 register other kernels" in html


def test_an_archived_release_shows_what_an_earlier_atlas_read_off_the_registry_and_says_why(atlas_project, monkeypatch):
    record = records.load(atlas_project.layout, "atlas/operators", "cpu")
    earlier = {"name": "aten::abs", "kernels": {"CPU": "x.cpp"}, "walks": {"call": ["AutogradCPU:autograd kernel"]}}
    record.artifacts = {"atlas/aten-a.jsonl": json.dumps(earlier) + "\n"}
    records.save(atlas_project.layout, record)
    _, problems = render_markdown("::: atlas atlas/operators\n", page(atlas_project))
    assert problems and "has no" in problems[0].message  # the current release: a problem, as ever
    monkeypatch.setenv("PHASE25_ARCHIVED", "1")
    for lang, said in (("en", "recorded by an earlier version"), ("es", "una versión anterior del fragmento")):
        html, problems = render_markdown("::: atlas atlas/operators\n", page(atlas_project, lang))
        assert problems == [] and said in html and "aten::abs" in html and "AutogradCPU:autograd" not in html
    record.artifacts = {"atlas/aten-a.jsonl": '{"name": "aten::abs", "kernels": "CPU"}\n'}  # no earlier format
    records.save(atlas_project.layout, record)
    _, problems = render_markdown("::: atlas atlas/operators\n", page(atlas_project))
    assert problems and "refused" in problems[0].message
