"""The mercy house rule's wing, reference twin of ``unosim/engine/mechanics/mercy.py`` (docs/rules.md
§2.4.6-§2.4.8): a seat whose hand reaches ``mercy_limit`` cards is knocked out at once. Whether a seat is
active (``table.active``) is the core's: turn order, scoring and every policy's view read it.
"""

from __future__ import annotations

from ...game import protocol as L

# ``table`` below is the round's ``reference.table.Table``, which asks this wing at every draw
# (``Table.draw_one``): the wing does not import it back.


def on_draw(table, seat: int) -> bool:
    """``seat`` has just drawn: at the mercy limit it is knocked out (its draws stop: False)."""
    limit = table.rules.mercy_limit
    if limit is not None and len(table.hands[seat]) >= limit:
        knock_out(table, seat)
        return False
    return True


def knock_out(table, seat: int) -> None:
    """docs/rules.md §2.4.6: the hand is set aside, the seat leaves the round; if it was the responder the
    pending penalty lapses; the last active player wins by knock-out (§2.4.7, §6 N20)."""
    table.set_aside.extend(table.hands[seat])
    table.hands[seat] = []
    table.active[seat] = False
    table.knockout_turn[seat] = table.n_turns
    table.knockouts += 1
    table.last_knocked_out = seat
    table.emit(L.EV_KNOCKOUT, seat, table.n_turns)
    if seat == table.responder:
        table.clear_pending()
    if table.n_active == 1 and not table.over:
        # A round already won (a final-card draw knocks out) keeps its winner.
        table.winner, table.end = table.active.index(True), L.END_KNOCKOUT
