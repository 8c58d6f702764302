"""The CI workflows: valid for actionlint, and every step they run is a make target that works here too."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO
from phase25.core import bounded

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
RUN = re.compile(r"^\s*(?:- )?run: (?P<command>.+)$", re.M)
TARGETS = set(re.findall(r"^([\w-]+):", (REPO / "Makefile").read_text(), re.M))


def test_the_workflows_pass_zizmor_offline():
    zizmor = shutil.which("zizmor") or str(Path(__file__).resolve().parents[1] / ".venv/bin/zizmor")
    result = bounded.run(
        [zizmor, "--offline", "--no-progress", ".github/workflows"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0 and "No findings" in result.stdout + result.stderr, result.stdout + result.stderr


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[w.stem for w in WORKFLOWS])
def test_least_permissions_per_job_pinned_actions_and_no_expression_in_a_shell_command(workflow):
    import yaml

    data = yaml.safe_load(workflow.read_text())
    assert data["permissions"] == {}, "the workflow grants nothing; each job asks for what it needs"
    for name, job in data["jobs"].items():
        assert "permissions" in job, f"{workflow.name}: job {name} states its permissions"
        for step in job["steps"]:
            if "uses" in step:
                assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), f"{step['uses']} is not pinned"
            assert "${{" not in step.get("run", ""), f"{workflow.name}: an expression inside run: {step['run']}"


def test_no_fork_pull_request_reaches_the_self_hosted_gpu_runner():
    import yaml

    for workflow in WORKFLOWS:
        data = yaml.safe_load(workflow.read_text())
        triggers = data.get(True, data.get("on"))  # YAML reads a bare `on:` as True
        for job in data["jobs"].values():
            if "self-hosted" in job["runs-on"]:
                assert not {"pull_request", "pull_request_target", "issue_comment"} & set(triggers), workflow.name
                assert "pull_request" not in job.get("if", "pull_request") and "workflow_dispatch" in job["if"]


def test_the_workflows_pass_actionlint():
    actionlint = shutil.which("actionlint") or str(Path(__file__).resolve().parents[1] / ".venv/bin/actionlint")
    result = bounded.run([actionlint, "-color=false"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert {w.name for w in WORKFLOWS} == {"test.yml", "gpu-capture.yml", "torch-upgrade.yml"}


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[w.stem for w in WORKFLOWS])
def test_every_step_is_a_make_target(workflow):
    commands = RUN.findall(workflow.read_text())
    assert commands
    for command in commands:
        target = re.match(r"make ([\w-]+)", command)
        assert target and target.group(1) in TARGETS, f"{workflow.name}: `{command}` is not a make target"


def test_the_test_workflow_runs_every_family_and_the_static_checks_as_jobs_and_ci_runs_make_test():
    """The jobs together run what `make test` runs: its static checks, and its pytest as the families (whose union
    is the whole suite: test_families.py). (The capture job's script is run on a Python with torch only in
    test_layers.py.)"""
    import yaml
    from families import names

    jobs = yaml.safe_load((REPO / ".github/workflows/test.yml").read_text())["jobs"]
    runs = {job: [step.get("run") for step in spec["steps"]] for job, spec in jobs.items()}
    assert "make static" in runs["static"]
    assert jobs["family"]["strategy"]["matrix"]["family"] == names()
    [step] = [step for step in jobs["family"]["steps"] if "run" in step]
    assert step["run"] == "make test-family" and step["env"] == {"FAMILY": "${{ matrix.family }}"}
    recipes = {t: r for t, r in re.findall(r"^([\w-]+):.*\n((?:\t.*\n)+)", (REPO / "Makefile").read_text(), re.M)}
    static, test, family = (recipes[t].replace("\t", "").splitlines() for t in ("static", "test", "test-family"))
    assert test == [*static, "$(BIN)/python -m pytest"] and family == ['$(BIN)/python -m pytest --family="$${FAMILY}"']
    assert (REPO / ".ci/run").read_text().rstrip().endswith("make test")


def test_dependabot_keeps_torch_for_the_upgrade_workflow():
    config = (REPO / ".github/dependabot.yml").read_text()
    assert "package-ecosystem: pip" in config and "dependency-name: torch" in config
