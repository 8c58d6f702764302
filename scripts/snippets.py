#!/usr/bin/env python3
"""Entry point of the snippet runner (standard library + torch only): see phase25/cli.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from phase25.cli import main

if __name__ == "__main__":
    sys.exit(main())
