"""The Python API pages: one page per top-level unit of ``unosim``, rendering every public module of it
from its docstrings (mkdocstrings), and an index of the units in their layers."""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

import unosim

#: the units in layers, highest first (tests/project/test_structure.py enforces the same order)
UNITS = ("cli", "explore", "design", "strategies", "reporting", "analysis", "pipeline", "play", "engine", "reference", "store",
         "game")
FOLDER = "reference/api"


def public_modules(unit: str) -> list[str]:
    """``unosim.<unit>`` and its modules whose names do not start with an underscore."""
    package = Path(unosim.__file__).parent / unit
    found = [f"unosim.{unit}"]
    for info in pkgutil.walk_packages([str(package)], prefix=f"unosim.{unit}."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            found.append(info.name)
    return sorted(found)


def unit_summary(unit: str) -> str:
    import importlib

    doc = importlib.import_module(f"unosim.{unit}").__doc__ or ""
    text = " ".join(doc.strip().split("\n\n")[0].split())
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text)   # Sphinx roles as code
    return text.replace("``", "`")


def pages() -> dict[str, str]:
    out = {}
    rows = ["| unit | what it holds |", "|---|---|"]
    for unit in UNITS:
        rows.append(f"| [`unosim.{unit}`]({unit}.md) | {unit_summary(unit)} |")
        body = [f"# `unosim.{unit}`", ""]
        for module in public_modules(unit):
            body += [f"::: {module}", "    options:", "      show_root_heading: true",
                     f"      members: {'false' if module == f'unosim.{unit}' else 'true'}", ""]
        out[f"{FOLDER}/{unit}.md"] = "\n".join(body)
    out[f"{FOLDER}/index.md"] = "\n".join([
        "# Python API", "",
        "The entry points are exported by `unosim` itself:", "",
        "::: unosim", "    options:", "      show_root_heading: true", "      members: [simulate, replay, "
        "get_variant, variant_names, RuleSet, Results, tournament, tune]", "",
        "## The package, in layers", "",
        "Each unit imports only the units below it in this table (`tests/project/test_structure.py` checks it); "
        "its page renders every public module from its docstrings.", "", *rows, ""])
    return out
