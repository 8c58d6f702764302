"""Nothing outside the run reaches a record, a page or the disk: the adversarial cases, principle by principle.

Each principle is tested on the cases someone trying to break the site would write: paths with ``..``, absolute
paths and links (in a header, a run folder, a dependency, a record, the site folder); terminal control bytes in what
a snippet prints; Windows line endings; malformed or hidden directives; records edited by hand.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from phase25.core import header, names, normalize, records, snippets
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError
from phase25.site.hosts import site_files
from phase25.site.page import directives, page_source
from phase25.site.page.markup import escape

# -- 1. Paths: every name is relative and stays inside its root -----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "is empty"),
        ("../escape.txt", "'..' segment"),
        ("report/../../x", "'..' segment"),
        ("./a", "'.' or '..' segment"),
        ("a//b", "empty"),
        ("/etc/passwd", "is absolute"),
        ("~/.ssh/id_rsa", "is absolute"),
        ("C:/Windows/x", "is absolute"),
        ("a\\..\\b", "backslash"),
        ("tab\there", "control character"),
        ("new\nline", "control character"),
        ("esc\x1b[31m", "control character"),
        ("rtl\u202etxt.exe", "control character"),
        ("x" * 300, "longer than"),
    ],
)
def test_a_name_that_leaves_its_folder_is_refused(name, why):
    assert why in (names.problem_with(name) or "")


@pytest.mark.parametrize("name", ["kernel.py", "report/index.html", "tlparse/-_0_0_0/graph_1.txt", "ñandú.txt"])
def test_plain_relative_names_are_accepted(name):
    assert names.problem_with(name) is None


def test_inside_resolves_links_before_it_answers(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "in.txt").write_text("x")
    (root / "link-out").symlink_to(outside)
    (root / "link-in").symlink_to(root / "in.txt")
    assert names.inside(root / "in.txt", root) and names.inside(root / "link-in", root)
    assert not names.inside(root / "link-out" / "new.txt", root) and not names.inside(root / ".." / "x", root)


@pytest.mark.parametrize("key", ["artifacts", "publish", "deps"])
@pytest.mark.parametrize("value", ["../../escape.txt", "/tmp/x", "a\\\\b", "sub/../../x"])
def test_a_header_refuses_paths_that_leave_their_root_with_file_and_line(key, value):
    source = f'# /// snippet\n# timeout = 5\n# {key} = ["{value}"]\n# ///\nprint(1)\n'
    with pytest.raises(SourceError) as caught:
        header.parse(source, "snippets/page/bad.py")
    assert caught.value.line == 3 and f"{key} are paths relative to" in caught.value.message


def _written(toy, body: str, extra: str) -> records.Record:
    toy.add("page/a", body, extra=extra)
    [record] = toy.run()[0].executed
    return record


def test_an_artifact_that_is_a_link_is_refused_and_its_target_never_read(toy):
    secret = toy.root.parent / "secret.txt"
    secret.write_text("THE SECRET")
    record = _written(toy, f"import os\nos.symlink({str(secret)!r}, 'link.txt')\n", 'artifacts = ["link.txt"]')
    assert record.status == "failed" and "link.txt is a symbolic link" in record.error
    assert "THE SECRET" not in json.dumps(record.output())


def test_a_published_folder_with_a_link_inside_is_refused(toy):
    readme = toy.root / "README.md"
    readme.write_text("the checkout's readme")
    body = (
        f"import os\nos.mkdir('report')\nopen('report/index.html', 'w').write('ok')\n"
        f"os.symlink({str(readme)!r}, 'report/r.md')\n"
    )
    record = _written(toy, body, 'publish = ["report/*"]')
    assert record.status == "failed" and "report/r.md is a symbolic link" in record.error
    assert "checkout's readme" not in json.dumps(record.published)


def test_a_published_folder_that_is_a_link_is_refused(toy, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "index.html").write_text("not the run's")
    record = _written(toy, f"import os\nos.symlink({str(outside)!r}, 'report')\n", 'publish = ["report/*"]')
    assert record.status == "failed" and "not the run's" not in json.dumps(record.published)


def test_a_dependency_that_links_outside_the_repository_is_refused(toy, tmp_path):
    (tmp_path / "outside.py").write_text("X = 1\n")
    (toy.root / "scripts").mkdir()
    (toy.root / "scripts" / "helper.py").symlink_to(tmp_path / "outside.py")
    toy.add("page/a", "print(1)\n", extra='deps = ["scripts/helper.py"]')
    [snippet] = snippets.discover(toy.layout)
    with pytest.raises(SourceError, match=r"leads outside the repository: scripts/helper\.py"):
        snippets.source_sha256(snippet, toy.layout)
    (toy.root / "scripts" / "helper.py").unlink()
    (toy.root / "scripts" / "pkg").mkdir()
    (toy.root / "scripts" / "pkg" / "out.py").symlink_to(tmp_path / "outside.py")
    toy.add("page/a", "print(1)\n", extra='deps = ["scripts/pkg"]')
    [snippet] = snippets.discover(toy.layout)
    with pytest.raises(SourceError, match=r"holds a link outside the repository: scripts/pkg/out\.py"):
        snippets.source_sha256(snippet, toy.layout)


def test_the_site_writes_only_inside_its_folder(tmp_path):
    site, outside = tmp_path / "site", tmp_path / "outside"
    site.mkdir()
    outside.mkdir()
    assert site_files.write(site, "snippet-files/a/cpu/x.txt", "ok").read_text() == "ok"
    for name in ("../escaped.html", "../../../../escaped.html", "/tmp/escaped.html", "a/../../b"):
        with pytest.raises(SourceError, match="not written"):
            site_files.write(site, name, "x")
    (site / "snippet-files" / "link").symlink_to(outside)
    with pytest.raises(SourceError, match="outside the site folder"):
        site_files.write(site, "snippet-files/link/escaped.html", "x")
    assert list(outside.iterdir()) == [] and not (tmp_path / "escaped.html").exists()


def test_a_drift_report_is_named_by_a_file_name_not_a_path(tmp_path):
    from phase25.core import drift

    for name in ("../../records/page/a.cpu", "/etc/passwd", "a/b"):
        with pytest.raises(ValueError, match="is not the name of a drift report"):
            drift.load(tmp_path, name)


# -- 2. Output is text, whatever the snippet prints -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("printed", "shown"),
    [
        ("\x1b[31mred\x1b[0m and \x1b[1;32mgreen\x1b[m", "red and green"),
        ("\x1b]0;a window title\x07after", "after"),
        ("\x1b]8;;https://example.org\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("\x1b[2K\x1b[1Gcleared", "cleared"),
        ("10%\r50%\r100%", "100%"),
        ("downloading 10%\rdone", "doneloading 10%"),
        ("abc\b\bX", "aXc"),
        ("bell\x07 nul\x00 del\x7f", "bell␇ nul␀ del␡"),
        ("\x9b31mC1 csi", "C1 csi"),
        ("windows\r\nline", "windows\nline"),
    ],
)
def test_terminal_control_sequences_become_what_a_terminal_shows(printed, shown):
    assert normalize.normalize(printed) == shown
    assert normalize.normalize(normalize.normalize(printed)) == shown  # idempotent


def test_a_run_that_prints_colours_records_plain_text(toy):
    record = _written(toy, "print('\\x1b[31mred\\x1b[0m'); print('1%\\r99%\\r100%')\n", "")
    assert record.stdout == "red\n100%\n"


def test_escaping_never_lets_a_control_byte_through_whatever_a_record_holds():
    assert "\x1b" not in escape("\x1b[31mred\x1b[0m") and escape("\x1b[31mred") == "red"


# -- 3. Line endings do not matter ----------------------------------------------------------------------------------


def test_a_crlf_checkout_hashes_like_an_lf_one(toy):
    (toy.root / "data.txt").write_text("one\ntwo\n")
    toy.add(
        "page/a", "print(open(__file__.rsplit('/snippets/', 1)[0] + '/data.txt').read())\n", extra='deps = ["data.txt"]'
    )
    lf = Catalog(toy.layout).digests["page/a"]
    toy.run()
    for path in (toy.root / "snippets/page/a.py", toy.root / "data.txt"):
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert Catalog(toy.layout).digests["page/a"] == lf
    assert Catalog(toy.layout).standing("page/a", "cpu").state == "current"
    record = toy.run(force=True)[0].executed[0]  # recorded on the CRLF checkout: current on LF again
    for path in (toy.root / "snippets/page/a.py", toy.root / "data.txt"):
        path.write_bytes(path.read_bytes().replace(b"\r\n", b"\n"))
    assert record.source_sha256 == lf and Catalog(toy.layout).standing("page/a", "cpu").state == "current"


def test_a_binary_dependency_is_hashed_as_it_is(tmp_path):
    binary = tmp_path / "weights.pt"
    binary.write_bytes(b"\x80\x02PK\r\n\x00\x01")
    assert snippets.text_bytes(binary) == b"\x80\x02PK\r\n\x00\x01"


def test_the_repository_pins_line_endings():
    from conftest import REPO

    attributes = (REPO / ".gitattributes").read_text()
    assert "eol=lf" in attributes and "*.pt binary" in attributes


# -- 4. Directives: an error where Markdown would render them, nothing where it would not -----------------------------


@pytest.mark.parametrize(
    ("markdown", "line", "message"),
    [
        ("text\n\n::: snippet rsuite/con espacio\n", 3, "needs: ::: snippet <page>/<name>"),
        ("::: snippet rsuite/con\u00a0espacio\n", 1, "is not a directive"),
        (":::snippet page/a\n", 1, "is not a directive"),
        ("   :::\n", 1, "is not a directive"),
        ("::: Snippet page/a\n", 1, "unknown directive"),
        ("before\n<!-- a comment\nthat never ends\n\n::: snippet page/a\n", 2, "never closed"),
    ],
)
def test_a_line_that_starts_with_three_colons_is_a_directive_or_an_error(markdown, line, message):
    with pytest.raises(SourceError) as caught:
        directives.parse(markdown, "docs/en/page.md")
    assert caught.value.line == line and message in caught.value.message


def test_a_directive_is_found_only_where_markdown_renders_it():
    markdown = (
        "```markdown\n::: snippet in/a_fence\n```\n"
        "~~~~\n::: snippet in/a_tilde_fence\n~~~~\n"
        "<!-- ::: snippet in/a_comment -->\n"
        "<!--\n::: snippet in/a_long_comment\n-->\n"
        "Text with `<!--` in code, not a comment.\n"
        "::: snippet after/the_comments\n"
        "<!-- x --> and after\n"
        "::: snippet last/one\n"
    )
    assert [d.arg for d in directives.parse(markdown)] == ["after/the_comments", "last/one"]
    assert [n for n, _ in page_source.markdown_lines(markdown.split("\n"))] == [11, 12, 13, 14, 15]


def test_a_heading_inside_a_comment_is_not_a_heading():
    assert page_source.headings("<!--\n## Hidden { #hidden }\n-->\n## Shown { #shown }\n") == [
        (2, "Shown { #shown }", "shown")
    ]


@pytest.mark.parametrize(
    "relative",
    [
        "page/con espacio.py",
        "page/1starts_with_a_digit.py",
        "page/has-hyphen.py",
        "Page/upper.py",
        "top_level.py",
        "page/deeper/nested.py",
    ],
)
def test_a_snippet_no_directive_can_name_is_refused_by_the_catalog(toy, relative):
    toy.add("page/fine", "print(1)\n")
    path = toy.root / "snippets" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# /// snippet\n# ///\nprint(1)\n")
    with pytest.raises(SourceError) as caught:
        snippets.discover(toy.layout)
    assert caught.value.path == f"snippets/{relative}" and "name" in caught.value.message


def test_helpers_and_caches_are_not_snippets(toy):
    toy.add("page/fine", "print(1)\n")
    (toy.root / "snippets/page/_helper.py").write_text("X = 1\n")
    (toy.root / "snippets/page/__pycache__").mkdir()
    (toy.root / "snippets/page/__pycache__/fine.cpython-311.py").write_text("")
    assert [s.id for s in snippets.discover(toy.layout)] == ["page/fine"]


# -- 8. A record is untrusted input ---------------------------------------------------------------------------------

GOOD: dict = {}


@pytest.fixture
def record_file(toy) -> tuple[Path, dict]:
    toy.add("page/a", "print(1)\n")
    toy.run()
    path = records.record_path(toy.layout, "page/a", "cpu")
    return path, json.loads(path.read_text())


def _set(data: dict, dotted: str, value: object) -> dict:
    *parents, last = dotted.split(".")
    target = data
    for key in parents:
        target = target[key]
    target[last] = value
    return data


HOSTILE = [
    ("run.wall_s", float("nan"), "NaN is not a number"),
    ("run.wall_s", float("inf"), "Infinity is not a number"),
    ("run.wall_s", -1.0, "field run.wall_s must be a finite number"),
    ("run.wall_s", 1e12, "field run.wall_s must be a finite number"),
    ("run.wall_s", True, "field run.wall_s must be a number"),
    ("run.date", "yesterday", "field run.date must match"),
    ("run.git_commit", "$(rm -rf /)", "field run.git_commit must match"),
    ("run.mode", "turbo", "field run.mode must be one of"),
    ("run.extra", 1, "field run.extra is not a field of a record"),
    ("output.exit_code", 10**9, "field output.exit_code must be a whole number"),
    ("output.exit_code", 1.5, "field output.exit_code must be a whole number"),
    ("output.status", "great", "field output.status must be one of"),
    ("output.stdout", "\x1b[31mred", "field output.stdout holds the control byte"),
    ("output.stdout", "x" * 200_000, "field output.stdout is longer than"),
    ("output.artifacts", {"../escaped.txt": "x"}, "which has an empty, '.' or '..' segment"),
    ("output.artifacts", {"/etc/passwd": "x"}, "which is absolute"),
    ("output.artifacts", {"a": 1}, "file a must be text"),
    ("output.expected_error", {"type": "E"}, "field output.expected_error must be null"),
    ("published", {"../../../../../escaped.html": "<p>"}, "field published holds the name"),
    ("published", {"big.txt": "x" * (5 * 1024 * 1024)}, "is longer than"),
    ("provenance", {"device_name": {"nested": {"deep": 1}}}, "must be text"),
    ("provenance", {"Device Name": "x"}, "not a lower-case name"),
    ("provenance", [1, 2], "must be a table"),
    ("source_sha256", "not-a-hash", "field source_sha256 must match"),
    ("snippet", "../../etc/a", "field snippet must match"),
    ("device", "tpu", "field device must be one of"),
    ("smuggled", "x", "field smuggled is not a field of a record"),
]


@pytest.mark.parametrize(("field", "value", "message"), HOSTILE, ids=[f"{f}={str(v)[:20]}" for f, v, _ in HOSTILE])
def test_a_record_with_a_field_out_of_its_type_or_range_is_corrupt_and_named(record_file, toy, field, value, message):
    path, data = record_file
    path.write_text(json.dumps(_set(data, field, value)))
    with pytest.raises(SourceError) as caught:
        records.load(toy.layout, "page/a", "cpu")
    assert caught.value.path == "records/page/a.cpu.json" and message in caught.value.message
    standing = Catalog(toy.layout).standing("page/a", "cpu")
    assert standing.state == "corrupt" and standing.record is None


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"schema": "2"}', "schema 2, expected"),
        (b"null", "schema None"),
        (b"\xff\xfe", "not UTF-8"),
        (b"", "not valid JSON"),
    ],
)
def test_a_record_that_is_not_a_record_is_named_never_a_traceback(record_file, toy, raw, message):
    path, _ = record_file
    path.write_bytes(raw)
    with pytest.raises(SourceError, match=message):
        records.load(toy.layout, "page/a", "cpu")


def test_a_record_too_big_to_read_a_link_or_a_folder_is_refused(record_file, toy, tmp_path):
    path, data = record_file
    with path.open("ab") as handle:
        handle.truncate(17 * 1024 * 1024)
    with pytest.raises(SourceError, match="more than a record may hold"):
        records.load(toy.layout, "page/a", "cpu")
    real = tmp_path / "real.json"
    real.write_text(json.dumps(data))
    path.unlink()
    path.symlink_to(real)
    with pytest.raises(SourceError, match="is a link"):
        records.load(toy.layout, "page/a", "cpu")
    path.unlink()
    path.mkdir()
    with pytest.raises(SourceError, match="not a regular file"):
        records.load(toy.layout, "page/a", "cpu")
    os.rmdir(path)
