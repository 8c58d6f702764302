"""The suite's families: every test module belongs to exactly one, so that CI runs the families as parallel jobs
(`.github/workflows/test.yml`) and `make test-family FAMILY=<name>` runs one alone; together they are the whole
suite that `make test` runs on one machine (`tests/test_families.py` holds them to it).

A pytest plugin (`-p families` in pyproject.toml's addopts, so that `--family` is known before any conftest.py is
read): each test gets its family as a marker, and `--family=<name>` selects one.

A module goes where the slow work its fixtures start is: a job then builds the site, re-executes the snippets or
starts the builds of the copies only if its family needs them.
"""

from __future__ import annotations

from fnmatch import fnmatch

import pytest

# family -> (what it holds, its modules: file names, or patterns of them). The families are pytest markers too.
FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "records": (
        "every run of every chapter but theory 03 re-executed in the background and compared with its record; the "
        "atlas observed apart",
        ("test_records.py", "test_atlas_observed.py"),
    ),
    "records-theory-03": (
        "theory 03's runs (torch.compile and distributed training, about 60 % of the re-execution) the same way",
        ("test_records_theory_03.py",),
    ),
    "site": (
        "the site built once: every page visited in Chromium (weight, axe, the phone's width) and the checks that read "
        "the built files",
        (
            "test_browser_weight.py",
            "test_browser_a11y.py",
            "test_browser_phone.py",
            "test_llms.py",
            "test_localized_chrome.py",
            "test_picture_words.py",
            "test_reader_path.py",
            "test_report_links.py",
            "test_search_index.py",
            "test_search_input.py",
        ),
    ),
    "site-browser": (
        "the site built once more: what a reader does in Chromium (tabs and their markers, search, the map of one "
        "call, reading, figures, the keyboard and the language switch, the offline copy)",
        ("test_browser_*.py",),
    ),
    "builds": (
        "the other builds: broken, executing, read-only and third-language copies, both engines, the published "
        "versions, the lab downloads and the reproduction kit executed outside the repository",
        (
            "test_build.py",
            "test_engines.py",
            "test_lab_downloads.py",
            "test_languages.py",
            "test_read_only_checkout.py",
            "test_reproduce.py",
            "test_versions.py",
        ),
    ),
}
# Every other module: in-process rendering, toy projects, the runner's subprocesses, the codebase's rules. A new
# module is a unit until it is listed above.
UNITS = "units"
UNITS_HOLDS = "in-process rendering and parity, the runner on toy snippets, hostile input, the codebase's rules"


def names() -> list[str]:
    """Every family, the units first: the choices of `--family` and the jobs of the workflow."""
    return [UNITS, *FAMILIES]


def of(module: str) -> list[str]:
    """The families the table gives a test module (a file name): those naming it, else those whose pattern it
    matches (a new browser module joins the site's interactions), else the units."""
    named = [family for family, (_, modules) in FAMILIES.items() if module in modules]
    matched = [family for family, (_, modules) in FAMILIES.items() if any(fnmatch(module, m) for m in modules)]
    return named or matched or [UNITS]


@pytest.hookimpl(tryfirst=True)  # before `-m` selects: a test's family is one of its markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each collected test gets its module's family as a marker (one the test carries already is kept)."""
    for item in items:
        for family in of(item.path.name):
            item.add_marker(family)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--family", choices=names(), help="run one family of the suite alone (tests/families.py)")


def pytest_configure(config: pytest.Config) -> None:
    """The families as markers, and `--family` as the marker expression that selects one (with any `-m` given)."""
    holds = {UNITS: UNITS_HOLDS} | {family: what for family, (what, _) in FAMILIES.items()}
    for family in names():
        config.addinivalue_line("markers", f"{family}: {holds[family]}")
    if family := config.getoption("family"):
        given = config.option.markexpr
        config.option.markexpr = f"({given}) and {family}" if given else family
