"""Card values against printed points: which cards the scoring over- or under-values, and a monotone fix.

    python analyses/card_values.py data/demo      # writes data/demo/analysis/card_values.csv, card_balance.csv
"""

from pathlib import Path

import polars as pl

from unosim import analysis
from unosim.cli.script_args import dataset_from_argv

ds = dataset_from_argv(__doc__)
table = analysis.card_values(ds.seats)
balance = analysis.card_balance(table)
analysis.write_tables({"card_values": table, "card_balance": balance}, Path(ds.path, "analysis"))
with pl.Config(tbl_rows=-1):
    print(balance.select("variant", "players", "lineup", "rank", "card", "points", "suggested_points", "value",
                         "estimate", "ci_low", "ci_high", "p_holm"))
