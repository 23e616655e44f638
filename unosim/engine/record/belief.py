"""What a lookahead seat knows about the other hands: ``g["known"][o, t, c]``, the number of copies of
card id ``c`` that observer ``o`` knows for certain to be in seat ``t``'s hand (a lower bound that is
always true; :mod:`..core.lookahead` samples everything else).

The seat learns only from what happens in public, or to itself, so the table is updated from the
game's events (:func:`observe`, called by ``state.emit`` for every event while ``st[ST_LA_SEARCH]``
is set; the hook runs whether or not the game is traced). What each event teaches, for every lookahead
seat ``o`` (docs/rules.md sections of the moves):

* ``ROUND_START``: a new deal, nothing known. ``REDEAL`` (blank shuffle_hands, §2.1.3): the hands
  were gathered and shuffled, nothing known.
* ``PLAY`` / ``DISCARD`` of card ``c`` by ``t``: one known copy of ``c`` in ``t``'s hand is gone
  (if ``o`` knew one).
* ``SWAP(p, t)`` (blank swap_hands, 7-swap, §2.1.3, §2.4.4): the two hands change owner, so what
  ``o`` knew moves with them; the swapper and its partner each now know exactly the hand they gave.
* ``PASS(p)`` (0-pass, §2.4.4) and ``TRADE`` (Trade Hands, §2.3.3): every hand moves one seat on;
  knowledge moves with it, and each seat knows exactly the hand it passed on. ``TRADE`` is emitted
  before the hands move (its knowledge is taken from the hands as they are then).
* ``SHOW(t)`` (Show Hand, §2.3.3): everyone knows ``t``'s hand exactly.
* ``REVEAL(t, c)`` (War, §2.3.3): the revealed cards stay in ``t``'s hand unless it wins; ``o`` knows
  at least as many copies of ``c`` as ``t`` has revealed in this War.
* ``CHALLENGE(v, ...)`` (§1.8): the challenger ``v`` sees the hand of the WD4's player, as the
  printed rules have the challenged player show it to the challenger (docs/rules.md is silent on
  what the challenger sees; unosim follows the printed rules).
* ``KNOCKOUT(t)`` (§2.4.6): the hand goes face down to the set-aside pile; ``o`` forgets it.
* a wing's own events update what its mechanism changes (UNO Flip's ``FLIP`` turns every known card
  and void entry over: ``mechanics.flip.turn_beliefs_over``), and a wing may show a searching seat more
  (``hooks.seen_counts``: in flip, the other hands' turned-away faces).

Draws teach nothing about the card drawn (Wild Color Roulette's reveals are treated as draws: a
conservative choice, the search then simply samples those cards). Events after the round is decided
(final-card effects, a final spin) change nothing that a decision of this round could use.

**Voids** (public, so one row per seat, not per observer): a seat that draws at its turn had no legal
card — certain under rules without ``voluntary_draw`` (§1.5), and with it certain for a policy that
never draws while it holds a legal card (:func:`draw_proves_void`: ``greedy_points``, ``keep_wilds``,
``random`` with ``p_draw`` 0, ``weighted`` whose draw scores below every card); the seats' policies are
public, so this depends on what the seats saw only. A ``lookahead`` seat's search may choose to draw
(so may ``random(p_draw>0)``): its draws prove nothing and record no void (recording them made the
voids of a drawing expert false and, merged over several draws, cover every card id, so no world could
keep them: issue 26). The search assumes every card the seat then held lies outside the cards that were
legal: ``g["void"][t, c] = 1`` for each such card id, and ``g["void_kept"][t]`` = how many of t's cards
lie outside it (t's hand size then). The void is recorded at every such draw, whatever the hand held.
Cards drawn later may be anything; a card t
plays or discards that lies outside the void may have been one of the kept ones, so the count drops by
one (a lower bound that stays true). A later void merges with the current one when every card t holds
is kept (else it replaces it). Hands that move (swap, 0-pass, Trade Hands, a redeal) or leave (knock-out)
lose their voids. :func:`unosim.engine.core.worlds.deal_world` deals at least ``void_kept`` of t's unknown cards from
outside its void.

This module imports only the protocol and the card tables (``state.emit`` imports it).
"""


from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L


# Every table operation is an explicit loop: numpy slice assignments compile numba's broadcasting and its
# shape-mismatch messages, and every function that emits an event carries this module's code (numba links
# a callee's code into each caller), so its size was paid dozens of times in a lookahead build's compile.
@njit
def hand_into(g, t, o, r):
    """known[o, r] = the copies of each card id in t's hand (read where o has seen that hand)."""
    known = g["known"]
    for c in range(known.shape[2]):
        known[o, r, c] = 0
    for i in range(g["hlen"][t]):
        known[o, r, g["hands"][t, i]] += 1


@njit
def forget(known, rows, seat):
    """Nothing known about the hands of seats 0..rows-1 (seat < 0), or about ``seat``'s hand."""
    for o in range(rows):
        for t in range(rows):
            if seat < 0 or t == seat:
                for c in range(known.shape[2]):
                    known[o, t, c] = 0


@njit
def move_rows(known, o, order, k):
    """Hands moved one place along order[:k] (order[j] received the hand of order[j-1], order[0]
    that of order[k-1]): o's knowledge of each hand moves with it."""
    for c in range(known.shape[2]):
        last = known[o, order[k - 1], c]
        for j in range(k - 1, 0, -1):
            known[o, order[j], c] = known[o, order[j - 1], c]
        known[o, order[0], c] = last


@njit
def seats_from(g, p, order):
    """order[:k] = the active seats from p (included when active) in direction d; returns k (the
    order of the 0-pass, piles.pass_hands)."""
    st = g["st"]
    n = st[L.ST_N]
    d = st[L.ST_DIR]
    k = 0
    s = p
    for _ in range(n):
        if g["seat"][s, L.SE_ACTIVE]:
            order[k] = s
            k += 1
        s = (s + d) % n
    return k


@njit
def active_ascending(g, order):
    """order[:k] = the active seats 0..n-1 (Trade Hands moves hands i -> i+1 whatever d); returns k."""
    k = 0
    for s in range(g["st"][L.ST_N]):
        if g["seat"][s, L.SE_ACTIVE]:
            order[k] = s
            k += 1
    return k


@njit
def pass_on(g, o, order, k, before):
    """Hands moved along order[:k]: o's knowledge moves with them and o knows the hand it passed on
    exactly (``before``: the hands have not moved yet, so o's own hand is still o's)."""
    move_rows(g["known"], o, order, k)
    for j in range(k):
        if order[j] == o:
            receiver = order[(j + 1) % k]
            hand_into(g, o if before else receiver, o, receiver)


@njit
def revealed_copies(g, t, c):
    """How many of the cards t has revealed in this War are copies of card c."""
    count = 0
    for j in range(g["n_revealed"][t]):
        if g["hands"][t, g["revealed"][t, j]] == c:
            count += 1
    return count


@njit
def clear_voids(g, seat):
    """Nothing known to be missing from ``seat``'s hand (every seat's: seat < 0)."""
    n = g["st"][L.ST_N]
    for t in range(n):
        if seat < 0 or t == seat:
            g["void_kept"][t] = 0
            for c in range(g["void"].shape[1]):
                g["void"][t, c] = 0


@njit
def draw_proves_void(g, p):
    """Whether p's draw at its turn proves it held no legal card (module docstring): always without
    ``voluntary_draw``; with it only for a policy that never draws while it holds a legal card."""
    if not g["ir"][L.IR_VOLUNTARY_DRAW]:
        return True
    pid = g["pol"][p]
    if pid == L.GREEDY_POINTS or pid == L.KEEP_WILDS:
        return True
    if pid == L.RANDOM:
        return g["pp"][p, L.PP_DRAW] == 0
    if pid == L.WEIGHTED:   # choose_card draws only when the draw's score ties or beats a card's
        return g["pp"][p, L.PP_W_VOLUNTARY_DRAW] < g["card_floor"][p]
    return False   # lookahead: its search may draw


@njit
def drew_at_turn(g, p, flags, legal_bit):
    """Seat p draws at its turn: when that proves it (:func:`draw_proves_void`), none of its cards has
    ``legal_bit`` in ``flags`` (the play-flags row of the top card and colour in play)."""
    if not draw_proves_void(g, p):
        return
    void = g["void"]
    merge = g["void_kept"][p] >= g["hlen"][p]
    for c in range(void.shape[1]):
        bad = 1 if flags[c] & legal_bit else 0
        void[p, c] = 1 if bad or (merge and void[p, c]) else 0
    g["void_kept"][p] = g["hlen"][p]


@njit
def observe(g, code, s, a, b):
    """Update every lookahead seat's knowledge after event (code, s, a, b) (see the module docstring)."""
    st = g["st"]
    known = g["known"]
    pol = g["pol"]
    n = st[L.ST_N]
    if code == L.EV_ROUND_START or code == L.EV_REDEAL:
        forget(known, n, -1)
        clear_voids(g, -1)
        return
    if st[L.ST_ENDED]:
        return
    if code == L.EV_PLAY or code == L.EV_DISCARD:
        for o in range(n):
            if known[o, s, a] > 0:
                known[o, s, a] -= 1
        if g["void_kept"][s] > 0 and not g["void"][s, a]:
            g["void_kept"][s] -= 1
    elif code == L.EV_KNOCKOUT:
        forget(known, n, s)
        clear_voids(g, s)
    elif code == L.EV_SHOW:
        for o in range(n):
            if o != s and pol[o] == L.LOOKAHEAD:
                hand_into(g, s, o, s)
    elif code == L.EV_REVEAL:
        seen = revealed_copies(g, s, a)
        for o in range(n):
            if o != s and known[o, s, a] < seen:
                known[o, s, a] = seen
    elif code == L.EV_CHALLENGE:
        if pol[s] == L.LOOKAHEAD:
            hand_into(g, st[L.ST_LAST_PLAYER], s, st[L.ST_LAST_PLAYER])
    elif code == L.EV_SWAP:
        clear_voids(g, s)
        clear_voids(g, a)
        for o in range(n):
            if pol[o] == L.LOOKAHEAD:
                for c in range(known.shape[2]):
                    known[o, s, c], known[o, a, c] = known[o, a, c], known[o, s, c]
                if o == s:
                    hand_into(g, a, o, a)
                elif o == a:
                    hand_into(g, s, o, s)
    elif code == L.EV_PASS or code == L.EV_TRADE:
        clear_voids(g, -1)
        order = g["belief_order"]
        k = seats_from(g, s, order) if code == L.EV_PASS else active_ascending(g, order)
        if k >= 2:
            for o in range(n):
                if pol[o] == L.LOOKAHEAD:
                    pass_on(g, o, order, k, code == L.EV_TRADE)
