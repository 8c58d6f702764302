"""The environment a run inherits: nothing from the caller's shell changes a record's output without changing its key.

A record's key (``core/environment.py:env_key``) holds the variables the runner pins and the ones the snippet's
header declares. Whatever else the shell that starts the runner holds must either be replaced by the pinned value
(which is in the key) or never reach the run: a ``TORCH_LOGS`` left in a maintainer's shell would otherwise add
torch's logs to every record made that day, under the same key as yesterday's. Each class of variable below is set
to a hostile value in the runner's environment; the run must show none of it and keep the key a clean shell gives.
"""

from __future__ import annotations

import json

import pytest
from phase25.core import devices, environment, header
from phase25.core.catalog import Catalog

HOSTILE = "HOSTILE-FROM-THE-SHELL"
# Values an interpreter must be able to start with (the runner's own starts with the same shell), each unlike the pin.
WELL_FORMED = {"PYTHONHASHSEED": "123", "PYTHONOPTIMIZE": "2", "OMP_NUM_THREADS": "64"}
REPLACED = "the runner pins or points each one (pinned values and the run's own folders are in the key)"
CLASSES = {
    "torch-switches": (
        ("TORCH_LOGS", "TORCH_LOGS_FORMAT", "TORCH_TRACE", "TORCHINDUCTOR_MAX_AUTOTUNE", "TORCH_COMPILE_DEBUG",
         "TORCHDYNAMO_VERBOSE", "TRITON_DEBUG"),
        (),
    ),
    "math-libraries": (
        ("MKL_NUM_THREADS", "KMP_AFFINITY", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_CBWR",
         "ONEDNN_MAX_CPU_ISA", "ATEN_CPU_CAPABILITY"),
        (),
    ),
    "python": (("PYTHONHASHSEED", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONWARNINGS", "PYTHONOPTIMIZE"), ()),
    "loader": (("LD_PRELOAD",), ()),
    "locale-and-time": (("LANG", "LANGUAGE", "LC_NUMERIC", "LC_ALL", "TZ"), ()),
    "a-variable-read-by-name": (("GREETING",), ()),
    "gpu": (("CUDA_VISIBLE_DEVICES",), ()),
    "folders": (
        ("HOME", "TMPDIR", "XDG_CACHE_HOME", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR", "TORCH_HOME", "OLDPWD"),
        (),
    ),
}  # fmt: skip
SHOWS = (
    "import os, sys\n"
    "for name in {names!r}:\n"
    "    print(name, repr(os.environ.get(name)))\n"
    "print('optimize', sys.flags.optimize, 'warnoptions', sys.warnoptions)\n"
)


@pytest.mark.parametrize(
    "names", [pytest.param(names, marks=marks, id=kind) for kind, (names, marks) in CLASSES.items()]
)
def test_what_the_callers_shell_sets_never_reaches_a_run_under_the_same_key(toy, monkeypatch, names):
    device = devices.REFERENCE
    toy.add("page/a", SHOWS.format(names=names), devices=json.dumps([device]))
    snippet = Catalog(toy.layout).snippets["page/a"]
    clean_key = environment.env_key(snippet, device)
    for name in names:
        value = "/tmp/" + HOSTILE if name.endswith(("HOME", "DIR", "PATH", "PRELOAD")) else HOSTILE
        monkeypatch.setenv(name, WELL_FORMED.get(name, value))
    [made] = toy.run()[0].executed
    assert made.status == "ok" and made.env_key == clean_key
    assert HOSTILE not in made.stdout + made.stderr, "a value from the caller's shell reached the record"
    pinned = environment.run_env(snippet, device)
    runners = {*pinned, *environment.folders_env(toy.root), *header.RUNNER_OWNED}  # the run's own folders and path
    shown = dict(line.split(" ", 1) for line in made.stdout.splitlines()[: len(names)])
    for name in names:  # the pinned value (in the key), the runner's own, or nothing
        assert name not in pinned or shown[name] == repr(pinned[name]), name
        assert name in runners or shown[name] == "None", name
    assert made.stdout.splitlines()[-1] == "optimize 0 warnoptions []"


@pytest.mark.parametrize("device", devices.DEVICES)
def test_a_run_inherits_only_its_programs_and_its_user(device):
    shell = {name: HOSTILE for kinds in CLASSES.values() for name in kinds[0]}
    shell |= {"PATH": "/usr/bin:/bin", "USER": "maintainer", "LOGNAME": "maintainer", "LD_LIBRARY_PATH": "/gpu/lib"}
    kept = environment.inherited(shell, device)
    on_a_gpu = {"CUDA_VISIBLE_DEVICES": HOSTILE, "LD_LIBRARY_PATH": "/gpu/lib"} if devices.captured(device) else {}
    assert kept == {"PATH": "/usr/bin:/bin", "USER": "maintainer", "LOGNAME": "maintainer", **on_a_gpu}
    # what a CPU or an emulated run needs beyond that is pinned, in the key, and hides every GPU
    if device in devices.LOCAL:
        assert environment.CPU_ENV["CUDA_VISIBLE_DEVICES"] == ""


def test_a_variable_the_snippet_needs_comes_from_its_header_and_changes_the_key(toy, monkeypatch):
    """The way to give a run a variable: declared, it reaches the run and the key names it."""
    toy.add("page/a", SHOWS.format(names=("GREETING",)), extra='env = { GREETING = "hola" }')
    toy.add("page/b", SHOWS.format(names=("GREETING",)))
    catalog = Catalog(toy.layout)
    keys = {sid: environment.env_key(snippet, devices.REFERENCE) for sid, snippet in catalog.snippets.items()}
    assert keys["page/a"] != keys["page/b"]
    made = {record.snippet: record for record in toy.run()[0].executed}
    assert made["page/a"].stdout.startswith("GREETING 'hola'\n") and made["page/a"].env_key == keys["page/a"]
