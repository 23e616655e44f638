"""UNO Flip's pairing of faces as deck data (docs/rules.md §6 F1, unosim/game/flip_pairing.py): every
pairing holds the rulebook's faces once per card, the default is §6 F1's formula, the transcribed one is
as its source describes it, and bad names are one-line errors."""

from collections import Counter

import numpy as np
import pytest

from unosim.game import cards, flip_pairing
from unosim.game.rules import get_variant
from unosim.pipeline.study import cell_seed

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


def test_pairing_ids_leave_every_earlier_seed_unchanged():
    """Cell seeds hash the deck over the face ids when it holds no pairing ids (cards.seed_counts)."""
    rs = get_variant("flip")
    assert cards.seed_counts(rs.deck_counts()) == rs.deck_counts()[:cards.N_FACE_IDS].tolist()
    assert cell_seed(7, rs, 4, "a", True) != cell_seed(7, rs.replace(flip_pairing="transcribed"), 4, "a", True)
