"""The torch upgrade pipeline's own steps: which release to measure, and the pages a drift report gets."""

from __future__ import annotations

import shutil

import pytest
from conftest import REPO
from phase25.site.lang import translations
from phase25.tools import upgrade
from test_pages import nav_titles, spanish_nav_titles


@pytest.fixture
def project(tmp_path):
    for name in ("docs", "mkdocs.yml", "requirements.txt"):
        source = REPO / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    return tmp_path


def test_latest_says_whether_a_release_is_newer_than_the_pin():
    pin = upgrade.pinned(REPO)
    major, minor, patch = (int(p) for p in pin.split("."))
    assert upgrade.latest(REPO, f"{major}.{minor + 1}.0") == f"version={major}.{minor + 1}.0\nnewer=true"
    assert upgrade.latest(REPO, pin) == f"version={pin}\nnewer=false"
    assert upgrade.latest(REPO, f"{major}.{minor}.{patch}") == f"version={pin}\nnewer=false"


@pytest.mark.parametrize("version", ["2.14", "v2.14.1", "2.14.1rc1", "2.14.1; rm -rf ~", "../2.14.1", "2.14.1\n"])
def test_a_version_that_is_not_a_release_is_refused_before_it_names_a_folder(version):
    with pytest.raises(ValueError, match=r"is not a torch release \(X\.Y\.Z\)"):
        upgrade.latest(REPO, version)
    with pytest.raises(ValueError):
        upgrade.scratch_records(REPO, version)


def test_a_requirements_file_without_the_pin_is_a_clear_error(tmp_path):
    (tmp_path / "requirements.txt").write_text("numpy==2.0.0\n")
    with pytest.raises(ValueError, match=r"requirements\.txt pins no torch"):
        upgrade.pinned(tmp_path)


def test_a_report_gets_a_page_in_each_language_and_a_translated_place_in_the_navigation(project):
    pin = upgrade.pinned(project)
    name = f"torch-{pin}-to-9.9.9"
    for _ in range(2):  # a second run (the workflow re-run) adds nothing twice
        upgrade.write_pages(project, name, "9.9.9")
    for lang in ("en", "es"):
        page = (project / "docs" / lang / "reference" / "drift-torch-9.9.9.md").read_text(encoding="utf-8")
        assert f"::: drift-report {name}\n" in page and f"torch {pin} → 9.9.9" in page
    assert translations.freshness(project / "docs", "reference/drift-torch-9.9.9.md", "es") is None
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    assert config.count("reference/drift-torch-9.9.9.md") == 1
    titles, spanish = nav_titles(project / "mkdocs.yml"), spanish_nav_titles(project / "mkdocs.yml")
    assert f"Drift: torch {pin} → 9.9.9" in titles and spanish[f"Drift: torch {pin} → 9.9.9"].startswith("Deriva")
    assert set(titles) == set(spanish)


def test_a_page_that_shows_another_report_is_refused_and_left_as_it_was(project):
    """A downgrade rehearsal (2.15.0 -> 2.14.1) met the page of 2.13.0 -> 2.14.1: it kept that page, linked it twice
    in the navigation, and the new report had no page at all. Now the command names the page and changes nothing."""
    page = project / "docs" / "en" / "reference" / "drift-torch-2.14.1.md"
    before, config = page.read_bytes(), (project / "mkdocs.yml").read_bytes()
    assert b"::: drift-report torch-2.13.0-to-2.14.1\n" in before
    with pytest.raises(ValueError, match=r"^docs/en/reference/drift-torch-2\.14\.1\.md shows another drift report"):
        upgrade.write_pages(project, "torch-2.15.0-to-2.14.1", "2.14.1", "2.15.0")
    assert page.read_bytes() == before and (project / "mkdocs.yml").read_bytes() == config
    upgrade.write_pages(project, "torch-2.13.0-to-2.14.1", "2.14.1", "2.13.0")  # its own report: nothing to refuse
    assert (project / "mkdocs.yml").read_bytes() == config


def test_requirements_comments_name_no_torch_release_an_upgrade_would_leave_behind():
    """`upgrade pin` rewrites the pins only: a comment naming a release (the triton pin's said "the triton torch
    2.15.0 requires") went stale in the 2.15.0 -> 2.14.1 rehearsal."""
    import re

    comments = [line.partition("#")[2] for line in (REPO / "requirements.txt").read_text().splitlines() if "#" in line]
    stale = [c.strip() for c in comments if re.search(r"torch \d+\.\d+", c)]
    assert not stale, f"requirements.txt comments that name a torch release: {stale}"


def test_a_failed_run_is_an_entry_of_the_report_and_fails_the_drift_command_in_one_line(toy, tmp_path, monkeypatch):
    """A drift run whose emulated snippet failed under the new torch wrote a report without it and exited 0;
    the report now has its entry, which says why, and the command fails with one line that names it."""
    from phase25 import cli
    from phase25.core import drift, records
    from phase25.core.paths import Layout
    from test_drift import EMULATED, output, record_of

    for name in ("docs", "mkdocs.yml", "requirements.txt"):
        (shutil.copytree if (REPO / name).is_dir() else shutil.copy)(REPO / name, toy.root / name)
    toy.add("page/ok", "print('x')\n")
    toy.add("page/gpu", "print('x')\n", devices=f'["{EMULATED}"]')
    scratch = Layout(toy.root, toy.layout.snippets, tmp_path / "scratch")
    failed = {**output(""), "status": "failed", "exit_code": 1, "error": "raised Outdated(triton.compiler)"}
    for layout, gpu in ((toy.layout, output("kernel\n")), (scratch, failed)):
        records.save(layout, record_of(toy, "page/ok", output("same\n"), "2.15.0"))
        records.save(layout, record_of(toy, "page/gpu", gpu, "2.15.0", EMULATED))
    monkeypatch.setattr(upgrade, "execute", lambda *args, **kwargs: scratch.records)
    errors = tmp_path / "stderr"
    with errors.open("w") as stream:
        monkeypatch.setattr("sys.stderr", stream)
        code = cli.main(["--root", str(toy.root), "upgrade", "drift", "9.9.9"])
    said = errors.read_text()
    assert code != 0 and said.count("\n") == 1 and "page/gpu (sm90-codegen)" in said, said
    report = drift.load(toy.root, f"torch-{upgrade.pinned(toy.root)}-to-9.9.9")
    entry = next(e for e in report["entries"] if e["snippet"] == "page/gpu")
    assert (entry["state"], entry["failed"]["b"]) == ("only-a", "raised Outdated(triton.compiler)")
