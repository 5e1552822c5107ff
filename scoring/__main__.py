"""``python -m scoring``: see :mod:`scoring.cli`."""

import sys

from scoring.cli import main

if __name__ == "__main__":
    sys.exit(main())
