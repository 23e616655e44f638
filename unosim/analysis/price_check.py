"""A declared card's price checked by a paired study (docs/rules.md §2.7, §8.9).

The card-value fit (:mod:`.card_values`) reads a card's worth off one study: seats that were dealt the
card against seats that were dealt other cards, in different games. A paired study measures it by
intervention instead. Deck A declares the card; deck B declares in its place (the same slot, the same
colour class and count) a copy of a built-in card R printed at other points, so that it stays a class of
its own (a copy at R's own points would join R, docs/rules.md §2.7). The two decks have the same size and
the slot's copies the same places in it, so under one seed every game deals the same cards to the same
seats (common random numbers), and only what the slot's copies do differs. (Removing the card instead
would change the deck's size and with it every shuffle: nothing would be paired.)

Per seat and game, ``d = won_A − won_B`` (same deal) is regressed by least squares on the copies ``x`` of
the slot the seat was dealt, with an intercept (a seat's copies change the others' chances too, and the
games where the card is never played cancel); the slope ``δ`` is the change in the holder's win
probability per copy being the card rather than R. Its standard error is cluster-robust by game (CR1,
the seats of a game are dependent).

The fit of deck A alone predicts the same number, ``v_card − v_R``: the two values of its card-value
table, each against an average card of the deal. Both hold the other seats' hands at random as they are
dealt (a seat holding more copies leaves fewer to the others, in both), so they agree in expectation;
:func:`agreement` says by how many standard errors they differ, the standard error of the difference
taken as the root of the sum of the three squared errors (the estimates come from the same deals and are
positively correlated, which makes that root an overestimate: the check is conservative).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from .distributions import normal_quantile

MATCHED = ("game", "round", "seat")


def paired_copy_effect(seats_a: pl.DataFrame, seats_b: pl.DataFrame, column: str,
                       confidence: float = 0.95) -> dict[str, float]:
    """The paired effect ``δ`` (module docstring): the change in the holder's win probability per copy of
    the slot being the declared card (deck A) rather than the copy of a built-in card (deck B).

    Parameters
    ----------
    seats_a, seats_b : polars.DataFrame
        The seat tables of the two decks played on the same seeds (columns ``game``, ``round``, ``seat``,
        ``won`` and the opening counts ``open_*``), rows of a game contiguous.
    column : str
        The seat table's opening count of the slot (``open_declared_<slot>``).
    confidence : float
        Of the interval.

    Returns
    -------
    dict
        ``estimate`` (δ), ``std_error`` (cluster-robust by game, CR1), ``ci_low``, ``ci_high`` (normal),
        ``games``. A ValueError when the two tables did not deal the same hands game by game.

    References
    ----------
    - Cameron, A. C., Miller, D. L. (2015). A practitioner's guide to cluster-robust inference. *Journal of
      Human Resources* 50(2), 317–372.
    - Law, A. M. (2015). *Simulation Modeling and Analysis*, 5th ed., section 11.2 (common random numbers).

    Examples
    --------
    >>> a = pl.DataFrame({"game": [0, 0, 1, 1, 2, 2], "round": [0] * 6, "seat": [0, 1] * 3,
    ...                   "won": [True, False, True, False, False, True], "open_declared_1": [1, 0, 2, 0, 0, 1]})
    >>> b = a.with_columns(won=pl.Series([False, True, True, False, True, False]))
    >>> round(paired_copy_effect(a, b, "open_declared_1")["estimate"], 4)
    0.6
    """
    opening = [c for c in seats_a.columns if c.startswith("open_")]
    a = seats_a.select(*MATCHED, "won", *opening)
    b = seats_b.select(*MATCHED, "won", *opening)
    if a.height != b.height or not a.select(*MATCHED, *opening).equals(b.select(*MATCHED, *opening)):
        raise ValueError("paired_copy_effect: the two seat tables did not deal the same hands game by game: "
                         "play both decks with the same seed, and give the two cards the same slot, colour "
                         "class and count")
    d = (a["won"].cast(pl.Int8) - b["won"].cast(pl.Int8)).cast(pl.Float64).to_numpy()
    x = a[column].cast(pl.Float64).to_numpy()
    game = a["game"].to_numpy()
    design = np.column_stack([np.ones_like(x), x])
    bread = np.linalg.inv(design.T @ design)
    beta = bread @ design.T @ d
    residual = d - design @ beta
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
    scores = np.add.reduceat(design * residual[:, None], starts, axis=0)   # rows of a game are contiguous
    g, n, k = len(starts), len(d), design.shape[1]
    cov = bread @ (scores.T @ scores) @ bread * (g / (g - 1)) * ((n - 1) / (n - k))
    se = math.sqrt(cov[1, 1])
    z = float(normal_quantile(0.5 + confidence / 2))
    return {"estimate": float(beta[1]), "std_error": se, "ci_low": float(beta[1]) - z * se,
            "ci_high": float(beta[1]) + z * se, "games": g}


def agreement(values_a: pl.DataFrame, card: str, reference: str, paired: dict[str, float]) -> dict[str, float]:
    """Deck A's fit and the paired study, side by side: the fit's ``v_card − v_reference`` and the paired
    ``δ`` of the same swap, and by how many standard errors they differ.

    Parameters
    ----------
    values_a : polars.DataFrame
        Deck A's card-value table (:func:`unosim.analysis.card_values`) of one cell.
    card, reference : str
        The declared card and the built-in card whose copy stood in its place in deck B.
    paired : dict
        :func:`paired_copy_effect` of the two decks.

    Returns
    -------
    dict
        ``fit`` and ``fit_se`` (the two values' errors combined as independent), ``paired`` and
        ``paired_se``, and ``z``: (fit − paired) over the root of the sum of the three squared errors.

    References
    ----------
    - Cameron, A. C., Miller, D. L. (2015). A practitioner's guide to cluster-robust inference. *Journal of
      Human Resources* 50(2), 317–372.

    Examples
    --------
    >>> values = pl.DataFrame({"card": ["draw_three", "draw_two"], "estimate": [0.012, 0.010],
    ...                        "std_error": [0.001, 0.001]})
    >>> check = agreement(values, "draw_three", "draw_two", {"estimate": 0.003, "std_error": 0.001})
    >>> round(check["fit"], 4), round(check["z"], 2)
    (0.002, -0.58)
    """
    row = {r["card"]: r for r in values_a.filter(pl.col("card").is_in([card, reference])).iter_rows(named=True)}
    missing = [c for c in (card, reference) if c not in row]
    if missing:
        raise ValueError(f"agreement: {missing[0]!r} has no row of the card-value table: valid are "
                         f"{values_a['card'].to_list()}")
    fit = row[card]["estimate"] - row[reference]["estimate"]
    se = math.sqrt(row[card]["std_error"] ** 2 + row[reference]["std_error"] ** 2 + paired["std_error"] ** 2)
    return {"fit": fit, "fit_se": math.hypot(row[card]["std_error"], row[reference]["std_error"]),
            "paired": paired["estimate"], "paired_se": paired["std_error"], "z": (fit - paired["estimate"]) / se}
