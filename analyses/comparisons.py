"""The spec's [[comparisons]]: what each house rule does (length, tension, comebacks, fairness, skill) and the
win-rate differences by seat, B − A, paired when the cells share decks, with Holm-adjusted p-values.

    python analyses/comparisons.py data/house_rules   # writes .../analysis/effects.csv and compare_wins.csv
"""

from pathlib import Path

import polars as pl

from unosim import analysis
from unosim.cli.script_args import dataset_from_argv

ds = dataset_from_argv(__doc__)
wins, _ = analysis.comparisons(ds)
effects = analysis.effects(ds.rounds, ds.cells(), ds.manifest["study"]["comparisons"], ds.shares_decks)
analysis.write_tables({"compare_wins": wins, "effects": effects}, Path(ds.path, "analysis"))
with pl.Config(tbl_rows=-1, tbl_cols=-1):
    print(effects.select("a", "b", "players", "lineup", "measure", "identical", "estimate", "ci_low", "ci_high",
                         "rel_change", "p_holm"))
    print(wins.select("a", "b", "players", "seat", "paired", "estimate", "ci_low", "ci_high", "p_holm"))
