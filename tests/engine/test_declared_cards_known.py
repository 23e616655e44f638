"""Known answers for cards declared as data (docs/rules.md §2.7).

* A Draw Three declared as data plays exactly like a Draw Two that draws one more card: the reference
  engine with the declared card, against the reference engine with the built-in Draw Two's draw value
  rewritten by hand to 3 (nothing else changed), event for event over many games and stacking modes.
* A declared card that copies a built-in class (``effects = ["skip"]``) is that class: the compiled
  engine's tables are byte for byte the built-in game's.
"""

import dataclasses

import numpy as np
import pytest

from unosim import reference
from unosim.game import cards, custom_cards
from unosim.game import protocol as L
from unosim.game.rules import get_variant
from unosim.play.simulate import resolve, run_compiled

DRAW_TWOS = [cards.action_id(c, cards.DRAW_TWO) for c in range(4)]
# events whose a is a card id (protocol.EVENTS)
CARD_EVENTS = [L.EV_FIRST_CARD, L.EV_RETURN, L.EV_PLAY, L.EV_DRAW, L.EV_DISCARD]
DRAW_THREE = {"draw_three": {"coloured": True, "effects": ["draw:3"], "points": 20, "count": 2}}


def _draw_two_draws_three(monkeypatch):
    """The hand-written reference: the built-in Draw Two's draw value set to 3, in the reference engine's
    tables (the per-rule-set book and the module table the first card reads)."""
    real_book = custom_cards.book

    def book(new):
        b = real_book(new)
        draw = list(b.draw_value)
        for i in DRAW_TWOS:
            draw[i] = 3
        return dataclasses.replace(b, draw_value=tuple(draw))

    monkeypatch.setattr(custom_cards, "book", book)
    from unosim.reference import effects
    patched = list(effects.DRAW_VALUE)
    for i in DRAW_TWOS:
        patched[i] = 3
    monkeypatch.setattr(effects, "DRAW_VALUE", tuple(patched))


@pytest.mark.parametrize("stacking", ["none", "any_draw", "same_kind", "escalating"])
def test_a_declared_draw_three_is_a_draw_two_drawing_one_more(monkeypatch, stacking):
    players, games = 4, 40
    settings = {"match_mode": "single_round", "stacking": stacking}
    declared = get_variant("classic", {**settings, "deck": {"draw_two": 0}, "cards": DRAW_THREE})
    builtin = get_variant("classic", settings)
    to_declared = {two: custom_cards.ID_CUSTOM0 + c for c, two in enumerate(DRAW_TWOS)}
    rng = np.random.default_rng(47)
    base = [int(c) for c in cards.deck_ids(builtin.deck_counts())]
    declared_runs = []
    for g in range(games):
        order = [base[i] for i in rng.permutation(len(base))]
        declared_runs.append((order, reference.play(declared, players, "random", 5, g, 1, trace=True,
                                                    deck_order=[to_declared.get(c, c) for c in order])))
    _draw_two_draws_three(monkeypatch)
    back = np.arange(custom_cards.N_ALL_IDS)
    for two, custom in to_declared.items():
        back[custom] = two
    drew_three = 0
    for g, (order, got) in enumerate(declared_runs):
        want = reference.play(builtin, players, "random", 5, g, 1, trace=True, deck_order=order)
        events = got.events.copy()
        card_events = np.isin(events[:, 0], CARD_EVENTS)
        events[card_events, 2] = back[events[card_events, 2]]
        assert np.array_equal(events, want.events), f"game {g} differs"
        assert np.array_equal(got.rounds, want.rounds) and np.array_equal(got.seats, want.seats)
        drew_three += int(np.isin(got.events[:, 2], list(to_declared.values())).any())
    assert drew_three > games // 2       # the declared card was played in most games


def test_a_declared_copy_of_the_skip_gives_the_built_in_tables_byte_for_byte():
    copy = {"deck": {"skip": 0}, "cards": {"my_skip": {"coloured": True, "effects": ["skip"], "count": 2}}}
    raw = []
    for overrides in ({}, copy):
        rs, specs = resolve("classic", 4, "random", {"match_mode": "single_round", **overrides})
        raw.append(run_compiled(rs, 4, specs, 11, 0, 300, trace=True))
    for table in ("rounds", "seats", "opening", "matches", "events"):
        a, b = getattr(raw[0], table), getattr(raw[1], table)
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), table
