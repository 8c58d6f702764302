"""The ids of the tests each pytest selection collects, for the families' union check (tests/test_families.py).

One interpreter imports every test module once (torch and Inductor among what they import), then forks a child per
selection that collects the suite from there; a plugin reads what the collection kept after `-m` deselected. A
subprocess per selection imported them all each time. Collecting twice in one process is not the same collection:
pytest escapes some parametrized ids in place, and would escape them again.

Usage: ``PYTHONPATH=tests python tests/collect_families.py JSON`` from the repository's root, JSON a list of argument
lists; prints, as its last line, the list of each selection's test ids. A collection that fails ends it (exit 1).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

import pytest


class Kept:
    """A plugin: the ids of the tests the collection kept."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.ids = [item.nodeid for item in session.items]


def collect(args: list[str]) -> list[str]:
    """What ``pytest --collect-only`` with ``args`` keeps, collected in a child forked from this interpreter."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        kept = Kept()
        code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *args], plugins=[kept])
        with os.fdopen(write, "w") as out:
            json.dump({"code": int(code), "ids": kept.ids}, out)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as got:
        text = got.read()
    os.waitpid(child, 0)
    found = json.loads(text or '{"code": "none (the child died)"}')
    if found["code"] != 0:
        sys.exit(f"pytest --collect-only {' '.join(args)}: exit status {found['code']}")
    return found["ids"]


def main(selections: list[list[str]]) -> None:
    for module in sorted(Path("tests").resolve().glob("test_*.py")):  # by name: PYTHONPATH holds tests/, as pytest's
        importlib.import_module(module.stem)
    sys.modules.pop("families")  # `-p families` imports the plugin itself (one imported before cannot be rewritten)
    found = [collect(args) for args in selections]
    print("\n" + json.dumps(found))


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
