"""The snippet header: every key parsed, every mistake an error naming the file and the line."""

import pytest
from phase25.core import header, header_block, snippets
from phase25.core.errors import SourceError

GOOD = """# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 30
# env = { TORCH_LOGS = "graph_code" }
# expect_error = { type = "RuntimeError", match = "shapes cannot be multiplied" }
# artifacts = ["kernel.py"]
# deps = ["weights/head.pt"]
# ///
import torch
"""


def test_parses_every_key():
    head = header.parse(GOOD)
    assert head.devices == ("cpu", "cuda")
    assert head.timeout == 30
    assert head.env == {"TORCH_LOGS": "graph_code"}
    assert head.expect_error == header.ExpectedError("RuntimeError", "shapes cannot be multiplied")
    assert head.artifacts == ("kernel.py",)
    assert head.deps == ("weights/head.pt",)


def test_the_code_a_reader_sees_has_no_header():
    assert header_block.code_of(GOOD) == "import torch\n"


def test_defaults_are_cpu_only_and_two_minutes():
    head = header.parse("# /// snippet\n# ///\nprint(1)\n")
    assert head.devices == ("cpu",) and head.timeout == 120 and head.expect_error is None


@pytest.mark.parametrize(
    ("source", "line", "message"),
    [
        ("print(1)\n", 1, "no '# /// snippet' header block"),
        ("x = 1\n# /// snippet\n# ///\n", 1, "no '# /// snippet' header block"),
        ("# /// snippet\n# timeout = 3\n", 1, "never closed"),
        ('# /// snippet\n# timeout = 3\n# devices = ["tpu"]\n# ///\n', 3, "devices must be"),
        ("# /// snippet\n# devices = []\n# ///\n", 2, "devices must be"),
        ("# /// snippet\n# devices = 3\n# ///\n", 2, "devices must be"),
        ("# /// snippet\n# timeout = -1\n# ///\n", 2, "timeout must be"),
        ("# /// snippet\n# timeout = 1\n# colour = 1\n# ///\n", 3, "unknown key 'colour'"),
        ("# /// snippet\n# env = { A = 1 }\n# ///\n", 2, "env must be a table of strings"),
        ('# /// snippet\n# expect_error = { type = "E" }\n# ///\n', 2, "expect_error must be"),
        ('# /// snippet\n# deps = ["../secret"]\n# ///\n', 2, "deps are paths relative"),
        ("# /// snippet\n# cells = 1\n# ///\n", 2, "cells must be true or false"),
        ("# /// snippet\n# timeout = 1\n# devices = [\n# ///\n", 3, "not valid TOML"),
        ("# /// snippet\n# timeout = 1\n# env = {\n# ///\n", 3, "not valid TOML"),
        ("# /// snippet\n#devices = []\n# ///\n", 2, "must start with '# '"),
        ('# /// snippet\n# volatile = ["(unclosed"]\n# ///\n', 2, "is not a regular expression"),
    ],
)
def test_mistakes_are_errors_with_file_and_line(source, line, message):
    with pytest.raises(SourceError) as excinfo:
        header.parse(source, "snippets/page/bad.py")
    assert excinfo.value.line == line, str(excinfo.value)
    assert str(excinfo.value).startswith(f"snippets/page/bad.py:{line}: ") and message in str(excinfo.value)


def test_discover_names_the_file_of_a_bad_header_and_skips_helpers(toy):
    toy.add("page/good", "print(1)\n")
    (toy.root / "snippets/page/_helper.py").write_text("X = 1\n")
    assert [s.id for s in snippets.discover(toy.layout)] == ["page/good"]
    toy.add("page/bad", "print(1)\n", extra='devices = ["tpu"]')
    (toy.root / "snippets/page/bad.py").write_text('# /// snippet\n# devices = ["tpu"]\n# ///\n')
    with pytest.raises(SourceError, match=r"^snippets/page/bad.py:2: devices must be"):
        snippets.discover(toy.layout)


def test_a_snippet_that_is_not_utf8_is_named(toy):
    (toy.root / "snippets/page").mkdir(parents=True)
    (toy.root / "snippets/page/latin.py").write_bytes(b"# /// snippet\n# ///\nprint('\xe9')\n")
    with pytest.raises(SourceError, match=r"^snippets/page/latin.py: not UTF-8"):
        snippets.discover(toy.layout)


def test_a_missing_dependency_is_named(toy):
    toy.add("page/a", "print(1)\n", extra='deps = ["scripts/nowhere"]')
    [snippet] = snippets.discover(toy.layout)
    with pytest.raises(SourceError, match="declares a dependency that does not exist: scripts/nowhere"):
        snippets.source_sha256(snippet, toy.layout)
