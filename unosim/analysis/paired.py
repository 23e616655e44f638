"""Comparisons of two cells (house rule A vs B, lineup A vs B), paired when they share decks.

Cells that share the deck and player count under common random numbers deal the same shuffled deck in
game ``g`` of both, so outcomes are compared game by game (matched by game index). Round-level
outcomes use each game's first round only: in match modes later rounds diverge and are not independent
of the first, while first rounds of distinct games are independent pairs.

* win/loss of a seat: the difference of win rates (B − A) and its paired t interval and test (the
  large-sample equivalent of McNemar's test); unpaired: Welch's interval and test.
* lengths: mean difference (B − A) with the paired t interval and test; unpaired: Welch's.

The interval and the p-value always come from the same test, so the interval excludes 0 exactly when
p < 0.05 (:mod:`unosim.analysis.inference`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import polars as pl

from .inference import paired_difference, unpaired_difference

Selector = Mapping[str, object]


#: the columns of a cell's first rounds that the comparisons read (:func:`compared_rows`)
WIN_COLUMNS = ("game", "seat", "won")
LENGTH_METRICS = ("n_turns", "n_plays", "n_draws")


def _select(frame: pl.LazyFrame | pl.DataFrame, cell: Selector) -> pl.LazyFrame:
    lazy = frame.lazy().filter(pl.col("round") == 0)
    for column, value in cell.items():
        lazy = lazy.filter(pl.col(column).cast(pl.String) == str(value))
    return lazy


def compared_rows(seats: pl.LazyFrame | pl.DataFrame, rounds: pl.LazyFrame | pl.DataFrame,
                  cell: Selector) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A cell's first rounds as :func:`seat_wins` and :func:`length_difference` read them: one query each,
    for a side that takes part in several comparisons.

    Parameters
    ----------
    seats, rounds : polars.LazyFrame or polars.DataFrame
        The seats and rounds tables.
    cell : mapping
        Column → value of the cell (``{"variant": "classic", "players": 4}``), compared as strings.

    Returns
    -------
    tuple of polars.DataFrame
        The seats' wins (``game``, ``seat``, ``won``) and the rounds' lengths (``game``, ``n_turns``,
        ``n_plays``, ``n_draws``) of the cell's first rounds.

    Examples
    --------
    >>> import polars as pl
    >>> seats = pl.DataFrame({"variant": "classic", "round": [0, 0, 1, 1], "game": 0, "seat": [0, 1, 0, 1],
    ...                       "won": [True, False, False, True]})
    >>> rounds = pl.DataFrame({"variant": "classic", "round": [0, 1], "game": 0, "n_turns": [30, 12],
    ...                        "n_plays": [20, 9], "n_draws": [10, 3]})
    >>> wins, lengths = compared_rows(seats, rounds, {"variant": "classic"})
    >>> wins.rows(), lengths.rows()
    ([(0, 0, True), (0, 1, False)], [(0, 30, 20, 10)])
    """
    return (_select(seats, cell).select(WIN_COLUMNS).collect(),
            _select(rounds, cell).select("game", *LENGTH_METRICS).collect())


def compare_wins(seats: pl.LazyFrame | pl.DataFrame, a: Selector, b: Selector, *, paired: bool,
                 confidence: float = 0.95) -> pl.DataFrame:
    """The win rate of every seat in cell B against cell A, game by game when they share decks.

    Parameters
    ----------
    seats : polars.LazyFrame or polars.DataFrame
        The seats table (``round``, ``game``, ``seat``, ``won`` and the columns the cells name).
    a, b : mapping
        Column → value of each cell.
    paired : bool
        The cells deal the same decks (common random numbers): the paired t interval and test on the
        games of both (the large-sample equivalent of McNemar's test), else Welch's.
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    polars.DataFrame
        One row per seat: ``rate_a``, ``rate_b``, ``estimate`` = B − A with ``ci_low``/``ci_high``, ``n``
        (pairs, or the smaller cell when unpaired), ``p_value``, ``only_a_won``/``only_b_won`` (the
        discordant pairs; null when unpaired) and ``test``.

    References
    ----------
    - Student (1908). The probable error of a mean. *Biometrika* 6(1), 1–25.
    - Welch, B. L. (1947). The generalization of "Student's" problem when several different population
      variances are involved. *Biometrika* 34(1–2), 28–35.

    Examples
    --------
    >>> import polars as pl
    >>> seats = pl.DataFrame({"variant": ["classic"] * 4 + ["seven_o"] * 4, "round": 0, "game": [0, 0, 1, 1] * 2,
    ...                       "seat": [0, 1] * 4, "won": [True, False, False, True, True, False, True, False]})
    >>> wins = compare_wins(seats, {"variant": "classic"}, {"variant": "seven_o"}, paired=True)
    >>> wins.select("seat", "rate_a", "rate_b", "estimate", "only_a_won", "only_b_won", "test").rows()
    [(0, 0.5, 1.0, 0.5, 0, 1, 'paired t'), (1, 0.5, 0.0, -0.5, 1, 0, 'paired t')]
    """
    return seat_wins(*(_select(seats, cell).select(WIN_COLUMNS).collect() for cell in (a, b)), paired=paired,
                     confidence=confidence)


def seat_wins(frame_a: pl.DataFrame, frame_b: pl.DataFrame, *, paired: bool,
              confidence: float = 0.95) -> pl.DataFrame:
    """:func:`compare_wins` of two cells' first rounds, read already (:func:`compared_rows`).

    Parameters
    ----------
    frame_a, frame_b : polars.DataFrame
        Each cell's ``game``, ``seat`` and ``won``.
    paired : bool
        The cells deal the same decks: paired t, else Welch's t.
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    polars.DataFrame
        As :func:`compare_wins`.

    References
    ----------
    - Student (1908). The probable error of a mean. *Biometrika* 6(1), 1–25.
    - Welch, B. L. (1947). The generalization of "Student's" problem when several different population
      variances are involved. *Biometrika* 34(1–2), 28–35.

    Examples
    --------
    >>> import polars as pl
    >>> a = pl.DataFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "won": [True, False, False, True]})
    >>> b = pl.DataFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "won": [True, False, True, False]})
    >>> seat_wins(a, b, paired=False).select("seat", "estimate", "test").rows()
    [(0, 0.5, 'Welch t'), (1, -0.5, 'Welch t')]
    """
    rows = []
    for seat in sorted(set(frame_a["seat"]) & set(frame_b["seat"])):
        wa = frame_a.filter(pl.col("seat") == seat)
        wb = frame_b.filter(pl.col("seat") == seat)
        if paired:
            joined = wa.join(wb, on="game", suffix="_b")
            rows.append({"seat": seat, **_paired_wins(joined["won"].to_numpy(), joined["won_b"].to_numpy(),
                                                       confidence)})
        else:
            rows.append({"seat": seat, **_unpaired_wins(wa["won"].to_numpy(), wb["won"].to_numpy(),
                                                        confidence)})
    return pl.DataFrame(rows, schema_overrides={"seat": pl.Int8})


def compare_lengths(rounds: pl.LazyFrame | pl.DataFrame, a: Selector, b: Selector, metric: str, *,
                    paired: bool, confidence: float = 0.95) -> dict[str, object]:
    """The mean of a round length in cell B against cell A, game by game when they share decks.

    Parameters
    ----------
    rounds : polars.LazyFrame or polars.DataFrame
        The rounds table (``round``, ``game``, ``metric`` and the columns the cells name).
    a, b : mapping
        Column → value of each cell.
    metric : str
        The length: ``n_turns``, ``n_plays`` or ``n_draws``.
    paired : bool
        The cells deal the same decks: the paired t interval and test, else Welch's.
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    dict
        ``metric``, ``mean_a``, ``mean_b``, ``estimate`` = mean(B − A) with ``ci_low``/``ci_high``, ``n``,
        ``p_value`` and ``test``.

    References
    ----------
    - Student (1908). The probable error of a mean. *Biometrika* 6(1), 1–25.
    - Welch, B. L. (1947). The generalization of "Student's" problem when several different population
      variances are involved. *Biometrika* 34(1–2), 28–35.

    Examples
    --------
    The same five decks under two rules: pairing takes the decks' own lengths out of the comparison.

    >>> import polars as pl
    >>> rounds = pl.DataFrame({"variant": ["classic"] * 5 + ["seven_o"] * 5, "round": 0, "game": [0, 1, 2, 3, 4] * 2,
    ...                        "n_turns": [30, 41, 25, 38, 33, 34, 45, 27, 40, 38]})
    >>> r = compare_lengths(rounds, {"variant": "classic"}, {"variant": "seven_o"}, "n_turns", paired=True)
    >>> r["estimate"], [round(r[k], 4) for k in ("ci_low", "ci_high", "p_value")]
    (3.4, [1.7341, 5.0659, 0.0048])
    >>> r = compare_lengths(rounds, {"variant": "classic"}, {"variant": "seven_o"}, "n_turns", paired=False)
    >>> r["test"], [round(r[k], 4) for k in ("ci_low", "ci_high", "p_value")]
    ('Welch t', [-6.1702, 12.9702, 0.4362])
    """
    return length_difference(*(_select(rounds, cell).select("game", metric).collect() for cell in (a, b)), metric,
                             paired=paired, confidence=confidence)


def length_difference(xa: pl.DataFrame, xb: pl.DataFrame, metric: str, *, paired: bool,
                      confidence: float = 0.95) -> dict[str, object]:
    """:func:`compare_lengths` of two cells' first rounds, read already (:func:`compared_rows`).

    Parameters
    ----------
    xa, xb : polars.DataFrame
        Each cell's ``game`` and ``metric``.
    metric : str
        The column compared.
    paired : bool
        The cells deal the same decks: paired t, else Welch's t.
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    dict
        As :func:`compare_lengths`.

    References
    ----------
    - Student (1908). The probable error of a mean. *Biometrika* 6(1), 1–25.
    - Welch, B. L. (1947). The generalization of "Student's" problem when several different population
      variances are involved. *Biometrika* 34(1–2), 28–35.

    Examples
    --------
    >>> import polars as pl
    >>> a = pl.DataFrame({"game": [0, 1, 2, 3, 4], "n_turns": [30, 41, 25, 38, 33]})
    >>> b = pl.DataFrame({"game": [0, 1, 2, 3, 4], "n_turns": [34, 45, 27, 40, 38]})
    >>> r = length_difference(a, b, "n_turns", paired=True)
    >>> r["mean_a"], r["mean_b"], round(r["p_value"], 4), r["test"]
    (33.4, 36.8, 0.0048, 'paired t')
    """
    if paired:
        joined = xa.join(xb, on="game", suffix="_b")
        effect = paired_difference(joined[metric].to_numpy(), joined[f"{metric}_b"].to_numpy(), confidence)
        test = "paired t"
    else:
        effect = unpaired_difference(xa[metric].to_numpy(), xb[metric].to_numpy(), confidence)
        test = "Welch t"
    return {"metric": metric, "mean_a": effect["mean_a"], "mean_b": effect["mean_b"], **_core(effect),
            "test": test}


def _paired_wins(won_a: np.ndarray, won_b: np.ndarray, confidence: float) -> dict[str, object]:
    effect = paired_difference(won_a, won_b, confidence)
    return {"rate_a": effect["mean_a"], "rate_b": effect["mean_b"], **_core(effect),
            "only_a_won": int(np.sum(won_a & ~won_b)), "only_b_won": int(np.sum(~won_a & won_b)),
            "test": "paired t"}


def _unpaired_wins(won_a: np.ndarray, won_b: np.ndarray, confidence: float) -> dict[str, object]:
    effect = unpaired_difference(won_a, won_b, confidence)
    return {"rate_a": effect["mean_a"], "rate_b": effect["mean_b"], **_core(effect), "only_a_won": None,
            "only_b_won": None, "test": "Welch t"}


def _core(effect: dict) -> dict[str, object]:
    return {k: effect[k] for k in ("estimate", "ci_low", "ci_high", "n", "p_value")}
