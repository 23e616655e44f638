"""How a house rule changes the skilled seat's edge (analysis.skill_rules): measured on the rounds with a
winner (docs/rules.md §8.3), so a rule that only makes the all-random twin's rounds stall changes no skill
claim; the rounds without a winner are said beside it as an effect of their own."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from unosim.analysis.findings import claims
from unosim.analysis.skill_rules import skill_changes

PLAYERS = 2
CELLS = pl.DataFrame({"name": ["a_x", "a_r", "b_x", "b_r"], "variant": ["base", "base", "rule", "rule"],
                      "players": [PLAYERS] * 4, "lineup": ["expert", "random"] * 2,
                      "lineup_spec": ["lookahead,random*", "random"] * 2,
                      "lineup_label": ["lookahead,random", "random,random"] * 2})


def _cell(variant: str, lineup: str, winner: np.ndarray) -> pl.DataFrame:
    n = len(winner)
    return pl.DataFrame({"game": np.arange(n), "round": 0, "variant": variant, "players": PLAYERS, "lineup": lineup,
                         "winner_seat": winner.astype(np.int8), "dealer_seat": np.zeros(n, np.int8),
                         "n_turns": np.where(winner < 0, 500, 40)})


def _rounds(seed: int, stall: float, n: int = 4000) -> pl.DataFrame:
    """The expert (seat 0) wins 70 % of its rounds in both variants; the rule leaves ``stall`` of the
    all-random twin's rounds without a winner, whoever would have won them, and changes nothing else."""
    rng = np.random.default_rng(seed)
    skilled = np.where(rng.random(n) < 0.7, 0, 1)
    twin = rng.integers(0, 2, n)
    stalled = np.where(rng.random(n) < stall, -1, twin)
    return pl.concat([_cell("base", "expert", skilled), _cell("base", "random", twin),
                      _cell("rule", "expert", skilled), _cell("rule", "random", stalled)])


def _changes(rounds: pl.DataFrame) -> pl.DataFrame:
    return skill_changes(rounds, CELLS, [{"axis": "variant", "a": "base", "b": "rule"}], lambda a, b: True)


def test_a_rule_that_only_makes_all_random_rounds_stall_changes_no_skill_claim():
    """Counted as losses, 60 % stalled twin rounds would raise the expert's "edge" by about 30 points."""
    for seed in range(5):
        row = _changes(_rounds(seed, stall=0.6)).row(0, named=True)
        half = (row["ci_high"] - row["ci_low"]) / 2
        assert abs(row["estimate"]) <= half, row      # within its own interval of no change
        assert row["edge_a"] == pytest.approx(row["edge_b"], abs=half)
        table = _changes(_rounds(seed, stall=0.6))
        assert not [c for c in claims({"skill_changes": table}) if c.kind == "effect" and c.section == "skill"]


def test_the_edge_is_over_won_rounds_and_the_sentence_names_the_policies_and_the_rounds_without_a_winner():
    rounds = _rounds(7, stall=0.0)
    # the rule now stalls 40 % of the expert lineup's rounds, only those the random seat would have won
    rng = np.random.default_rng(8)
    expert_b = rounds.filter(pl.col("variant") == "rule", pl.col("lineup") == "expert")
    winner = expert_b["winner_seat"].to_numpy()
    stalled = np.where((winner == 1) & (rng.random(len(winner)) < 0.4 / 0.3 * 0.3), -1, winner)
    rounds = pl.concat([rounds.filter(~((pl.col("variant") == "rule") & (pl.col("lineup") == "expert"))),
                        _cell("rule", "expert", stalled)])
    row = _changes(rounds).row(0, named=True)
    won = stalled >= 0
    twin = rounds.filter(pl.col("variant") == "rule", pl.col("lineup") == "random")["winner_seat"].to_numpy()
    assert abs(row["edge_b"] - (np.mean(stalled[won] == 0) - np.mean(twin == 0))) < 1e-12
    assert row["no_winner_b"] == np.mean(~won) and row["no_winner_a"] == 0
    effect = next(c for c in claims({"skill_changes": _changes(rounds)}) if c.kind == "effect")
    assert "raises lookahead's edge over random players by" in effect.text
    assert "more skill" not in effect.text and "luck" not in effect.text
    assert "Rounds with no winner in this lineup: 0% without the rule" in effect.text
    assert "(an effect of its own, not of skill)" in effect.text
