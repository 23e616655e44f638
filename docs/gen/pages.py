"""The mkdocs-gen-files script of ``make docs``: writes every page of :mod:`generated` into the build."""

import sys
from pathlib import Path

import mkdocs_gen_files

sys.path.insert(0, str(Path(__file__).parent))

from generated import all_pages  # noqa: E402

for path, text in all_pages().items():
    with mkdocs_gen_files.open(path, "w") as page:
        page.write(text)
