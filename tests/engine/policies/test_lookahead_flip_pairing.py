"""The expert under a pairing whose backs do not name the cards (docs/rules.md §2.6.6, §5.5): it decides
on the backs it sees, never on the cards behind them; its worlds show those backs and vary behind them;
the reference engine replays its games."""

import lookahead_states
import numpy as np
from lookahead_states import decisions, forget_others, lean_copy

from unosim import reference
from unosim.engine.core import lookahead as LA
from unosim.engine.mechanics import flip
from unosim.engine.record import state as S
from unosim.game import cards
from unosim.game import protocol as L
from unosim.play.simulate import resolve, run_compiled
from unosim.reference.lookahead import replayed_lineup


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
        for (t, i), c in zip(group, held, strict=True):
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
        flip.reveal(g, p)
        flip.face_counts(g, deck_counts, counts)
        unseen = np.empty(L.MAX_CARDS, np.int64)
        ids = LA.deck_ids(counts)
        m = LA.unseen_cards(g, p, counts, ids, unseen)
        assert m >= 0
        dealt = []
        for world in range(2):
            work = np.zeros(LA.WORK_RECORDS, LA.WORLD)[0]
            LA.deal_world(g, p, work, unseen.copy(), m, ids, np.uint64(777), world)
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
