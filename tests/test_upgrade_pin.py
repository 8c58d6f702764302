"""`upgrade pin` is safe to run again after a stop: it resumes from the records it kept aside, never from records it
may already have re-made; it records the release it replaces in releases.toml, once, at the commit that pins it.

Each case runs on a toy git repository; required_triton (which asks PyPI) answers from the test.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from phase25.cli import main
from phase25.tools import releases, upgrade_pin


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True)
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "repo"
    (root / "records/page").mkdir(parents=True)
    (root / "snippets").mkdir()
    (root / "requirements.txt").write_text("torch==2.15.0\ntriton==3.9.0  # the one torch requires\n")
    (root / "records/page/a.cpu.json").write_text(json.dumps({"made with": "2.15.0"}))
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-q", "-m", "pin 2.15.0")
    monkeypatch.setattr(upgrade_pin, "required_triton", lambda version: "3.10.0")
    return root


def test_the_first_run_keeps_the_records_records_the_release_and_pins(repo: Path) -> None:
    said = upgrade_pin.pin(repo, "2.16.0")
    kept = upgrade_pin.kept_records(repo)
    assert "pinned torch 2.16.0 and triton 3.10.0" in said and "records torch 2.15.0" in said
    assert json.loads((kept / "page/a.cpu.json").read_text()) == {"made with": "2.15.0"}
    assert upgrade_pin.kept_torch(repo) == "2.15.0"
    assert "torch==2.16.0" in (repo / "requirements.txt").read_text()
    assert "triton==3.10.0  # the one torch requires" in (repo / "requirements.txt").read_text()
    [recorded] = releases.read(repo)  # checked as make versions checks it: the commit pins what it says
    assert (recorded.torch, recorded.commit) == ("2.15.0", git(repo, "rev-parse", "HEAD"))


def test_a_second_run_after_a_stop_resumes_from_the_kept_records(repo: Path) -> None:
    upgrade_pin.pin(repo, "2.16.0")
    (repo / "records/page/a.cpu.json").write_text(json.dumps({"made with": "2.16.0"}))  # re-made before the stop
    said = upgrade_pin.pin(repo, "2.16.0")
    assert said.startswith("torch 2.16.0 is pinned already; resuming with the records of torch 2.15.0")
    kept = upgrade_pin.kept_records(repo) / "page/a.cpu.json"
    assert json.loads(kept.read_text()) == {"made with": "2.15.0"}, "the before of the report is still 2.15.0's"
    assert (repo / "releases.toml").read_text().count("[[release]]") == 1


def test_a_pin_with_nothing_kept_is_refused_in_one_line(repo: Path) -> None:
    (repo / "requirements.txt").write_text("torch==2.16.0\ntriton==3.10.0\n")
    with pytest.raises(ValueError, match=r"already pins torch 2\.16\.0 and no records are kept aside"):
        upgrade_pin.pin(repo, "2.16.0")


def test_an_uncommitted_pin_is_refused_before_anything_changes(repo: Path) -> None:
    (repo / "requirements.txt").write_text("torch==2.15.1\ntriton==3.9.0\n")  # HEAD pins 2.15.0
    with pytest.raises(ValueError, match=r"does not pin torch 2\.15\.1: commit the current pin"):
        upgrade_pin.pin(repo, "2.16.0")
    assert not upgrade_pin.kept_records(repo).exists() and not (repo / "releases.toml").exists()


def test_a_failed_triton_lookup_leaves_everything_as_it_was(repo: Path, monkeypatch) -> None:
    def offline(version: str) -> str:
        raise ValueError("PyPI cannot be reached")

    monkeypatch.setattr(upgrade_pin, "required_triton", offline)
    with pytest.raises(ValueError, match="PyPI"):
        upgrade_pin.pin(repo, "2.16.0")
    assert not (repo / "releases.toml").exists() and "torch==2.15.0" in (repo / "requirements.txt").read_text()


def test_the_release_is_recorded_once(repo: Path) -> None:
    assert upgrade_pin.record_release(repo, "2.15.0").startswith("releases.toml records torch 2.15.0")
    assert upgrade_pin.record_release(repo, "2.15.0") == "releases.toml already records torch 2.15.0"


def test_the_command_resumes_and_refuses_in_one_line(repo: Path, capsys) -> None:
    assert main(["--root", str(repo), "upgrade", "pin", "2.16.0"]) == 0
    assert main(["--root", str(repo), "upgrade", "pin", "2.16.0"]) == 0
    assert "resuming with the records of torch 2.15.0" in capsys.readouterr().out
    for gone in (upgrade_pin.kept_marker(repo),):
        gone.unlink()
    assert main(["--root", str(repo), "upgrade", "pin", "2.16.0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: requirements.txt already pins torch 2.16.0")
