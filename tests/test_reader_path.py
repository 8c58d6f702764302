"""The reader's path on the built site: every link, anchor, id, download and "above"/"below" reference a reader can
follow, in both languages, checked on what `make site` publishes (tools/reader_path.py, with lychee for links).

The first test holds the real site to it. The others give each check the defects a reader met (a lab's download
sentence with a NUL stand-in and no link, a notebook's `.md` link, a report linking files it never published, a
snippet's id given twice, "the tlparse section below" after the section moved, a renumbered exercise) and the ones
an adversary would try, and expect each to be named with its page and line.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from phase25.core.paths import REPO_ROOT
from phase25.tools import page_checks, reader_path


def messages(site: Path) -> list[str]:
    return [str(problem) for problem in reader_path.check(site, "/")]


def write(site: Path, page: str, body: str) -> Path:
    path = site / page
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'<!doctype html><html><head><link rel="canonical" href="https://x.example/"></head><body>{body}</body></html>'
    )
    return path


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    write(root, "index.html", '<h1 id="home">Home</h1><p><a href="theory/">theory</a></p>')
    write(root, "theory/index.html", '<h2 id="walk">Walk</h2><p>See <a href="../#home">home</a>.</p>')
    return root


def test_the_built_site_holds_every_path_a_reader_takes(built_site: Path) -> None:
    from conftest import PREVIEW

    problems = reader_path.check(built_site, PREVIEW)
    assert [str(p) for p in problems] == []
    pages = reader_path.pages(built_site)
    assert any(p.match("es/labs/*/index.html") for p in pages) and len(pages) >= 40, "both languages, every page"


def test_a_clean_toy_site_passes(site: Path) -> None:
    assert messages(site) == []


@pytest.mark.parametrize(
    ("href", "why"),
    [
        ("theory/#nowhere", "an anchor its page does not have"),
        ("labs/theory/02-custom-operators.md#triton-stages", "a page's source address inside a notebook"),
        ("reference/missing/", "a page that was never built"),
        ("tlparse/-_0_0_0/-_0_0_0/aot_graph.txt", "a file a published report links and nobody published"),
        ("theory/index.html#Walk", "an anchor in the wrong case"),
    ],
)
def test_a_link_that_leads_nowhere_is_named_with_its_page(site: Path, href: str, why: str) -> None:
    write(site, "labs/x/index.html", f'<h1>Lab</h1>\n<p>\n<a href="../../{href}">{why}</a></p>')
    found = messages(site)
    assert (
        len(found) == 1
        and found[0].startswith(f"labs/x/index.html:3: the link ../../{href} ")
        and "leads nowhere" in found[0]
    )


def test_a_markdown_twin_and_llms_txt_are_followed_too(site: Path) -> None:
    """What an assistant reads (a page as Markdown, llms.txt) leads where the pages do."""
    (site / "theory/index.md").write_text("# Walk\n\n[home](../index.md) and [gone](../reference/index.md)\n")
    (site / "index.md").write_text("# Home\n")
    (site / "llms.txt").write_text("# Site\n\n- [Walk](theory/index.md)\n- [Atlas](atlas/index.md)\n")
    found = messages(site)
    assert len(found) == 2, found
    assert any(f.startswith("theory/index.md:3: the link ../reference/index.md ") for f in found), found
    assert any(f.startswith("llms.txt:4: the link atlas/index.md") for f in found)


def test_an_image_source_and_an_absolute_address_under_the_sites_prefix_are_checked(tmp_path: Path) -> None:
    root = tmp_path / "site"
    write(root, "index.html", '<img src="missing.svg" alt="a"><a href="/phase25/theory/">t</a><h1 id="x">x</h1>')
    write(root, "theory/index.html", '<a href="/phase25/#x">home</a><a href="/phase25/#gone">gone</a>')
    found = [str(p) for p in reader_path.check(root, "/phase25/")]
    assert len(found) == 2, found
    assert any("missing.svg" in f for f in found) and any("/phase25/#gone" in f or "#gone" in f for f in found)


def test_the_same_id_twice_on_a_page_is_named() -> None:
    reading = page_checks.read(
        '<p id="snippet-00-orientation-dispatch_keys">a</p>\n<p id="snippet-00-orientation-dispatch_keys">b'
    )
    found = [str(p) for p in page_checks.duplicate_ids("index.html", reading)]
    assert found == ['index.html:2: the id "snippet-00-orientation-dispatch_keys" is given to 2 elements (lines 1, 2)']


def test_a_snippet_shown_twice_on_a_page_gives_its_anchor_once(tmp_path: Path) -> None:
    """The renderer's side of the rule: the second showing gets ``-2``, so a link lands on the first."""
    from phase25.core.catalog import Catalog
    from phase25.core.paths import Layout
    from phase25.site.kinds import snippet_code
    from phase25.site.page.context import Page
    from phase25.site.page.highlight import Highlighter

    page = Page("en", "docs/en/index.md", Catalog(Layout.of(REPO_ROOT)), Highlighter(tmp_path))
    given = [snippet_code.unique_anchor("00-orientation/dispatch_keys", page) for _ in range(3)]
    assert given == [
        "snippet-00-orientation-dispatch_keys",
        "snippet-00-orientation-dispatch_keys-2",
        "snippet-00-orientation-dispatch_keys-3",
    ]


@pytest.mark.parametrize(
    "text",
    ["Download \u2400 (669 KB): the notebook", "a NUL \x00 inside", "an escape \x1b[31m red", "lost \ufffd byte"],
)
def test_a_control_character_or_its_stand_in_is_named(text: str) -> None:
    reading = page_checks.read(f"<div class='admonition'><p>{text}</p></div>")
    found = page_checks.unreadable_text("labs/01/index.html", reading)
    assert len(found) == 1 and "the text shows U+" in found[0].message


def test_a_placeholder_in_prose_is_named_but_not_in_code_nor_in_a_copy_buttons_text() -> None:
    prose = page_checks.read("<p>Download {file} ({size} KB)</p>")
    assert [p.message for p in page_checks.unreadable_text("p", prose)] == ["the text shows a placeholder '{file}'"]
    left = page_checks.read("<h2>Walking the graph { #walking-the-graph }</h2>")
    assert len(page_checks.unreadable_text("p", left)) == 1, "an attribute list left as text"
    code = page_checks.read('<pre><code>print(f"{name}")</code></pre><div class="clipboard-copy-txt">{name}</div>')
    assert page_checks.unreadable_text("p", code) == []


@pytest.mark.parametrize(
    ("lang", "html", "expected"),
    [
        ("en", "<p>It is in the report of the tlparse section below.</p><h2>Dynamo</h2>", 1),
        ("en", "<p>It is in the report of the tlparse section below.</p><h2>tlparse, one report</h2>", 0),
        ("en", "<h2>tlparse</h2><p>It is in the report of the tlparse section below.</p>", 1),
        ("en", '<p>See <a href="next/#tlparse">the tlparse section below</a>.</p>', 0),
        ("en", "<h3>Save or recompute: the partitioner</h3><p>the min-cut choice of the section above</p>", 0),
        ("en", "<p>(exercise 3 below)</p><h2>Exercises</h2><p>1. A custom op</p><p>2. A mutation</p>", 1),
        ("en", "<p>(exercise 2 below)</p><h2>Exercises</h2><p>1. A custom op</p><p>2. A mutation</p>", 0),
        ("es", "<p>está en el informe de la sección de tlparse, más abajo:</p><h2>Dynamo</h2>", 1),
        ("es", "<p>está en el informe de la sección de tlparse, más abajo:</p><h2>tlparse</h2>", 0),
        ("es", "<p>(ejercicio 3, más abajo)</p><h2>Ejercicios</h2><p>1. Uno</p>", 1),
        ("en", "<p>where Dynamo's automatic dynamic shapes (above) kept a graph</p>", 1),
        ("en", "<h3>Dynamic shapes</h3><p>where Dynamo's automatic dynamic shapes (above) kept a graph</p>", 0),
        (
            "en",
            "<p>Walking from <code>loss</code><code>.grad_fn</code> first.</p><p>from `loss.grad_fn` (above)</p>",
            0,
        ),
        ("es", "<p>las formas dinámicas (más arriba) dejaban</p>", 1),
    ],
)
def test_an_above_or_below_reference_names_what_is_there(lang: str, html: str, expected: int) -> None:
    found = page_checks.references("p", page_checks.read(html), lang)
    assert len(found) == expected, [str(p) for p in found]


def lab(site: Path, zip_bytes: bytes | None, notebook: bytes, sentence_kb: int | None = None) -> None:
    folder = site / "labs/01-lab"
    folder.mkdir(parents=True)
    (folder / "01-lab.ipynb").write_bytes(notebook)
    if zip_bytes is not None:
        (folder / "01-lab.zip").write_bytes(zip_bytes)
    kb = sentence_kb if sentence_kb is not None else len(zip_bytes or b"") // 1024
    write(
        site,
        "labs/01-lab/index.html",
        f'<h1>Lab</h1><ul><li>Download <a href="01-lab.zip" download>01-lab.zip</a> ({kb} KB): all</li>'
        f'<li>Or <a href="01-lab.ipynb" download>01-lab.ipynb</a></li></ul>',
    )


NOTEBOOK = json.dumps({"nbformat": 4, "cells": [{"cell_type": "code", "source": ["1"]}]}).encode()


def archive(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("zip_files", "notebook", "said", "expected"),
    [
        ({"01-lab/01-lab.ipynb": NOTEBOOK, "01-lab/README.md": b"r"}, NOTEBOOK, None, None),
        ({"01-lab/README.md": b"r"}, NOTEBOOK, None, "does not hold 01-lab.ipynb"),
        ({"01-lab/01-lab.ipynb": b"{}", "01-lab/README.md": b"r"}, NOTEBOOK, None, "another 01-lab.ipynb"),
        ({"01-lab/01-lab.ipynb": NOTEBOOK}, NOTEBOOK, None, "has no README"),
        ({"01-lab/01-lab.ipynb": NOTEBOOK, "01-lab/README.md": b"r"}, NOTEBOOK, 669, "says 669 KB"),
        ({"01-lab/01-lab.ipynb": b"not json", "01-lab/README.md": b"r"}, b"not json", None, "is not a notebook"),
    ],
)
def test_a_download_holds_what_its_sentence_says(site: Path, zip_files, notebook, said, expected) -> None:
    lab(site, archive(zip_files), notebook, said)
    found = messages(site)
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0], found


def test_a_download_that_is_not_a_zip_or_is_missing_is_named(site: Path) -> None:
    lab(site, b"PK but not really", NOTEBOOK, 0)
    assert any("is not a zip archive" in m for m in messages(site))
    (site / "labs/01-lab/01-lab.zip").unlink()
    found = messages(site)
    assert any("01-lab.zip" in m and "leads nowhere" in m for m in found)
    assert any("is not a file of the site" in m for m in found)


def test_a_download_outside_the_site_is_refused(site: Path) -> None:
    (site.parent / "secret.zip").write_bytes(archive({"README": b"x"}))
    write(site, "labs/y/index.html", '<a href="../../../secret.zip" download>secret</a>')
    assert any("not a file of the site" in m for m in messages(site))


def test_no_built_site_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no built site here"):
        reader_path.check(tmp_path)


def test_the_command_names_each_problem_and_fails(site: Path, capsys) -> None:
    from phase25.cli import main

    write(site, "broken/index.html", '<a href="../nowhere/">x</a><p id="a"></p><p id="a"></p>')
    assert main(["site-check", "--site", str(site), "--prefix", "/"]) == 1
    out = capsys.readouterr().out
    assert "broken/index.html:1: the link ../nowhere/ leads nowhere" in out and "2 problem(s)" in out


def test_each_lab_page_links_the_zip_the_download_test_executes(built_site: Path) -> None:
    """tests/test_lab_downloads.py runs what labs.bundle makes: the zip a lab page links must be those bytes."""
    from phase25.core.catalog import Catalog
    from phase25.core.paths import DEFAULT_LAYOUT
    from phase25.site.downloads import labs

    catalog = Catalog.here(DEFAULT_LAYOUT)
    found = 0
    for lab in labs.find(REPO_ROOT / "docs"):
        prefix = "" if lab.lang == "en" else f"{lab.lang}/"
        page = built_site / f"{prefix}labs/{lab.notebook.stem}/index.html"
        reading = page_checks.read(page.read_text())
        zips = [href for _, href, _ in reading.downloads if href.endswith(".zip")]
        assert zips == [labs.download_name(lab)], (page, zips)
        assert (page.parent / zips[0]).read_bytes() == labs.bundle(lab, catalog), page
        found += 1
    assert found >= 6, "three labs in two languages"
