"""Each lab's download runs on its own: unpacked in an empty folder, executed by Jupyter, it prints the record.

The notebooks are executed by `jupyter execute` (nbclient) in the unpacked folder, with no path into this
repository, and each code cell's output is compared with what the lab's record holds for that cell.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import EARLY, NICE, REPO, early
from phase25.core import bounded, cells, environment, normalize
from phase25.core.catalog import Catalog
from phase25.core.devices import LOCAL
from phase25.core.paths import DEFAULT_LAYOUT
from phase25.site.downloads import labs
from phase25.site.page import directives

pytestmark = pytest.mark.slow
CATALOG = Catalog.here(DEFAULT_LAYOUT)
LABS = labs.find(REPO / "docs")
ENGLISH = [lab for lab in LABS if lab.lang == "en"]
CHECK = {
    "cell_type": "code",
    "metadata": {},
    "outputs": [],
    "execution_count": None,
    "id": "where-from",
    "source": ["import minigpt, os\n", "print(os.path.dirname(os.path.dirname(minigpt.__file__)) == os.getcwd())"],
}


def unpack(lab: labs.Lab, target: Path) -> Path:
    zipfile.ZipFile(io.BytesIO(labs.bundle(lab, CATALOG))).extractall(target)
    return target / lab.notebook.stem


def start_labs(scratch: Path) -> dict[str, subprocess.Popen]:
    """Every English lab download, unpacked into ``scratch`` and started, all at once (one Jupyter kernel each)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",) and not k.startswith("PHASE25_")}
    env.update(environment.PINNED_ENV)
    env.update(environment.CPU_ENV)
    # One temporary folder for all, as a reader's machine has: Inductor keeps its precompiled header there
    # (a 150 MB file, 11 CPU-seconds to build), so the second lab that compiles reuses it.
    env["TMPDIR"] = str(scratch / "tmp")
    (scratch / "tmp").mkdir()
    started = {}
    for lab in ENGLISH:
        folder = unpack(lab, scratch / lab.notebook.stem)
        notebook = folder / lab.notebook.name
        data = json.loads(notebook.read_text(encoding="utf-8"))
        data["cells"].append(CHECK)
        notebook.write_text(json.dumps(data), encoding="utf-8")
        run_env = {
            **env,
            "TORCHINDUCTOR_CACHE_DIR": str(folder.parent / "inductor"),
            "TRITON_CACHE_DIR": str(folder.parent / "triton"),
        }
        started[lab.notebook.stem] = bounded.start(
            [*NICE, sys.executable, "-m", "jupyter", "execute", "--inplace", "--timeout=600", notebook.name],
            cwd=folder,
            env=run_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
    return started


EARLY["executed"] = start_labs  # started at collection, beside the first tests (conftest.EarlyWork)


@pytest.fixture(scope="module")
def executed() -> dict[str, tuple[Path, dict]]:
    """Every English lab download, unpacked and executed by Jupyter (started at collection)."""
    scratch, processes = early("executed")
    done = {}
    logs = bounded.wait_all(list(processes.values()), 900, "the labs' notebooks")
    for (stem, process), (log, _) in zip(processes.items(), logs, strict=True):
        folder = scratch / stem / stem
        assert process.returncode == 0, log[-3000:]
        done[stem] = (folder, json.loads((folder / f"{stem}.ipynb").read_text(encoding="utf-8")))
    return done


@pytest.mark.parametrize("lab", ENGLISH, ids=[lab.notebook.stem for lab in ENGLISH])
def test_a_downloaded_lab_runs_outside_the_repository_and_prints_its_record(lab, executed):
    folder, notebook = executed[lab.notebook.stem]
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert "".join(code[-1]["outputs"][0]["text"]) == "True\n", "minigpt did not come from the download"
    found = directives.parse(lab.source.read_text())
    snippet_id = next(d.arg.partition("#")[0] for d in found if d.kind == "cell")
    record = CATALOG.standing(snippet_id, "cpu").record
    expected = cells.split_output(record.stdout)
    by_code = {v: k for k, v in cells.split_code(CATALOG.snippets[snippet_id].code).items()}
    ctx = normalize.Context(
        run_dir=str(folder),
        tmp_dir=str(folder.parent),
        tree_root=str(folder),
        cache_dir=str(folder.parent / "inductor"),
    )
    # A whole snippet of its own in the lab (the emulated H200's cell): its record is its device's, whole.
    whole = {CATALOG.snippets[d.arg].code: d.arg for d in found if d.kind == "cell" and "#" not in d.arg}
    compared = 0
    for cell in code[:-1]:
        source = "".join(cell["source"])
        printed = "".join("".join(o.get("text", "")) for o in cell["outputs"] if o.get("name") == "stdout")
        if source in whole:
            snippet = CATALOG.snippets[whole[source]]
            device = next(d for d in snippet.header.devices if d in LOCAL)
            assert normalize.normalize(printed, ctx) == CATALOG.standing(snippet.id, device).record.stdout, snippet.id
        else:
            cell_id = by_code[source]
            assert normalize.normalize(printed, ctx) == expected.get(cell_id, ""), f"cell {cell_id}"
        compared += 1
    assert compared >= 4


@pytest.mark.parametrize("lab", [lab for lab in LABS if lab.lang != "en"], ids=lambda lab: lab.notebook.stem)
def test_each_language_downloads_the_same_code_and_files(lab, tmp_path):
    english = next(e for e in ENGLISH if e.notebook.name == lab.notebook.name)
    mine, theirs = unpack(lab, tmp_path / "es"), unpack(english, tmp_path / "en")
    names = {p.relative_to(mine).as_posix() for p in mine.rglob("*") if p.is_file()}
    assert names == {p.relative_to(theirs).as_posix() for p in theirs.rglob("*") if p.is_file()}
    for name in names - {lab.notebook.name, "README.md"}:
        assert (mine / name).read_bytes() == (theirs / name).read_bytes(), name
    code = [
        [c["source"] for c in json.loads((d / lab.notebook.name).read_text())["cells"] if c["cell_type"] == "code"]
        for d in (mine, theirs)
    ]
    assert code[0] == code[1]
