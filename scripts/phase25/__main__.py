"""``python -m phase25 <command>``: see :mod:`phase25.cli`."""

import sys

from .cli import main

sys.exit(main())
