"""The lines a page shows of a snippet: marked sections, the whole file one click away, bad markers refused.

A reader sees the lines a section teaches and can open the rest; a marker that cannot be trusted (unpaired,
nested, empty, in the header, misspelt) is refused with the file and line by every command, because an excerpt
that shows nothing or the wrong lines would mislead the reader.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.core.sections import Section, excerpt, line_count, sections
from phase25.core.snippets import discover
from phase25.site.kinds.assemble import render_markdown
from phase25.site.page.context import Page
from phase25.site.page.highlight import Highlighter

HEAD = '# /// snippet\n# devices = ["cpu"]\n# ///\n'


def marked(*body: str) -> str:
    return HEAD + "\n".join(body) + "\n"


def test_a_section_is_its_lines_numbered_as_in_the_file_without_its_markers():
    source = marked(
        "import torch",
        "x = torch.ones(2)",
        "# --8<-- [start:call]",
        "y = x * 2",
        "# --8<-- [end:call]",
        "print(y)",
    )
    found = sections(source, "s.py", 4)
    assert found == [Section("call", 7, 7)]
    assert excerpt(source, found[0]) == "y = x * 2"


def test_two_sections_keep_file_order_and_indented_markers_are_markers():
    source = marked(
        "def f(x):",
        "    # --8<-- [start:inside]",
        "    return x + 1",
        "    # --8<-- [end:inside]",
        "# --8<-- [start:after]",
        "print(f(1))",
        "# --8<-- [end:after]",
    )
    assert [(s.name, s.first, s.last) for s in sections(source, "s.py", 4)] == [("inside", 6, 6), ("after", 9, 9)]


def test_a_snippet_without_markers_has_no_section():
    assert sections(marked("print(1)"), "s.py", 4) == []


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        (["# --8<-- [start:a]", "x = 1"], 4, "never ended"),
        (["x = 1", "# --8<-- [end:a]"], 5, "ends no open section"),
        (["# --8<-- [start:a]", "# --8<-- [start:b]", "x = 1", "# --8<-- [end:b]", "# --8<-- [end:a]"], 5, "inside"),
        (["# --8<-- [start:a]", "x = 1", "# --8<-- [end:b]"], 6, "ends no open section 'b'"),
        (["# --8<-- [start:a]", "", "# only a comment", "# --8<-- [end:a]"], 4, "selects no line of code"),
        (["# --8<-- [start:a]", "# --8<-- [end:a]"], 4, "selects no line of code"),
        (
            ["# --8<-- [start:a]", "x = 1", "# --8<-- [end:a]", "# --8<-- [start:a]", "y = 2", "# --8<-- [end:a]"],
            7,
            "marked twice",
        ),
        (["# --8<-- [start: a]", "x = 1"], 4, "is not a section marker"),
        (["# --8<-- [begin:a]", "x = 1"], 4, "is not a section marker"),
        (["# --8<--[start:a]", "x = 1"], 4, "is not a section marker"),
        (["# --8<-- [start:a] the call", "x = 1"], 4, "is not a section marker"),
    ],
)
def test_a_marker_that_cannot_be_trusted_is_refused_with_its_line(body, line, words):
    with pytest.raises(SourceError) as caught:
        sections(marked(*body), "snippets/p/s.py", 4)
    assert caught.value.line == line and caught.value.path == "snippets/p/s.py"
    assert words in caught.value.message


def test_a_marker_in_the_header_is_refused():
    source = '# /// snippet\n# devices = ["cpu"]\n# --8<-- [start:a]\n# ///\nx = 1\n'
    with pytest.raises(SourceError):  # a header line is TOML or a marker: either way, refused
        discover_one(source)


def test_a_string_that_looks_like_a_marker_is_not_one():
    source = marked('text = """', "# --8<-- is how pymdown marks a section", '"""', "print(text)")
    with pytest.raises(SourceError):  # a marker is read line by line, like pymdown: a string line is refused too
        sections(source, "s.py", 4)


def discover_one(source: str, tmp=None):
    import tempfile
    from pathlib import Path

    from phase25.core.paths import Layout

    root = Path(tempfile.mkdtemp())
    (root / "snippets" / "p").mkdir(parents=True)
    (root / "snippets" / "p" / "s.py").write_text(source, encoding="utf-8")
    return discover(Layout.of(root))


def test_every_command_refuses_a_bad_marker_as_one_line_naming_file_and_line(toy):
    toy.add("page/a", "# --8<-- [start:call]\nprint(1)\n")
    result = subprocess.run(
        [sys.executable, "-m", "phase25", "--root", str(toy.root), "report"],
        capture_output=True,
        text=True,
        cwd=toy.root,
        check=False,
    )
    assert result.returncode == 2, result
    assert "snippets/page/a.py:4: section 'call' is never ended" in result.stderr
    assert "Traceback" not in result.stderr


def test_line_count_counts_as_an_editor_does():
    assert line_count("a\nb\n") == 2 and line_count("a\nb") == 2 and line_count("a\n\n") == 2


@pytest.fixture
def rendered(toy):
    def render(body: str) -> str:
        toy.add("page/a", body)
        view = Page("en", "docs/en/page.md", Catalog(toy.layout, "2.13.0"), Highlighter())
        html, _ = render_markdown("# T\n\n::: snippet page/a\n", view)
        return html

    return render


def visible_code(html: str) -> str:
    """The text of the code a reader sees without opening anything: the blocks outside the fold."""
    code = html.split('<div class="snippet-code">', 1)[1].split("</div></div>", 1)[0]
    shown = re.split(r"<details", code, maxsplit=1)[0]
    return re.sub(r"<[^>]+>", "", shown)


def test_the_page_shows_the_sections_and_folds_the_whole_file(rendered):
    html = rendered(
        "import torch\nsetup = torch.zeros(3)\n# --8<-- [start:call]\nresult = setup + 1\n"
        "# --8<-- [end:call]\nprint(result)\n"
    )
    shown = visible_code(html)
    assert "result = setup + 1" in shown and "import torch" not in shown and "--8<--" not in shown
    assert "lines 7 of 9" in html  # the caption says which lines of how many
    fold = html.split("<details", 1)[1]
    assert "import torch" in re.sub(r"<[^>]+>", "", fold) and "The whole file: 9 lines" in fold
    assert re.search(r">7<", html.split("<details", 1)[0]), "the section keeps its line number in the file"


def test_a_snippet_without_sections_is_shown_whole_and_nothing_is_folded(rendered):
    html = rendered("import torch\nprint(torch.ones(1))\n")
    assert "import torch" in visible_code(html) and "snippet-whole" not in html


def test_the_spanish_page_says_the_same_in_spanish(toy):
    toy.add(
        "page/a", "x = 1\n# --8<-- [start:a]\ny = x\n# --8<-- [end:a]\n# --8<-- [start:b]\nprint(y)\n# --8<-- [end:b]\n"
    )
    view = Page("es", "docs/es/page.md", Catalog(toy.layout, "2.13.0"), Highlighter())
    html, _ = render_markdown("# T\n\n::: snippet page/a\n", view)
    assert "líneas 6 y 9 de 10" in html and "El archivo entero: 10 líneas" in html


def test_the_documented_example_marks_a_section_the_parser_accepts():
    from conftest import REPO

    page = (REPO / "maintaining" / "site.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n((?:.*\n)*?.*--8<-- \[end:\w+\].*\n)", page)
    assert example, "maintaining/site.md shows how to mark a section"
    code = "\n".join(line.strip() if "--8<--" in line else line[3:] for line in example.group(1).splitlines())
    found = sections(HEAD + code.replace("...", "pass") + "\n", "maintaining/site.md", 4)
    assert [s.name for s in found] == ["walk"]
