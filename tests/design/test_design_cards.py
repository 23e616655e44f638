"""The design search over a declared card's count (unosim.design.space ``[design.space] cards``): the
dimension, its overrides, bad specs in one line, one build for every count, and a known answer."""

from __future__ import annotations

import copy

import pytest

from unosim.design import DesignSpecError, evaluate, search
from unosim.design import confirm as confirming
from unosim.design.spec import parse
from unosim.engine.compiler.builds import build_for
from unosim.game.policies import make_lineup

DRAW_THREE = {"coloured": True, "effects": ["draw:3"], "count": 2}
CARD = "draw_three:coloured,effects=draw:3,points=20,count="


def _table(**changes) -> dict:
    table = {"name": "cards", "variant": "classic", "players": 4, "objectives": {"length": "less"},
             "budget": {"games": 12_000}, "first_games": 200, "batch": 5, "confirm_games": 0,
             "space": {"rules": [], "deck": False, "fixed": {"cards": {"draw_three": DRAW_THREE}},
                       "cards": {"draw_three": [0, 4]}}}
    table.update(changes)
    return table


def test_a_declared_cards_count_is_a_dimension_and_zero_leaves_the_card_out():
    spec = parse(_table())
    assert spec.space.describe() == [{"dimension": "cards.draw_three", "values": "0..4", "§": "§2.7",
                                      "what": "declared card draw_three (draw:3): copies per colour (declared 2)"}]
    assert spec.space.overrides({"cards.draw_three": 3}) == {"cards": [CARD + "3"]}
    assert spec.space.overrides({"cards.draw_three": 0}) == {"cards": []}
    decks = [evaluate.ruleset("classic", spec.space.overrides({"cards.draw_three": n})).deck_in_effect()
             for n in range(5)]
    assert [d.get("draw_three", 0) for d in decks] == [0, 4, 8, 12, 16]


def test_every_count_plays_on_one_build():
    """A count is data: counts 1..4 share the build of the declared cards, and 0 the family's own."""
    spec = parse(_table())
    lineup = make_lineup("random", 4)
    builds = {n: build_for(evaluate.ruleset("classic", spec.space.overrides({"cards.draw_three": n})), lineup)
              for n in range(5)}
    assert len({builds[n] for n in range(1, 5)}) == 1
    assert builds[0] == build_for(evaluate.ruleset("classic", {}), lineup) != builds[1]


def _with_space(**space) -> dict:
    table = _table()
    table["space"] = {**table["space"], **space}
    return table


@pytest.mark.parametrize("table, words", [
    (_with_space(cards={"draw_four_colour": [0, 2]}), "'draw_four_colour' is not a card declared in [design.space] "
                                                      "fixed: valid are ['draw_three']"),
    (_with_space(cards={"draw_three": [0, 500]}), "cards.draw_three = [0, 500] is invalid: valid is [low, high] with "
                                                  "0 ≤ low ≤ high ≤ 168"),
    (_with_space(cards={"draw_three": [3, 1]}), "cards.draw_three = [3, 1] is invalid"),
    (_with_space(cards=["draw_three"]), "[design.space] cards = ['draw_three'] is invalid: valid is a table"),
    (_with_space(cards={"draw_three": [0, 30]}), "at count 30, the deck with the declared cards holds"),
    # no number cards: 35 cards deal 5 hands of 7 only with at least one copy of the declared card
    ({**_with_space(fixed={"cards": {"draw_three": DRAW_THREE}, "deck": {f"n{i}": 0 for i in range(10)}}),
      "players": 5}, "cards.draw_three = [0, 4] is invalid: at count 0, hand_size=7 × players=5"),
    (_with_space(fixed={}), "'draw_three' is not a card declared in [design.space] fixed: valid are []"),
])
def test_bad_card_dimensions_say_so_in_one_line(table, words):
    with pytest.raises(DesignSpecError) as caught:
        parse(copy.deepcopy(table))
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_deck_size_bound_counts_the_searched_copies():
    # 108 + 3 blanks: at most 4 per colour adds 16 → 127 cards at most
    with pytest.raises(DesignSpecError, match=r"impossible: the decks of this space hold 111\.\.127 cards"):
        parse(_table(constraints={"deck_size": [130, 140]}))
    parse(_table(constraints={"deck_size": [120, 140]}))


def test_a_design_with_a_searched_count_exports_as_a_study_spec(tmp_path):
    from unosim.pipeline.study import load_study
    spec = parse(_table())
    d = confirming.Design(3, spec.space.overrides({"cards.draw_three": 4}), {}, {}, 0, 0.0, (0.0,))
    study = load_study(confirming.export(spec, d, tmp_path / "d.toml", 5000))
    assert study.variants["design_3"].deck_in_effect()["draw_three"] == 16
    assert study.variants["base"].deck_in_effect()["draw_three"] == 8


@pytest.mark.slow
@pytest.mark.parametrize("goal, count", [("more", 4), ("less", 0)])
def test_the_search_finds_the_count_that_lengthens_or_shortens_rounds(tmp_path, goal, count):
    """Each Draw Three makes the next seat draw three cards more than it would have: more of them, longer
    rounds (at 4 players, random play, about 49 turns without one and 82 with 16, ± 0.8 at 5,000 games), so
    the longest design holds the most and the shortest none."""
    spec = parse(_table(objectives={"length": goal}, name=f"cards_{goal}"))
    study = search.run_search(spec, tmp_path / goal)
    best = confirming.select(confirming.designs(study), spec, top=1)[0]
    assert best.overrides["cards"] == ([CARD + str(count)] if count else [])


def test_card_balance_of_a_design_values_its_declared_card():
    spec = parse(_table(objectives={"card_balance": "less"}))
    job = evaluate.Job("d", "classic", spec.space.overrides({"cards.draw_three": 2}), 4, "random", 3, 0, 3000,
                       needs=frozenset(spec.needs))
    _, played = evaluate.play(job)
    assert [d.name for d in played.declared] == ["draw_three"]
    assert evaluate.measure(played, ["card_balance"], 0)["card_balance"] >= 0
