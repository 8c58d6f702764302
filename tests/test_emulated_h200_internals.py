"""The emulated H200's touch points: one table, each entry failing by its name, and the answers it holds to.

Rules tried here, each from the side that would break it:
- every torch and Triton internal the emulation uses is an entry of ``internals.TABLE``, reached through it (no
  module but ``internals`` imports torch's or Triton's internals), and a real compile and build reach every entry;
- each entry removed in turn (the attribute deleted, what a call makes stripped of the member, the marker cut
  from the text torch or Triton wrote) fails as ``Outdated`` with that entry's name, never as AttributeError,
  ValueError or a misleading Refused;
- the properties it answers with are the committed evidence's, value by value, and Inductor writes them into a
  kernel exactly as the real H200's kernel has them;
- why padding is switched off: on this device pad_mm's compute-bound check cannot be evaluated.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

emulated_h200 = pytest.importorskip("emulated_h200")
torch = pytest.importorskip("torch")

from emulated_h200 import internals, kernels, triton_build  # noqa: E402
from emulated_h200.internals import TABLE, Attribute, Marker, Member  # noqa: E402
from emulated_h200.properties import COMPUTE_CAPABILITY, EVIDENCE, PROPERTIES, READ_FROM  # noqa: E402

PACKAGE = Path(emulated_h200.__file__).parent
PHASES = ("session", "compile", "build")


def _softmax(x):
    return x.softmax(-1)


def _run(phase: str, kernel=None):
    """The emulation used up to ``phase``: open a session, compile a softmax, build one kernel."""
    with emulated_h200.session() as h200:
        if phase == "compile":
            return h200.compile(_softmax, h200.place(torch.ones(2, 64)))
        if phase == "build":
            return h200.build(kernel)
    return None


@pytest.fixture(scope="module")
def reached():
    """Every entry, the phase that first reaches it; the generated kernel; the texts its markers are read from."""
    first: dict[str, str] = {}
    internals.USED.clear()
    generated = None
    for phase in PHASES:
        made = _run(phase, generated.kernels[0] if generated else None)
        generated = generated or made
        first.update({name: phase for name in internals.USED if name not in first})
    [build] = made
    with emulated_h200.session() as h200:
        texts = {flag: triton_build.cuobjdump(build.cubin, flag, h200.folder) for flag in ("-res-usage", "-sass")}
    samples = {
        "output code": generated.code,
        "kernel source": generated.code,
        "PTX": build.ptx,
        "cuobjdump -res-usage output": texts["-res-usage"],
        "cuobjdump -sass output": texts["-sass"],
    }
    return first, generated.kernels[0], samples


def test_a_real_compile_and_build_reach_every_entry_of_the_table(reached):
    first, _, _ = reached
    assert sorted(set(TABLE) - set(first)) == [], "an entry no code reaches: remove it, or use it"


def _defined_where(owner, attribute):
    """Whatever holds ``attribute`` for ``owner``: itself, or the class (or base class) it inherits it from."""
    classes = owner.__mro__ if isinstance(owner, type) else type(owner).__mro__
    return next((held for held in (owner, *classes) if attribute in vars(held)), owner)


def _remove_attribute(monkeypatch, entry: Attribute):
    if not entry.path:
        monkeypatch.setitem(sys.modules, entry.module, None)  # the module can no longer be imported
        return
    owner, attribute = internals.holder(entry.name)
    for _ in range(10):  # gone from the owner and from every class it could inherit it from
        if not hasattr(owner, attribute):
            return
        held = _defined_where(owner, attribute)
        if attribute in vars(held):
            monkeypatch.setattr(held, attribute, vars(held)[attribute], raising=False)  # kept for undo(); then gone
            delattr(held, attribute)
        else:  # an attribute that lives in no __dict__ (Inductor's config module)
            monkeypatch.delattr(owner, attribute)
    pytest.fail(f"{entry.name} could not be removed")


def _strip(made, path: str) -> None:
    *parents, last = path.split(".")
    for part in parents:
        made = made[part] if isinstance(made, dict) else getattr(made, part)
    if isinstance(made, dict):
        made.pop(last)
    else:
        delattr(made, last)


def _hidden_from_the_emulation(attribute: str) -> property:
    """An instance attribute torch's own code still reads and writes, and the emulation no longer finds: what a
    rename in torch looks like from the emulation, whose code still asks for the old name."""

    def read(self):
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller.startswith("emulated_h200"):
            raise AttributeError(attribute)
        return vars(self)[f"_hidden_{attribute}"]

    def write(self, value):
        vars(self)[f"_hidden_{attribute}"] = value

    return property(read, write)


def _remove_member(monkeypatch, entry: Member):
    """What ``made_by`` makes, without the member: its instances (a class), or what it returns when called."""
    owner, attribute = internals.holder(entry.made_by)
    maker = getattr(owner, attribute)
    if isinstance(maker, type):
        assert "." not in entry.path, entry.path
        monkeypatch.setattr(maker, entry.path, _hidden_from_the_emulation(entry.path), raising=False)
        return

    def returns_without(*args, **kwargs):
        made = maker(*args, **kwargs)
        _strip(made, entry.path)
        return made

    monkeypatch.setattr(owner, attribute, returns_without)


def _state():
    from triton.runtime.driver import driver

    return torch.cuda.get_device_properties, torch.cuda.device_count, driver._active


@pytest.mark.parametrize("name", [n for n, e in TABLE.items() if not isinstance(e, Marker)])
def test_each_entry_removed_fails_as_outdated_with_its_name(monkeypatch, reached, name):
    first, kernel, _ = reached
    before = _state()
    entry = TABLE[name]
    if isinstance(entry, Attribute):
        _remove_attribute(monkeypatch, entry)
    else:
        _remove_member(monkeypatch, entry)
    with pytest.raises(emulated_h200.Outdated) as raised:
        _run(first[name], kernel)
    assert raised.value.name == name and str(raised.value).startswith(f"{name}: "), str(raised.value)
    monkeypatch.undo()
    assert _state() == before, "the session put back what it changed"


PARSERS = {
    "output code": kernels.read,
    "kernel source": kernels.read,
    "PTX": triton_build.threads,
    "cuobjdump -res-usage output": triton_build.usage,
    "cuobjdump -sass output": triton_build.instructions,
}


@pytest.mark.parametrize("name", [n for n, e in TABLE.items() if isinstance(e, Marker)])
def test_each_marker_cut_from_its_text_fails_as_outdated_with_its_name(reached, name):
    _, _, samples = reached
    entry = TABLE[name]
    text = samples[entry.source]
    read = PARSERS[entry.source]
    assert entry.pattern.search(text), f"the real {entry.source} has {name}"
    read(text)  # the real text reads without error
    with pytest.raises(emulated_h200.Outdated) as raised:
        read(entry.pattern.sub("", text))
    assert raised.value.name == name and str(raised.value).startswith(f"{name}: "), str(raised.value)


MODULES = sorted(PACKAGE.glob("*.py"))


def _reaches_an_internal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Import | ast.ImportFrom):
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        if getattr(node, "level", 0) == 0 and any(
            m.startswith(("torch.", "triton.")) or m == "triton" for m in modules
        ):
            return f"imports {modules}"
    if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
        return f"reads ._{node.attr[1:]}"
    if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module":
        return "imports a module by name"
    return None


@pytest.mark.parametrize("module", [m for m in MODULES if m.name != "internals.py"], ids=lambda m: m.name)
def test_no_module_but_internals_reaches_torch_or_triton_internals(module):
    tree = ast.parse(module.read_text(encoding="utf-8"))
    found = [f"line {n.lineno}: {why}" for n in ast.walk(tree) if (why := _reaches_an_internal(n))]
    assert found == [], f"{module.name} must go through internals.get/member/find: {found}"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_no_module_over_300_lines_and_no_function_over_50(module):
    source = module.read_text(encoding="utf-8")
    assert source.count("\n") <= 300, f"{module.name}: {source.count(chr(10))} lines"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno - node.lineno + 1 <= 50, f"{module.name}: {node.name}"


def _observed() -> tuple[str, dict[str, str], str]:
    """The real H200's name, its DeviceProperties fields and that text, read from the committed evidence."""
    text = EVIDENCE.read_text(encoding="utf-8")
    name = re.search(r"^# Output of a real (NVIDIA [\w ]+?) \(torch", text, re.M)
    device = re.search(r"'device': (DeviceProperties\((.*?)\))", text)
    assert name and device, f"{EVIDENCE} no longer holds the H200's name and DeviceProperties"
    return name.group(1), dict(re.findall(r"(\w+)=([^,]+)", device.group(2))), device.group(1)


def test_the_answers_are_the_values_the_real_h200_printed():
    name, fields, _ = _observed()
    assert PROPERTIES["name"] == name
    assert fields["cc"] == str(COMPUTE_CAPABILITY) == f"{PROPERTIES['major']}{PROPERTIES['minor']}"
    for key, value in PROPERTIES.items():
        if key in fields:
            assert str(value) == fields[key], key
    assert list(READ_FROM) == list(PROPERTIES), "each value says where it was read"
    for key in PROPERTIES.keys() & fields.keys():
        assert f"{key}={fields[key]}" in READ_FROM[key], READ_FROM[key]


def test_inductor_writes_the_h200_into_a_kernel_as_the_real_one_did():
    from torch._inductor.runtime.hints import DeviceProperties

    _, _, device = _observed()
    with emulated_h200.session():
        assert repr(DeviceProperties.create(torch.device("cuda", 0))) == device
        props = torch.cuda.get_device_properties(0)
        assert {key: getattr(props, key) for key in PROPERTIES} == PROPERTIES


def test_pad_mms_compute_bound_check_cannot_be_evaluated_on_the_emulated_device():
    """Why padding is off: the check needs the GPU's peak TFLOPS and bandwidth, which this device cannot give, and
    without them pad_mm takes the matmul as compute-bound (then it would time). A dimension of 2 keeps the
    arithmetic intensity below 2, under any real GPU's balance: a real H200 rejects padding there."""
    from torch._inductor import utils
    from torch._inductor.fx_passes.pad_mm import is_mm_compute_bound

    with emulated_h200.session():
        with pytest.raises(Exception):  # noqa: B017 - whatever the device cannot answer
            utils.get_device_tflops(torch.float32) / utils.get_gpu_dram_gbps()
        assert is_mm_compute_bound(2, 64, 600, torch.float32), "the fallback: taken as compute-bound"
    m, k, n = 2, 64, 600
    assert m * k * n / (m * k + k * n + m * n) < 2


def test_what_the_emulation_says_of_itself_fits_a_records_provenance():
    from phase25.core.record_shape import flat_table

    with emulated_h200.session():
        described = emulated_h200.provenance()
    assert flat_table(described) is None, flat_table(described)
