"""The spec's [[comparisons]]: win-rate and length differences B − A, paired when the cells share decks.

    python analyses/comparisons.py data/house_rules   # writes .../analysis/compare_*.csv
"""

from pathlib import Path

import polars as pl

from unosim import analysis
from unosim.script_args import dataset_from_argv

ds = dataset_from_argv(__doc__)
wins, lengths = analysis.comparisons(ds)
analysis.write_tables({"compare_wins": wins, "compare_lengths": lengths}, Path(ds.path, "analysis"))
with pl.Config(tbl_rows=-1, tbl_cols=-1):
    print(wins.select("a", "b", "players", "seat", "paired", "estimate", "ci_low", "ci_high", "p_value"))
    print(lengths.select("a", "b", "players", "metric", "paired", "estimate", "ci_low", "ci_high", "p_value"))
