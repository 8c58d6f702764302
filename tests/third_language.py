"""A copy of the site with a toy third language, French, added the way CONTRIBUTING says, then built strictly.

Usage: ``python tests/third_language.py SCRATCH``. The copy lands in ``SCRATCH/project``, the built site in
``SCRATCH/site``. A language is one folder of pages, one strings module and one entry of the i18n plugin in
mkdocs.yml; nothing else of the site's code names its languages. The toy's pages are the Spanish ones (already
stamped as translations of the English pages), its strings the Spanish strings with a few French words, so that
what the build writes in French can be told apart.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

FRENCH = {"ran_on": "Exécuté sur", "not_found_title": "Page introuvable", "search_label": "Rechercher dans le site"}
ENTRY = "        - locale: fr\n          name: Français\n          build: true\n"


def add_french(project: Path) -> None:
    shutil.copytree(project / "docs" / "es", project / "docs" / "fr")  # 1. a folder of pages
    lang = project / "scripts" / "phase25" / "site" / "lang"
    strings = (lang / "strings_es.py").read_text(encoding="utf-8")
    for key, word in FRENCH.items():
        strings = re.sub(
            rf'^    "{key}": .*?,\n(?=    "|\}})', f'    "{key}": "{word}",\n', strings, count=1, flags=re.M | re.S
        )
    (lang / "strings_fr.py").write_text(strings, encoding="utf-8")  # 2. a strings module
    for readers in (project / "reports" / "drift").glob("*.readers.toml"):  # 4. each drift report's reader lines
        lines = readers.read_text(encoding="utf-8").splitlines(keepends=True)
        readers.write_text("".join(line + ("fr" + line[2:] if line.startswith("es = ") else "") for line in lines))
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    at = text.index("\nnav:")  # 3. an entry of the i18n plugin: after the last language's
    config.write_text(text[:at].rstrip("\n") + "\n" + ENTRY + text[at:], encoding="utf-8")


def main(scratch: Path) -> int:
    from phase25.core.paths import copy_project  # the checkout's package (setup puts it on the path)

    project = copy_project(scratch / "project")
    add_french(project)
    env = {**os.environ, "PYTHONPATH": str(project / "scripts"), "NO_MKDOCS_2_WARNING": "1"}
    env.pop("PHASE25_EXECUTE", None)
    steps = (
        [sys.executable, "-m", "phase25", "labs", "build"],  # the notebooks of the new language's labs
        [sys.executable, "-m", "phase25", "translations", "check"],
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(scratch / "site")],
    )
    for step in steps:
        done = subprocess.run(step, cwd=project, env=env, check=False)
        if done.returncode:
            print(f"failed: {' '.join(step[1:])} (status {done.returncode})", file=sys.stderr)
            return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
