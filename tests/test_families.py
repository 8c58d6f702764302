"""The suite's families (tests/families.py) are the whole suite: each test in exactly one, so that the CI jobs that
run one family each run together every test `make test` runs, and none twice."""

from __future__ import annotations

import fnmatch
import json
import os
import subprocess
import sys
from collections import Counter

import pytest
from conftest import REPO
from families import FAMILIES, names, of
from phase25.core import bounded


def run_collector(*selections: tuple[str, ...]) -> subprocess.CompletedProcess:
    """tests/collect_families.py run on the selections, with only what their arguments select."""
    return bounded.run(
        [sys.executable, str(REPO / "tests" / "collect_families.py"), json.dumps(selections)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTEST_ADDOPTS": "", "PYTHONPATH": str(REPO / "tests")},
        timeout=600,
    )


def collected(*selections: tuple[str, ...]) -> list[list[str]]:
    """The ids of the tests a plain run of pytest would run with each selection's arguments (listings: no test's
    work starts)."""
    result = run_collector(*selections)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_each_entry_of_the_table_names_a_module_and_no_module_is_named_twice():
    modules = sorted(path.name for path in (REPO / "tests").glob("test_*.py"))
    entries = [entry for _, listed in FAMILIES.values() for entry in listed]
    assert [entry for entry in entries if not fnmatch.filter(modules, entry)] == [], "an entry names no module"
    named = Counter(entry for entry in entries if "*" not in entry)
    assert [module for module, n in named.items() if n > 1] == [], "a module named by two entries"
    # a name wins over a pattern; two patterns that both match a module, with no name to choose, would run it twice
    assert {module: of(module) for module in modules if len(of(module)) != 1} == {}, "a module in two families"


@pytest.mark.slow  # seven collections of the suite (seconds each): `make test` runs it
def test_the_families_together_are_the_whole_suite_each_test_in_exactly_one():
    whole, *parts = collected((), *((f"--family={family}",) for family in names()))
    assert len(parts) == len(names())
    assert whole and len(set(whole)) == len(whole)
    family_of: dict[str, list[str]] = {}
    for family, part in zip(names(), parts, strict=True):
        assert part, f"the family {family} has no test"
        for test in part:
            family_of.setdefault(test, []).append(family)
    nowhere = [test for test in whole if test not in family_of]
    twice = {test: found for test, found in family_of.items() if len(found) > 1}
    assert not nowhere and not twice, (
        f"{len(nowhere)} tests in no family (tests/families.py), such as {nowhere[:3]}; "
        f"{len(twice)} in two families or more, such as {dict(list(twice.items())[:3])}"
    )
    assert set(family_of) == set(whole), "a family runs a test that the whole suite does not"


def test_the_two_records_modules_hold_every_run_made_here_once():
    """The records are split by chapter between two families: a run in neither would never be compared."""
    import test_records
    import test_records_theory_03
    from records_check import MADE_HERE

    both = test_records.RUNS + test_records_theory_03.RUNS
    assert sorted(both) == MADE_HERE and len(set(both)) == len(both)
    assert test_records.RUNS and test_records_theory_03.RUNS


@pytest.mark.slow  # one more import of every test module
def test_a_collection_that_fails_ends_the_listing_with_its_selection_named():
    """A selection pytest refuses gives no list of ids to compare: the collector stops and names it."""
    result = run_collector(("--family=nowhere",))
    assert result.returncode == 1 and result.stderr.strip().splitlines()[-1] == (
        "pytest --collect-only --family=nowhere: exit status 4"
    ), result.stderr[-3000:]
