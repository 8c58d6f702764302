"""Devices are declared once: no module outside core/devices.py compares a device name as a literal or gives one as a
default, so adding a device is a row in DEVICE_TABLE, not a hunt for every ``== "cuda"``."""

from __future__ import annotations

import ast
from pathlib import Path

from phase25.core import devices

PACKAGE = Path(__file__).resolve().parents[1] / "scripts" / "phase25"
TABLE = PACKAGE / "core" / "devices.py"


def _names(node: ast.AST | None) -> bool:
    """Whether ``node`` is a device name as a literal, or a tuple, list or set literal holding one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in devices.DEVICE_TABLE
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names(element) for element in node.elts)
    return False


def _literal_devices(tree: ast.AST) -> list[int]:
    """Lines that compare with a device-name literal, or give one as a default or a list of devices."""
    found: list[ast.expr | ast.stmt] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
            isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops
        ):
            found += [node] if any(_names(operand) for operand in (node.left, *node.comparators)) else []
        elif isinstance(node, ast.arguments):
            found += [default for default in (*node.defaults, *node.kw_defaults) if default and _names(default)]
        elif isinstance(node, ast.ClassDef):
            found += [s for s in node.body if isinstance(s, ast.AnnAssign | ast.Assign) and _names(s.value)]
        elif isinstance(node, ast.Call):
            given = (*node.args, *(keyword.value for keyword in node.keywords))
            found += [a for a in given if isinstance(a, ast.Tuple | ast.List | ast.Set) and _names(a)]
    return sorted({node.lineno for node in found})


def offenders(package: Path = PACKAGE) -> list[str]:
    return [
        f"{path.relative_to(package.parent)}:{line}"
        for path in sorted(package.rglob("*.py"))
        if path != TABLE
        for line in _literal_devices(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    ]


def test_no_device_name_is_compared_as_a_literal_outside_the_table() -> None:
    found = offenders()
    assert not found, "ask core/devices.py (DEVICE_TABLE) instead of naming a device here:\n" + "\n".join(found)


def test_the_check_sees_each_form() -> None:
    source = (
        'a = d == "cuda"\nb = "cpu" in x\nc = d in ("cpu", "x")\n'
        'def f(d=("cpu",)): ...\nclass H:\n    devices: tuple = ("cpu",)\ng(["sm90-codegen"])\n'
        'ok = text("device_cpu")\n"""a docstring that says cpu"""\n'
    )
    assert _literal_devices(ast.parse(source)) == [1, 2, 3, 4, 6, 7]


def test_the_table_derives_the_names_modules_import() -> None:
    table = devices.DEVICE_TABLE
    assert devices.DEVICES == tuple(table)
    assert devices.LOCAL == tuple(n for n, d in table.items() if d.made_here)
    assert devices.EMULATIONS == {n: d.emulation for n, d in table.items() if d.emulation}
    assert devices.REFERENCE in devices.DEFAULT and sum(d.reference for d in table.values()) == 1
    assert not devices.captured("no-such-device") and devices.emulated(devices.LOCAL[-1]) is bool(devices.EMULATIONS)


def test_every_device_has_its_name_in_every_language() -> None:
    from phase25.site.lang.strings import STRINGS

    missing = [
        f"{lang}: device_{name}"
        for lang, table in STRINGS.items()
        for name in devices.DEVICES
        if f"device_{name}" not in table
    ]
    assert not missing, "a device's tab and provenance need its name in each language's strings:\n" + "\n".join(missing)
