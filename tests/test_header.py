import pytest
from phase25 import header

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


def test_split_removes_the_block_for_display():
    block, code = header.split(GOOD)
    assert block.startswith("# /// snippet") and code == "import torch\n"


def test_defaults_are_cpu_only_and_two_minutes():
    head = header.parse("# /// snippet\n# ///\nprint(1)\n")
    assert head.devices == ("cpu",) and head.timeout == 120 and head.expect_error is None


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("print(1)\n", "no '# /// snippet' block"),
        ("x = 1\n# /// snippet\n# ///\n", "no '# /// snippet' block"),
        ('# /// snippet\n# devices = ["tpu"]\n# ///\n', "devices must be"),
        ("# /// snippet\n# devices = []\n# ///\n", "devices must be"),
        ("# /// snippet\n# timeout = -1\n# ///\n", "timeout must be"),
        ("# /// snippet\n# colour = 1\n# ///\n", "unknown key(s) in snippet block: colour"),
        ("# /// snippet\n# env = { A = 1 }\n# ///\n", "env must be a table of strings"),
        ('# /// snippet\n# expect_error = { type = "E" }\n# ///\n', "expect_error must be"),
        ('# /// snippet\n# deps = ["../secret"]\n# ///\n', "deps are paths relative"),
        ("# /// snippet\n# devices = [\n# ///\n", "not valid TOML"),
        ("# /// snippet\n#devices = []\n# ///\n", "does not start with '# '"),
    ],
)
def test_mistakes_are_errors_not_defaults(source, message):
    with pytest.raises(header.HeaderError) as excinfo:
        header.parse(source)
    assert message in str(excinfo.value)
