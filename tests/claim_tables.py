"""Hypothesis strategies for adversarial analysis tables (a helper module, not a test module).

Each strategy draws the rows ``unosim analyze`` could write — every column the findings read, with
Holm's ``p_holm`` computed by the analysis code itself — and leans on the edges: mixed signs within a
comparison, several lineups and table sizes, zero baselines, unbounded Fieller intervals, truncated
rounds, ties, p-values of exactly 0 or 1, effects and p-values right at the thresholds.
"""

from __future__ import annotations

import math

import polars as pl
from hypothesis import strategies as st

from unosim.analysis.effects import finish_effects
from unosim.analysis.inference import holm

NAN = math.nan
# values at the edges: the minimum effects (2 % relative, 1 and 0.5 points) and α, each side of them
EDGES = [0.0, 1e-12, 0.005, 0.00499999, 0.0050001, 0.01, 0.0099999, 0.0100001, 0.02, 0.0199999, 0.0200001,
         0.049999, 0.05, 0.050001, 0.5, 1.0, 3.0, 95.0]
P_VALUES = st.one_of(st.sampled_from([0.0, 1e-300, 1e-20, 0.0004999, 0.0005, 0.001, 0.01, 0.025, 0.05, 0.2, 1.0]),
                     st.floats(0, 1))
MAGNITUDES = st.one_of(st.sampled_from(EDGES), st.floats(1e-9, 50))
MEASURES = ("length", "lead_changes", "comebacks", "max_hand", "penalty", "knockouts", "fairness", "skill_edge")


@st.composite
def signed(draw, magnitudes=MAGNITUDES):
    return draw(magnitudes) * draw(st.sampled_from([1, -1]))


@st.composite
def effect_row(draw, measure: str) -> dict:
    identical = draw(st.booleans()) and draw(st.booleans())
    n = draw(st.sampled_from([2, 3, 100, 1000, 123_456]))
    mean_a = draw(st.one_of(st.just(0.0), st.sampled_from([0.1, 1.0, 40.0, 9999.0]), st.floats(1e-6, 1e4)))
    if measure in ("comebacks", "fairness", "skill_edge"):
        mean_a = min(abs(mean_a), 1.0)
    truncated_a = draw(st.sampled_from([0.0, 0.0, 1e-4, 0.3, 1.0]))
    truncated_b = draw(st.sampled_from([0.0, 0.0, 1e-4, 0.3, 1.0]))
    truncation = {"truncated_a": truncated_a, "truncated_b": truncated_b,
                  "cap": draw(st.sampled_from([40, 10_000])) if truncated_a or truncated_b else None}
    if identical:
        return {"measure": measure, "identical": True, "mean_a": mean_a, "mean_b": mean_a, "n": n,
                "test": "identical games", **truncation}
    estimate = draw(signed())
    if measure in ("comebacks", "fairness", "skill_edge"):
        estimate = math.copysign(min(abs(estimate), 1.0), estimate) if abs(estimate) > 1 else estimate
    mean_b = mean_a + estimate
    half = draw(st.one_of(st.just(0.0), MAGNITUDES))
    row = {"measure": measure, "identical": False, "mean_a": mean_a, "mean_b": mean_b, "estimate": estimate,
           "ci_low": estimate - half, "ci_high": estimate + half, "p_value": draw(P_VALUES), "n": n,
           "test": "paired t", **truncation}
    if measure == "fairness":
        row.update(ci_low=None, ci_high=None, test=draw(st.sampled_from(["χ² homogeneity", "permutation χ² (paired)"])))
    if mean_a != 0:
        rel = mean_b / mean_a - 1
        bounded = draw(st.booleans())
        spread = draw(MAGNITUDES)
        row.update(rel_change=rel, rel_low=rel - spread if bounded else NAN, rel_high=rel + spread if bounded else NAN)
    else:
        row.update(rel_change=NAN, rel_low=NAN, rel_high=NAN)
    return row


@st.composite
def effects_table(draw) -> pl.DataFrame:
    rows = []
    comparisons = draw(st.lists(st.tuples(st.sampled_from(["variant", "lineup"]),
                                          st.sampled_from(["rule_a", "rule_b", "rule_c", "greedy"])),
                                min_size=1, max_size=3, unique=True))
    for axis, b in comparisons:
        lineups = ["random"] if axis == "lineup" else draw(st.lists(st.sampled_from(["random", "greedy_first", "bluffer"]),
                                                                    min_size=1, max_size=3, unique=True))
        variants = draw(st.lists(st.sampled_from(["classic", "minions"]), min_size=1, max_size=2, unique=True)) \
            if axis == "lineup" else ["classic"]
        players = draw(st.lists(st.sampled_from([2, 3, 4]), min_size=1, max_size=3, unique=True))
        measures = draw(st.lists(st.sampled_from(MEASURES), min_size=1, max_size=4, unique=True))
        for lineup in lineups:
            for variant in variants:
                for n_players in players:
                    for measure in measures:
                        if measure == "skill_edge" and axis == "lineup":
                            continue
                        label = {"axis": axis, "a": "classic" if axis == "variant" else "random",
                                 "b": b, "variant": variant,
                                 "players": n_players, "lineup": lineup if axis == "variant" else "greedy_first",
                                 "paired": True}
                        rows.append({**label, **draw(effect_row(measure))})
    return finish_effects(rows)


@st.composite
def skill_table(draw) -> pl.DataFrame:
    rows = []
    for lineup, policy in draw(st.lists(st.sampled_from([("greedy_first", "greedy_points"), ("wilds", "keep_wilds"),
                                                         ("by_colour", "by_colour")]), min_size=1, max_size=3,
                                        unique=True)):
        for variant in draw(st.lists(st.sampled_from(["classic", "no_mercy", "spin"]), min_size=1, max_size=3,
                                     unique=True)):
            for players in draw(st.lists(st.sampled_from([2, 3, 4]), min_size=1, max_size=3, unique=True)):
                fair = 1 / players
                estimate = max(min(draw(signed(st.one_of(st.sampled_from(EDGES[:12]), st.floats(0, 0.4)))),
                                   1 - fair), -fair)
                half = draw(st.sampled_from([0.0, 0.001, 0.02]))
                rows.append({"variant": variant, "players": players, "lineup": lineup, "seat": 0, "policy": policy,
                             "win_rate": fair + estimate, "fair_share": fair, "estimate": estimate,
                             "ci_low": estimate - half, "ci_high": estimate + half, "p_value": draw(P_VALUES),
                             "n": draw(st.sampled_from([1, 50, 3000])), "rounds": 3000, "random_rate": None})
    table = pl.DataFrame(rows)
    return table.with_columns(p_holm=pl.Series(holm(table["p_value"].to_numpy())))


@st.composite
def fairness_table(draw) -> pl.DataFrame:
    rows = []
    for variant in draw(st.lists(st.sampled_from(["classic", "minions", "spin"]), min_size=1, max_size=3, unique=True)):
        for lineup in draw(st.lists(st.sampled_from(["random", "greedy_first"]), min_size=1, max_size=2, unique=True)):
            players = draw(st.sampled_from([2, 3, 4]))
            spread = draw(st.one_of(st.sampled_from(EDGES[:12]), st.floats(0, 0.5)))
            half = draw(st.sampled_from([0.0, 0.004, 0.03]))
            rows.append({"variant": variant, "players": players, "lineup": lineup, "estimate": spread,
                         "ci_low": max(0.0, spread - half), "ci_high": spread + half, "range_p": draw(P_VALUES),
                         "chi2": 1.0, "dof": players - 1, "chi2_p": 0.5, "best": 1, "worst": 0, "n": 1000,
                         "won_rounds": 900})
    table = pl.DataFrame(rows)
    return table.with_columns(p_holm=pl.Series(holm(table["range_p"].to_numpy())))


CARDS = [("n0", 0), ("n5", 5), ("n9", 9), ("skip", 20), ("draw_two", 20), ("wild", 50), ("wd4", 50)]


@st.composite
def card_table(draw) -> pl.DataFrame:
    rows = []
    variants = draw(st.lists(st.sampled_from(["classic", "minions", "classic_no_blank"]), min_size=1, max_size=2,
                             unique=True))
    for variant in variants:
        for players in draw(st.lists(st.sampled_from([2, 3, 4]), min_size=1, max_size=2, unique=True)):
            for lineup in draw(st.lists(st.sampled_from(["random", "greedy_first"]), min_size=1, max_size=2,
                                        unique=True)):
                for card, points in draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=5, unique=True)):
                    estimate = draw(signed(st.one_of(st.sampled_from(EDGES[:12]), st.floats(0, 0.1))))
                    half = draw(st.sampled_from([0.0, 0.001, 0.01]))
                    suggested = points if draw(st.booleans()) else draw(st.integers(0, 80))
                    rows.append({"variant": variant, "players": players, "lineup": lineup, "card": card,
                                 "points": points, "estimate": estimate, "ci_low": estimate - half,
                                 "ci_high": estimate + half, "p_value": draw(P_VALUES),
                                 "suggested_points": suggested, "slope": 0.001, "rank": 1})
    table = pl.DataFrame(rows)
    return table.with_columns(p_holm=pl.Series(holm(table["p_value"].to_numpy())))


@st.composite
def head_to_head_table(draw) -> pl.DataFrame:
    names = draw(st.lists(st.sampled_from(["random", "greedy_points", "keep_wilds", "by_colour"]), min_size=2,
                          max_size=4, unique=True))
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            share = draw(st.one_of(st.sampled_from([0.5, 0.505, 0.51, 0.50999, 0.49, 0.0, 1.0]), st.floats(0, 1)))
            half = draw(st.sampled_from([0.0, 0.004, 0.02]))
            p = draw(P_VALUES)
            for x, y, est in ((a, b, share), (b, a, 1 - share)):
                rows.append({"a": x, "b": y, "estimate": est, "ci_low": est - half, "ci_high": est + half,
                             "p_value": p, "comparisons": 1000, "deals": 100})
    table = pl.DataFrame(rows)
    return table.with_columns(p_holm=pl.Series(holm(table["p_value"].to_numpy())))


@st.composite
def table_sets(draw) -> dict[str, pl.DataFrame]:
    builders = {"effects": effects_table, "skill": skill_table, "fairness": fairness_table,
                "card_balance": card_table, "head_to_head": head_to_head_table}
    chosen = draw(st.lists(st.sampled_from(list(builders)), min_size=1, max_size=5, unique=True))
    return {name: draw(builders[name]()) for name in chosen}


def as_csv(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """The tables as their CSV files read back (what the checker sees)."""
    from unosim.analysis.standard import as_written
    return as_written(tables)

