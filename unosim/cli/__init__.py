"""The ``unosim`` command line: one module per command group; :func:`main` runs it."""

from .main import main

__all__ = ["main"]
