"""``python -m unosim``: the command line of :mod:`unosim.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
