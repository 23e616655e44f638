"""Where notebooks and scripts find the repository and its data, whatever the working directory.

``repo_root()`` is the checkout unosim is imported from (an editable install, as ``make install``
makes); ``data_dir()`` is ``$UNOSIM_DATA`` when set, else ``<repository>/data`` — where ``make demo``
and ``unosim study run --out data`` write their datasets.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


def repo_root() -> Path:
    """The repository holding this unosim package; the working directory for an installed copy."""
    root = _PACKAGE.parent
    return root if (root / "pyproject.toml").is_file() else Path.cwd()


def data_dir() -> Path:
    """The directory of study datasets: ``$UNOSIM_DATA`` or ``<repository>/data``."""
    return Path(os.environ.get("UNOSIM_DATA") or repo_root() / "data")
