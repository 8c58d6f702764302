#!/usr/bin/env python3
"""Check the Spanish pages against the English ones, or stamp one as up to date.

python scripts/translations.py check
python scripts/translations.py stamp docs/es/index.md
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from phase25 import translations
from phase25.paths import REPO_ROOT

DOCS = REPO_ROOT / "docs"


def main(argv: list[str]) -> int:
    if argv[:1] == ["check"]:
        issues = translations.parity(DOCS) + translations.outdated(DOCS)
        for issue in issues:
            print(issue)
        print(f"{len(issues)} translation problems", file=sys.stderr)
        return 1 if issues else 0
    if argv[:1] == ["stamp"] and len(argv) > 1:
        for arg in argv[1:]:
            rel = Path(arg).resolve().relative_to(DOCS / translations.TARGET).as_posix()
            print(f"{arg}: translation_of {translations.stamp(DOCS, rel)}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
