"""The CI workflows: valid for actionlint, and every step they run is a make target that works here too."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
RUN = re.compile(r"^\s*(?:- )?run: (?P<command>.+)$", re.M)
TARGETS = set(re.findall(r"^([\w-]+):", (REPO / "Makefile").read_text(), re.M))


def test_the_workflows_pass_actionlint():
    actionlint = shutil.which("actionlint") or str(Path(__file__).resolve().parents[1] / ".venv/bin/actionlint")
    result = subprocess.run([actionlint, "-color=false"], cwd=REPO, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert {w.name for w in WORKFLOWS} == {"test.yml", "gpu-capture.yml", "torch-upgrade.yml"}


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[w.stem for w in WORKFLOWS])
def test_every_step_is_a_make_target(workflow):
    commands = RUN.findall(workflow.read_text())
    assert commands
    for command in commands:
        target = re.match(r"make ([\w-]+)", command)
        assert target and target.group(1) in TARGETS, f"{workflow.name}: `{command}` is not a make target"


def test_the_test_job_runs_what_ci_runs():
    """(The capture job's script is run on a Python with torch only in test_layers.py.)"""
    assert "run: make test" in (REPO / ".github/workflows/test.yml").read_text()
    assert (REPO / ".ci/run").read_text().rstrip().endswith("make test")


def test_dependabot_keeps_torch_for_the_upgrade_workflow():
    config = (REPO / ".github/dependabot.yml").read_text()
    assert "package-ecosystem: pip" in config and "dependency-name: torch" in config
