"""The comparable skill indices recover known answers on synthetic games (tolerances from the standard
error), and the skill-index results page is generated from a small results file."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from unosim.analysis import skill_index as si

ROOT = Path(__file__).parents[2]
Z = 4  # standard errors of slack: a false alarm about once in 16,000 runs


def _se(row: dict, name: str) -> float:
    """The standard error a 95 % percentile interval implies."""
    return (row[f"{name}_ci_high"] - row[f"{name}_ci_low"]) / (2 * 1.96)


def _league(talent: np.ndarray, deals: int, seed: int) -> np.ndarray:
    """(players, deals, 1): each player wins each round with its own chance."""
    rng = np.random.default_rng(seed)
    return (rng.random((len(talent), deals, 1)) < talent[:, None, None]).astype(float)


def test_the_decomposition_recovers_a_known_skill_share():
    rng = np.random.default_rng(7)
    talent = np.clip(rng.normal(0.5, 0.06, 80), 0.05, 0.95)
    fig = si.decompose(_league(talent, 1500, 8), seed=1, resamples=300, season=50)
    var_true = talent.var(ddof=1)
    round_var = float(np.mean(talent * (1 - talent)))
    assert fig["var_true"] == pytest.approx(var_true, abs=Z * _se(fig, "var_true"))
    assert fig["round_var"] == pytest.approx(round_var, rel=0.02)
    truth = {"share_one": var_true / (var_true + round_var), "share_season": var_true / (var_true + round_var / 50)}
    for name, value in truth.items():
        assert fig[name] == pytest.approx(value, abs=Z * _se(fig, name))
    assert fig["rounds_to_half_ci_low"] < round_var / var_true * 1.3
    assert fig["rounds_to_half_ci_high"] > round_var / var_true / 1.3


def test_without_skill_the_share_is_nil_within_its_interval_and_rounds_to_half_unbounded():
    fig = si.decompose(_league(np.full(40, 0.5), 800, 3), seed=2, resamples=300)
    assert fig["var_true_ci_low"] <= 0 <= fig["var_true_ci_high"]
    assert fig["share_one_ci_low"] == 0
    assert fig["rounds_to_half_ci_high"] is None


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match=r"shape \(3, 5\)"):
        si.decompose(np.zeros((3, 5)), seed=1)


def test_a_seat_result_is_the_share_of_the_others_it_finished_ahead_of():
    finish = np.array([[[3, 1, 1, 0]]])
    assert si.seat_results(finish)[0, 0].tolist() == [1.0, 0.5, 0.5, 0.0]


def test_an_unbalanced_tournament_is_refused():
    with pytest.raises(ValueError, match="balanced"):
        si.rounds_by_player(np.zeros((2, 3, 2)), np.array([[0, 1], [0, 2]]))


def _pairs_tournament(elo: np.ndarray, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two-seat games of every ordered pair, the winner drawn from the Elo chances (finish 1 / 0)."""
    rng = np.random.default_rng(seed)
    pairs = np.array(list(itertools.permutations(range(len(elo)), 2)))
    chance = 1 / (1 + 10 ** ((elo[pairs[:, 1]] - elo[pairs[:, 0]]) / 400))
    won = rng.random((len(pairs), deals)) < chance[:, None]
    return np.stack([won, ~won], axis=2).astype(float), pairs


def test_the_noise_floor_is_the_spread_of_identical_players():
    """The floor from one tournament of identical players matches the spread of many independent such
    tournaments (the same games each): both root-mean-square, compared within their standard errors."""
    elo, deals, replicates = np.zeros(4), 60, 200
    spreads = []
    for seed in range(80):
        finish, pairs = _pairs_tournament(elo, deals, seed)
        spreads.append(si._spread(si.ahead_counts(finish, pairs).sum(axis=2)))
    spreads = np.array(spreads)
    rms = np.sqrt(np.mean(spreads ** 2))
    finish, pairs = _pairs_tournament(elo, deals, 999)
    [row] = si.spread_with_floor(finish, pairs, {"all": [0, 1, 2, 3]}, seed=1, resamples=50, replicates=replicates)
    spread_sd = np.std(spreads ** 2) / (2 * rms)
    se = spread_sd * np.sqrt(1 / len(spreads) + 1 / replicates)
    assert row["floor"] == pytest.approx(rms, abs=Z * se)
    assert row["floor"] > 0


def test_the_corrected_spread_recovers_a_known_spread_of_ratings():
    elo = np.array([-150.0, -50.0, 50.0, 150.0])
    finish, pairs = _pairs_tournament(elo, 400, 5)
    [row] = si.spread_with_floor(finish, pairs, {"all": [0, 1, 2, 3]}, seed=1, resamples=200, replicates=50)
    assert row["corrected_ci_low"] - 10 < elo.std() < row["corrected_ci_high"] + 10
    assert row["spread"] > row["floor_high"]


def test_s_is_2q_minus_1_on_a_biased_coin():
    rng = np.random.default_rng(4)
    deals, q = 3000, 0.6
    won = rng.random(deals) < q
    ahead = np.zeros((2, 2, deals))
    ahead[0, 1], ahead[1, 0] = won, ~won
    fig = si.edge(ahead, 0, 1, seed=1, resamples=400)
    assert fig["s"] == pytest.approx(2 * won.mean() - 1)
    assert fig["s"] == pytest.approx(2 * q - 1, abs=Z * _se(fig, "s"))
    assert fig["s_ci_low"] == pytest.approx(2 * fig["q_ci_low"] - 1)


def _cell(variant: str, players: int, seed: int) -> dict:
    """A results-file cell computed from synthetic games, as analyses/skill_index.py stores one."""
    finish, pairs = _pairs_tournament(np.array([-100.0, 0.0, 30.0, 70.0]), 40, seed)
    ahead = si.ahead_counts(finish, pairs)
    return {"variant": variant, "players": players, "deals": 40, "seed": 1, "deck": 108, "no_winner_share": 0.01,
            "games": int(finish.shape[0] * finish.shape[1]), "population": ["random", "a", "b", "lookahead"],
            "decomposition": si.decompose(si.rounds_by_player(finish, pairs), seed=1, resamples=50, season=100),
            "edge": si.edge(ahead, 3, 0, seed=1, resamples=50),
            "spreads": si.spread_with_floor(finish, pairs, {"all": [0, 1, 2, 3], "expert and random": [3, 0]},
                                            seed=1, resamples=20, replicates=20),
            "date": "2026-12-07 12:00 UTC", "commit": "0123456789abcdef", "machine": "test machine"}


def test_the_generator_makes_the_overview_the_chart_and_a_page_per_variant(tmp_path):
    sys.path.insert(0, str(ROOT / "docs" / "gen"))
    sys.path.insert(0, str(ROOT / "analyses"))
    import results_pages
    import skill_index as script
    import skill_pages
    cells = [_cell("classic", 2, 1), _cell("classic", 4, 2), _cell("flip", 2, 3)]
    path = tmp_path / "skill_index.json"
    path.write_text(json.dumps(script.results_file(cells, {2: 40, 4: 40}, ["random", "a", "b", "lookahead"])))
    data = results_pages.load(path)              # stamped, every row as wide as its columns
    pages = skill_pages.pages(data, path.stem)
    assert set(pages) == {"results/skill_index.md", "results/skill_index_chart.svg",
                          "results/skill/classic.md", "results/skill/flip.md"}
    overview = pages["results/skill_index.md"]
    assert overview.count("](skill/classic.md)") >= 2 and "skill_index_chart.svg" in overview
    for league in script.PUBLISHED:
        assert league["name"] in overview and league["source"] in overview
    first = cells[0]["decomposition"]
    assert f"{first['rounds_to_half']:,.1f} [" in overview
    classic = pages["results/skill/classic.md"]
    assert "## 2 players" in classic and "## 4 players" in classic and "Measured 2026-12-07 12:00 UTC" in classic
    assert f"s = 2q − 1 = {cells[0]['edge']['s']:,.3f}" in classic
    assert "expert and random" in classic
    svg = pages["results/skill_index_chart.svg"]
    assert svg.lstrip().startswith("<?xml") and "NHL hockey" in svg and "UNO flip, 2p" in svg
    assert skill_pages.chart(data) == svg          # the same data, the same file


def test_the_decomposition_of_a_round_robin_recovers_its_true_scores():
    """Players of known Elo ratings meeting in every pair: their scores sum to a constant, and var(true)
    is still recovered (the sampling noise of scores that sum to a constant is k/(k − 1) times larger)."""
    elo = np.array([-120.0, -40.0, 0.0, 160.0])
    finish, pairs = _pairs_tournament(elo, 1500, 11)
    fig = si.decompose(si.rounds_by_player(finish, pairs), seed=1, resamples=300)
    chance = 1 / (1 + 10 ** ((elo[None, :] - elo[:, None]) / 400))
    true_score = (chance.sum(axis=1) - 0.5) / (len(elo) - 1)
    assert fig["var_true"] == pytest.approx(true_score.var(ddof=1), abs=Z * _se(fig, "var_true"))


def test_the_stored_finishing_order_gives_the_results_of_the_finishes():
    """analyses/skill_index.py stores a seat's finish as the number of seats it beat (a byte): every
    result the figures are computed from is the same as from the finishes themselves."""
    sys.path.insert(0, str(ROOT / "analyses"))
    import skill_index as script
    rng = np.random.default_rng(3)
    finish = rng.integers(0, 4, size=(8, 50, 4)) * 2**35 + 7    # ties, and values no byte holds
    entrant_of = np.array([np.roll(np.arange(4), r) for r in range(4)] * 2)
    stored = script.finishing_order(finish)
    assert stored.dtype == np.int8
    assert np.array_equal(si.seat_results(stored), si.seat_results(finish))
    assert np.array_equal(si.ahead_counts(stored, entrant_of), si.ahead_counts(finish, entrant_of))


def test_identical_programs_in_the_duplicate_format_show_no_skill_and_a_positive_floor(tmp_path):
    """Four copies of ``random`` replay the same games under every rotation: each copy holds every seat of
    every deal once, so the scores tie exactly (no true variance, no spread), while the noise floor, of
    independent games, is above 0."""
    import unosim
    from unosim.analysis import standings as st
    from unosim.store.reader import open_dataset
    result = unosim.tournament("classic", players=4, policies=["random"] * 4, games=60, seed=2, out=tmp_path,
                               seating="rotations")
    ds = open_dataset(result.path)
    games = st.games_from_tables(ds.seats, ds.rounds, result.arrangements, result.played_by)
    fig = si.decompose(si.rounds_by_player(games.finish, games.entrant_of), seed=1, resamples=50)
    assert fig["var_true"] == pytest.approx(0, abs=1e-12) and fig["rounds_to_half"] is None
    [row] = si.spread_with_floor(games.finish, games.entrant_of, {"all": [0, 1, 2, 3]}, seed=1, resamples=20,
                                 replicates=20)
    assert row["spread"] == pytest.approx(0, abs=1e-6) and row["corrected"] == 0
    assert row["floor"] > 3      # about 7.5 Elo here; 20 relabellings put their mean within ±10 %
