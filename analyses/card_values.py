"""Card values against printed points: which cards the scoring over- or under-values.

    python analyses/card_values.py data/demo      # writes data/demo/analysis/card_values.csv
"""

from pathlib import Path

import polars as pl

from unosim import analysis
from unosim.script_args import dataset_from_argv

ds = dataset_from_argv(__doc__)
table = analysis.card_values(ds.seats)
analysis.write_tables({"card_values": table}, Path(ds.path, "analysis"))
with pl.Config(tbl_rows=-1):
    print(table.select("variant", "players", "lineup", "card", "points", "estimate", "ci_low", "ci_high")
          .sort("variant", "players", "lineup", "estimate", descending=[False, False, False, True]))
