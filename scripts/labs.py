#!/usr/bin/env python3
"""Generate the lab notebooks from their sources, or check that they are current.

    python scripts/labs.py build    # write docs/<lang>/labs/*.ipynb
    python scripts/labs.py check    # exit 1 if any notebook differs from its sources
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from phase25 import labs
from phase25.paths import DEFAULT_LAYOUT, REPO_ROOT

DOCS = REPO_ROOT / "docs"


def main(argv: list[str]) -> int:
    if argv == ["build"]:
        for path in labs.write_all(DEFAULT_LAYOUT, DOCS):
            print(f"wrote {path.relative_to(REPO_ROOT)}")
        return 0
    if argv == ["check"]:
        problems = labs.stale(DEFAULT_LAYOUT, DOCS)
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
