"""Inductor's precompiled headers: what one run builds or plants where Inductor looks for them, no later run reads.

Inductor keeps its precompiled headers in a folder under TMPDIR that it fixes at import. Runs used to share one
through a link into the checkout's cache, and the first run to write a header there was trusted by every later run
(a header is compiled into every kernel that includes it). Now each run's folder is its own, inside its scratch,
in a fresh interpreter and in one forked from a warm interpreter alike, and the old shared folder is a part of the
checkout like any other: a run that writes there is blamed.
"""

from __future__ import annotations

import pytest

# What a run can do to the folder Inductor reads its headers from: plant a header (and the file it stands for),
# rewrite every header already there, plant a link and a FIFO named like headers.
PLANT = """
import os
from torch._inductor import codecache
folder = codecache._HEADER_DIR
os.makedirs(folder, exist_ok=True)
for name in os.listdir(folder):
    if name.endswith(".gch") and os.path.isfile(os.path.join(folder, name)):
        open(os.path.join(folder, name), "w").write("rewritten")
open(os.path.join(folder, "cplanted.h"), "w").write("#define POISON 1\\n")
open(os.path.join(folder, "cplanted.h.gch"), "w").write("poisoned")
os.symlink("/etc/hostname", os.path.join(folder, "clink.h.gch"))
os.mkfifo(os.path.join(folder, "cfifo.h.gch"))
print("planted")
"""

# What a later run finds there, and whether the folder is inside its own scratch (its TMPDIR).
LOOK = """
import os, tempfile
from torch._inductor import codecache
folder = codecache._HEADER_DIR
print("inside its scratch:", os.path.realpath(folder).startswith(os.path.realpath(tempfile.gettempdir()) + os.sep))
print("finds:", sorted(os.listdir(folder)) if os.path.isdir(folder) else [])
"""


@pytest.mark.parametrize("warm", [False, True], ids=["fresh", "warm"])
def test_what_a_run_plants_or_rewrites_among_inductors_headers_no_later_run_reads(toy, warm):
    """Runs of one session, one after the other (the warm ones forked from one warm interpreter)."""
    toy.add("page/a_plants", PLANT)
    toy.add("page/b_looks", LOOK)
    outcome = toy.run(warm=warm)[0]
    by_id = {r.snippet: r for r in outcome.executed}
    assert by_id["page/a_plants"].output()["stdout"] == "planted\n", by_id["page/a_plants"].output()
    assert by_id["page/b_looks"].output()["stdout"] == "inside its scratch: True\nfinds: []\n"
    assert outcome.intrusions == []


# Two runs at once: each plants a header named after itself, waits for the other to have planted its own, looks.
AT_ONCE = """
import os, time
from torch._inductor import codecache
folder = codecache._HEADER_DIR
os.makedirs(folder, exist_ok=True)
open(os.path.join(folder, "c{me}.h.gch"), "w").write("{me}")
time.sleep(3)
print(sorted(os.listdir(folder)))
"""


def test_two_runs_at_once_never_see_each_others_headers(toy):
    """Forked from one warm interpreter, where Inductor fixed its folder before either run began."""
    toy.add("page/a", AT_ONCE.format(me="a"))
    toy.add("page/b", AT_ONCE.format(me="b"))
    outcome = toy.run(workers=2, warm=True)[0]
    seen = {r.snippet: r.output()["stdout"] for r in outcome.executed}
    assert seen == {"page/a": "['ca.h.gch']\n", "page/b": "['cb.h.gch']\n"}


@pytest.mark.parametrize("planted", ["a new header", "a rewritten header", "a link", "a fifo"])
def test_a_run_that_writes_into_the_old_shared_header_cache_is_blamed(toy, planted):
    """The checkout's header cache is read by no run now; a run that writes there anyway, by its absolute path,
    is blamed like a write into any other ignored folder (a new file there used to pass as a header built)."""
    headers = toy.root / ".cache" / "phase25" / "inductor-headers"
    (headers / "locks").mkdir(parents=True)
    (headers / "cdone.h.gch").write_text("built before")
    target = str(headers / ("cdone.h.gch" if planted == "a rewritten header" else "cnew.h.gch"))
    write = {
        "a new header": f"open({target!r}, 'w').write('planted')",
        "a rewritten header": f"open({target!r}, 'w').write('poisoned')",
        "a link": f"os.symlink('/etc/hostname', {target!r})",
        "a fifo": f"os.mkfifo({target!r})",
    }[planted]
    toy.add("page/a", f"import os\n{write}\nprint(1)\n")
    outcome = toy.run()[0]
    assert len(outcome.intrusions) == 1, outcome.intrusions
    assert "page/a" in outcome.intrusions[0] and ".cache/phase25/inductor-headers/c" in outcome.intrusions[0]
