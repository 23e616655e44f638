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

UNO Flip's faces (docs/rules.md §2.6) are ids too: a hand or pile holds the face in play, and a Flip
card turns every card to its other face (``FLIP_PARTNER``). The light side's numbers, Skips and
Reverses are the classic ids; the other light faces are 94-97 DRAW_ONE and 98-101 FLIP (one per
colour), 102 the light Wild (40 points), 103 WILD_DRAW_TWO. The dark faces are ``104 + colour * 13 +
slot`` (slot 0-8: numbers 1-9, 9 DRAW_FIVE, 10 REVERSE, 11 SKIP_EVERYONE, 12 FLIP), 156 the dark Wild
and 157 WILD_DRAW_COLOUR. Dark colours reuse the colour indices (pink, teal, orange, purple = 0-3):
the two sides are never in play together. Which face backs which is deck data (docs/rules.md §6 F1,
:mod:`unosim.game.flip_pairing`): the default pairing gives each face one back, so its cards are these
face ids; any other pairing gets ids ``N_FACE_IDS ..`` of its own, a light and a dark id per distinct
physical card, each showing a face (``BASE_FACE``) and playing exactly as it.

The per-id tables below (``COLOUR``, ``KIND``, ``NUMBER``, ``SPIN``, ``DRAW_VALUE``, ``POINTS``) are
constants shared by the compiled engine and the reference engine.

Opening-hand classes (``HAND_CLASSES``) group ids for the card-value statistics: the ten numbers (spin
cards counted under their number) and every action kind, e.g. ``n7`` or ``wd4``.
"""

from __future__ import annotations

import numpy as np

from . import flip_pairing

MAX_CARDS = 168   # the largest deck (No Mercy's): no hand or pile can exceed it; protocol re-exports it

# ---- colours ---------------------------------------------------------------------------------------
R, Y, G, B = 0, 1, 2, 3
NO_COLOUR = 4
COLOUR_NAMES = ("R", "Y", "G", "B", "-")
DARK_COLOUR_NAMES = ("P", "T", "O", "V", "-")   # UNO Flip's dark side: pink, teal, orange, purple (violet)

# ---- kinds -----------------------------------------------------------------------------------------
NUMBER, SKIP, REVERSE, DRAW_TWO, WILD, WD4, BLANK, DUMB_FU = 0, 1, 2, 3, 4, 5, 6, 7
DRAW_FOUR, DISCARD_ALL, SKIP_EVERYONE, WRD4, WD6, WD10, ROULETTE = 8, 9, 10, 11, 12, 13, 14
DRAW_ONE, FLIP, WD2, DRAW_FIVE, WDC = 15, 16, 17, 18, 19
KIND_NAMES = (
    "NUMBER", "SKIP", "REVERSE", "DRAW_TWO", "WILD", "WILD_DRAW_FOUR", "BLANK", "DUMB_FU",
    "DRAW_FOUR", "DISCARD_ALL", "SKIP_EVERYONE", "WILD_REVERSE_DRAW_FOUR", "WILD_DRAW_SIX",
    "WILD_DRAW_TEN", "WILD_COLOR_ROULETTE", "DRAW_ONE", "FLIP", "WILD_DRAW_TWO", "DRAW_FIVE",
    "WILD_DRAW_COLOUR",
)
# wild draw cards playable only without the colour in play, and challengeable (docs/rules.md §1.8)
RESTRICTED_KINDS = (WD4, WD2, WDC)
N_KINDS = len(KIND_NAMES)

# ---- ids -------------------------------------------------------------------------------------------
SLOTS_PER_COLOUR = 21
SLOT_SPIN_1 = 10
SLOT_KIND = {15: SKIP, 16: REVERSE, 17: DRAW_TWO, 18: DRAW_FOUR, 19: DISCARD_ALL, 20: SKIP_EVERYONE}
ID_WILD, ID_WD4 = 84, 85
ID_BLANK = (86, 87, 88)
ID_DUMB_FU, ID_WRD4, ID_WD6, ID_WD10, ID_ROULETTE = 89, 90, 91, 92, 93
# UNO Flip (module docstring): light-side ids, then the dark side's
ID_DRAW_ONE, ID_LIGHT_FLIP, ID_LIGHT_WILD, ID_WD2 = 94, 98, 102, 103
ID_DARK0, DARK_SLOTS = 104, 13
DARK_SLOT_KIND = {9: DRAW_FIVE, 10: REVERSE, 11: SKIP_EVERYONE, 12: FLIP}
ID_DARK_WILD, ID_WDC = 156, 157
N_FACE_IDS = 158   # the faces above; a pairing whose faces sit on several backs adds ids (_pairing_ids)
_WILD_KIND = {ID_WILD: WILD, ID_WD4: WD4, 86: BLANK, 87: BLANK, 88: BLANK, ID_DUMB_FU: DUMB_FU,
              ID_WRD4: WRD4, ID_WD6: WD6, ID_WD10: WD10, ID_ROULETTE: ROULETTE,
              ID_LIGHT_WILD: WILD, ID_WD2: WD2, ID_DARK_WILD: WILD, ID_WDC: WDC}
# printed points where they differ from the classic scheme (number: face value, coloured action 20,
# wild 50): UNO Flip's (docs/rules.md §2.6.5)
_FLIP_POINTS = {DRAW_ONE: 10, SKIP_EVERYONE: 30, WILD: 40, WD2: 50, WDC: 60}
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


def dark_id(colour: int, slot: int) -> int:
    """Id of a dark face: slot 0-8 the numbers 1-9, then DRAW_FIVE, REVERSE, SKIP_EVERYONE, FLIP."""
    return ID_DARK0 + colour * DARK_SLOTS + slot


def _flip_ids() -> np.ndarray:
    """The UNO Flip face ids (both sides)."""
    light = [number_id(c, n) for c in range(4) for n in range(1, 10)]
    light += [action_id(c, k) for c in range(4) for k in (SKIP, REVERSE)]
    return np.array(sorted(light + list(range(ID_DRAW_ONE, N_FACE_IDS))), np.int64)


def _build_tables():
    colour = np.full(N_FACE_IDS, NO_COLOUR, np.int64)
    kind = np.zeros(N_FACE_IDS, np.int64)
    number = np.full(N_FACE_IDS, -1, np.int64)
    spin = np.zeros(N_FACE_IDS, np.int64)
    for c in range(4):
        colour[ID_DRAW_ONE + c], kind[ID_DRAW_ONE + c] = c, DRAW_ONE
        colour[ID_LIGHT_FLIP + c], kind[ID_LIGHT_FLIP + c] = c, FLIP
        for slot in range(DARK_SLOTS):
            i = dark_id(c, slot)
            colour[i] = c
            if slot < 9:
                kind[i], number[i] = NUMBER, slot + 1
            else:
                kind[i] = DARK_SLOT_KIND[slot]
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
    draw = np.zeros(N_FACE_IDS, np.int64)
    for i in range(N_FACE_IDS):
        draw[i] = {DRAW_TWO: 2, WD4: 4, DRAW_FOUR: 4, WRD4: 4, WD6: 6, WD10: 10, DRAW_ONE: 1, WD2: 2,
                   DRAW_FIVE: 5}.get(int(kind[i]), 0)
    points = np.where(kind == NUMBER, number, np.where(colour == NO_COLOUR, 50, 20)).astype(np.int64)
    for i in _flip_ids():
        points[i] = _FLIP_POINTS.get(int(kind[i]), points[i])
    restricted = np.isin(kind, RESTRICTED_KINDS).astype(np.int64)
    return colour, kind, number, spin, draw, points, restricted


COLOUR, KIND, NUMBER_OF, SPIN, DRAW_VALUE, POINTS, RESTRICTED = _build_tables()   # of the faces; see below
#: DARK_FACE[c]: 1 for a dark-side face (UNO Flip), 0 for every other id
DARK_FACE = (np.arange(N_FACE_IDS) >= ID_DARK0).astype(np.int64)
#: BASE_FACE[c]: the face card id c shows (c itself, but for the ids of a pairing's block, below)
BASE_FACE = np.arange(N_FACE_IDS, dtype=np.int64)


def card_name(card: int) -> str:
    """Short human-readable name, e.g. ``R7``, ``B3*`` (spin card), ``GSKIP``, ``WD4``, ``BLANK1``;
    UNO Flip's dark faces carry the dark colour letters (``P5``, ``TFLIP``, ``V+5``). Ids showing the same
    face (a pairing's copies on other backs) share its name."""
    card = int(BASE_FACE[card])
    k = int(KIND[card])
    names = DARK_COLOUR_NAMES if DARK_FACE[card] else COLOUR_NAMES
    if k == NUMBER:
        return f"{names[COLOUR[card]]}{NUMBER_OF[card]}{'*' if SPIN[card] else ''}"
    if COLOUR[card] != NO_COLOUR:
        short = {SKIP: "SKIP", REVERSE: "REV", DRAW_TWO: "+2", DRAW_FOUR: "+4", DISCARD_ALL: "DALL",
                 SKIP_EVERYONE: "SKALL", DRAW_ONE: "+1", FLIP: "FLIP", DRAW_FIVE: "+5"}[k]
        return f"{names[COLOUR[card]]}{short}"
    if k == BLANK:
        return f"BLANK{ID_BLANK.index(card)}"
    if card in (ID_LIGHT_WILD, ID_DARK_WILD):
        return "LWILD" if card == ID_LIGHT_WILD else "DWILD"
    return {WILD: "WILD", WD4: "WD4", DUMB_FU: "DUMBFU", WRD4: "WRD4", WD6: "WD6", WD10: "WD10",
            ROULETTE: "ROULETTE", WD2: "WD2", WDC: "WDC"}[k]


# ---- UNO Flip's pairings of faces (docs/rules.md §6 F1, unosim/game/flip_pairing.py) ----------------
def flip_composition() -> tuple[dict[int, int], dict[int, int]]:
    """docs/rules.md §2.6.1, side by side: (light face → copies, dark face → copies) of the 112 cards:
    each coloured face twice, each side's two wild faces four times."""
    light, dark = {}, {}
    for c in range(4):
        for face in [number_id(c, n) for n in range(1, 10)] + [ID_DRAW_ONE + c, action_id(c, REVERSE),
                                                                 action_id(c, SKIP), ID_LIGHT_FLIP + c]:
            light[face] = 2
        for slot in range(DARK_SLOTS):
            dark[dark_id(c, slot)] = 2
    light.update({ID_LIGHT_WILD: 4, ID_WD2: 4})
    dark.update({ID_DARK_WILD: 4, ID_WDC: 4})
    return light, dark


def _physical_cards(pairing: flip_pairing.Pairing) -> list[tuple[int, int]]:
    """A pairing's cards as (light face id, dark face id), each side checked against the rulebook's
    composition (conservation: every physical card has one light and one dark face, and each side holds
    exactly the faces of §2.6.1)."""
    light_faces, dark_faces = flip_composition()
    faces = {card_name(i): i for i in (*light_faces, *dark_faces)}
    physical = []
    for light, dark in pairing.cards:
        for name, side in ((light, light_faces), (dark, dark_faces)):
            if faces.get(name) not in side:
                raise ValueError(f"flip pairing {pairing.name!r}: {name!r} is not a "
                                 f"{'light' if side is light_faces else 'dark'} face: valid are "
                                 f"{sorted(card_name(f) for f in side)}")
        physical.append((faces[light], faces[dark]))
    for index, side in ((0, light_faces), (1, dark_faces)):
        held = np.bincount([card[index] for card in physical], minlength=N_FACE_IDS)
        wrong = [f for f in side if held[f] != side[f]]
        if wrong:
            raise ValueError(f"flip pairing {pairing.name!r}: {card_name(wrong[0])} is on {held[wrong[0]]} "
                             f"cards, the rulebook prints {side[wrong[0]]} (docs/rules.md §2.6.1)")
    return physical


def _pairing_ids() -> tuple[list[int], list[int], dict[str, dict[int, int]], list[int]]:
    """Card ids of every pairing: (the face each id shows, each id's other face, each pairing's deck as
    light id → count, whether the face on each id's back names it).

    The default pairing is face-determined (a face sits on one back), so its cards are the faces
    themselves. Any other pairing gets a block of ids after the faces: one light and one dark id per
    distinct physical card, each showing its face (same colour, kind and points) with its own back. The
    blocks are disjoint, so one partner table serves every pairing and a deck's ids say which it uses.
    """
    base_of = list(range(N_FACE_IDS))
    partner = [-1] * N_FACE_IDS
    decks: dict[str, dict[int, int]] = {}
    blocks: list[tuple[int, int]] = []   # the id range of each pairing after the default one
    for name in flip_pairing.names():
        pairing = flip_pairing.load(name)
        physical = _physical_cards(pairing)
        deck: dict[int, int] = {}
        if name == flip_pairing.DEFAULT:
            if not pairing.face_determined():
                raise ValueError(f"flip pairing {name!r}: the default pairing must give each face one back")
            for light, dark in physical:
                partner[light], partner[dark] = dark, light
                deck[light] = deck.get(light, 0) + 1
        else:
            distinct = list(dict.fromkeys(physical))   # the different physical cards, in the file's order
            light0, dark0 = len(base_of), len(base_of) + len(distinct)
            base_of += [light for light, _ in distinct] + [dark for _, dark in distinct]
            partner += [dark0 + i for i in range(len(distinct))] + [light0 + i for i in range(len(distinct))]
            blocks.append((light0, len(base_of)))
            for card in physical:
                deck[light0 + distinct.index(card)] = deck.get(light0 + distinct.index(card), 0) + 1
        decks[name] = deck
    named = [1] * len(base_of)
    for first, last in blocks:   # a back names its card when no other card of the pairing shows that face
        fronts: dict[int, set[int]] = {}
        for c in range(first, last):
            fronts.setdefault(base_of[partner[c]], set()).add(c)
        for c in range(first, last):
            named[c] = int(len(fronts[base_of[partner[c]]]) == 1)
    return base_of, partner, decks, named


_BASE_OF, _PARTNER, _FLIP_DECKS, _NAMED = _pairing_ids()
#: NAMED_BY_BACK[c]: 1 when the face on c's back names c (no other card of its pairing has that face on
#: its back): a seat seeing the back knows the card (docs/rules.md §2.6.6). Every card of the default pairing.
NAMED_BY_BACK = np.array(_NAMED, np.int64)
BASE_FACE = np.array(_BASE_OF, np.int64)
N_CARD_IDS = len(BASE_FACE)
COLOUR, KIND, NUMBER_OF, SPIN, DRAW_VALUE, POINTS, RESTRICTED, DARK_FACE = (
    table[BASE_FACE] for table in (COLOUR, KIND, NUMBER_OF, SPIN, DRAW_VALUE, POINTS, RESTRICTED, DARK_FACE))
#: FLIP_PARTNER[c]: the other face of the physical card showing c (-1: not an UNO Flip face)
FLIP_PARTNER = np.array(_PARTNER, np.int64)
for _table in (COLOUR, KIND, NUMBER_OF, SPIN, DRAW_VALUE, POINTS, RESTRICTED, FLIP_PARTNER, DARK_FACE, BASE_FACE,
               NAMED_BY_BACK):
    _table.setflags(write=False)


# ---- opening-hand classes (card-value statistics) -------------------------------------------------
HAND_CLASSES = tuple(f"n{i}" for i in range(10)) + (
    "skip", "reverse", "draw_two", "wild", "wd4", "blank", "dumb_fu", "draw_four", "discard_all",
    "skip_everyone", "wrd4", "wd6", "wd10", "roulette", "draw_one", "flip", "wd2", "draw_five", "wdc",
    "flip_wild", "flip_skip_everyone",   # UNO Flip's Wild (40 points) and Skip Everyone (30): one class, one value
)
N_HAND_CLASSES = len(HAND_CLASSES)
_KIND_CLASS = {SKIP: 10, REVERSE: 11, DRAW_TWO: 12, WILD: 13, WD4: 14, BLANK: 15, DUMB_FU: 16,
               DRAW_FOUR: 17, DISCARD_ALL: 18, SKIP_EVERYONE: 19, WRD4: 20, WD6: 21, WD10: 22,
               ROULETTE: 23, DRAW_ONE: 24, FLIP: 25, WD2: 26, DRAW_FIVE: 27, WDC: 28}
HAND_CLASS = np.array(
    [int(NUMBER_OF[i]) if KIND[i] == NUMBER else _KIND_CLASS[int(KIND[i])] for i in range(N_CARD_IDS)],
    np.int64,
)
HAND_CLASS[np.isin(BASE_FACE, [ID_LIGHT_WILD, ID_DARK_WILD])] = HAND_CLASSES.index("flip_wild")
HAND_CLASS[np.isin(BASE_FACE, [dark_id(c, 11) for c in range(4)])] = HAND_CLASSES.index("flip_skip_everyone")
HAND_CLASS.setflags(write=False)
#: printed points of each hand class (for the card-value analysis; every card of a class prints the same)
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


def flip_deck(pairing: str = flip_pairing.DEFAULT) -> np.ndarray:
    """docs/rules.md §2.6.1: UNO Flip's 112 double-sided cards, counted by their light faces (play starts
    light side up): 1-9, Draw One, Reverse, Skip, Flip twice per colour, 4 Wilds, 4 Wild Draw Twos; the
    ids say which dark face each card carries (``pairing``, one of :func:`flip_pairing.names`)."""
    flip_pairing.load(pairing)   # an unknown name is an error listing the pairings
    counts = np.zeros(N_CARD_IDS, np.int64)
    for card, k in _FLIP_DECKS[pairing].items():
        counts[card] = k
    return counts


def seed_counts(counts: np.ndarray) -> list[int]:
    """A deck's counts as seeds are derived from them (``pipeline.study.cell_seed``): over the face ids
    alone when the deck holds none of the pairing ids after them, so that every seed drawn before
    pairings added ids is drawn again."""
    counts = np.asarray(counts)
    return counts[:N_FACE_IDS].tolist() if not counts[N_FACE_IDS:].any() else counts.tolist()


def deck_ids(counts: np.ndarray) -> np.ndarray:
    """The deck as an array of card ids in ascending id order (the order before the first shuffle)."""
    return np.repeat(np.arange(N_CARD_IDS, dtype=np.int64), counts)
