"""Hypothesis strategies for adversarial analysis tables (a helper module, not a test module).

Each strategy draws the rows ``unosim analyze`` could write — every column the findings read, with
Holm's ``p_holm`` computed by the analysis code itself — and leans on the edges: mixed signs within a
comparison, several lineups and table sizes, zero baselines, unbounded Fieller intervals, truncated
rounds, ties, p-values of exactly 0 or 1, effects and p-values right at the thresholds.

Hypothesis chooses which tables a set holds and a seed; the rows are drawn from that seed by numpy
(:class:`Rows`), which costs a millisecond where drawing every value through hypothesis cost a tenth
of a second, so that 10,000 table sets fit in a CI run.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from hypothesis import strategies as st

from unosim.analysis.effects import finish_effects
from unosim.analysis.inference import holm
from unosim.analysis.practical import games_to_decide

NAN = math.nan
# values at the edges: the minimum effects (2 % relative, 1 and 0.5 points) and α, each side of them
EDGES = [0.0, 1e-12, 0.005, 0.00499999, 0.0050001, 0.01, 0.0099999, 0.0100001, 0.02, 0.0199999, 0.0200001,
         0.049999, 0.05, 0.050001, 0.5, 1.0, 3.0, 95.0]
P_EDGES = [0.0, 1e-300, 1e-20, 0.0004999, 0.0005, 0.001, 0.01, 0.025, 0.05, 0.2, 1.0]
MEASURES = ("length", "no_winner", "lead_changes", "comebacks", "max_hand", "penalty", "knockouts", "fairness")
SHARES = ("comebacks", "no_winner", "fairness")   # measures whose values are shares (0 to 1)
CARDS = [("n0", 0), ("n5", 5), ("n9", 9), ("skip", 20), ("draw_two", 20), ("wild", 50), ("wd4", 50)]


class Rows:
    """Random choices for one table set, from a seed (numpy): edge values half of the time."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def coin(self, p: float = 0.5) -> bool:
        return bool(self.rng.random() < p)

    def pick(self, values):
        return values[int(self.rng.integers(len(values)))]

    def some(self, values, most: int) -> list:
        k = int(self.rng.integers(1, min(most, len(values)) + 1))
        return [values[i] for i in sorted(self.rng.choice(len(values), size=k, replace=False))]

    def magnitude(self, edges=EDGES, high: float = 50.0) -> float:
        return self.pick(edges) if self.coin() else float(self.rng.uniform(1e-9, high))

    def signed(self, edges=EDGES, high: float = 50.0) -> float:
        return self.magnitude(edges, high) * self.pick([1, -1])

    def p_value(self) -> float:
        return self.pick(P_EDGES) if self.coin() else float(self.rng.random())


def effect_row(r: Rows, measure: str) -> dict:
    n = r.pick([2, 3, 100, 1000, 123_456])
    mean_a = 0.0 if r.coin(0.2) else (r.pick([0.1, 1.0, 40.0, 9999.0]) if r.coin() else float(r.rng.uniform(1e-6, 1e4)))
    if measure in SHARES:
        mean_a = min(abs(mean_a), 1.0)
    truncated_a, truncated_b = r.pick([0.0, 0.0, 1e-4, 0.3, 1.0]), r.pick([0.0, 0.0, 1e-4, 0.3, 1.0])
    truncation = {"truncated_a": truncated_a, "truncated_b": truncated_b,
                  "cap": r.pick([40, 10_000]) if truncated_a or truncated_b else None}
    if r.coin(0.25):
        return {"measure": measure, "identical": True, "mean_a": mean_a, "mean_b": mean_a, "n": n,
                "test": "identical games", **truncation}
    estimate = r.signed()
    if measure in SHARES and abs(estimate) > 1:
        estimate = math.copysign(1.0, estimate)
    mean_b = mean_a + estimate
    half = 0.0 if r.coin(0.2) else r.magnitude()
    row = {"measure": measure, "identical": False, "mean_a": mean_a, "mean_b": mean_b, "estimate": estimate,
           "ci_low": estimate - half, "ci_high": estimate + half, "p_value": r.p_value(), "n": n,
           "test": "paired t", **truncation}
    if measure == "fairness":  # a bootstrap interval, or none (an analysis from before there was one)
        row.update(test=r.pick(["χ² homogeneity", "permutation χ² (paired)"]))
        if r.coin(0.3):
            row.update(ci_low=None, ci_high=None)
    if mean_a != 0:
        rel = mean_b / mean_a - 1
        spread = r.magnitude()
        bounded = r.coin()
        row.update(rel_change=rel, rel_low=rel - spread if bounded else NAN, rel_high=rel + spread if bounded else NAN)
    else:
        row.update(rel_change=NAN, rel_low=NAN, rel_high=NAN)
    return row


def effects_table(r: Rows) -> pl.DataFrame:
    rows = []
    comparisons = r.some([(axis, b) for axis in ("variant", "lineup") for b in ("rule_a", "rule_b", "greedy")], 3)
    for axis, b in comparisons:
        lineups = ["greedy_first"] if axis == "lineup" else r.some(["random", "greedy_first", "bluffer"], 3)
        variants = r.some(["classic", "minions"], 2) if axis == "lineup" else ["classic"]
        players = r.some([2, 3, 4], 3)
        measures = r.some(list(MEASURES), 4)
        for lineup in lineups:
            for variant in variants:
                for n_players in players:
                    for measure in measures:
                        label = {"axis": axis, "a": "classic" if axis == "variant" else "random", "b": b,
                                 "variant": variant, "players": n_players, "lineup": lineup, "paired": True}
                        rows.append({**label, **effect_row(r, measure)})
    return finish_effects(rows)


def _with_holm(rows: list[dict], column: str = "p_value") -> pl.DataFrame:
    table = pl.DataFrame(rows)
    return table.with_columns(p_holm=pl.Series(holm(table[column].to_numpy())))


def skill_table(r: Rows) -> pl.DataFrame:
    rows = []
    for lineup, policy in r.some([("greedy_first", "greedy_points"), ("wilds", "keep_wilds"),
                                  ("by_colour", "by_colour")], 3):
        for variant in r.some(["classic", "no_mercy", "spin"], 3):
            for players in r.some([2, 3, 4], 3):
                fair = 1 / players
                estimate = max(min(r.signed(EDGES[:12], 0.4), 1 - fair), -fair)
                half = r.pick([0.0, 0.001, 0.02])
                needed = r.pick([None, 1, 19, 5131, 9_999_999])
                rows.append({"variant": variant, "players": players, "lineup": lineup, "seat": 0, "policy": policy,
                             "win_rate": fair + estimate, "fair_share": fair, "estimate": estimate,
                             "ci_low": estimate - half, "ci_high": estimate + half, "p_value": r.p_value(),
                             "n": r.pick([1, 50, 3000]), "rounds": 3000, "random_rate": None,
                             "baseline": variant == "classic", "rounds_needed": needed,
                             "rounds_needed_ci_low": needed and max(1, needed // 2),
                             "rounds_needed_ci_high": needed and r.pick([None, needed * 3]),
                             "same_games_as": r.pick([None, None, None, f"classic {players}p {lineup}"])})
    return _with_holm(rows)


def skill_changes_table(r: Rows) -> pl.DataFrame:
    """How each rule changes the skilled seat's edge (analysis.skill_rules): mixed signs, identical games,
    effects and p-values at the thresholds."""
    rows = []
    for b in r.some(["stacking_any_draw", "jump_in", "seven_o", "hand_size_5"], 4):
        for lineup, policy in r.some([("expert", "lookahead"), ("greedy_first", "greedy_points")], 2):
            for players in r.some([2, 3, 4], 3):
                label = {"a": "classic", "b": b, "players": players, "lineup": lineup, "policy": policy, "seat": 0}
                if r.coin(0.15):
                    rows.append({**label, "identical": True, "n": r.pick([2, 5000])})
                    continue
                edge_a = r.magnitude(EDGES[:12], 0.5)
                estimate = max(min(r.signed(EDGES[:12], 0.4), 1.0), -1.0)
                half = r.pick([0.0, 0.001, 0.02])
                rows.append({**label, "identical": False, "edge_a": edge_a, "edge_b": edge_a + estimate,
                             "estimate": estimate, "ci_low": estimate - half, "ci_high": estimate + half,
                             "p_value": r.p_value(), "n": r.pick([2, 100, 5000]),
                             "no_winner_a": r.pick([0.0, 0.0, 1e-4, 0.81]), "no_winner_b": r.pick([0.0, 0.02, 0.5])})
    schema = {"a": pl.String, "b": pl.String, "players": pl.Int64, "lineup": pl.String, "policy": pl.String,
              "seat": pl.Int64, "identical": pl.Boolean, "edge_a": pl.Float64, "edge_b": pl.Float64,
              "estimate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64, "p_value": pl.Float64,
              "n": pl.Int64, "no_winner_a": pl.Float64, "no_winner_b": pl.Float64}
    table = pl.DataFrame([{k: row.get(k) for k in schema} for row in rows], schema=schema)
    table = table.with_columns(p_holm=pl.Series(holm(table["p_value"].fill_null(NAN).to_numpy())))
    return table.with_columns(games_to_decide=pl.Series([games_to_decide("skill_edge", row) for row in table.to_dicts()],
                                                        dtype=pl.Int64))


def fairness_table(r: Rows) -> pl.DataFrame:
    rows = []
    for variant in r.some(["classic", "minions", "spin"], 3):
        for lineup in r.some(["random", "greedy_first"], 2):
            players = r.pick([2, 3, 4])
            spread = r.magnitude(EDGES[:12], 0.5)
            half = r.pick([0.0, 0.004, 0.03])
            rows.append({"variant": variant, "players": players, "lineup": lineup, "estimate": spread,
                         "ci_low": max(0.0, spread - half), "ci_high": spread + half, "range_p": r.p_value(),
                         "chi2": 1.0, "dof": players - 1, "chi2_p": 0.5, "best": 1, "worst": 0, "n": 1000,
                         "won_rounds": 900, "same_games_as": r.pick([None, None, None, f"classic {players}p random"])})
    return _with_holm(rows, "range_p")


def card_table(r: Rows) -> pl.DataFrame:
    rows = []
    for variant in r.some(["classic", "minions", "classic_no_blank"], 2):
        for players in r.some([2, 3, 4], 2):
            for lineup in r.some(["random", "greedy_first"], 2):
                for card, points in r.some(CARDS, 5):
                    estimate = r.signed(EDGES[:12], 0.1)
                    half = r.pick([0.0, 0.001, 0.01])
                    rows.append({"variant": variant, "players": players, "lineup": lineup, "card": card,
                                 "points": points, "estimate": estimate, "ci_low": estimate - half,
                                 "ci_high": estimate + half, "p_value": r.p_value(),
                                 "suggested_points": points if r.coin() else int(r.rng.integers(0, 81)),
                                 "slope": 0.001, "rank": 1})
    return _with_holm(rows)


def head_to_head_table(r: Rows) -> pl.DataFrame:
    names = r.some(["random", "greedy_points", "keep_wilds", "by_colour"], 4)
    if len(names) < 2:
        names = ["random", "greedy_points"]
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            share = r.pick([0.5, 0.505, 0.51, 0.50999, 0.49, 0.0, 1.0]) if r.coin() else float(r.rng.random())
            half, p = r.pick([0.0, 0.004, 0.02]), r.p_value()
            for x, y, est in ((a, b, share), (b, a, 1 - share)):
                rows.append({"a": x, "b": y, "estimate": est, "ci_low": est - half, "ci_high": est + half,
                             "p_value": p, "comparisons": 1000, "deals": 100})
    return _with_holm(rows)


BUILDERS = {"effects": effects_table, "skill": skill_table, "skill_changes": skill_changes_table,
            "fairness": fairness_table,
            "card_balance": card_table, "head_to_head": head_to_head_table}


@st.composite
def table_sets(draw) -> dict[str, pl.DataFrame]:
    """A set of one to six of the tables, their rows drawn from a seed hypothesis chooses."""
    chosen = draw(st.lists(st.sampled_from(list(BUILDERS)), min_size=1, max_size=len(BUILDERS), unique=True))
    rows = Rows(draw(st.integers(0, 2**63 - 1)))
    return {name: BUILDERS[name](rows) for name in chosen}


def as_csv(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """The tables as their CSV files read back (what the checker sees)."""
    from unosim.analysis.standard import as_written
    return as_written(tables)
