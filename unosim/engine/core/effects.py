"""What a played card does (docs/rules.md §1.5 step 6, §1.7, §1.8, §1.10, §1.11, §2.1.3, §2.4.4), skips
and the UNO checkpoint; the cards of a mechanism's wing act through :mod:`.hooks`."""

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..features import HAS_CARDS
from ..mechanics import cards as declared
from ..policies.dispatch import challenges, choose_colour, choose_target
from ..record.legality import restricted
from ..record.piles import (
    discard_colour,
    draw_n,
    draw_until_colour,
    remove_card,
    swap_hands,
    win,
)
from ..record.rng import PLAY_STREAM, bernoulli
from ..record.state import (
    CHALLENGE_PENALTY,
    COLOUR,
    DISC,
    DRAW_VALUE,
    ID_CUSTOM0,
    K_NUMBER,
    K_REVERSE,
    K_SKIP,
    K_SKIP_EVERYONE,
    K_WRD4,
    KIND,
    NO_COLOUR,
    SE_ACTIVE,
    SE_PLAYED,
    SE_UNO_DONE,
    ST_COLOUR,
    ST_DEALER,
    ST_DIR,
    ST_ENDED,
    ST_LARGEST,
    ST_LAST_PLAYER,
    ST_MOVES,
    ST_N,
    ST_N_ACTIVE,
    ST_P,
    ST_PLAYED,
    ST_PLAYS,
    ST_TOP,
    ST_UNO_CHECKS,
    discarded,
    draw_value_of,
    emit,
    holds_colour,
    next_seat,
    step,
)
from . import hooks


# ---- verbs of the classic family --------------------------------------------------------------------
@njit(inline='always')
def after_wing(g, r):
    """A wing's answer r (engine/core/hooks.py): SKIPS - v, v is skipped and the turn goes to next(v);
    anything else (a seat, -1, NOT_MINE) is returned as it is."""
    if r <= hooks.SKIPS:
        v = hooks.SKIPS - r
        skip_seat(g, v)
        return next_seat(g, v)
    return r


@njit
def skip_seat(g, v):
    """v loses its turn (a pose event in minions); a seat knocked out by the penalty is not skipped."""
    if not g["seat"][v, SE_ACTIVE]:
        return
    emit(g, L.EV_SKIP, v, 0, 0)
    hooks.turn_passes_to(g, v)


@njit(inline='always')
def checkpoint(g, a):
    """§1.10: UNO calls, forgets and catches, in order from the acting seat a in direction d; nothing to
    do (inlined: no call in the turn loop) unless the game is traced or someone forgets UNO."""
    if g["st"][ST_UNO_CHECKS]:
        uno_checks(g, a)


@njit
def uno_checks(g, a):
    st = g["st"]
    hlen = g["hlen"]
    seat = g["seat"]
    ir = g["ir"]
    fr = g["fr"]
    n = st[ST_N]
    s = a
    for _ in range(n):
        if st[ST_ENDED]:
            return   # an UNO penalty knocked out the last opponent: the round is over (tiny mercy_limit)
        if seat[s, SE_ACTIVE] and hlen[s] == 1 and not seat[s, SE_UNO_DONE]:
            if not bernoulli(g, PLAY_STREAM, fr[L.FR_P_FORGET_UNO + s]):
                emit(g, L.EV_UNO, s, 1, 0)
            elif bernoulli(g, PLAY_STREAM, fr[L.FR_P_CATCH]):
                emit(g, L.EV_UNO, s, 2, 0)
                draw_n(g, s, ir[L.IR_UNO_PENALTY])
            else:
                emit(g, L.EV_UNO, s, 3, 0)
            seat[s, SE_UNO_DONE] = 1
        s = step(s, st[ST_DIR], n)


@njit
def final_card_effects(g, p, c, pending):
    """§1.11 / §4 final_card_effects: the card that emptied p's hand still acts on the others.

    A final draw card makes next(p) draw the pending total including itself (after a WRD4's reversal);
    a wing's card acts through its wing (a last shuffle_hands blank never gets here: the round goes on).
    """
    st = g["st"]
    k = KIND[c]
    if HAS_CARDS and c >= ID_CUSTOM0:
        declared_final(g, p, c, pending)   # a declared card's effects (docs/rules.md §2.7)
    elif DRAW_VALUE[c] > 0:
        if k == K_WRD4:
            st[ST_DIR] = -st[ST_DIR]
        draw_n(g, next_seat(g, p), pending + DRAW_VALUE[c])
    else:
        hooks.on_final(g, p, c)   # a last blank (§2.1.3), a last spin card: next(p) still spins (§2.3.6)


@njit
def draw_card_effect(g, p, c, responding, guilty):
    """A draw card played with cards left: resolved at once (stacking none) or stacked (§1.7, §2.4.4)."""
    st = g["st"]
    ir = g["ir"]
    k = KIND[c]
    value = draw_value_of(g, c)
    if k == K_WRD4:
        st[ST_DIR] = -st[ST_DIR]
    if restricted(g, c) and not responding:
        v = next_seat(g, p)
        if ir[L.IR_WD4_CHALLENGE] and challenges(g, v):
            # §1.8: a challenger cannot also stack; the named colour stands
            emit(g, L.EV_CHALLENGE, v, 1 if guilty else 0, 0)
            st[ST_LARGEST] = max(st[ST_LARGEST], value)
            if guilty:
                draw_n(g, p, value)
                return v
            draw_n(g, v, value + CHALLENGE_PENALTY)
            skip_seat(g, v)
            return next_seat(g, v)
    r = hooks.on_draw_card(g, p, c)   # stacking: it joins the pending penalty, the responder moves
    if r != hooks.NOT_MINE:
        return r
    st[ST_LARGEST] = max(st[ST_LARGEST], value)
    v = next_seat(g, p)
    draw_n(g, v, value)
    skip_seat(g, v)
    return next_seat(g, v)


# inline='always' (numba-IR inlining) on the small per-turn helpers: left as calls, splitting the turn
# into them cost throughput (docs/results/code_choices.json)
@njit(inline='always')
def place_card(g, p, i):
    """§1.5 step 6: p's hand index i goes on the discard pile as T, and a wild names the colour in play
    (a Roulette's victim names it instead, N5); returns the card."""
    st = g["st"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    c = remove_card(g, p, i)
    pile[DISC, plen[DISC]] = c
    plen[DISC] += 1
    discarded(g, c)
    st[ST_TOP] = c
    st[ST_PLAYS] += 1
    st[ST_MOVES] += 1
    st[ST_PLAYED] = 1
    st[ST_LAST_PLAYER] = p
    seat[p, SE_PLAYED] += 1
    seat[p, SE_UNO_DONE] = 0
    emit(g, L.EV_PLAY, p, c, 0)
    if COLOUR[c] == NO_COLOUR:
        if not hooks.colour_named_by_wing(c):   # No Mercy's Roulette: its victim names the colour
            st[ST_COLOUR] = choose_colour(g, p)
            emit(g, L.EV_COLOUR, p, st[ST_COLOUR], 0)
    else:
        st[ST_COLOUR] = COLOUR[c]
    return c


@njit(inline='always')
def last_card(g, p, c):
    """p played its last card c: it wins (then, with final_card_effects, the card still acts, §1.11),
    except a shuffle_hands blank under final_card_effects, which redeals (§2.1.3). Returns the next
    seat, -1 when the round is over."""
    st = g["st"]
    ir = g["ir"]
    pending = st[ST_P]
    if ir[L.IR_FINAL_CARD_EFFECTS]:
        r = hooks.on_last_card(g, p, c)   # a shuffle_hands blank redeals: the round goes on (§2.1.3)
        if r != hooks.NOT_MINE:
            return r
        win(g, p)
        final_card_effects(g, p, c, pending)
    else:
        win(g, p)
    return -1


@njit(inline='always')
def number_effect(g, p, c):
    """A NUMBER played with cards left: the wings act (spin: a spin card designates the spinner, §2.3.2;
    seven_o: a 7 swaps hands and a 0 passes them, §4). Returns the next seat."""
    hooks.on_number(g, p, c)   # a spin card's designation (§2.3.2), 7-0's swap and pass (§4)
    return next_seat(g, p)


@njit(inline='always')
def action_effect(g, p, c, guilty):
    """The effect of a card that is neither a draw card nor a NUMBER, played with cards left (§1.5,
    §2.4.4): Skip, Reverse, Skip Everyone, a plain wild, or a wing's card (blanks, Dumb Fu, No Mercy's
    Discard All and Roulette, UNO Flip's Flip and Wild Draw Colour: none is a draw card or a NUMBER, so
    numbers and draw cards never ask the wings). Returns the next seat (-1: the round is over)."""
    st = g["st"]
    k = KIND[c]
    if k == K_SKIP:
        v = next_seat(g, p)
        skip_seat(g, v)
        return next_seat(g, v)
    if k == K_REVERSE:
        st[ST_DIR] = -st[ST_DIR]
        if st[ST_N_ACTIVE] == 2 and g["ir"][L.IR_TWO_PLAYER_REVERSE_SKIP]:
            skip_seat(g, next_seat(g, p))
            return p
        return next_seat(g, p)
    if k == K_SKIP_EVERYONE:   # No Mercy's, and UNO Flip's dark side's (§2.4.4, §2.6.4): p plays again
        return p
    if HAS_CARDS and c >= ID_CUSTOM0:   # a declared card: its effects as data (docs/rules.md §2.7)
        return declared_effect(g, p, c, guilty)
    r = after_wing(g, hooks.on_play(g, p, c, guilty))
    if r != hooks.NOT_MINE:
        return r
    return next_seat(g, p)


@njit
def play_card(g, p, i):
    """§1.5 step 6 / §2.4.3 step 3: p plays hand index i and the card acts; returns the next seat
    (-1: round over)."""
    st = g["st"]
    responding = st[ST_P] > 0
    # §1.8: a WD4 played while p holds the colour in play is a bluff (judged before it leaves the hand)
    guilty = restricted(g, g["hands"][p, i]) and not responding and holds_colour(g, p, st[ST_COLOUR], i)
    c = place_card(g, p, i)
    if g["hlen"][p] == 0:
        return last_card(g, p, c)
    if DRAW_VALUE[c] > 0:
        return draw_card_effect(g, p, c, responding, guilty)
    if KIND[c] == K_NUMBER:
        return number_effect(g, p, c)
    return action_effect(g, p, c, guilty)


# ---- cards declared as data (docs/rules.md §2.7): their effect rows, applied in order --------------------
# While the effects run, ``anchor`` is the last seat the card passed over (at first the player): the turn
# goes to next(anchor), or back to the player after skip_everyone. Twin of reference/mechanics/cards.py.
@njit
def skip_next(g, anchor):
    v = next_seat(g, anchor)
    skip_seat(g, v)
    return v


@njit
def declared_effect(g, p, c, guilty):
    """Declared card c played by p with cards left (docs/rules.md §2.7): its effects in order (module
    :mod:`unosim.engine.mechanics.cards`); the next seat, -1 when an effect ended the round."""
    st = g["st"]
    ir = g["ir"]
    row = declared.row_of(c)
    anchor = p
    again = False
    for e in range(ir[row + 2]):
        code = ir[row + declared.ROW_EFFECTS + 2 * e]
        n = ir[row + declared.ROW_EFFECTS + 2 * e + 1]
        if code == declared.DRAW:   # always the last effect: a draw card (§1.7, §4)
            return draw_card_effect(g, p, c, st[L.ST_P] > 0, guilty)
        if code == declared.REVERSE:
            st[ST_DIR] = -st[ST_DIR]
            if st[ST_N_ACTIVE] == 2 and ir[L.IR_TWO_PLAYER_REVERSE_SKIP] and not declared.has_draw(ir, row):
                anchor = skip_next(g, anchor)
        elif code == declared.SKIP:
            for _ in range(min(n, st[ST_N_ACTIVE] - 1)):
                anchor = skip_next(g, anchor)
        elif code == declared.SKIP_EVERYONE:
            again = True
        elif code == declared.OTHERS_DRAW:
            declared.others_draw(g, p, n)
        elif code == declared.DISCARD_COLOUR:
            discard_colour(g, p, st[ST_COLOUR])
            if g["hlen"][p] == 0:
                win(g, p)
                return -1
        elif code == declared.SWAP_HANDS:
            swap_hands(g, p, choose_target(g, p))
        elif code == declared.PASS_HANDS:
            declared.pass_hands(g, p)
        elif code == declared.DRAW_UNTIL_COLOUR:
            v = next_seat(g, anchor)
            draw_until_colour(g, v, st[ST_COLOUR])
            if not st[ST_ENDED]:
                skip_seat(g, v)
            anchor = v
        elif code == declared.SELF_DRAW:
            draw_n(g, p, n)
        if st[ST_ENDED]:   # a knock-out left one player (§2.4.6)
            return -1
    if again:
        return p
    return next_seat(g, anchor)


@njit
def declared_first_card(g, f, c):
    """A declared card turned up first (F has named a wild's colour): its skip and draw effects act as if
    the dealer had played it, its reverse as the built-in Reverse (the dealer starts); the seat of the
    first turn."""
    st = g["st"]
    ir = g["ir"]
    row = declared.row_of(c)
    anchor = st[ST_DEALER]
    for e in range(ir[row + 2]):
        code = ir[row + declared.ROW_EFFECTS + 2 * e]
        n = ir[row + declared.ROW_EFFECTS + 2 * e + 1]
        if code == declared.REVERSE:
            before = next_seat(g, anchor)   # in the new direction its next seat is the anchor
            st[ST_DIR] = -st[ST_DIR]
            anchor = before
        elif code == declared.SKIP:
            for _ in range(min(n, st[ST_N_ACTIVE] - 1)):
                anchor = skip_next(g, anchor)
        elif code == declared.DRAW:
            v = next_seat(g, anchor)
            draw_n(g, v, n)
            skip_seat(g, v)
            anchor = v
    return next_seat(g, anchor)


@njit
def declared_final(g, p, c, pending):
    """Declared card c emptied p's hand (final_card_effects, §1.11): its effects on the others act in
    order (reverse, draw:N with the pending P, others_draw, draw_until_colour)."""
    st = g["st"]
    ir = g["ir"]
    row = declared.row_of(c)
    for e in range(ir[row + 2]):
        if st[L.ST_END] == L.END_KNOCKOUT:
            return
        code = ir[row + declared.ROW_EFFECTS + 2 * e]
        n = ir[row + declared.ROW_EFFECTS + 2 * e + 1]
        if code == declared.REVERSE:
            st[ST_DIR] = -st[ST_DIR]
        elif code == declared.DRAW:
            draw_n(g, next_seat(g, p), pending + n)
        elif code == declared.OTHERS_DRAW:
            declared.others_draw(g, p, n)
        elif code == declared.DRAW_UNTIL_COLOUR:
            draw_until_colour(g, next_seat(g, p), st[ST_COLOUR])
