"""A second build engine, tested: the site built by ProperDocs is the site built by MkDocs, page by page."""

from __future__ import annotations

import pytest
from conftest import PREVIEW, REPO
from phase25.tools import engines
from phase25.tools.build_site import build


def test_the_comparison_explains_the_generator_tag_and_names_every_other_difference(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for site, generator, body in ((a, "mkdocs-1.6.1", "same"), (b, "mkdocs-ProperDocs 1.6.7", "same")):
        (site / "x").mkdir(parents=True)
        (site / "x" / "index.html").write_text(f'<meta name="generator" content="{generator}"><p>{body}</p>')
        (site / "logo.png").write_bytes(b"\x89PNG")
    found, causes = engines.compare(a, b)
    assert found == [] and len(causes) == 1 and "generator tag" in next(iter(causes))
    (b / "x" / "index.html").write_text('<meta name="generator" content="other"><p>changed</p>')
    (b / "extra.html").write_text("")
    (a / "logo.png").write_bytes(b"\x89PNG2")
    found, _ = engines.compare(a, b)
    assert [(d.path, d.what) for d in found] == [
        ("extra.html", "only in the second site"),
        ("logo.png", "differs beyond the expected differences"),
        ("x/index.html", "differs beyond the expected differences"),
    ]


@pytest.mark.slow
def test_properdocs_builds_the_same_site_strictly(built_site, tmp_path, preview_port):
    site = tmp_path / "properdocs"
    result = build(REPO, site, engine="properdocs", site_url=f"http://127.0.0.1:{preview_port}{PREVIEW}")
    assert result.returncode == 0, result.stderr[-3000:]
    found, causes = engines.compare(built_site, site)
    assert found == [], engines.report(found, causes)
    assert 'content="mkdocs-ProperDocs 1.6.7' in (site / "index.html").read_text()
