"""How much skill matters: the win rate of the one skilled seat of a lineup against its fair share.

For every cell whose lineup has exactly one seat with a policy other than ``random`` (e.g.
``greedy_points,random*``), the skill edge is that seat's share of the **won rounds** minus its fair
share 1/N, with Wilson's interval and the score test (the interval is the inversion of the test, so
they agree; raw 95 %, ``p_holm`` adjusts over the table, one Holm family named "skill" in the report).
Rounds without a winner (truncated at the turn cap, stalemates) are left out: counted as losses for
every seat they would pull every seat below 1/N, and a seat winning more than its share of the rounds
that have a winner would be reported as losing (``n`` is the won rounds, ``rounds`` all rounds). When
the study also has the all-``random`` lineup for the same variant and player count, that seat's share
of won rounds there is shown beside it (``random_rate``): the seats are symmetric, so it sits near 1/N
and any difference comes from the seat's position, not its policy. How a house rule changes the edge is
:mod:`unosim.analysis.skill_rules`.
"""

from __future__ import annotations

import polars as pl

from .distributions import normal_sf
from .effects import all_random, skilled_seat
from .intervals import clustered_rates
from .luck import rounds_needed_row
from .proportions import score_test_proportion
from .twin_cells import game_twins, with_holm


def skill_edges(rounds: pl.LazyFrame | pl.DataFrame, cells: pl.DataFrame, confidence: float = 0.95,
                cluster: str | None = None, house_rules: frozenset[str] = frozenset()) -> pl.DataFrame:
    """The skill edge of every cell with one skilled seat: its share of the won rounds against 1/N.

    Parameters
    ----------
    rounds : polars.LazyFrame or polars.DataFrame
        The rounds table: ``variant``, ``players``, ``lineup``, ``winner_seat`` (and ``cluster``).
    cells : polars.DataFrame
        One row per cell: ``variant``, ``players``, ``lineup``, ``lineup_spec``, ``lineup_label``.
    confidence : float, default 0.95
        Coverage of the intervals.
    cluster : str, optional
        A column whose rounds are not independent (``"game"`` in match modes): the cluster-robust Wald
        interval and z test over it (:func:`.intervals.clustered_rates`) instead of Wilson's.
    house_rules : frozenset of str, default frozenset()
        The variants a study compares with a baseline.

    Returns
    -------
    polars.DataFrame
        One row per cell with one skilled seat (see the module docstring): ``seat``, ``policy``,
        ``win_rate``, ``fair_share`` (1/N), ``estimate`` = win rate − 1/N with ``ci_low``/``ci_high`` and
        ``p_value``, ``n`` (won rounds), ``rounds``, ``random_rate``, ``baseline`` (not one of
        ``house_rules``), ``rounds_needed`` with its interval (:func:`.luck.rounds_needed_row`), ``p_holm``.

    References
    ----------
    - Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference. *JASA* 22.
    - Holm, S. (1979). A simple sequentially rejective multiple test procedure. *Scand. J. Statist.* 6(2).

    Examples
    --------
    >>> import polars as pl
    >>> cells = pl.DataFrame({"variant": "classic", "players": 2, "lineup": ["greedy", "random"],
    ...                       "lineup_spec": ["greedy_points,random", "random"],
    ...                       "lineup_label": ["greedy_points,random", "random,random"]})
    >>> winners = [0] * 240 + [1] * 150 + [-1] * 10 + [0] * 200 + [1] * 195 + [-1] * 5   # 400 rounds each
    >>> rounds = pl.DataFrame({"variant": "classic", "players": 2, "winner_seat": winners,
    ...                        "lineup": ["greedy"] * 400 + ["random"] * 400})
    >>> skill_edges(rounds, cells).select("n", pl.col("estimate", "ci_low", "random_rate").round(4)).rows()
    [(390, 0.1154, 0.0662, 0.5063)]
    """
    keys = ["variant", "players", "lineup", "winner_seat", *([cluster] if cluster else [])]
    wins = (rounds.lazy().group_by(keys).agg(count=pl.len())
            .collect().with_columns(pl.col("variant", "lineup").cast(pl.String)))
    rows = []
    for cell in cells.iter_rows(named=True):
        players = int(cell["players"])
        seat = skilled_seat(cell["lineup_spec"], players)
        if seat is None:
            continue
        here = wins.filter(pl.col("variant") == cell["variant"], pl.col("players") == players)
        mine = here.filter(pl.col("lineup") == cell["lineup"])
        rounds_played = int(mine["count"].sum())
        n = int(mine.filter(pl.col("winner_seat") >= 0)["count"].sum())
        if n == 0:
            continue
        k = int(mine.filter(pl.col("winner_seat") == seat)["count"].sum())
        random_rate = None
        for other in cells.filter(pl.col("variant") == cell["variant"], pl.col("players") == players) \
                .iter_rows(named=True):
            if all_random(other["lineup_spec"], players):
                theirs = here.filter(pl.col("lineup") == other["lineup"], pl.col("winner_seat") >= 0)
                won = int(theirs["count"].sum())
                random_rate = int(theirs.filter(pl.col("winner_seat") == seat)["count"].sum()) / won if won else None
        test = score_test_proportion(k, n, 1 / players, confidence) if cluster is None else \
            _clustered_test(mine.filter(pl.col("winner_seat") >= 0), seat, cluster, 1 / players, confidence)
        policy = cell["lineup_label"].split(",")[seat]
        fair = 1 / players
        rows.append({"variant": cell["variant"], "players": players, "lineup": cell["lineup"], "seat": seat,
                     "policy": policy, "win_rate": test["rate"], "fair_share": fair,
                     "estimate": test["estimate"], "ci_low": test["ci_low"], "ci_high": test["ci_high"],
                     "p_value": test["p_value"], "n": n, "rounds": rounds_played,
                     "random_rate": random_rate, "baseline": cell["variant"] not in house_rules,
                     **rounds_needed_row(test["rate"], fair + test["ci_low"], fair + test["ci_high"], share=fair)})
    table = pl.DataFrame(rows)
    if table.is_empty():
        return table
    return with_holm(table, "p_value", game_twins(cells))


def _clustered_test(won: pl.DataFrame, seat: int, cluster: str, p0: float, confidence: float) -> dict[str, float]:
    """The seat's share of won rounds against ``p0`` with a cluster-robust Wald interval and z test."""
    per = (won.group_by(cluster).agg(wins=pl.col("count").filter(pl.col("winner_seat") == seat).sum(),
                                     n=pl.col("count").sum()).with_columns(_all=pl.lit(0)))
    row = clustered_rates(per, ["_all"], "wins", "n", confidence).row(0, named=True)
    rate, se = row["estimate"], row["se"]
    p_value = float(2 * normal_sf(abs(rate - p0) / se)) if se > 0 else (1.0 if rate == p0 else 0.0)
    return {"rate": rate, "estimate": rate - p0, "ci_low": row["ci_low"] - p0, "ci_high": row["ci_high"] - p0,
            "p_value": p_value, "n": int(row["n"])}
