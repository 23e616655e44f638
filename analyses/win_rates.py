"""Win rates by seat and by position after the dealer, with Wilson intervals.

    python analyses/win_rates.py data/demo        # writes data/demo/analysis/win_rates*.csv
"""

from pathlib import Path

from unosim import analysis
from unosim.cli.script_args import dataset_from_argv

ds = dataset_from_argv(__doc__)
out = Path(ds.path, "analysis")
by_seat = analysis.win_rates(ds.seats)
by_dealer = analysis.win_rates_by_dealer_position(ds.seats)
analysis.write_tables({"win_rates": by_seat, "win_rates_dealer": by_dealer}, out)
print(by_seat.select("variant", "players", "lineup", "seat", "policy", "estimate", "ci_low", "ci_high", "n"))
