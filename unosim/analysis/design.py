"""A design search's confirmation study: what the search did, read back from the dataset.

``unosim design`` (:mod:`unosim.design.confirm`) writes ``design.json`` beside the confirmation study's
manifest: the search (variant, players, designs tried, games, the search's and the confirmation's seed
streams), its objectives (each with the effects measure the confirmation compares it on, and its
direction or target band) and every design it tried with its numbers on the search's games.
:func:`design_tables` turns it into three tables the analysis writes with the others:

* ``design_search``: one row, the search (the findings state it: :mod:`.design_findings`);
* ``design_objectives``: one row per objective;
* ``design_trials``: one row per design tried (the Pareto chart and the report's folded table).

The search's numbers are what the search saw (optimistic for the designs it picked: docs/rules.md §8.8);
what the designs do is the confirmation study's own tables, on games the search never played.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

DESIGN_FILE = "design.json"
TABLES = ("design_search", "design_objectives", "design_trials")


def design_tables(path: str | Path) -> dict[str, pl.DataFrame]:
    """The design tables of the dataset at ``path`` (nothing when it is not a design's confirmation)."""
    file = Path(path) / DESIGN_FILE
    if not file.is_file():
        return {}
    data = json.loads(file.read_text(encoding="utf-8"))
    trials = pl.DataFrame(data["trials"], infer_schema_length=None)
    return {"design_search": pl.DataFrame([data["search"]]),
            "design_objectives": pl.DataFrame(data["objectives"], schema=OBJECTIVE_SCHEMA),
            "design_trials": trials}


#: the columns of ``design_objectives``: ``effect`` is the measure of the effects table the objective is
#: compared on (empty: the confirmation has no effects row for it), ``sign`` −1 less / +1 more, or a
#: target band ``target_low``..``target_high``; ``label`` its axis label in the Pareto chart
OBJECTIVE_SCHEMA = {"objective": pl.String, "effect": pl.String, "sign": pl.Int64, "target_low": pl.Float64,
                    "target_high": pl.Float64, "described": pl.String, "label": pl.String}
