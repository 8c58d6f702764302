"""A drift report read back: one typed shape, one reader, and every reader of reports refuses a damaged one.

A report is a file anyone can edit or merge badly. Whatever is wrong with it (not JSON, cut short, a key missing,
one unknown, a value of the wrong type), the reader says so in one line that names the file and the key, never a
KeyError from deep inside the integrity check, and each reader (the drift page, the "changed in" marks, the
published diffs, the review checklist, the atlas's history) stops there.
"""

from __future__ import annotations

import json

import pytest
from phase25.core import atlas_history, drift
from phase25.core.drift_shape import Damaged
from phase25.site.downloads import drift_files
from phase25.site.page import review
from test_changed_mark import entry, whole

NAME = "torch-2.12.0-to-2.13.0"
WHERE = f"{drift.REPORTS}/{NAME}.json"
GOOD = whole([entry("changed"), entry("unchanged", device="sm90-codegen")])


def damaged(**changes: object) -> str:
    return json.dumps({**GOOD, **changes})


def entry_with(**changes: object) -> str:
    return damaged(entries=[{**GOOD["entries"][0], **changes}])


CASES = [
    (json.dumps(GOOD)[:300], f"{WHERE} is not JSON"),
    ("[]", f"{WHERE} is not a JSON object"),
    (json.dumps({k: v for k, v in GOOD.items() if k != "entries"}), f"{WHERE}: key 'entries' is missing"),
    (damaged(entries=3), f"{WHERE}: key 'entries' holds int, not list"),
    (damaged(schema=3), f"{WHERE}: schema 3, expected {drift.SCHEMA}: compare again"),
    (damaged(compared="today"), f"{WHERE}: unknown key 'compared'"),
    (damaged(a={"torch": "2.12.0"}), f"{WHERE}: a: key 'build' is missing"),
    (json.dumps({k: v for k, v in GOOD.items() if k != "devices"}), f"{WHERE}: key 'devices' is missing"),
    (damaged(entries=["changed"]), f"{WHERE}: entries[0] is not a JSON object"),
    (entry_with(snippet=7), f"{WHERE}: entries[0]: key 'snippet' holds int, not str"),
    (entry_with(state="moved"), f"{WHERE}: entries[0]: state 'moved' is none of changed"),
    (entry_with(kind="huge"), f"{WHERE}: entries[0]: kind 'huge' is none of real"),
    (entry_with(output={"a": None}), f"{WHERE}: entries[0]: output: key 'b' is missing"),
    (entry_with(warnings={"new": ["x"], "gone": []}), f"{WHERE}: entries[0]: warnings: new[0] is not a warning"),
    (entry_with(diff="--- stdout (before)\n"), f"{WHERE}: page/a: the diff does not follow from the embedded outputs"),
]
IDS = [
    "cut-short",
    "a-list",
    "no-entries",
    "entries-not-a-list",
    "older-schema",
    "extra-key",
    "side-missing-a-key",
    "no-devices",
    "entry-not-an-object",
    "snippet-not-a-name",
    "unknown-state",
    "unknown-kind",
    "one-output",
    "warning-not-an-object",
    "diff-not-its-outputs",
]


def write(root, text: str) -> None:
    folder = root / drift.REPORTS
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{NAME}.json").write_text(text, encoding="utf-8")


def test_a_report_as_between_writes_it_reads_back_as_written(tmp_path):
    write(tmp_path, drift.dumps(GOOD))
    assert drift.load(tmp_path, NAME) == GOOD and drift.sound(tmp_path, NAME) == GOOD


@pytest.mark.parametrize(("text", "message"), CASES, ids=IDS)
def test_a_damaged_report_is_refused_in_one_line_naming_the_file_and_the_key(tmp_path, text, message):
    write(tmp_path, text)
    with pytest.raises(Damaged) as refused:
        drift.sound(tmp_path, NAME)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)


@pytest.mark.parametrize(("text", "message"), CASES[:4], ids=IDS[:4])
def test_every_reader_of_reports_stops_at_a_damaged_one(tmp_path, text, message):
    write(tmp_path, text)
    (tmp_path / "docs" / "en").mkdir(parents=True)
    with pytest.raises(Damaged, match=message.split(":")[0]):
        drift_files.files(tmp_path)
    with pytest.raises(Damaged, match=message.split(":")[0]):
        review.write(tmp_path, NAME)
    with pytest.raises(Damaged, match=message.split(":")[0]):
        atlas_history.previous(tmp_path / drift.REPORTS, "2.13.0")
