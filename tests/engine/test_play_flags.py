"""The engine's legality table (``engine.record.state.PLAY_FLAGS``, read by ``legal_plays``) against the reference
engine's rule code (docs/rules.md §1.4, §1.8) for every top card, colour in play and card."""

from __future__ import annotations

from types import SimpleNamespace

from unosim.engine.record.state import COLOUR, KIND, LEGAL, LEGAL_WD4, N_COLOURS, PLAY_FLAGS, SAME_COLOUR
from unosim.game import cards
from unosim.game.custom_cards import book
from unosim.reference.table import Table

BOOK = book(())   # no declared cards: every built-in kind may be played on its own kind


def test_play_flags_agree_with_the_reference_matching_rule():
    n = len(KIND)
    assert PLAY_FLAGS.shape == (n, N_COLOURS + 1, n)
    mismatches = []
    for top in range(n):
        for colour in range(N_COLOURS + 1):
            table = SimpleNamespace(top=top, colour=colour, book=BOOK)   # what Table.matches reads
            for c in range(n):
                flags = int(PLAY_FLAGS[top, colour, c])
                legal = Table.matches(table, c)
                expected = ((LEGAL if legal else 0) | (SAME_COLOUR if COLOUR[c] == colour else 0)
                            | (LEGAL_WD4 if legal and KIND[c] in cards.RESTRICTED_KINDS else 0))
                if flags != expected:
                    mismatches.append((top, colour, c, flags, expected))
    assert not mismatches, f"{len(mismatches)} (top, colour, card, flags, expected) differ, e.g. {mismatches[:5]}"
