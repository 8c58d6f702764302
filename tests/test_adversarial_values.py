"""A value is data, never shell; a value that becomes a file name is checked as a name before it becomes a path.

The values: make's variables (given on the command line, or in the environment as the workflows give theirs),
the workflows' inputs, and the arguments of ``python -m phase25`` that name files (a drift report's name, a
torch version, a shard). Each is tried here with what an attacker would type: shell syntax, make syntax,
newlines, ``..``, absolute paths, digits of another script, values too long to be a name.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest
import yaml
from conftest import REPO
from phase25 import cli
from phase25.run.plan import parse_shard

MAKEFILE = (REPO / "Makefile").read_text()
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
# What the Makefile defines for itself (and make's own): every other $(NAME) in a recipe is a value from outside.
# PYTHON is the one exception: not a value but the interpreter to run (whoever sets it chooses what runs).
OWN = set(re.findall(r"^(?:override\s+)?([A-Za-z0-9_]+)\s*:?=", MAKEFILE, re.M)) | {"MAKE", "CURDIR", "PYTHON"}
QUOTED = r'"\$\$\{{{name}(?::-[^}}"]*)?\}}"'  # "$${NAME}" or "$${NAME:-default}", quoted


def recipes() -> dict[str, str]:
    """Each target's recipe, its lines joined."""
    found: dict[str, list[str]] = {}
    target = None
    for line in MAKEFILE.splitlines():
        if match := re.match(r"^([\w.$()/-]+):", line):
            target = match.group(1)
            found[target] = []
        elif line.startswith("\t") and target:
            found[target].append(line[1:])
    return {t: "\n".join(lines) for t, lines in found.items()}


def test_no_recipe_splices_a_value_from_outside_into_its_text():
    """A recipe that says $(TORCH) hands make's text of the value to the shell: `;`, `$(...)`, backticks run."""
    for target, recipe in recipes().items():
        spliced = set(re.findall(r"(?<!\$)\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]", recipe)) - OWN
        assert not spliced, f'make {target} splices {sorted(spliced)} into its recipe: read them as "$${{NAME}}"'
        for name in re.findall(r"\$\$\{([A-Za-z_][A-Za-z0-9_]*)", recipe):
            for use in re.finditer(rf"\$\$\{{{name}\b[^}}]*\}}", recipe):
                assert re.fullmatch(QUOTED.format(name=name), recipe[use.start() - 1 : use.end() + 1]), (
                    f"make {target}: {use.group()} is not quoted"
                )


def _workflow_values() -> list[tuple[str, str, str]]:
    """(workflow, variable, make target) for each value a workflow hands a make target in its environment."""
    found = []
    for workflow in WORKFLOWS:
        for job in yaml.safe_load(workflow.read_text())["jobs"].values():
            for step in job["steps"]:
                env = {**job.get("env", {}), **step.get("env", {})}
                if target := re.match(r"make ([\w-]+)", step.get("run", "")):
                    found += [(workflow.name, k, target.group(1)) for k, v in env.items() if "${{" in str(v)]
    return found


@pytest.mark.parametrize(("workflow", "name", "target"), _workflow_values())
def test_a_workflow_value_reaches_its_recipe_quoted_through_the_environment(workflow, name, target):
    """workflow_dispatch's `version` (anyone with the right to run the workflow types it) reached the shell
    spliced: `make torch-release` ran `upgrade latest $(VERSION)`."""
    recipe = recipes()[target]
    script = re.search(r"bash (scripts/\S+\.sh)", recipe)
    reader = (REPO / script.group(1)).read_text() if script else recipe
    uses = re.findall(rf".?\$+\{{?{name}\b[^}}\s]*\}}?.?", reader)
    assert uses or script, f"{workflow}: make {target} never reads {name}"
    for use in uses:
        assert use.startswith('"') and use.endswith('"'), f"{workflow}: make {target} reads {name} unquoted: {use}"
    assert f"$({name})" not in recipe


HOSTILE = [
    "x; touch {marker} #",
    "x$(touch {marker})",
    "x`touch {marker}`",
    "x$(shell touch {marker})",
    "x\ntouch {marker}",
    "x' \"; touch {marker} #",
]


def make(target: str, **env: str) -> subprocess.CompletedProcess:
    """``make target`` with values in its environment, as a workflow passes them (setup taken as done)."""
    environment = {**os.environ, "MAKEFLAGS": "", "PYTHONPATH": str(REPO / "scripts"), **env}
    return subprocess.run(
        ["make", "-s", "-C", str(REPO), "-o", "setup", target],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(
    ("target", "name", "others"),
    [
        ("torch-release", "VERSION", {}),
        ("drift-shard", "TORCH", {"SHARD": "1/2", "JOBS": "1"}),
        ("drift-shard", "SHARD", {"TORCH": "2.15.0", "JOBS": "1"}),
        ("drift-shard", "JOBS", {"TORCH": "2.15.0", "SHARD": "1/2"}),
        ("unpack", "ARCHIVE", {}),
        ("stamp-translation", "PAGE", {}),
        ("merge", "SHARDS", {}),
    ],
)
@pytest.mark.parametrize(
    "value", HOSTILE, ids=["semicolon", "dollar-paren", "backticks", "make-shell", "newline", "quotes"]
)
def test_a_hostile_value_reaches_the_command_as_data_and_runs_nothing(tmp_path, target, name, others, value):
    marker = tmp_path / "ran"
    done = make(target, **others, **{name: value.format(marker=marker)})
    assert not marker.exists(), f"make {target} {name}=... ran a command of its value"
    assert done.returncode != 0 and "error" in done.stderr.lower(), done.stdout + done.stderr
    assert "Traceback" not in done.stderr


# -- arguments of python -m phase25 that become names ---------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["../../outside", "../outside", "{tmp}/absolute", "a/b", "x\ny", "", ".hidden", "ｔorch", "x" * 300, "a\\b"],
)
def test_a_drift_report_name_is_a_file_name_before_it_becomes_a_path(toy, tmp_path, capsys, name):
    """`drift compare --name ../../outside` wrote outside.json at the repository's root."""
    name = name.replace("{tmp}", str(tmp_path))
    toy.add("page/a", "print(1)\n")
    assert cli.main(["--root", str(toy.root), "drift", "compare", str(toy.root / "records"), "--name", name]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "is not the name of a drift report" in err
    written = [p for p in toy.root.rglob("*.json")]
    assert written == [] and not (tmp_path / "absolute.json").exists()


@pytest.mark.parametrize(
    "version",
    ["２.１６.０", "٢.١٦.٠", "2.16.0\n", "2.16.0; touch x", "../2.16.0", "2.16", "1" * 5000 + ".0.0", "2.16.0rc1"],
    ids=["fullwidth", "arabic-indic", "newline", "shell", "dotdot", "two-parts", "huge", "rc"],
)
def test_a_torch_version_is_ascii_x_y_z_before_it_names_a_folder_or_a_branch(toy, capsys, version):
    """`upgrade latest` with a version in fullwidth digits printed it back as the version to measure, newer
    than the pin: the workflow would have made a branch and folders named in those look-alike digits."""
    (toy.root / "requirements.txt").write_text("torch==2.15.0\n")
    assert cli.main(["--root", str(toy.root), "upgrade", "latest", version]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a torch release (X.Y.Z)" in err, err


def test_a_plain_version_is_still_measured(toy, capsys):
    (toy.root / "requirements.txt").write_text("torch==2.15.0\n")
    assert cli.main(["--root", str(toy.root), "upgrade", "latest", "2.16.0"]) == 0
    assert capsys.readouterr().out == "version=2.16.0\nnewer=true\n"


@pytest.mark.parametrize(
    "shard", ["１/２", "1/2\n", " 1/2", "1_0/20", "1/100000000", "0/2", "3/2", "1/2/3", "", "-1/2", "1/"]
)
def test_a_shard_is_i_of_n_in_ascii_digits_within_bounds(shard):
    """`--shard 1/100000000` made a hundred million lists before the first run; 1/2 in fullwidth digits was
    taken for 1/2."""
    with pytest.raises(ValueError, match="--shard"):
        parse_shard(shard)


def test_a_plain_shard_is_read():
    assert parse_shard("2/3") == (2, 3) and parse_shard("256/256") == (256, 256)


@pytest.mark.parametrize("page", ["../../../etc/passwd", "/etc/passwd", "docs/en/index.md"])
def test_a_page_to_stamp_outside_the_spanish_pages_is_refused_and_nothing_written(toy, capsys, page):
    (toy.root / "docs" / "es").mkdir(parents=True)
    before = {p: p.stat().st_mtime_ns for p in toy.root.rglob("*") if p.is_file()}
    assert cli.main(["--root", str(toy.root), "translations", "stamp", page]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert {p: p.stat().st_mtime_ns for p in toy.root.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize(
    "name", ["x\nerror: forged.cpu.json", "page/a.cpu.json\n.json", "a.cpu.json", "page/sub/a.cpu.json", "page/a.json"]
)
def test_a_file_in_a_shard_is_named_like_a_record_or_quoted_in_one_line(toy, tmp_path, capsys, name):
    """A shard's folder is an artifact another machine uploaded: a file named with a newline split the error
    into a second line of its own words ("error: forged")."""
    toy.add("page/a", "print(1)\n")
    shard = tmp_path / "shard"
    (shard / name).parent.mkdir(parents=True, exist_ok=True)
    (shard / name).write_text("{}")
    assert cli.main(["--root", str(toy.root), "merge", str(shard), "--into", str(tmp_path / "into")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{name!r} is not a record's name" in err, err
    assert not (tmp_path / "into").exists()


@pytest.mark.parametrize(
    ("previous", "branch", "message"),
    [
        ("--output=/tmp/x", "gh-pages", "is not a release name"),
        ("2.13.0 --force", "gh-pages", "is not a release name"),
        ("../../x", "gh-pages", "is not a release name"),
        ("2.13.0", "--detach", "is not a branch name"),
        ("2.13.0", "a/../../b", "is not a branch name"),
        ("9.9.9", "gh-pages", "no release 9.9.9 in releases.toml"),
    ],
)
def test_a_release_or_branch_to_publish_is_a_name_before_it_reaches_git(toy, capsys, previous, branch, message):
    """`make versions PREVIOUS=...` reached git as an argument unchecked; a release not recorded was a traceback."""
    assert cli.main(["--root", str(toy.root), "versions", f"--previous={previous}", f"--branch={branch}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
