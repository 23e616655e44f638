"""Cards declared as data in both engines (docs/rules.md §2.7): a spec of ten new cards using every effect
plays event for event in the compiled engine and the reference engine at 2-6 players, the audited
invariants (card conservation, possible hand sizes …) hold over many games, and other declared cards
run the same compiled build (a new card compiles nothing)."""

import os

import numpy as np
import pytest

from unosim import reference
from unosim.engine.compiler.builds import build_for
from unosim.game import card_effects, custom_cards
from unosim.game import protocol as L
from unosim.play.simulate import resolve, run_compiled

TEN_CARDS = [
    "draw_three:coloured,effects=draw:3,points=20,count=1",
    "skip_two:coloured,effects=skip:2,points=30,count=1",
    "u_turn:coloured,effects=reverse+self_draw:1,points=10,count=1",
    "encore:coloured,effects=skip_everyone,points=25,count=1",
    "everyone_draws:wild,effects=wild+others_draw:1,points=40,count=2",
    "purge:coloured,effects=discard_colour,points=30,count=1",
    "trade:coloured,effects=swap_hands,points=20,count=1",
    "rotate:wild,effects=wild+pass_hands,points=50,count=2",
    "hunt:wild,effects=wild+draw_until_colour,points=50,count=2",
    "backfire:coloured,effects=reverse+draw:2,points=30,count=1",
]
DIFFERENTIAL = {   # players, lineup, extra rules
    "2-random": (2, "random", {}),
    "3-greedy-any-draw": (3, "greedy_points,random*", {"stacking": "any_draw"}),
    "4-random-same-kind-mercy": (4, "random(p_draw=0.2)", {"stacking": "same_kind", "mercy_limit": 20}),
    "5-keep-wilds-seven-o": (5, "keep_wilds,random*", {"seven_o": True, "jump_in": True}),
    "6-weighted-escalating": (6, "punisher,by_colour,random*", {"stacking": "escalating"}),
    # no random seat: every choice of a declared card is a policy's valuation of its effects
    "4-presets-any-draw": (4, "punisher,colour_counter,save_wilds,greedy_points", {"stacking": "any_draw"}),
    "3-presets-seven-o": (3, "high_card_out,keep_wilds,by_number", {"seven_o": True}),
}


def _rules(extra=None):
    return {"match_mode": "single_round", "n_blank": 0, "cards": TEN_CARDS, **(extra or {})}


def test_the_ten_cards_use_every_effect():
    rs, _ = resolve("classic", 4, "random", _rules())
    used = {code for d in rs.new_cards for code, _ in d.effects}
    assert used == {e.code for e in card_effects.EFFECTS} and len(rs.new_cards) == 10


@pytest.mark.parametrize("case", list(DIFFERENTIAL))
def test_compiled_and_reference_play_the_ten_cards_event_for_event(case):
    players, lineup, extra = DIFFERENTIAL[case]
    rs, specs = resolve("classic", players, lineup, _rules(extra))
    games = 40
    compiled = run_compiled(rs, players, specs, 21, 0, games, trace=True)
    twin = reference.play(rs, players, lineup, 21, 0, games, trace=True)
    for table in ("events", "rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, table), getattr(twin, table)), table
    played = compiled.events[compiled.events[:, 0] == L.EV_PLAY, 2]
    slots = (played[played >= custom_cards.ID_CUSTOM0] - custom_cards.ID_CUSTOM0) // 5
    assert len(set(slots.tolist())) >= 8   # most of the ten cards were played


@pytest.mark.parametrize("players", range(2, 7))
def test_audited_invariants_hold_over_many_games(players):
    rs, specs = resolve("classic", players, "random(p_draw=0.1)", _rules({"stacking": "any_draw"}))
    raw = run_compiled(rs, players, specs, 5, 0, 1_000, audit=True)   # raises on a violated invariant
    assert (raw.rounds[:, L.RC_END] == L.END_WON).mean() > 0.99
    points = raw.seats[:, L.SC_POINTS_LEFT].reshape(-1, players).sum(axis=1)
    winners = raw.rounds[:, L.RC_WINNER] >= 0
    assert np.array_equal(raw.rounds[winners, L.RC_POINTS], points[winners])


def test_another_card_set_runs_the_same_build():
    """No recompile per card: the build depends on whether declared cards are played, not which."""
    other = ["jab:coloured,effects=skip+self_draw:2,points=5,count=3", "storm:wild,effects=wild+others_draw:3"]
    a, specs = resolve("classic", 4, "random", _rules())
    b, _ = resolve("classic", 4, "random", _rules() | {"cards": other})
    assert build_for(a, specs) == build_for(b, specs)
    assert not np.array_equal(a.compile(4)[0], b.compile(4)[0])   # the cards differ as data only


#: games per player count: the suite plays 3,000 (the reference engine is pure Python: 10,000 at five
#: table sizes would be a sixth of the suite's budget); UNOSIM_DECLARED_GAMES=10000 plays the issue's target
GAMES = int(os.environ.get("UNOSIM_DECLARED_GAMES", "3000"))


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 7))
def test_event_for_event_over_many_games(players):
    """Random games per player count (:data:`GAMES`), event for event in both engines, audited."""
    rs, specs = resolve("classic", players, "random", _rules({"stacking": "any_draw", "seven_o": True}))
    compiled = run_compiled(rs, players, specs, 8, 0, GAMES, trace=True)
    twin = reference.play(rs, players, "random", 8, 0, GAMES, trace=True)
    for table in ("events", "rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, table), getattr(twin, table)), table
    run_compiled(rs, players, specs, 8, 0, GAMES, audit=True)   # raises on a violated invariant
