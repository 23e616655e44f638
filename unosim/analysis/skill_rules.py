"""How each house rule changes the expert's edge: the ``skill_changes`` table, its own Holm family.

A house-rule study (``unosim study new house-rules``) plays, in every variant cell, a lineup with one
skilled seat (the expert ``lookahead,random*``) and its all-``random`` twin on the same deals (common
random numbers). A cell's **edge** is the skilled seat's share of that lineup's rounds *with a winner*
minus the same seat's share of the all-random twin's rounds with a winner (docs/rules.md §8.3: a round
without a winner is no one's loss; counted as one, a rule that only makes the twin's rounds stall would
seem to reward skill). For each ``[[comparisons]]`` entry of axis ``variant`` (A: the published
variant, B: one rule changed) and each players × skilled lineup they share, the row is B's edge minus
A's, paired by game (the four cells deal the same cards): four ratios of means over the same games, so
its raw 95 % interval and ``p_value`` come from the delta method over games
(:func:`~unosim.analysis.inference.ratio_contrast`, a t test on each game's influence), valid whichever
rounds the rule leaves without a winner. ``edge_a``/``edge_b`` are the two edges (shares of won
rounds); ``no_winner_a``/``no_winner_b`` the skilled lineup's share of rounds with no winner in A and B —
that change is an effect of its own (the ``no_winner`` rows of the effects table), not a change of skill.

Holm's ``p_holm`` adjusts over this table only — one family, "skill changes: every house rule × skilled
lineup of the study" (:data:`unosim.analysis.claims.CLAIM_TABLES`), so a study's many other effects do not
dilute the question a designer asks of it: does this rule widen or narrow the expert's edge over random
players?
When the four cells played identical games the row says ``identical`` and has no test. An inconclusive
row (:mod:`.practical`) has the paired games that would decide it, ``games_to_decide``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import polars as pl

from .effects import all_random, first_rounds, identical_games, skilled_seat
from .inference import ratio_contrast
from .practical import games_to_decide
from .twin_cells import game_twins, with_holm
from .win_rates import CELL

_SCHEMA = {"a": pl.String, "b": pl.String, "players": pl.Int64, "lineup": pl.String, "policy": pl.String,
           "seat": pl.Int64, "identical": pl.Boolean, "edge_a": pl.Float64, "edge_b": pl.Float64,
           "estimate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64, "p_value": pl.Float64,
           "n": pl.Int64, "no_winner_a": pl.Float64, "no_winner_b": pl.Float64}


def edge_change(frames: Mapping[str, pl.DataFrame], seat: int, confidence: float = 0.95) -> dict:
    """B's edge minus A's. ``frames`` holds the first rounds of ``a_skilled``, ``a_random``,
    ``b_skilled``, ``b_random``, all on the same games; each cell's share of its won rounds that ``seat``
    won, the edges skilled − random, their change by the delta method over games (module docstring)."""
    games = frames["a_skilled"]["game"]
    for f in frames.values():
        if not f["game"].equals(games):
            raise ValueError("a skill change needs the four cells on the same games (common random numbers)")
    won = {k: (f["winner_seat"] == seat).cast(pl.Float64).to_numpy() for k, f in frames.items()}
    has = {k: (f["winner_seat"] >= 0).cast(pl.Float64).to_numpy() for k, f in frames.items()}
    if any(h.sum() < 2 for h in has.values()):   # (almost) no round with a winner in a cell: no edge
        return {"identical": False, "n": len(games), **_no_winner(frames)}
    sign = {"b_skilled": 1.0, "b_random": -1.0, "a_skilled": -1.0, "a_random": 1.0}
    test = ratio_contrast([(sign[k], won[k], has[k]) for k in sign], confidence)
    share = dict(zip(sign, test["ratios"], strict=True))
    return {"identical": False, "edge_a": share["a_skilled"] - share["a_random"],
            "edge_b": share["b_skilled"] - share["b_random"],
            **{k: test[k] for k in ("estimate", "ci_low", "ci_high", "p_value", "n")},
            **_no_winner(frames)}


def _no_winner(frames: Mapping[str, pl.DataFrame]) -> dict[str, float]:
    """The skilled lineup's share of rounds with no winner in A and in B."""
    return {f"no_winner_{s}": float((frames[f"{s}_skilled"]["winner_seat"] < 0).mean()) for s in ("a", "b")}


def skill_changes(rounds: pl.LazyFrame | pl.DataFrame, cells: pl.DataFrame, comparisons: Sequence[Mapping],
                  shares_decks: Callable[[str, str], bool], confidence: float = 0.95) -> pl.DataFrame:
    """One row per variant comparison × players × skilled lineup with a twin on the same deals (module
    docstring), with ``p_holm`` over the table; an empty table when there is none."""
    rows = []
    for spec in comparisons:
        if spec["axis"] != "variant":
            continue
        for players in sorted(set(cells["players"].to_list())):
            here = cells.filter(pl.col("players") == players)
            side = {s: here.filter(pl.col("variant") == spec[s]) for s in ("a", "b")}
            twin = {s: _twin(side[s], players) for s in ("a", "b")}
            if twin["a"] is None or twin["b"] is None:
                continue
            for cell_a in side["a"].iter_rows(named=True):
                seat = skilled_seat(cell_a["lineup_spec"], players)
                match_b = side["b"].filter(pl.col("lineup") == cell_a["lineup"])
                if seat is None or match_b.is_empty():
                    continue
                cell_b = match_b.row(0, named=True)
                four = {"a_skilled": cell_a, "a_random": twin["a"], "b_skilled": cell_b, "b_random": twin["b"]}
                names = [c["name"] for c in four.values()]
                if not all(shares_decks(names[0], other) for other in names[1:]):
                    continue
                frames = on_common_games({k: first_rounds(rounds, {c: v[c] for c in CELL}) for k, v in four.items()})
                label = {"a": spec["a"], "b": spec["b"], "players": players, "lineup": cell_a["lineup"],
                         "policy": cell_a["lineup_label"].split(",")[seat], "seat": seat}
                if identical_games(frames["a_skilled"], frames["b_skilled"]) \
                        and identical_games(frames["a_random"], frames["b_random"]):
                    rows.append({**label, "identical": True, "n": frames["a_skilled"].height, **_no_winner(frames)})
                else:
                    rows.append({**label, **edge_change(frames, seat, confidence)})
    table = pl.DataFrame([{k: r.get(k) for k in _SCHEMA} for r in rows], schema=_SCHEMA)
    if table.is_empty():
        return table.with_columns(p_holm=pl.lit(None, pl.Float64), games_to_decide=pl.lit(None, pl.Int64))
    table = with_holm(table, "p_value", game_twins(cells))
    return table.with_columns(games_to_decide=pl.Series([games_to_decide("skill_edge", r) for r in table.to_dicts()],
                                                        dtype=pl.Int64))


def on_common_games(frames: Mapping[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """``frames`` (first rounds, by game) cut to the games every one of them played. Under common random
    numbers game g deals the same cards in every cell, so those games pair; a house-rule study plays
    fewer games in its expert cells (each costs a search per turn) than in their all-random twins."""
    common = None
    for frame in frames.values():
        games = frame.select("game")
        common = games if common is None else common.join(games, on="game", how="semi")
    return {k: f.join(common, on="game", how="semi").sort("game") for k, f in frames.items()}


def _twin(cells: pl.DataFrame, players: int) -> dict | None:
    """The all-random cell among ``cells`` (one variant at one table size), or None."""
    for cell in cells.iter_rows(named=True):
        if all_random(cell["lineup_spec"], players):
            return cell
    return None
