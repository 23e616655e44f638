"""UNO Flip's pairing of faces as deck data (docs/rules.md §6 F1, unosim/game/flip_pairing.py): every
pairing conserves the rulebook's faces, both engines play the transcribed pairing event for event, and
what a seat may know of the others follows from the pairing."""

from collections import Counter

import numpy as np
import pytest

import lookahead_states
from lookahead_states import decisions, forget_others, lean_copy

from unosim import reference
from unosim.engine import lookahead as LA
from unosim.engine import state as S
from unosim.game import cards, flip_pairing
from unosim.game import protocol as L
from unosim.game.rules import get_variant
from unosim.pipeline.study import cell_seed
from unosim.play.simulate import resolve, run_compiled
from unosim.reference.lookahead import replayed_lineup

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


# ---- the expert under a pairing whose backs do not name the cards (§2.6.6) ----------------------------
def _backs(cards_held) -> list[int]:
    return sorted(int(cards.BASE_FACE[cards.FLIP_PARTNER[c]]) for c in cards_held)


def _transcribed_decisions(monkeypatch, seed, games):
    monkeypatch.setitem(lookahead_states.CASES, "flip_transcribed",
                        ("flip", 4, {"flip_pairing": "transcribed", "wd4_challenge": True}))
    return decisions("flip_transcribed", seed=seed, games=games)


def _same_backs_variant(block, p, rng):
    """A copy differing only in what p cannot see under the transcribed pairing: behind every back p
    cannot read (the other hands' cards, the draw and set-aside piles), another card with that back."""
    out = lean_copy(block)
    g = out[0]
    places = [(t, i) for t in range(g["st"][L.ST_N]) if t != p for i in range(g["hlen"][t])
              if not cards.NAMED_BY_BACK[g["hands"][t, i]]]
    places += [(-row - 1, i) for row in (S.DRAW, S.ASIDE) for i in range(g["plen"][row])]

    def at(place):
        t, i = place
        return g["hands"][t, i] if t >= 0 else g["pile"][-t - 1, i]

    by_back: dict[int, list] = {}
    for place in places:
        by_back.setdefault(_backs([at(place)])[0], []).append(place)
    for group in by_back.values():
        held = [int(at(place)) for place in group]
        rng.shuffle(held)
        for (t, i), c in zip(group, held):
            if t >= 0:
                g["hands"][t, i] = c
            else:
                g["pile"][-t - 1, i] = c
    for t in range(g["st"][L.ST_N]):
        S.recount_held(g, t)
    forget_others(out, p)
    return out


def test_the_expert_decides_on_backs_not_on_the_cards_behind_them(monkeypatch):
    """Information-set consistency: swapping the cards behind every back the searching seat cannot read
    changes neither its decision nor its play stream."""
    rng = np.random.default_rng(3)
    checked = searched = changed = 0
    for block, p, deck_counts in _transcribed_decisions(monkeypatch, seed=5, games=8):
        original = lean_copy(block)
        forget_others(original, p)
        variant = _same_backs_variant(block, p, rng)
        changed += not np.array_equal(original[0]["hands"], variant[0]["hands"])
        LA.search(original[0], p, deck_counts, np.zeros(LA.WORK_RECORDS, LA.WORLD))
        LA.search(variant[0], p, deck_counts, np.zeros(LA.WORK_RECORDS, LA.WORLD))
        a, b = original[0]["st"], variant[0]["st"]
        assert a[L.ST_LA_CHOICE] == b[L.ST_LA_CHOICE], f"seat {p} decided on cards it sees only the backs of"
        assert np.array_equal(original[0]["rng"][4:], variant[0]["rng"][4:])
        assert a[L.ST_VIOLATIONS] == b[L.ST_VIOLATIONS] == 0
        checked += 1
        searched += a[L.ST_LA_CHOICE] != LA.NO_CHOICE
    assert checked >= 50 and searched >= 25 and changed >= 0.9 * checked, (checked, searched, changed)


def test_a_world_shows_the_backs_the_seat_sees_and_varies_behind_them(monkeypatch):
    """Every dealt world gives each other seat cards with exactly the backs it shows; behind them the
    worlds differ (the seat does not know the cards exactly)."""
    differ = worlds = 0
    for block, p, deck_counts in _transcribed_decisions(monkeypatch, seed=9, games=4):
        g = lean_copy(block)[0]
        counts = np.empty_like(deck_counts)
        from unosim.engine.mechanics import flip
        flip.reveal(g, p)
        flip.face_counts(g, deck_counts, counts)
        unseen = np.empty(L.MAX_CARDS, np.int64)
        m = LA.unseen_cards(g, p, counts, unseen)
        assert m >= 0
        dealt = []
        for world in range(2):
            work = np.zeros(LA.WORK_RECORDS, LA.WORLD)[0]
            LA.deal_world(g, p, work, unseen.copy(), m, np.uint64(777), world)
            assert g["st"][L.ST_VIOLATIONS] == 0
            hands = [sorted(work["hands"][t, :g["hlen"][t]].tolist()) for t in range(g["st"][L.ST_N]) if t != p]
            real = [g["hands"][t, :g["hlen"][t]] for t in range(g["st"][L.ST_N]) if t != p]
            assert [_backs(h) for h in hands] == [_backs(h) for h in real]
            dealt.append(hands)
        worlds += 1
        differ += dealt[0] != dealt[1]
    assert worlds >= 20 and differ >= 0.8 * worlds, (worlds, differ)


def test_the_reference_replays_the_expert_under_the_transcribed_pairing():
    lineup = "lookahead(rollouts=3,horizon=8),random(p_draw=0.2)*"
    rs, specs = resolve("flip", 3, lineup, {"flip_pairing": "transcribed", "target": 200})
    searched = 0
    for game in range(4):
        compiled = run_compiled(rs, 3, specs, 31, game, 1, trace=True, audit=True)
        events = compiled.events
        searched += int(events[events[:, 0] == L.EV_LOOKAHEAD][:, 3].sum())
        slow = reference.play(rs, 3, replayed_lineup(lineup, 3, events), 31, game, 1, trace=True)
        assert np.array_equal(events[events[:, 0] != L.EV_LOOKAHEAD], np.asarray(slow.events))
    assert searched >= 10
