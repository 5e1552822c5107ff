"""``python -m scoring``: see :mod:`scoring.cli.main`."""

import sys

from scoring.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
