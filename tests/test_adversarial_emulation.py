"""The emulated device: who can switch it on, and what a record made with it may claim.

The emulation (``scripts/emulated_h200``) is switched on by a snippet's own code (``emulated_h200.session()``),
importable only where the header declares it among ``deps``; nothing in the caller's environment switches it on.
What it makes is code generation, never a run, so its output must never pass for another device's:

- a run on a device that is not emulated (the CPU, a GPU) that switched an emulation on is saved as a failed run
  naming the emulation, never shown as that device's output;
- an emulated record moved to another device (its file renamed, its device field edited, the digest recomputed)
  is refused when it keeps its emulation's provenance, and stale when that provenance is removed: its key is the
  emulated device's;
- the caller's shell reaches no GPU through an emulated or a CPU run.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from conftest import REPO
from phase25.core import devices, environment, records
from phase25.core.catalog import Catalog
from phase25.core.records import Record
from phase25.core.snippets import discover, source_sha256

EMULATED = next(name for name, device in devices.DEVICE_TABLE.items() if device.emulated)
CAPTURED = devices.CAPTURED[0]
PLAIN = (devices.REFERENCE, CAPTURED)  # devices whose output is made without an emulation
EMULATION = {
    "emulation": "code generation for an emulated NVIDIA H200 on this CPU; nothing loaded, launched or timed",
    "emulated_device": "NVIDIA H200 (sm_90)",
    "emulated_properties": ["name=NVIDIA H200", "major=9", "minor=0"],
    "emulation_patches": ["CudaInterface.get_device_properties"],
    "emulation_refuses": ["load of the generated module", "kernel launch", "timing"],
}
# A snippet that switches "the emulation" on the way the runner sees it: a module of the emulation's name whose
# provenance() describes a session (the real one needs torch and Triton; the runner only reads this).
SWITCHES_IT_ON = (
    "import sys, types\n"
    f"fake = types.ModuleType({devices.EMULATIONS[EMULATED]!r})\n"
    f"fake.provenance = lambda: {EMULATION!r}\n"
    f"sys.modules[{devices.EMULATIONS[EMULATED]!r}] = fake\n"
    "print('triton_poi_fused_add_0 for sm_90')\n"
)


@pytest.mark.parametrize("device", PLAIN)
def test_a_run_that_switches_an_emulation_on_elsewhere_is_a_failed_run_naming_it(toy, device):
    toy.add("page/a", SWITCHES_IT_ON, devices=json.dumps(list(PLAIN)))
    [made] = toy.run(devices=(device,))[0].executed
    assert made.status == "failed", made.stdout
    assert "names an emulation" in (made.error or "") and f"a {device} output is made without one" in made.error
    assert made.provenance["emulation"] == EMULATION["emulation"]  # what happened is kept, not hidden
    standing = Catalog(toy.layout).standing("page/a", device)
    assert not standing.usable and standing.is_problem(device)


def test_the_same_run_on_the_emulated_device_is_its_output(toy):
    """The control: the run above is an ok output where the emulation belongs."""
    toy.add("page/a", SWITCHES_IT_ON, devices=json.dumps([EMULATED]))
    [made] = toy.run(devices=(EMULATED,))[0].executed
    assert made.status == "ok" and made.provenance["emulated_device"] == "NVIDIA H200 (sm_90)"
    assert Catalog(toy.layout).standing("page/a", EMULATED).usable


def _emulated_record(toy) -> Path:
    toy.add("page/gen", "print('kernel')\n", devices=json.dumps([EMULATED, CAPTURED, devices.REFERENCE]))
    [snippet] = discover(toy.layout)
    made = Record(
        snippet="page/gen",
        device=EMULATED,
        source_sha256=source_sha256(snippet, toy.layout),
        env_key=environment.env_key(snippet, EMULATED),
        status="ok",
        exit_code=0,
        stdout="kernel\n",
        stderr="",
        provenance={"torch": "2.15.0", "device_name": "AMD EPYC", "cpu_vendor": "AuthenticAMD", **EMULATION},
        run={"date": "2026-12-03", "wall_s": 14.5, "git_commit": "abcdef1234567", "mode": "fresh"},
    )
    return records.save(toy.layout, made)


def _relabel(toy, source: Path, device: str, *, drop_emulation: bool) -> None:
    """What a careless script or a hand does: the record moved to ``device``, its digest made to match."""
    data = json.loads(source.read_text())
    data["device"] = device
    data["provenance"] |= {"device_name": "NVIDIA H200", "compute_capability": "sm_90"}
    if drop_emulation:
        data["provenance"] = {k: v for k, v in data["provenance"].items() if k not in devices.EMULATION_FIELDS}
    data.pop("digest")
    records.record_path(toy.layout, "page/gen", device).write_text(json.dumps({**data, "digest": records.digest(data)}))


@pytest.mark.parametrize("device", PLAIN)
def test_an_emulated_record_relabelled_with_its_emulation_is_refused_naming_it(toy, device):
    _relabel(toy, _emulated_record(toy), device, drop_emulation=False)
    standing = Catalog(toy.layout).standing("page/gen", device)
    assert standing.state == "corrupt" and "names an emulation (emulation, emulated_device" in standing.reason
    assert f"records/page/gen.{device}.json" in standing.reason


@pytest.mark.parametrize("device", PLAIN)
def test_an_emulated_record_relabelled_without_its_emulation_is_stale_by_its_key(toy, device):
    """Its provenance now claims a real H200, but its key is still the emulated device's: never shown as current,
    and a strict build names it."""
    _relabel(toy, _emulated_record(toy), device, drop_emulation=True)
    catalog = Catalog(toy.layout)
    standing = catalog.standing("page/gen", device)
    assert (standing.state, standing.cause) == ("stale", "environment")
    assert any(problem.startswith(f"snippets/page/gen.py ({device}): stale") for problem in catalog.problems())
    assert catalog.standing("page/gen", EMULATED).usable  # the genuine record is untouched


def test_an_emulated_run_and_a_cpu_run_reach_no_gpu_whatever_the_caller_sets(toy, monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    shows = "import os\nprint(repr(os.environ['CUDA_VISIBLE_DEVICES']))\n"
    toy.add("page/a", shows, devices=json.dumps([devices.REFERENCE]))
    toy.add("page/b", shows + SWITCHES_IT_ON, devices=json.dumps([EMULATED]))
    made = {record.device: record for record in toy.run(devices=(devices.REFERENCE, EMULATED))[0].executed}
    assert {device: (record.status, record.stdout.splitlines()[0]) for device, record in made.items()} == {
        devices.REFERENCE: ("ok", "''"),
        EMULATED: ("ok", "''"),
    }


def _reads_the_environment(tree: ast.AST) -> list[int]:
    """Lines that read a variable of the environment (``os.environ``, ``os.getenv``, ``environ.get``)."""
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb")
    )


def test_nothing_in_the_callers_environment_switches_the_emulation_on():
    """Only a snippet's code does (``emulated_h200.session()``): the package reads no variable of the environment."""
    package = REPO / "scripts" / devices.EMULATIONS[EMULATED]
    found = [
        f"{path.name}:{line}"
        for path in sorted(package.glob("*.py"))
        for line in _reads_the_environment(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert len(list(package.glob("*.py"))) >= 5 and found == []
    assert _reads_the_environment(ast.parse("import os\nos.environ.get('X')\nos.getenv('Y')\n")) == [2, 3]
