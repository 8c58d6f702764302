"""Records nobody made: a digest over every record, verified on every load; a GPU archive checked before it lands.

The digest catches a hand edit and a bad merge: any change to the output, the provenance or the run
refuses the record, naming its file. It cannot catch someone who recomputes it (the code is public);
the capture workflow's attestation of the archive is what ties CUDA records to the GPU runner, and
``unpack`` refuses an archive whose records are malformed, not CUDA, not made on a GPU or stale.
"""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest
from phase25 import cli
from phase25.core import records
from phase25.core.catalog import Catalog
from phase25.core.errors import SourceError


@pytest.fixture
def recorded(toy):
    toy.add(
        "page/a",
        "import warnings\nwarnings.warn('old API', FutureWarning)\nprint('y.shape: (2, 600)')\n",
        devices='["cpu", "cuda"]',
    )
    [record] = toy.run()[0].executed
    return toy, record, records.record_path(toy.layout, "page/a", "cpu")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("output.stdout", "y.shape: (2, 601)\n"),
        ("output.status", "failed"),
        ("provenance.device_name", "NVIDIA H200"),
        ("run.wall_s", 0.01),
        ("output.warnings", []),
    ],
)
def test_an_edited_field_is_refused_by_its_digest(recorded, field, value):
    toy, _, path = recorded
    data = json.loads(path.read_text())
    part, key = field.split(".")
    data[part][key] = value
    path.write_text(json.dumps(data))
    with pytest.raises(SourceError, match="its digest does not match its content"):
        records.load(toy.layout, "page/a", "cpu")
    assert Catalog(toy.layout).standing("page/a", "cpu").state == "corrupt"


def test_the_warnings_a_run_emits_are_kept_with_the_module_that_raised_them(recorded):
    _, record, _ = recorded
    assert record.warnings == [{"category": "FutureWarning", "message": "old API", "module": "snippets/page/a.py"}]
    assert "FutureWarning: old API" in record.stderr  # stderr as it was


def test_a_json_lines_artifact_is_stored_one_line_per_line(toy):
    toy.add("page/lines", "open('t.jsonl', 'w').write('{\"a\": 1}\\n{\"b\": 2}\\n')\n", extra='artifacts = ["t.jsonl"]')
    [record] = toy.run()[0].executed
    stored = json.loads(records.record_path(toy.layout, "page/lines", "cpu").read_text())
    assert stored["output"]["artifacts"]["t.jsonl"] == ['{"a": 1}', '{"b": 2}', ""]
    assert (
        records.load(toy.layout, "page/lines", "cpu").artifacts
        == record.artifacts
        == {"t.jsonl": '{"a": 1}\n{"b": 2}\n'}
    )


def _cuda_from(record: records.Record, **provenance) -> records.Record:
    forged = records.Record(**{**vars(record), "device": "cuda"})
    forged.provenance = {**record.provenance, **provenance}
    return forged


def _archive(tmp_path: Path, members: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    target = tmp_path / "capture.tar.gz"
    with tarfile.open(target, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, to in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, to
            tar.addfile(info)
    return target


def test_a_capture_archive_is_checked_record_by_record_before_anything_is_written(recorded, tmp_path, capsys):
    toy, record, _ = recorded
    from phase25.core import environment

    snippet = Catalog(toy.layout).snippets["page/a"]
    good = _cuda_from(record, device_name="NVIDIA H200", compute_capability="sm_90")
    good.env_key = environment.env_key(snippet, "cuda")
    name = "records/page/a.cuda.json"
    target = records.record_path(toy.layout, "page/a", "cuda")
    cases = {
        "a link": _archive(tmp_path, {}, {name: "/etc/passwd"}),
        "a path that leaves": _archive(tmp_path, {"records/../../escaped.cuda.json": good.to_json().encode()}),
        "a CPU record": _archive(tmp_path, {"records/page/a.cpu.json": record.to_json().encode()}),
        "an edited record": _archive(tmp_path, {name: good.to_json().replace("(2, 600)", "(2, 601)").encode()}),
        "no GPU in its provenance": _archive(tmp_path, {name: _cuda_from(record).to_json().encode()}),
    }
    for why, archive in cases.items():
        capsys.readouterr()
        assert cli.main(["--root", str(toy.root), "unpack", str(archive)]) == 2, why
        assert "error:" in capsys.readouterr().err and not target.exists(), why
    archive = _archive(tmp_path, {name: good.to_json().encode()})
    assert cli.main(["--root", str(toy.root), "unpack", str(archive)]) == 0
    assert records.load(toy.layout, "page/a", "cuda").provenance["device_name"] == "NVIDIA H200"


@pytest.mark.slow  # a real run of a toy snippet that imports torch
def test_a_deprecated_torch_api_the_snippet_calls_is_harvested_with_torchs_module(toy):
    """What the harvest is for: the snippet uses an API torch deprecates, and the record says so, with the
    module of torch that warned, before the API disappears."""
    toy.add("page/old", "import torch\nwith torch.cpu.amp.autocast(enabled=False):\n    print('ran')\n")
    [record] = toy.run()[0].executed
    found = [w for w in record.warnings if w["category"] in ("FutureWarning", "DeprecationWarning")]
    assert found and "is deprecated" in found[0]["message"], record.warnings
    assert found[0]["module"].startswith("torch."), found[0]
    assert record.stdout == "ran\n"
