"""Mid-game states at a lookahead seat's decision, and hidden-information variants of them (helpers of
tests/engine/policies/test_lookahead_infoset.py; the compiled engine's own functions play the rounds)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from unosim.engine.core import effects as E
from unosim.engine.core import lookahead as LA
from unosim.engine.core import turn as T
from unosim.engine.core.round import new_game
from unosim.engine.record import state as S
from unosim.engine.record.rng import seed_streams
from unosim.game import cards
from unosim.game import protocol as L
from unosim.game.policies import lineup_arrays
from unosim.play.simulate import resolve

# Rule sets that exercise every way a seat learns about another hand (docs/rules.md §2.1.3 swap_hands,
# §4 seven_o 7-swap and 0-pass, §2.3.3 Show Hand / Trade Hands / War, §1.8 challenges, §2.4.6 knock-outs)
CASES = {
    "classic": ("classic", 4, {"n_blank": 3, "seven_o": True, "wd4_challenge": True, "jump_in": True}),
    "minions": ("minions", 4, {"stacking": "any_draw"}),
    "spin": ("spin", 4, {"spin_weights": [1, 1, 1, 1, 1, 3, 4, 3, 1]}),
    "no_mercy": ("no_mercy", 4, {}),
}
LINEUP = ("lookahead(rollouts=2,horizon=6),random(p_challenge=0.5,p_bluff=0.3),"
          "lookahead(rollouts=3,anchor=colour_counter),random")   # two anchors: a heuristic, a weighted preset


def setup(case: str):
    """(rules, compiled ir, fr, deck, pol, pp, deck_counts) of a case."""
    variant, players, rules = CASES[case]
    rs, specs = resolve(variant, players, LINEUP, {**rules, "match_mode": "single_round"})
    ir, fr, deck = rs.compile(players)
    pol, pp = lineup_arrays(specs)
    return players, ir, fr, deck, pol, pp, np.bincount(deck, minlength=cards.N_CARD_IDS).astype(np.int64)


def decisions(case: str, seed: int, games: int) -> Iterator[tuple[np.ndarray, int, np.ndarray]]:
    """(game block, seat, deck_counts) at every pause of the turn loop before a lookahead seat's turn;
    the round goes on with that seat's search after each yield (so a caller may copy, not mutate)."""
    players, ir, fr, deck, pol, pp, deck_counts = setup(case)
    ir[L.IR_AUDIT] = 1
    for game in range(games):
        block = new_game(ir, fr, pol, pp)
        g = block[0]
        seed_streams(g, seed, game)
        g["st"][L.ST_DEALER] = game % players
        S.emit(g, L.EV_ROUND_START, game % players, 0, game)
        T.reset_round(g)
        T.deal(g, deck, deck[:0], np.zeros((players, cards.N_HAND_CLASSES), np.int8, order="F"), 0)
        cur = T.first_card(g)
        if g["st"][L.ST_ENDED]:
            continue
        E.checkpoint(g, (game % players + 1) % players)
        cur = T.turn_loop(g, cur, deck_counts) if not g["st"][L.ST_ENDED] else -1
        while cur >= 0:
            yield block, cur, deck_counts
            LA.search(g, cur, deck_counts, np.zeros(LA.WORK_RECORDS, LA.WORLD))
            cur = T.turn_loop(g, cur, deck_counts)
        assert g["st"][L.ST_VIOLATIONS] == 0, "an audited invariant failed (in the game or a rollout)"


def known_split(g, p: int, t: int) -> tuple[list[int], list[int]]:
    """Seat t's hand split into the cards p knows it holds and the rest (asserting p's knowledge is
    true: every card p believes t holds, t holds)."""
    counts = g["known"][p, t].astype(np.int64).copy()
    keep, rest = [], []
    for c in g["hands"][t, :g["hlen"][t]]:
        if counts[c] > 0:
            counts[c] -= 1
            keep.append(int(c))
        else:
            rest.append(int(c))
    assert not counts.any(), f"seat {p} believes seat {t} holds cards it does not: {np.flatnonzero(counts)}"
    return keep, rest


def lean_copy(block: np.ndarray) -> np.ndarray:
    """``block.copy()`` but for the trace buffer's rows past the last event: untraced, those 32 MB are never
    written (round.new_game), and copying them cost a third of this module's time."""
    out = np.zeros(1, block.dtype)
    for name in block.dtype.names:
        if name != "ev":
            out[0][name] = block[0][name]
    written = block[0]["st"][L.ST_EV_LEN]
    out[0]["ev"][:written] = block[0]["ev"][:written]
    return out


def hidden_variant(block: np.ndarray, p: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of the game that differs from it only in what seat p cannot see: the other hands' unknown
    cards, their order, the draw and set-aside piles (same sizes), the deck stream (future reshuffles),
    stale slots beyond every hand and pile, and the scratch buffers. The other seats' beliefs are
    cleared in the copy and must be cleared in the original too (``forget_others``)."""
    out = lean_copy(block)
    g = out[0]
    n = g["st"][L.ST_N]
    hands, hlen, pile, plen = g["hands"], g["hlen"], g["pile"], g["plen"]
    kept, pool = {}, []
    for t in range(n):
        if t != p:
            kept[t], rest = known_split(g, p, t)
            pool += rest
    for row in (S.DRAW, S.ASIDE):
        pool += [int(c) for c in pile[row, :plen[row]]]
    rng.shuffle(pool)
    for t, keep in kept.items():
        need = hlen[t] - len(keep)
        hand = keep + pool[:need]
        pool = pool[need:]
        rng.shuffle(hand)
        hands[t, :hlen[t]] = hand
    for row in (S.DRAW, S.ASIDE):
        pile[row, :plen[row]] = pool[:plen[row]]
        pool = pool[plen[row]:]
    assert not pool
    for t in range(L.MAX_PLAYERS):
        hands[t, hlen[t] if t < n else 0:] = rng.integers(0, cards.N_CARD_IDS, L.MAX_CARDS - (hlen[t] if t < n else 0))
    for row in range(3):
        pile[row, plen[row]:] = rng.integers(0, cards.N_CARD_IDS, L.MAX_CARDS - plen[row])
    g["rng"][:4] = rng.integers(0, 2**63, 4, dtype=np.uint64)
    for t in range(n):   # the other hands' colour counts change with them (and p's search never reads them)
        S.recount_held(g, t)
    for scratch in ("legal", "buf", "order", "cand"):
        g[scratch][:] = rng.integers(0, 5, g[scratch].shape[0])
    forget_others(out, p)
    return out


def forget_others(block: np.ndarray, p: int) -> None:
    """Clear every seat's beliefs but p's (they describe the real hidden cards; p's search never reads
    them)."""
    known = block[0]["known"]
    mine = known[p].copy()
    known[:] = 0
    known[p] = mine
