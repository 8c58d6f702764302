"""The test session's own arrangement: the tests that wait for the background's re-execution run last."""

from __future__ import annotations

from dataclasses import dataclass

import conftest


@dataclass
class Item:
    name: str
    fixturenames: tuple[str, ...]


def test_the_tests_that_read_the_reexecuted_records_run_last_and_the_rest_keep_their_order():
    items = [
        Item("records_a", ("reexecuted", "background_runs")),
        Item("browser", ("built_site",)),
        Item("records_b", ("request", "reexecuted")),
        Item("unit", ()),
        Item("records_c", ("reexecuted",)),
        Item("build", ("tmp_path", "built_site")),
    ]
    conftest.pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [i.name for i in items] == ["browser", "unit", "build", "records_a", "records_b", "records_c"]


def test_an_item_without_fixtures_is_not_taken_for_one_that_needs_the_background():
    class Doctest:  # pytest's doctest and some plugin items have no fixturenames
        name = "doctest"

    assert not conftest.needs_the_background(Doctest())  # type: ignore[arg-type]
    assert conftest.needs_the_background(Item("x", ("reexecuted",)))  # type: ignore[arg-type]
