"""The README and the maintaining/ pages held to the code, so that the reference cannot drift from the tree.

- every module of the package, the emulation and the model is a row of `maintaining/layout.md` exactly once, and
  every row is a module that exists (a package's ``__init__.py`` only when it holds code: one that holds only its
  docstring is described by its folder);
- every file under `tests/` is named exactly once in `maintaining/tests.md`;
- every module path the documents name in code spans exists, and so does every relative link (and its anchor);
- the README stays a guide: at most 150 lines.

Each checker takes the texts and the trees as arguments, so the adversarial cases below run it on toy inputs and
show that it can fail. Each lists every offender in one message.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest
from conftest import REPO

SCRIPTS = REPO / "scripts"
MODULE_ROOTS = ("phase25", "emulated_h200", "minigpt")
MAINTAINING = REPO / "maintaining"
DOCUMENTS = [REPO / "README.md", REPO / "CONTRIBUTING.md", REPO / "SECURITY.md", *sorted(MAINTAINING.glob("*.md"))]
README_MAX_LINES = 150

ROW_NAMES = re.compile(r"^\| ([^|\n]+) \|", re.M)  # the first cell of a table row
PY_NAME = re.compile(r"`([\w./]+\.py)`")
FENCE = re.compile(r"^ *```.*?^ *```", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)
# A module path in a code span: `run/plan.py`, `site/kinds/atlas`, `emulated_h200/table.py`, `scripts/...`.
PACKAGE_FOLDERS = ("core", "kit", "run", "site", "tools")
PLACEHOLDER = re.compile(r"(?:^|[/_])xx(?:[/_.]|$)")  # a language code in an example: `strings_xx.py`
MODULE_PATH = re.compile(rf"`((?:scripts/|tests/|(?:{'|'.join(PACKAGE_FOLDERS + MODULE_ROOTS)})/)[\w/]*\w(?:\.py)?)`")


def holds_code(path: Path) -> bool:
    """Whether a module holds more than its docstring and ``from __future__`` imports."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return any(
        not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        and not (isinstance(node, ast.ImportFrom) and node.module == "__future__")
        for node in body
    )


def modules(scripts: Path) -> list[str]:
    """Every module a maintainer may need to find, as a path under ``scripts/``, computed from the tree."""
    found = []
    for root in MODULE_ROOTS:
        for path in sorted((scripts / root).rglob("*.py")):
            if "__pycache__" not in path.parts and (path.name != "__init__.py" or holds_code(path)):
                found.append(path.relative_to(scripts).as_posix())
    return found


def row_names(text: str) -> list[str]:
    """The `.py` names of the first cell of every table row, as often as they appear."""
    return [name for cell in ROW_NAMES.findall(text) for name in PY_NAME.findall(cell)]


def once_each(named: Iterable[str], existing: Iterable[str], where: str) -> list[str]:
    """Each existing name named exactly once in ``where``, and nothing named that does not exist."""
    counts, existing = Counter(named), set(existing)
    problems = [f"{name}: not in {where}" for name in sorted(existing - set(counts))]
    problems += [f"{name}: {n} times in {where}" for name, n in sorted(counts.items()) if n > 1]
    problems += [f"{name}: in {where}, but no such file" for name in sorted(set(counts) - existing)]
    return problems


def suite_files(tests: Path) -> list[str]:
    """Every Python file of the suite: the test modules and the helpers they import."""
    return sorted(path.name for path in tests.glob("*.py"))


def prose(text: str) -> str:
    """The text without its fenced code, so that an example link or heading inside a fence counts for nothing."""
    return FENCE.sub(lambda m: "\n" * m.group().count("\n"), text)


def anchors(text: str) -> set[str]:
    """The anchors a page's headings get (GitHub's slugs, duplicates numbered), and explicit ``id``s."""
    seen: Counter[str] = Counter()
    found = set(re.findall(r'\bid="([^"]+)"', text))
    for heading in HEADING.findall(prose(text)):
        text_only = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
        slug = re.sub(r"[^\w\- ]", "", text_only.lower()).replace(" ", "-")
        found.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return found


def dead_links(document: Path, root: Path) -> list[str]:
    """Every relative link of ``document`` that leads to no file of ``root``, or to an anchor its page lacks."""
    problems = []
    for number, line in enumerate(prose(document.read_text(encoding="utf-8")).splitlines(), 1):
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            if SCHEME.match(target):
                continue
            path, _, anchor = target.partition("#")
            file = (document.parent / path).resolve() if path else document
            where = f"{document.relative_to(root)}:{number}: {target}"
            if not file.is_relative_to(root.resolve()) or not file.exists():
                problems.append(f"{where}: no such file")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text(encoding="utf-8")):
                problems.append(f"{where}: no such anchor")
    return problems


def missing_module_paths(document: Path, root: Path) -> list[str]:
    """Every module or folder path that ``document`` names in a code span and that does not exist."""
    problems = []
    for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), 1):
        for name in MODULE_PATH.findall(line):
            if PLACEHOLDER.search(name):
                continue
            bases = (
                [root] if name.startswith(("scripts/", "tests/")) else [root / "scripts" / "phase25", root / "scripts"]
            )
            candidates = [base / name for base in bases] + [base / f"{name}.py" for base in bases]
            if not any(candidate.exists() for candidate in candidates):
                problems.append(f"{document.relative_to(root)}:{number}: `{name}` does not exist")
    return problems


def test_every_module_is_a_row_of_the_layout_page_exactly_once():
    layout = (MAINTAINING / "layout.md").read_text(encoding="utf-8")
    assert "\n## Every module\n" in layout, "maintaining/layout.md has no section '## Every module'"
    problems = once_each(row_names(layout.split("\n## Every module\n")[1]), modules(SCRIPTS), "maintaining/layout.md")
    assert problems == [], "maintaining/layout.md against scripts/:\n" + "\n".join(problems)


def test_every_file_of_the_suite_is_named_exactly_once_in_the_tests_page():
    named = row_names((MAINTAINING / "tests.md").read_text(encoding="utf-8"))
    problems = once_each(named, suite_files(REPO / "tests"), "maintaining/tests.md")
    assert problems == [], "\n".join(problems)


def test_every_module_path_the_documents_name_exists():
    problems = [problem for document in DOCUMENTS for problem in missing_module_paths(document, REPO)]
    assert problems == [], "\n".join(problems)


def test_every_relative_link_of_the_documents_leads_somewhere():
    assert len(DOCUMENTS) > 3, "the maintaining/ pages are missing"
    problems = [problem for document in DOCUMENTS for problem in dead_links(document, REPO)]
    assert problems == [], "\n".join(problems)


def test_the_readme_is_a_guide_of_at_most_150_lines():
    lines = (REPO / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move reference into maintaining/"


def test_the_readme_names_every_maintaining_page():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    unnamed = [page.name for page in sorted(MAINTAINING.glob("*.md")) if f"](maintaining/{page.name})" not in readme]
    assert unnamed == [], f"pages the README's 'where to read next' does not link: {unnamed}"


# The checkers on toy inputs: each must be able to fail, and name every offender.


def toy_tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_module_list_comes_from_the_tree_and_skips_an_init_that_holds_only_its_docstring(tmp_path):
    scripts = toy_tree(
        tmp_path,
        {
            "phase25/__init__.py": '"""The package."""\nfrom __future__ import annotations\n',
            "phase25/run/plan.py": "X = 1\n",
            "minigpt/__init__.py": '"""The model."""\nfrom .model import M\n',
            "emulated_h200/table.py": "",
            "elsewhere/other.py": "",
        },
    )
    assert modules(scripts) == ["phase25/run/plan.py", "emulated_h200/table.py", "minigpt/__init__.py"]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ("| `a.py` | x |\n| `b.py` | y |\n", []),
        ("| `a.py`, `b.py` | both |\n", []),
        ("| `a.py` | x |\n", ["b.py: not in the page"]),
        ("| `a.py` | x |\n| `b.py` | y |\n| `a.py` | again |\n", ["a.py: 2 times in the page"]),
        ("| `a.py` | x |\n| `b.py` | y |\n| `gone.py` | z |\n", ["gone.py: in the page, but no such file"]),
        ("| `a.py` | x |\n\nprose names `b.py`, which is no row\n", ["b.py: not in the page"]),
        ("| x | `a.py` in the second cell |\n| `b.py` | y |\n", ["a.py: not in the page"]),
        ("", ["a.py: not in the page", "b.py: not in the page"]),
    ],
)
def test_each_name_once_fails_on_a_name_missing_twice_or_unknown(rows, expected):
    assert once_each(row_names(rows), ["a.py", "b.py"], "the page") == expected


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("[the tests](tests.md) and [a heading](tests.md#the-suite) and [here](#top-one)\n", []),
        ("[a page](gone.md)\n", ["no such file"]),
        ("[an anchor](tests.md#no-such-heading)\n", ["no such anchor"]),
        ("[an anchor here](#nowhere)\n", ["no such anchor"]),
        ("[out of the repository](../../outside.md)\n", ["no such file"]),
        ("[web](https://example.org/x) [mail](mailto:a@b.c)\n", []),
        ("```\n[in a fence](gone.md)\n```\n`[in code](gone.md)`\n", []),
        ("[one](gone.md) [two](tests.md#nope)\n", ["no such file", "no such anchor"]),
    ],
)
def test_the_link_checker_finds_every_dead_link_and_anchor(tmp_path, page, expected):
    root = toy_tree(
        tmp_path / "repo",
        {"docs/tests.md": "# The suite\n\n## The `units` family\n", "docs/page.md": "# Top one\n\n" + page},
    )
    found = dead_links(root / "docs" / "page.md", root)
    assert [problem.rsplit(": ", 1)[1] for problem in found] == expected, found


def test_anchors_follow_githubs_slugs():
    text = "# Add a *browser* check\n## `make test`, once\n## Twice\n## Twice\n```\n# not a heading\n```\n"
    assert anchors(text) == {"add-a-browser-check", "make-test-once", "twice", "twice-1"}


def test_a_module_path_that_moved_is_named_with_its_line(tmp_path):
    root = toy_tree(
        tmp_path,
        {
            "scripts/phase25/run/plan.py": "",
            "scripts/phase25/site/kinds/atlas.py": "",
            "scripts/minigpt/data.py": "",
            "tests/families.py": "",
            "doc.md": "`run/plan.py`, `site/kinds/atlas`, `run/`, `minigpt/data.py`, `tests/families.py`\n"
            "`core/reproduce.py` moved\n`site/snippet-files/<snippet>/` is no module\n`scripts/gone.py`\n",
        },
    )
    assert missing_module_paths(root / "doc.md", root) == [
        "doc.md:2: `core/reproduce.py` does not exist",
        "doc.md:4: `scripts/gone.py` does not exist",
    ]
