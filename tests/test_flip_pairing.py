"""UNO Flip's pairing of faces as deck data (docs/rules.md §6 F1, unosim/game/flip_pairing.py): every
pairing conserves the rulebook's faces, both engines play the transcribed pairing event for event, and
what a seat may know of the others follows from the pairing."""

from collections import Counter

import numpy as np
import pytest

from unosim import reference
from unosim.game import cards, flip_pairing
from unosim.game.rules import get_variant
from unosim.pipeline.study import cell_seed
from unosim.play.simulate import resolve, run_compiled

WILDS = {"LWILD", "WD2", "DWILD", "WDC"}


def _faces_with_mixed_backs(pairing, side):
    backs: dict[str, set[str]] = {}
    for card in pairing.cards:
        backs.setdefault(card[side], set()).add(card[1 - side])
    return sum(len(b) > 1 for b in backs.values()), len(backs)


@pytest.mark.parametrize("name", flip_pairing.names())
def test_every_pairing_holds_the_rulebooks_faces_once_per_card(name):
    """Conservation: 112 physical cards, one light and one dark face each; each side holds §2.6.1's
    faces (coloured faces twice, the side's two wilds four times); the ids turn over and back."""
    deck = cards.flip_deck(name)
    light_faces, dark_faces = cards.flip_composition()
    ids = cards.deck_ids(deck)
    assert len(ids) == 112 and not cards.DARK_FACE[ids].any() and cards.DARK_FACE[cards.FLIP_PARTNER[ids]].all()
    assert Counter(cards.BASE_FACE[ids].tolist()) == light_faces
    assert Counter(cards.BASE_FACE[cards.FLIP_PARTNER[ids]].tolist()) == dark_faces
    assert np.array_equal(cards.FLIP_PARTNER[cards.FLIP_PARTNER[ids]], ids)
    face = cards.BASE_FACE[ids]   # an id plays exactly as the face it shows
    for table in (cards.COLOUR, cards.KIND, cards.NUMBER_OF, cards.POINTS, cards.DRAW_VALUE, cards.HAND_CLASS):
        assert np.array_equal(table[ids], table[face])
    assert get_variant("flip", {"flip_pairing": name}).deck_in_effect() == get_variant("flip").deck_in_effect()


def test_the_default_pairing_is_rules_6_f1_formula():
    """§6 F1: light face i (colour-major 1-9, Draw One, Reverse, Skip, Flip) backs dark face (19 i + 7) mod
    52; the light Wild backs the Wild Draw Colour, the Wild Draw Two the dark Wild."""
    light = [f"{c}{f}" for c in "RYGB" for f in (*range(1, 10), "+1", "REV", "SKIP", "FLIP")]
    dark = [f"{c}{f}" for c in "PTOV" for f in (*range(1, 10), "+5", "REV", "SKALL", "FLIP")]
    expected = {(face, dark[(19 * i + 7) % 52]) for i, face in enumerate(light)} | {("LWILD", "WDC"), ("WD2", "DWILD")}
    pairing = flip_pairing.load(flip_pairing.DEFAULT)
    assert set(pairing.cards) == expected and pairing.face_determined()


def test_the_transcribed_pairing_is_as_the_source_describes_it():
    """No card wild on both sides; on each side 53 of the 54 faces have copies with different backs."""
    pairing = flip_pairing.load("transcribed")
    assert not any(light in WILDS and dark in WILDS for light, dark in pairing.cards)
    assert _faces_with_mixed_backs(pairing, 0) == (53, 54) and _faces_with_mixed_backs(pairing, 1) == (53, 54)
    assert not pairing.face_determined()


def test_bad_pairings_are_one_line_errors():
    with pytest.raises(ValueError, match=r"flip_pairing='nope' is invalid.*'shared_backs', 'transcribed'"):
        get_variant("flip", {"flip_pairing": "nope"})
    with pytest.raises(ValueError, match="applies only to the flip family"):
        get_variant("classic", {"flip_pairing": "transcribed"})
    rs, specs = resolve("flip", 3, "lookahead,random*", {"flip_pairing": "transcribed"})
    with pytest.raises(ValueError, match=r"flip_pairing='transcribed' is invalid with the lookahead policy"):
        run_compiled(rs, 3, specs, 1, 0, 1)


def test_pairing_ids_leave_every_earlier_seed_unchanged():
    """Cell seeds hash the deck over the face ids when it holds no pairing ids (cards.seed_counts)."""
    rs = get_variant("flip")
    assert cards.seed_counts(rs.deck_counts()) == rs.deck_counts()[:cards.N_FACE_IDS].tolist()
    assert cell_seed(7, rs, 4, "a", True) != cell_seed(7, rs.replace(flip_pairing="transcribed"), 4, "a", True)


@pytest.mark.parametrize("players,lineup,rules", [
    (2, "greedy_points,keep_wilds", {"target": 300}),
    (4, "random(p_bluff=0.4,p_challenge=0.5)", {"match_mode": "single_round", "p_forget_uno": 0.3}),
    (6, "keep_wilds,random*", {"jump_in": True, "seven_o": True, "mercy_limit": 22, "match_mode": "single_round"}),
])
def test_both_engines_play_the_transcribed_pairing_event_for_event(players, lineup, rules):
    rs, specs = resolve("flip", players, lineup, {**rules, "flip_pairing": "transcribed"})
    compiled = run_compiled(rs, players, specs, 4711, 0, 40, trace=True, audit=True)   # audit: conservation
    slow = reference.play(rs, players, specs, 4711, 0, 40, trace=True)
    assert np.array_equal(compiled.events, np.asarray(slow.events))
    for table in ("rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, table), np.asarray(getattr(slow, table))), table
    default, _ = resolve("flip", players, lineup, rules)
    other = run_compiled(default, players, specs, 4711, 0, 40, trace=True)
    assert not np.array_equal(other.events, compiled.events)   # the pairing is in play, not ignored


def test_a_seat_sees_the_others_hands_only_when_backs_name_cards():
    """§2.6.6: under shared backs a Python policy's view holds every other hand; under the transcribed
    pairing a back leaves the card open, so the view holds none."""
    seen = {}

    class Peek(reference.PythonPolicy):
        def play(self, view):
            seen.setdefault(pairing, view.others)
            return super().play(view)

    for pairing in flip_pairing.names():
        rs, _ = resolve("flip", 3, "random", {"flip_pairing": pairing, "match_mode": "single_round"})
        reference.play(rs, 3, [Peek()] * 3, 1, 0, 1)
    assert sum(hand is not None for hand in seen[flip_pairing.DEFAULT]) == 2
    assert seen["transcribed"] == ()
