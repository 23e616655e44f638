"""Card model for every variant (docs/rules.md §1.1, §2.x.1).

Encoding
--------
A physical card is a small integer **card id** in ``0 .. N_CARD_IDS-1``. Identical cards share an id;
hands and piles hold ids, decks are **count vectors** indexed by id.

Coloured ids: ``colour * 21 + slot`` with colour ``R=0, Y=1, G=2, B=3`` and slot

====  ======================================
0-9   NUMBER 0..9 (plain)
10-14 NUMBER 1..5 with the spin flag (spin)
15    SKIP
16    REVERSE
17    DRAW_TWO
18    DRAW_FOUR (coloured +4, no_mercy)
19    DISCARD_ALL (no_mercy)
20    SKIP_EVERYONE (no_mercy)
====  ======================================

Wild ids (colour ``NO_COLOUR``): 84 WILD, 85 WD4, 86/87/88 BLANK card 0/1/2 (three distinct physical
blanks, because each carries its own effect, §2.1.3), 89 DUMB_FU, 90 WRD4, 91 WD6, 92 WD10,
93 WILD_COLOR_ROULETTE.

The per-id tables below (``COLOUR``, ``KIND``, ``NUMBER``, ``SPIN``, ``DRAW_VALUE``, ``POINTS``) are
constants shared by the compiled engine and the reference engine.

Opening-hand classes (``HAND_CLASSES``) group ids for the card-value statistics: the ten numbers (spin
cards counted under their number) and every action kind, e.g. ``n7`` or ``wd4``.
"""

from __future__ import annotations

import numpy as np

MAX_CARDS = 168   # the largest deck (No Mercy's): no hand or pile can exceed it; protocol re-exports it

# ---- colours ---------------------------------------------------------------------------------------
R, Y, G, B = 0, 1, 2, 3
NO_COLOUR = 4
COLOUR_NAMES = ("R", "Y", "G", "B", "-")

# ---- kinds -----------------------------------------------------------------------------------------
NUMBER, SKIP, REVERSE, DRAW_TWO, WILD, WD4, BLANK, DUMB_FU = 0, 1, 2, 3, 4, 5, 6, 7
DRAW_FOUR, DISCARD_ALL, SKIP_EVERYONE, WRD4, WD6, WD10, ROULETTE = 8, 9, 10, 11, 12, 13, 14
KIND_NAMES = (
    "NUMBER", "SKIP", "REVERSE", "DRAW_TWO", "WILD", "WILD_DRAW_FOUR", "BLANK", "DUMB_FU",
    "DRAW_FOUR", "DISCARD_ALL", "SKIP_EVERYONE", "WILD_REVERSE_DRAW_FOUR", "WILD_DRAW_SIX",
    "WILD_DRAW_TEN", "WILD_COLOR_ROULETTE",
)
N_KINDS = len(KIND_NAMES)

# ---- ids -------------------------------------------------------------------------------------------
SLOTS_PER_COLOUR = 21
SLOT_SPIN_1 = 10
SLOT_KIND = {15: SKIP, 16: REVERSE, 17: DRAW_TWO, 18: DRAW_FOUR, 19: DISCARD_ALL, 20: SKIP_EVERYONE}
ID_WILD, ID_WD4 = 84, 85
ID_BLANK = (86, 87, 88)
ID_DUMB_FU, ID_WRD4, ID_WD6, ID_WD10, ID_ROULETTE = 89, 90, 91, 92, 93
N_CARD_IDS = 94
_WILD_KIND = {ID_WILD: WILD, ID_WD4: WD4, 86: BLANK, 87: BLANK, 88: BLANK, ID_DUMB_FU: DUMB_FU,
              ID_WRD4: WRD4, ID_WD6: WD6, ID_WD10: WD10, ID_ROULETTE: ROULETTE}
_KIND_SLOT = {kind: slot for slot, kind in SLOT_KIND.items()}


def number_id(colour: int, number: int, spin: bool = False) -> int:
    """Id of a number card; ``spin=True`` is the spin-flagged copy (numbers 1..5 only)."""
    if spin:
        if not 1 <= number <= 5:
            raise ValueError(f"spin cards carry numbers 1-5, not {number}")
        return colour * SLOTS_PER_COLOUR + SLOT_SPIN_1 + number - 1
    return colour * SLOTS_PER_COLOUR + number


def action_id(colour: int, kind: int) -> int:
    """Id of a coloured action card (SKIP, REVERSE, DRAW_TWO, DRAW_FOUR, DISCARD_ALL, SKIP_EVERYONE)."""
    return colour * SLOTS_PER_COLOUR + _KIND_SLOT[kind]


def _build_tables():
    colour = np.full(N_CARD_IDS, NO_COLOUR, np.int64)
    kind = np.zeros(N_CARD_IDS, np.int64)
    number = np.full(N_CARD_IDS, -1, np.int64)
    spin = np.zeros(N_CARD_IDS, np.int64)
    for c in range(4):
        for slot in range(SLOTS_PER_COLOUR):
            i = c * SLOTS_PER_COLOUR + slot
            colour[i] = c
            if slot < 10:
                kind[i], number[i] = NUMBER, slot
            elif slot < 15:
                kind[i], number[i], spin[i] = NUMBER, slot - SLOT_SPIN_1 + 1, 1
            else:
                kind[i] = SLOT_KIND[slot]
    for i, k in _WILD_KIND.items():
        kind[i] = k
    draw = np.zeros(N_CARD_IDS, np.int64)
    for i in range(N_CARD_IDS):
        draw[i] = {DRAW_TWO: 2, WD4: 4, DRAW_FOUR: 4, WRD4: 4, WD6: 6, WD10: 10}.get(int(kind[i]), 0)
    points = np.where(kind == NUMBER, number, np.where(colour == NO_COLOUR, 50, 20)).astype(np.int64)
    return colour, kind, number, spin, draw, points


COLOUR, KIND, NUMBER_OF, SPIN, DRAW_VALUE, POINTS = _build_tables()
for _table in (COLOUR, KIND, NUMBER_OF, SPIN, DRAW_VALUE, POINTS):
    _table.setflags(write=False)


def card_name(card: int) -> str:
    """Short human-readable name, e.g. ``R7``, ``B3*`` (spin card), ``GSKIP``, ``WD4``, ``BLANK1``."""
    k = int(KIND[card])
    if k == NUMBER:
        return f"{COLOUR_NAMES[COLOUR[card]]}{NUMBER_OF[card]}{'*' if SPIN[card] else ''}"
    if COLOUR[card] != NO_COLOUR:
        short = {SKIP: "SKIP", REVERSE: "REV", DRAW_TWO: "+2", DRAW_FOUR: "+4", DISCARD_ALL: "DALL",
                 SKIP_EVERYONE: "SKALL"}[k]
        return f"{COLOUR_NAMES[COLOUR[card]]}{short}"
    if k == BLANK:
        return f"BLANK{ID_BLANK.index(card)}"
    return {WILD: "WILD", WD4: "WD4", DUMB_FU: "DUMBFU", WRD4: "WRD4", WD6: "WD6", WD10: "WD10",
            ROULETTE: "ROULETTE"}[k]


# ---- opening-hand classes (card-value statistics) -------------------------------------------------
HAND_CLASSES = tuple(f"n{i}" for i in range(10)) + (
    "skip", "reverse", "draw_two", "wild", "wd4", "blank", "dumb_fu", "draw_four", "discard_all",
    "skip_everyone", "wrd4", "wd6", "wd10", "roulette",
)
N_HAND_CLASSES = len(HAND_CLASSES)
_KIND_CLASS = {SKIP: 10, REVERSE: 11, DRAW_TWO: 12, WILD: 13, WD4: 14, BLANK: 15, DUMB_FU: 16,
               DRAW_FOUR: 17, DISCARD_ALL: 18, SKIP_EVERYONE: 19, WRD4: 20, WD6: 21, WD10: 22,
               ROULETTE: 23}
HAND_CLASS = np.array(
    [int(NUMBER_OF[i]) if KIND[i] == NUMBER else _KIND_CLASS[int(KIND[i])] for i in range(N_CARD_IDS)],
    np.int64,
)
HAND_CLASS.setflags(write=False)
#: printed points of each hand class (for the card-value analysis)
HAND_CLASS_POINTS = tuple(
    int(POINTS[int(np.flatnonzero(HAND_CLASS == c)[0])]) for c in range(N_HAND_CLASSES)
)


# ---- deck presets (count vectors, docs/rules.md §2.1.1, §2.2.1, §2.3.1, §2.4.1) -----------------------------
def _deck(numbers_per_colour: dict[int, int], actions_per_colour: dict[int, int],
          wilds: dict[int, int], spin_cards: bool = False) -> np.ndarray:
    counts = np.zeros(N_CARD_IDS, np.int64)
    for c in range(4):
        for n, k in numbers_per_colour.items():
            counts[number_id(c, n)] += k
        if spin_cards:
            for n in range(1, 6):
                counts[number_id(c, n, spin=True)] += 1
        for kind, k in actions_per_colour.items():
            counts[action_id(c, kind)] += k
    for card, k in wilds.items():
        counts[card] += k
    return counts


_CLASSIC_NUMBERS = {0: 1, **{n: 2 for n in range(1, 10)}}
_CLASSIC_ACTIONS = {SKIP: 2, REVERSE: 2, DRAW_TWO: 2}


def classic_deck(n_blank: int = 3) -> np.ndarray:
    """docs/rules.md §2.1.1: 108 cards + ``n_blank`` (0-3) blank cards."""
    return _deck(_CLASSIC_NUMBERS, _CLASSIC_ACTIONS,
                 {ID_WILD: 4, ID_WD4: 4, **{ID_BLANK[i]: 1 for i in range(n_blank)}})


def minions_deck() -> np.ndarray:
    """docs/rules.md §2.2.1: 112 cards (108 + 4 Dumb Fu)."""
    return _deck(_CLASSIC_NUMBERS, _CLASSIC_ACTIONS, {ID_WILD: 4, ID_WD4: 4, ID_DUMB_FU: 4})


def spin_deck() -> np.ndarray:
    """docs/rules.md §2.3.1: 108 playing cards; one copy of each 1-5 per colour is a spin card."""
    numbers = {0: 1, **{n: 1 for n in range(1, 6)}, **{n: 2 for n in range(6, 10)}}
    return _deck(numbers, _CLASSIC_ACTIONS, {ID_WILD: 4, ID_WD4: 4}, spin_cards=True)


def no_mercy_deck() -> np.ndarray:
    """docs/rules.md §2.4.1: 168 cards."""
    return _deck({n: 2 for n in range(10)},
                 {SKIP: 3, REVERSE: 3, DRAW_TWO: 3, DRAW_FOUR: 2, DISCARD_ALL: 3, SKIP_EVERYONE: 2},
                 {ID_WRD4: 8, ID_WD6: 4, ID_WD10: 4, ID_ROULETTE: 8})


def deck_ids(counts: np.ndarray) -> np.ndarray:
    """The deck as an array of card ids in ascending id order (the order before the first shuffle)."""
    return np.repeat(np.arange(N_CARD_IDS, dtype=np.int64), counts)
