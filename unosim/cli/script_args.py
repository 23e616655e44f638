"""The one argument of the ``analyses/*.py`` scripts: a dataset directory, with usage on a bad call."""

from __future__ import annotations

import argparse

from ..store.layout import DatasetError
from ..store.reader import Dataset, open_dataset


def dataset_from_argv(doc: str, argv: list[str] | None = None) -> Dataset:
    """Open the dataset named on the command line; print the usage (``doc``) and exit 2 otherwise."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset", help="a study dataset directory, e.g. data/demo (see `unosim study run`)")
    args = parser.parse_args(argv)
    try:
        return open_dataset(args.dataset)
    except DatasetError as exc:
        parser.error(str(exc))
