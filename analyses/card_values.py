"""Card values against printed points: which cards the scoring over- or under-values, a monotone fix, and
what each declared card (docs/rules.md §2.7) is worth in printed points.

    python analyses/card_values.py data/demo      # writes data/demo/analysis/card_values.csv, card_balance.csv
"""

from pathlib import Path

import polars as pl

from unosim import analysis
from unosim.analysis.card_prices import card_prices, declared_by_variant, price_line
from unosim.cli.script_args import dataset_from_argv

ds = dataset_from_argv(__doc__)
table = analysis.card_values(ds.seats, declared=declared_by_variant(ds.cells()))
balance = analysis.card_balance(table)
analysis.write_tables({"card_values": table, "card_balance": balance}, Path(ds.path, "analysis"))
with pl.Config(tbl_rows=-1):
    print(balance.select("variant", "players", "lineup", "rank", "card", "points", "suggested_points", "value",
                         "estimate", "ci_low", "ci_high", "p_holm"))
for row in card_prices(balance).iter_rows(named=True):
    print(f"{row['variant']}, lineup {row['lineup']}: {price_line(row)}")
