"""The engine's legality table (``engine.record.legality.PLAY_FLAGS``, read by ``legal_plays``) against the
reference engine's rule code (docs/rules.md §1.4, §1.8) for every top card, colour in play and card."""

from __future__ import annotations

from types import SimpleNamespace

from unosim.engine.record.legality import (
    COLOUR_ONLY_ROW,
    LEGAL,
    LEGAL_WD4,
    PLAY_FLAGS,
    SAME_COLOUR,
    TOP_ROW,
)
from unosim.engine.record.state import COLOUR, KIND, N_COLOURS, NO_COLOUR
from unosim.game import cards
from unosim.game.custom_cards import ID_CUSTOM0, book
from unosim.reference.table import Table

BOOK = book(())   # no declared cards: every built-in kind may be played on its own kind


def test_play_flags_agree_with_the_reference_matching_rule():
    n = len(KIND)
    assert PLAY_FLAGS.shape == (TOP_ROW.max() + 1, N_COLOURS + 1, n)
    mismatches = []
    for top in range(n):
        for colour in range(N_COLOURS + 1):
            table = SimpleNamespace(top=top, colour=colour, book=BOOK)   # what Table.matches reads
            for c in range(n):
                flags = int(PLAY_FLAGS[TOP_ROW[top], colour, c])
                legal = Table.matches(table, c)
                declared_wild = c >= ID_CUSTOM0 and COLOUR[c] == NO_COLOUR   # restricted or not: its rules say
                expected = ((LEGAL if legal else 0) | (SAME_COLOUR if COLOUR[c] == colour else 0)
                            | (LEGAL_WD4 if legal and (KIND[c] in cards.RESTRICTED_KINDS or declared_wild) else 0))
                if flags != expected:
                    mismatches.append((top, colour, c, flags, expected))
    assert not mismatches, f"{len(mismatches)} (top, colour, card, flags, expected) differ, e.g. {mismatches[:5]}"


def test_the_table_is_indexed_by_what_matches_the_top_not_by_its_id():
    """A few dozen rows (numbers, coloured kinds, declared slots, wilds) however many ids UNO Flip's
    pairings and the declared slots add; a wild top's row is the colour-only row."""
    assert TOP_ROW.max() + 1 < 40 < len(KIND)
    assert TOP_ROW[cards.ID_WD4] == TOP_ROW[cards.ID_WILD] == COLOUR_ONLY_ROW
    assert TOP_ROW[cards.number_id(0, 7)] == TOP_ROW[cards.number_id(3, 7)] != TOP_ROW[cards.number_id(3, 8)]
