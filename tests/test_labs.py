"""Labs: notebooks generated from shared code, per-language prose and recorded outputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import REPO
from phase25.core import cells
from phase25.core.catalog import Catalog
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.downloads import labs

DOCS = REPO / "docs"
LABS = labs.find(DOCS)
CATALOG = Catalog.here(DEFAULT_LAYOUT)


def notebook(lab: labs.Lab) -> dict:
    return json.loads(lab.notebook.read_text(encoding="utf-8"))


def test_every_lab_exists_in_both_languages():
    names = {(lab.lang, lab.source.name) for lab in LABS}
    english = {name for lang, name in names if lang == "en"}
    assert english and names == {(lang, name) for lang in ("en", "es") for name in english}


def test_committed_notebooks_are_what_the_sources_and_records_produce():
    assert labs.stale(CATALOG, DOCS) == [], "run `make labs`"


@pytest.mark.parametrize("name", sorted({lab.source.name for lab in LABS}))
def test_code_cells_and_outputs_are_identical_in_english_and_spanish(name):
    pick = {(lab.lang, lab.source.name): lab for lab in LABS}
    en, es = (notebook(pick[(lang, name)]) for lang in ("en", "es"))
    code = [[c["source"] for c in nb["cells"] if c["cell_type"] == "code"] for nb in (en, es)]
    outputs = [[c["outputs"] for c in nb["cells"] if c["cell_type"] == "code"] for nb in (en, es)]
    assert code[0] == code[1] and code[0], "the code cells differ between languages"
    assert outputs[0] == outputs[1]


def test_outputs_are_the_recorded_ones_cell_by_cell():
    checked = 0
    for lab in LABS:
        for cell in notebook(lab)["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            whole = [s for s in CATALOG.snippets.values() if not s.header.cells and s.code == source]
            if whole:  # a snippet of its own (the emulated H200's): its whole record, on its device
                record = CATALOG.standing(whole[0].id, whole[0].header.devices[0]).record
                printed = "".join("".join(o["text"]) for o in cell["outputs"] if o["name"] == "stdout")
                assert printed == record.stdout
                continue
            snippet = next(
                s for s in CATALOG.snippets.values() if s.header.cells and source in cells.split_code(s.code).values()
            )
            cell_id = next(k for k, v in cells.split_code(snippet.code).items() if v == source)
            record = CATALOG.standing(snippet.id, "cpu").record
            printed = "".join("".join(o["text"]) for o in cell["outputs"] if o["name"] == "stdout")
            assert printed == cells.split_output(record.stdout).get(cell_id, "")
            checked += 1
    assert checked >= 3 * 2 * 4, "every lab has code cells in both languages"


def test_a_hand_edited_notebook_is_refused(tmp_path: Path):
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    lab = labs.find(docs)[0]
    data = json.loads(lab.notebook.read_text(encoding="utf-8"))
    code = next(c for c in data["cells"] if c["cell_type"] == "code" and c["outputs"])
    code["outputs"][0]["text"] = ["a nicer number\n"]
    lab.notebook.write_text(labs.dumps(data), encoding="utf-8")
    [problem] = labs.stale(CATALOG, docs)
    assert "out of date (hand-edited, or its sources changed)" in problem
    labs.write_all(CATALOG, docs)
    assert labs.stale(CATALOG, docs) == []


def test_heading_ids_become_anchors_in_notebook_markdown():
    markdown = [c for c in notebook(LABS[0])["cells"] if c["cell_type"] == "markdown"]
    text = "".join("".join(c["source"]) for c in markdown)
    assert '<a id="setup"></a>' in text and "{ #" not in text


def test_a_cell_directive_must_name_an_existing_cell(toy):
    toy.add("lab-x/lab", "# %% first\nprint('hi')\n", extra="cells = true")
    toy.run()
    docs = toy.root / "docs"
    (docs / "en" / "labs").mkdir(parents=True)
    (docs / "en" / "labs" / "x.lab.md").write_text("# X\n\n::: cell lab-x/lab#second\n")
    with pytest.raises(labs.LabError, match="has no cell 'second'"):
        labs.build(labs.find(docs)[0], toy.catalog())
    (docs / "en" / "labs" / "x.lab.md").write_text("# X\n\n::: cell lab-x/lab#first\n")
    built = labs.build(labs.find(docs)[0], toy.catalog())
    assert built["cells"][1]["outputs"][0]["text"] == ["hi\n"]


def test_cells_run_in_one_namespace_with_true_line_numbers(toy):
    toy.add(
        "lab-y/lab",
        "# %% a\nvalue = 600\nprint('a')\n# %% b\nprint(value)\nraise KeyError('oops')\n",
        extra="cells = true",
    )
    record = toy.run()[0].executed[0]
    assert cells.split_output(record.stdout) == {"a": "a\n", "b": "600\n"}
    assert 'File "snippets/lab-y/lab.py", line 10, in <module>' in record.stderr


def _lab(toy, body: str):
    docs = toy.root / "docs"
    (docs / "en" / "labs").mkdir(parents=True, exist_ok=True)
    (docs / "en" / "labs" / "x.lab.md").write_text(f"# X\n\n{body}\n")
    return labs.find(docs)[0]


def test_a_whole_snippet_cell_shows_its_record_and_says_where_it_was_made(toy):
    toy.add("lab-x/lab", "# %% first\nprint('hi')\n", extra="cells = true")
    toy.add("lab-x/own", "print('made apart')\n")
    toy.run()
    built = labs.build(_lab(toy, "::: cell lab-x/lab#first\n\n::: cell lab-x/own"), toy.catalog())
    code = [c for c in built["cells"] if c["cell_type"] == "code"]
    assert code[1]["source"] == ["print('made apart')\n"] and code[1]["outputs"][0]["text"] == ["made apart\n"]


@pytest.mark.parametrize(
    ("extra", "devices", "says"),
    [
        ("cells = true", '["cpu"]', "is not a snippet of its own"),
        ("", '["cuda"]', "is made on no device of this machine"),
    ],
    ids=["a-lab-named-whole", "gpu-only"],
)
def test_a_whole_snippet_cell_that_cannot_be_shown_stops_the_lab(toy, extra, devices, says):
    toy.add("lab-x/own", "print('x')\n", extra=extra, devices=devices)
    with pytest.raises(labs.LabError, match=says):
        labs.build(_lab(toy, "::: cell lab-x/own"), toy.catalog())


def test_a_whole_snippet_cell_whose_record_is_missing_or_stale_stops_the_lab(toy):
    toy.add("lab-x/own", "print('x')\n")
    lab = _lab(toy, "::: cell lab-x/own")
    with pytest.raises(labs.LabError, match="the cpu record of lab-x/own is missing"):
        labs.build(lab, toy.catalog())
    toy.run()
    toy.add("lab-x/own", "print('y')\n")
    with pytest.raises(labs.LabError, match="the cpu record of lab-x/own is stale"):
        labs.build(lab, toy.catalog())


@pytest.mark.parametrize("lab", LABS, ids=lambda lab: f"{lab.lang}-{lab.notebook.stem}")
def test_an_emulated_cell_is_followed_by_the_line_that_names_the_emulation(lab):
    found, seen = notebook(lab)["cells"], 0
    for index, cell in enumerate(found):
        source = "".join(cell["source"])
        emulated = [s for s in CATALOG.snippets.values() if s.code == source and "sm90-codegen" in s.header.devices]
        if cell["cell_type"] == "code" and emulated:
            line = "".join(found[index + 1]["source"])
            named = {
                "en": "for an emulated NVIDIA H200 (sm_90)",
                "es": "para un dispositivo emulado, NVIDIA H200 (sm_90)",
            }[lab.lang]
            assert named in line and ("never run" in line or "nunca ejecutado" in line), line
            seen += 1
    assert seen == (1 if lab.notebook.stem == "03-inductor-code" else 0)
