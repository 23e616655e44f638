"""Holm's families count each test once: a rule set listed twice under two names (cells that play the very
same games) does not enlarge a family; the study with the duplicate adjusts exactly as the study without it,
and the claim checker holds the tables to that family."""

from __future__ import annotations

import polars as pl
import pytest

from unosim.analysis.checker import check_claims
from unosim.analysis.findings import claims
from unosim.analysis.standard import as_written, standard_tables
from unosim.analysis.twin_cells import game_twins
from unosim.pipeline.runner import run_study
from unosim.pipeline.study import parse_study
from unosim.store.reader import open_dataset

RULE = {"base": "classic", "rules": {"draw_until_playable": True}}


def _tables(folder, variants: dict) -> dict[str, pl.DataFrame]:
    spec = {"study": {"name": "twins", "seed": 5, "games": 1000, "mode": "single_round"},
            "variants": variants,
            "grid": [{"variants": ["classic", *variants], "players": [4], "lineups": ["random"]}],
            "comparisons": [{"axis": "variant", "a": "classic", "b": name} for name in variants]}
    summary = run_study(parse_study(spec), folder, n_jobs=1, progress=False)
    return standard_tables(open_dataset(summary.path))


@pytest.fixture(scope="module")
def twice(tmp_path_factory):
    """The same rule set under two names, each compared with classic, and the study with it once."""
    folder = tmp_path_factory.mktemp("holm")
    return _tables(folder / "twice", {"until": RULE, "until_again": RULE}), _tables(folder / "once", {"until": RULE})


def _rows(table: pl.DataFrame, **where) -> pl.DataFrame:
    rows = table.filter(*[pl.col(k) == v for k, v in where.items()])
    order = [c for c in ("measure", "metric", "seat", "card") if c in table.columns]
    return rows.sort(order) if order else rows


@pytest.mark.parametrize("name, b_column", [("effects", "b"), ("compare_wins", "b"), ("compare_lengths", "b")])
def test_a_comparison_repeated_by_a_duplicate_rule_set_counts_once(twice, name, b_column):
    with_duplicate, without = twice[0][name], twice[1][name]
    assert with_duplicate.height == 2 * without.height
    again, first = _rows(with_duplicate, **{b_column: "until_again"}), _rows(with_duplicate, **{b_column: "until"})
    assert again["holm_test"].to_list() == first["holm_test"].to_list()   # one test each, named once
    assert again["p_holm"].to_list() == first["p_holm"].to_list()
    # the family is the study's without the duplicate: the same adjusted p-values, not larger ones
    assert first["p_holm"].to_list() == pytest.approx(_rows(without, **{b_column: "until"})["p_holm"].to_list(),
                                                      rel=1e-12, nan_ok=True)


@pytest.mark.parametrize("name", ["fairness", "card_balance"])
def test_a_cell_listed_twice_is_one_test_of_the_per_cell_families(twice, name):
    with_duplicate, without = twice[0][name], twice[1][name]
    for variant in ("classic", "until"):
        assert _rows(with_duplicate, variant=variant)["p_holm"].to_list() == pytest.approx(
            _rows(without, variant=variant)["p_holm"].to_list(), rel=1e-12, nan_ok=True)
    assert _rows(with_duplicate, variant="until_again")["p_holm"].to_list() == \
        _rows(with_duplicate, variant="until")["p_holm"].to_list()


def test_the_report_gives_each_family_the_size_of_its_distinct_tests(twice):
    from unosim.reporting.report import _families
    assert _families(twice[0]) == _families(twice[1])
    assert any(f.startswith("effects") for f in _families(twice[0]))


def test_the_checker_holds_the_tables_to_the_family_of_distinct_tests(twice):
    written = as_written(twice[0])
    found = claims(written)
    assert check_claims(written, found) == []
    # the old family, each duplicate counted again, is not Holm's adjustment of these tests
    from unosim.analysis.inference import holm
    effects = written["effects"]
    inflated = effects.with_columns(p_holm=pl.Series(holm(effects["p_value"].fill_null(float("nan")).to_numpy())))
    assert any("Holm" in p for p in check_claims({**written, "effects": inflated}, found))


def test_twins_are_cells_of_the_same_rules_players_lineup_and_seed():
    cells = pl.DataFrame({"name": ["c", "u", "u2", "u3"], "variant": ["classic", "until", "until_again", "until_seed"],
                          "players": [4, 4, 4, 4], "lineup": ["random"] * 4,
                          "rules_key": ["classic", "classic(x=1)", "classic(x=1)", "classic(x=1)"],
                          "lineup_effective": ["random"] * 4, "games": [10] * 4, "seed": [1, 1, 1, 2]})
    assert game_twins(cells) == {("classic", 4, "random"): "c", ("until", 4, "random"): "u",
                                 ("until_again", 4, "random"): "u", ("until_seed", 4, "random"): "u3"}


def test_a_pair_of_entrants_is_one_test_of_the_tournament_family():
    """Head-to-head rows (A, B) and (B, A) state one comparison (their shares sum to 1): the family is the
    pairs of entrants, not the ordered pairs."""
    import numpy as np

    from unosim.analysis.inference import holm
    from unosim.analysis.standings import head_to_head
    from unosim.game.seating import Entrant
    rng = np.random.default_rng(3)
    deals = 60
    ahead = np.zeros((3, 3, deals))
    for i, j in ((0, 1), (0, 2), (1, 2)):
        ahead[i, j] = rng.binomial(4, [0.62, 0.55, 0.5][i + j - 1], deals)   # of 4 comparisons per deal
        ahead[j, i] = 4 - ahead[i, j]
    comparisons = np.full((3, 3), 4) - 4 * np.eye(3, dtype=np.int64)
    table = head_to_head(ahead, comparisons, tuple(Entrant(n, n) for n in ("random", "greedy_points", "keep_wilds")))
    assert table.height == 6 and table["holm_test"].n_unique() == 3
    pairs = table.filter(pl.col("a") < pl.col("b")).sort("holm_test")
    expected = holm(pairs["p_value"].to_numpy())
    assert pairs["p_holm"].to_list() == pytest.approx(expected.tolist(), rel=1e-12)
    mirrored = table.join(table, left_on=["a", "b"], right_on=["b", "a"], suffix="_mirror")
    assert (mirrored["p_holm"] == mirrored["p_holm_mirror"]).all()
    from unosim.analysis.checker import _check_family
    assert _check_family("head_to_head", table) == []
    assert _check_family("head_to_head", table.with_columns(p_holm=pl.Series(holm(table["p_value"].to_numpy()))))
