"""Header fields that set a hard limit of the run: a header may lower one, never raise it past the project's own.

``core/limits.py`` holds the project's limits (processes alive at once, resident memory, ranks); a snippet's
header may ask for less, to make a run that runs away stop sooner. A header that asks for more is a mistake or an
attempt to get round the limit, and is refused with its file and line before anything runs.
"""

from __future__ import annotations

import pytest
from phase25.core import header, limits
from phase25.core.errors import SourceError

HARD = [("max_processes", limits.MAX_PROCESSES), ("max_memory_mb", limits.MAX_MEMORY_MB), ("ranks", limits.MAX_RANKS)]


def parse(line: str) -> header.Header:
    return header.parse(f"# /// snippet\n# timeout = 60\n# {line}\n# ///\nprint(1)\n", "snippets/page/a.py")


@pytest.mark.parametrize(("key", "limit"), HARD)
@pytest.mark.parametrize("past", [1, 1000, 2**40])
def test_a_header_that_asks_for_more_than_a_hard_limit_is_refused_with_file_and_line(key, limit, past):
    with pytest.raises(SourceError) as caught:
        parse(f"{key} = {limit + past}")
    assert (caught.value.path, caught.value.line) == ("snippets/page/a.py", 3)
    assert caught.value.message.startswith(f"{key} must be a whole number from ")
    assert caught.value.message.endswith(f" to {limit}")  # the project's own limit, named


@pytest.mark.parametrize(("key", "limit"), HARD)
def test_a_header_may_lower_a_hard_limit_or_keep_it(key, limit):
    assert getattr(parse(f"{key} = {limit}"), key) == limit
    assert getattr(parse(f"{key} = {limit // 2}"), key) == limit // 2


@pytest.mark.parametrize("key", ["max_processes", "max_memory_mb", "ranks"])
@pytest.mark.parametrize("value", ["true", "1.5", '"64"', "-1", "0"])
def test_a_limit_that_is_no_whole_number_in_range_is_refused(key, value):
    with pytest.raises(SourceError, match=rf"{key} must be a whole number"):
        parse(f"{key} = {value}")


def test_without_a_header_field_the_run_gets_the_projects_limits():
    parsed = parse("volatile = []")
    assert (parsed.max_processes, parsed.max_memory_mb) == (limits.MAX_PROCESSES, limits.MAX_MEMORY_MB)
