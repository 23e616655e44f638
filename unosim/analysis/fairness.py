"""Seat fairness per cell: how much the win rate depends on the position after the dealer.

Position 1 is the seat left of the dealer (dealt first), 0 the dealer (docs/rules.md §1.3). Over all
rounds of a cell (a round without a winner is a loss for every seat, §1.13):

* ``spread`` — the largest minus the smallest win rate over positions, with a percentile bootstrap
  interval (multinomial resampling of the rounds' winner positions); a perfectly fair game has a
  spread near 0, but a finite sample always shows some, so read it with the test below;
* an omnibus χ² goodness-of-fit test of "every position wins equally often" over the won rounds
  (``chi2``, ``dof``, ``chi2_p``, and ``chi2_p_holm`` adjusted over the cells of the study).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import polars as pl
from scipy import stats

from .effects import BOOTSTRAP, position_spread
from .inference import holm
from .win_rates import CELL


def seat_fairness(rounds: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL, confidence: float = 0.95,
                  seed: int = 0) -> pl.DataFrame:
    """One row per cell: the spread as ``estimate`` with ``ci_low``/``ci_high``, the χ² test,
    ``best``/``worst`` position, ``n`` (rounds) and ``won_rounds``."""
    counts = (rounds.lazy()
              .with_columns(position=pl.when(pl.col("winner_seat") >= 0)
                            .then((pl.col("winner_seat").cast(pl.Int32) - pl.col("dealer_seat").cast(pl.Int32))
                                  % pl.col("players").cast(pl.Int32)).otherwise(-1))
              .group_by([*by, "position"]).agg(count=pl.len()).sort([*by, "position"]).collect())
    rows = []
    for key, group in counts.group_by(list(by), maintain_order=True):
        # one stream per cell, from the cell itself: the same interval whether the cell is analysed
        # alone or with the others
        rng = np.random.default_rng([seed, *hashlib.blake2b(repr(key).encode(), digest_size=8).digest()])
        players = int(dict(zip(by, key, strict=True)).get("players", group["position"].max() + 1))
        full = np.zeros(players + 1, np.int64)
        full[group["position"].to_numpy() + 1] = group["count"].to_numpy()
        n, wins = int(full.sum()), full[1:]
        boot = rng.multinomial(n, full / n, size=BOOTSTRAP)[:, 1:]
        low, high = np.quantile(position_spread(boot, n), [(1 - confidence) / 2, (1 + confidence) / 2])
        test = stats.chisquare(wins) if wins.sum() > 0 else None
        rates = wins / n
        rows.append({**dict(zip(by, key, strict=True)), "estimate": float(position_spread(wins, n)),
                     "ci_low": float(low), "ci_high": float(high),
                     "chi2": float(test.statistic) if test else None, "dof": players - 1,
                     "chi2_p": float(test.pvalue) if test else None,
                     "best": int(np.argmax(rates)), "worst": int(np.argmin(rates)),
                     "n": n, "won_rounds": int(wins.sum())})
    table = pl.DataFrame(rows)
    return table.with_columns(chi2_p_holm=pl.Series(holm(table["chi2_p"].fill_null(np.nan).to_numpy())))
