"""Designer decks (docs/rules.md §2.5): counts of card classes, validated, reaching the engine as a deck,
shown by `unosim rules` and the manifest, and analysed by the card-value statistics."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from commands import run_unosim

from unosim import simulate
from unosim.analysis import card_values
from unosim.game import cards, rules


def _colours(rs: rules.RuleSet, kind: int) -> list[int]:
    counts = rs.deck_counts()
    return [int(counts[cards.action_id(c, kind)]) for c in range(4)]


def test_a_coloured_count_spreads_evenly_remainder_to_red_yellow_green_blue():
    assert _colours(rules.get_variant("classic", {"deck": {"draw_two": 12}}), cards.DRAW_TWO) == [3, 3, 3, 3]
    assert _colours(rules.get_variant("classic", {"deck": {"draw_two": 10}}), cards.DRAW_TWO) == [3, 3, 2, 2]
    assert _colours(rules.get_variant("classic", {"deck": {"skip": 1}}), cards.SKIP) == [1, 0, 0, 0]


def test_only_the_named_classes_change():
    published, designed = rules.get_variant("classic"), rules.get_variant("classic", {"deck": {"wild": 8, "n0": 8}})
    before, after = published.deck_in_effect(), designed.deck_in_effect()
    assert after["wild"] == 8 and after["n0"] == 8
    assert {k: v for k, v in after.items() if k not in ("wild", "n0")} == \
        {k: v for k, v in before.items() if k not in ("wild", "n0")}
    assert designed.deck_size == published.deck_size + 4 + 4


def test_spin_numbers_keep_their_spin_copies():
    rs = rules.get_variant("spin", {"deck": {"n3": 0}})
    ids = [cards.number_id(c, 3, spin=True) for c in range(4)]
    assert rs.deck_in_effect()["n3"] == 4 and all(rs.deck_counts()[i] == 1 for i in ids)


@pytest.mark.parametrize("deck,message", [
    ({"draw_6": 4}, r"unknown card class 'draw_6'.*valid are \['n0'"),
    ({"blank": 2}, "set with n_blank"),
    ({"draw_two": 2.5}, "draw_two=2.5 is invalid: valid is a count"),
    ({"dumb_fu": 4}, r"'dumb_fu' is not played in classic: its deck may set \["),
    ({"n1": 168, "n2": 168}, "holds .* cards: valid is 1..168"),
    ("draw_two", "valid is a table of card class"),
])
def test_bad_decks_are_refused_naming_the_value_and_the_valid_ones(deck, message):
    with pytest.raises(ValueError, match=message):
        rules.get_variant("classic", {"deck": deck})


def test_a_deck_too_small_for_the_table_is_refused_with_the_player_count():
    rs = rules.get_variant("classic", {"deck": {f"n{i}": 0 for i in range(10)} | {"skip": 0, "reverse": 0}})
    with pytest.raises(ValueError, match="exceeds what the"):
        rs.check_players(6)


def test_the_rule_key_round_trips():
    rs = rules.get_variant("minions", {"deck": {"dumb_fu": 8, "draw_two": 4}})
    assert "deck=[draw_two:4;dumb_fu:8]" in rs.key and rules.from_key(rs.key) == rs


def test_the_engine_deals_the_designer_deck():
    """With every number removed but 0s, the opening hands hold only the classes left in the deck."""
    deck = {f"n{i}": 0 for i in range(1, 10)}
    results = simulate("classic", players=3, games=300, seed=5, rules={"deck": deck, "match_mode": "single_round"})
    opened = results.seats.select(pl.col(f"open_n{i}").sum() for i in range(1, 10)).row(0)
    assert sum(opened) == 0 and results.seats["open_n0"].sum() > 0


def test_more_draw_twos_show_up_in_card_values():
    results = simulate("classic", players=4, games=4000, seed=3,
                       rules={"deck": {"draw_two": 24}, "match_mode": "single_round"})
    seats = results.seats.with_columns(variant=pl.lit("more_draws"), lineup=pl.lit("random"))
    table = card_values(seats.lazy())
    row = table.filter(pl.col("card") == "draw_two")
    assert len(row) == 1
    # 24 of 124 cards: the mean count in a 7-card hand is 7 × 24/124 ≈ 1.35 (it was 7 × 8/108 ≈ 0.52)
    assert abs(row["mean_count"][0] - 7 * 24 / 124) < 0.05


def test_cli_rules_shows_the_deck_in_effect_and_rejects_a_bad_class():
    out = run_unosim("rules", "classic", "--deck", "draw_two=12,wild=8")
    assert out.returncode == 0, out.stderr
    assert "deck in effect:" in out.stdout and "draw_two 12" in out.stdout and "wild 8" in out.stdout
    assert "deck=[draw_two:12;wild:8]" in out.stdout
    data = json.loads(run_unosim("rules", "classic", "--deck", "draw_two=12", "--json").stdout)
    assert data["deck_in_effect"]["draw_two"] == 12 and data["deck_size"] == 115
    bad = run_unosim("rules", "classic", "--deck", "draw_6=4")
    assert bad.returncode == 2 and bad.stderr.startswith("unosim: error: unknown card class 'draw_6'")
    assert bad.stderr.count("\n") == 1


def test_a_study_spec_variant_takes_a_deck_and_its_manifest_shows_it(tmp_path):
    import tomllib

    from unosim.pipeline.study import parse_study
    spec = tomllib.loads("""
[study]
name = "decks"
seed = 1
games = 10
mode = "single_round"
[variants]
more_draws = { base = "classic", deck = { draw_two = 12 } }
[[grid]]
variants = ["classic", "more_draws"]
players = [4]
lineups = ["random"]
""")
    study = parse_study(spec, source="test")
    resolved = study.resolved()["variants"]
    assert resolved["more_draws"]["deck_in_effect"]["draw_two"] == 12
    assert "deck_in_effect" not in resolved["classic"]
    cells = {c.variant: c for c in study.cells}
    assert cells["classic"].seed != cells["more_draws"].seed   # different decks: never treated as paired
    assert int(np.sum(cells["more_draws"].ruleset.deck_counts())) == 115
