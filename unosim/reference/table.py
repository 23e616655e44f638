"""The state of one round and its primitive verbs: seats, legality, moving cards, knock-outs, asking
policies.

Hands and piles are Python lists of card ids (protocol §2): a hand keeps the order in which cards
arrived; the draw pile's and the discard pile's **last** element is their top. The hands of knocked-out
players lie in the ``set_aside`` pile until the next reshuffle (docs/rules.md §2.4.6).
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..game import cards, custom_cards
from ..game import protocol as L
from ..game.checks import clip_message
from ..game.rules import RuleSet
from .card_tables import COLOUR, KIND, NUMBER_OF, is_wild
from .policies import Seat
from .policy import PolicyView
from .quality import QualityCounters
from .rng import Xoshiro

#: how an invalid answer is shown: abridged (strings, lists and anything else cut to a few dozen characters)
_ANSWER = reprlib.Repr()
_ANSWER.maxstring = _ANSWER.maxother = 60
_ANSWER.maxlist = _ANSWER.maxtuple = _ANSWER.maxdict = _ANSWER.maxset = 8

Event = tuple[int, int, int, int]
# a wing's play hook answers this for a card that is not its mechanism's (reference/hooks.py)
NOT_MINE = object()


@dataclass(frozen=True)
class Skips:
    """A wing's play hook's answer: ``seat`` loses its turn (the core skips it, a pose event in minions;
    nothing if it was knocked out meanwhile) and the turn goes to ``next(seat)``."""

    seat: int


@dataclass
class Game:
    """What the rounds of one game (= match) share: rules, policies, the two random streams, the trace."""

    rules: RuleSet
    players: int
    seats: tuple[Seat, ...]
    index: int
    deck_rng: Xoshiro
    play_rng: Xoshiro
    events: list[Event] | None
    observer: Callable[[Table, Event], None] | None = None
    deck: list[int] = field(default_factory=list)


class Table:
    """One round: hands, piles, colour and direction, counters, and the verbs that change them."""

    def __init__(self, game: Game, dealer: int, round_index: int):
        n = game.players
        self.game = game
        self.rules = game.rules
        # the card tables of this rule set, declared cards included (docs/rules.md §2.7)
        self.book = custom_cards.book(game.rules.new_cards)
        self.players = n
        self.dealer = dealer
        self.round_index = round_index
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.draw_pile: list[int] = []
        self.discard_pile: list[int] = []
        self.colour = cards.NO_COLOUR
        self.direction = +1
        self.uno_done = [False] * n
        self.left_of_dealer = (dealer + 1) % n      # F (docs/rules.md §1.3)
        self.first_seat = self.left_of_dealer        # the seat taking the first turn (§1.13)
        self.opening_hands: list[list[int]] = []
        self.winner = -1
        self.end: int | None = None
        self.n_turns = self.n_plays = self.n_draws = self.n_reshuffles = 0
        self.n_drawn = [0] * n
        self.n_played = [0] * n
        # Mercy knock-outs (docs/rules.md §2.4.6): knocked-out seats are inactive; their hands are set aside.
        self.active = [True] * n
        self.knockout_turn = [0] * n               # 1-based turn index of the knock-out, 0 if none
        self.set_aside: list[int] = []
        self.knockouts = 0
        self.last_knocked_out = -1                 # in the current turn (protocol §5)
        # Pending draw penalty (docs/rules.md §1.7 stacking, §2.4.3): total P, last draw value V, last kind K,
        # and the seat that has to respond to it.
        self.pending = 0
        self.pending_value = 0
        self.pending_kind = -1
        self.responder = -1
        self.largest_stack = 0
        self.played = False                        # the current turn placed a card (jump-in, §4)
        # spin (docs/rules.md §2.3, .mechanics.spin): the hand each seat last showed (SHOW_HAND), in every
        # policy's view; the wing keeps the rest of its state
        self.shown: list[tuple[int, ...] | None] = [None] * n
        self.loop_bound_hits = 0                     # loops cut short by an explicit bound (turn.py)
        # Every card that changes place and every hand that changes owner bumps this counter; a turn
        # that leaves it unchanged is idle (stalemate rule, docs/rules.md §1.6).
        self.moves = 0
        self.quality = QualityCounters(n)          # lead changes, deficits, largest hand (protocol §3)
        # what a seat sees of the others beyond hand sizes: a wing's fields of the policies' view (flip's);
        # a wing keeps its own round state on the table too, set by its ``start`` (reference/mechanics)
        self.seen: Callable[[Table, int], dict[str, Any]] | None = None

    # ---- trace ---------------------------------------------------------------------------------------
    def emit(self, code: int, seat: int = -1, a: int = 0, b: int = 0) -> None:
        event = (code, seat, a, b)
        if self.game.events is not None:
            self.game.events.append(event)
        if self.game.observer is not None:
            self.game.observer(self, event)

    # ---- seats (docs/rules.md §1.2) ------------------------------------------------------------------------------
    @property
    def n_active(self) -> int:
        return sum(self.active)

    def next_seat(self, seat: int) -> int:
        """``next(seat)``: the first active seat after ``seat`` in direction ``d``; ``seat`` itself need
        not be active (docs/rules.md §1.2)."""
        current = seat
        for _ in range(self.players):
            current = (current + self.direction) % self.players
            if self.active[current]:
                return current
        return seat

    def others_from(self, seat: int) -> tuple[int, ...]:
        """The other active seats in turn order, starting with ``next(seat)``."""
        order, current = [], seat
        for _ in range(self.players - 1):
            current = (current + self.direction) % self.players
            if self.active[current]:
                order.append(current)
        return tuple(order)

    # ---- legality (docs/rules.md §1.4, §1.8) ---------------------------------------------------------------
    @property
    def top(self) -> int:
        return self.discard_pile[-1]

    def matches(self, card: int) -> bool:
        top = self.top
        if is_wild(card) or COLOUR[card] == self.colour:
            return True
        if is_wild(top):
            return False
        if KIND[card] == cards.NUMBER:
            return KIND[top] == cards.NUMBER and NUMBER_OF[card] == NUMBER_OF[top]
        return KIND[card] == KIND[top] and self.book.same_effect[card]

    def holds_colour_in_play(self, seat: int) -> bool:
        return any(COLOUR[c] == self.colour for c in self.hands[seat])

    def is_legal(self, seat: int, index: int) -> bool:
        card = self.hands[seat][index]
        if self.book.restricted[card]:
            # A WD4 (or UNO Flip's Wild Draw Two / Colour) is legal only without another card of the colour
            # in play; it has no colour itself, so checking the whole hand is the same thing (docs/rules.md §1.8).
            return not self.holds_colour_in_play(seat)
        return self.matches(card)

    def legal_indices(self, seat: int) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.hands[seat])) if self.is_legal(seat, i))

    def bluff_indices(self, seat: int) -> tuple[int, ...]:
        """Illegal Wild Draw Fours the player may still play as a bluff (none with ``no_bluffing``)."""
        if self.rules.no_bluffing:
            return ()
        hand = self.hands[seat]
        return tuple(i for i, c in enumerate(hand)
                     if self.book.restricted[c] and not self.is_legal(seat, i))

    def hand_points(self, seat: int) -> int:
        return sum(self.book.points[c] for c in self.hands[seat])

    # ---- moving cards (docs/rules.md §1.6, protocol §2) ---------------------------------------------------
    def hand_changed(self, seat: int) -> None:
        # uno_done clears whenever the hand's size changes or it changes owner (docs/rules.md §1.10).
        self.uno_done[seat] = False

    def draw(self, seat: int, count: int) -> None:
        """``seat`` draws ``count`` single cards; a failed draw or a knock-out ends the obligation."""
        for _ in range(count):
            if not self.draw_one(seat):
                return

    def draw_one(self, seat: int) -> bool:
        """One draw (docs/rules.md §1.6); the hand is checked as the card enters it (mercy, §2.4.6, §6 N9).

        Returns False when nothing could be drawn or the drawer was knocked out by this card: either
        way its draw obligation ends."""
        if not self.draw_pile:
            self.reshuffle()
        if not self.draw_pile:
            self.emit(L.EV_DRAW_FAIL, seat)
            return False
        card = self.draw_pile.pop()
        self.hands[seat].append(card)
        self.quality.hand_grew(len(self.hands[seat]))   # before the mercy check: the hand held it
        self.hand_changed(seat)
        self.n_draws += 1
        self.n_drawn[seat] += 1
        self.moves += 1
        self.emit(L.EV_DRAW, seat, card)
        limit = self.rules.mercy_limit
        if limit is not None and len(self.hands[seat]) >= limit:   # knocked out at the limit (§2.4.6)
            self.knock_out(seat)
            return False
        return True

    def draw_until_colour(self, seat: int, colour: int) -> bool:
        """``seat`` draws until a card of ``colour`` (a wild is no colour), or until a draw fails or knocks it
        out (UNO Flip's Wild Draw Colour §2.6.4, §6 F4; No Mercy's Roulette §6 N5; a declared card's
        draw_until_colour); True when the card of ``colour`` came (the obligation goes on). Twin of
        ``unosim/engine/record/piles.py``'s ``draw_until_colour``."""
        while self.draw_one(seat):     # terminates: each pass moves a card from the piles to the hand
            if COLOUR[self.hands[seat][-1]] == colour:
                return True
        return False

    def knock_out(self, seat: int) -> None:
        """docs/rules.md §2.4.6 (the mercy rule): the hand is set aside, the seat leaves the round; if it was
        the responder the pending penalty lapses; the last active player wins by knock-out (§2.4.7, §6 N20).
        Twin of ``unosim/engine/record/piles.py``'s ``knock_out``."""
        self.set_aside.extend(self.hands[seat])
        self.hands[seat] = []
        self.active[seat] = False
        self.knockout_turn[seat] = self.n_turns
        self.knockouts += 1
        self.last_knocked_out = seat
        self.emit(L.EV_KNOCKOUT, seat, self.n_turns)
        if seat == self.responder:
            self.clear_pending()
        if self.n_active == 1 and not self.over:
            # A round already won (a final-card draw knocks out) keeps its winner.
            self.winner, self.end = self.active.index(True), L.END_KNOCKOUT

    def clear_pending(self) -> None:
        self.pending, self.pending_value, self.pending_kind, self.responder = 0, 0, -1, -1

    def reshuffle(self) -> None:
        """All discards except ``T``, then the set-aside hands (oldest first), become the new draw pile,
        shuffled with the deck stream.

        ``T`` and the colour in play stay (docs/rules.md §1.6); a reshuffle that would move nothing does nothing.
        The event carries no seat: a reshuffle belongs to the table, not to the drawer.
        """
        moved = self.discard_pile[:-1] + self.set_aside
        if not moved:
            return
        self.discard_pile = [self.top]
        self.set_aside = []
        self.draw_pile = moved
        self.game.deck_rng.shuffle(self.draw_pile)
        self.n_reshuffles += 1
        self.emit(L.EV_RESHUFFLE, -1, len(moved))

    def play_from_hand(self, seat: int, index: int) -> int:
        """Move the card at ``index`` onto the discard pile as a play (docs/rules.md §1.5 step 6)."""
        card = self.hands[seat].pop(index)
        self.discard_pile.append(card)
        self.hand_changed(seat)
        self.n_plays += 1
        self.n_played[seat] += 1
        self.moves += 1
        self.emit(L.EV_PLAY, seat, card)
        return card

    def discard_under_top(self, seat: int, index: int) -> None:
        """Discard by an effect (not a play): the card goes directly below ``T`` (protocol §2)."""
        card = self.hands[seat].pop(index)
        self.discard_pile.insert(len(self.discard_pile) - 1, card)
        self.hand_changed(seat)
        self.moves += 1
        self.emit(L.EV_DISCARD, seat, card)

    def discard_colour(self, seat: int, colour: int) -> None:
        """Every card of ``colour`` in ``seat``'s hand goes under ``T``, in hand order, without effects (the
        blanks' discard_colour, No Mercy's Discard All, a declared card's; the engine's ``piles.discard_colour``)."""
        hand, index = self.hands[seat], 0
        while index < len(hand):    # terminates: each pass removes a card or moves past it
            if COLOUR[hand[index]] == colour:
                self.discard_under_top(seat, index)
            else:
                index += 1

    def swap_hands(self, seat: int, other: int) -> None:
        self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]
        self.hand_changed(seat)
        self.hand_changed(other)
        self.moves += 1
        self.emit(L.EV_SWAP, seat, other)

    def pass_hands(self, seat: int) -> None:
        """Every active hand moves at once to ``next(its seat)`` in direction ``d`` (7-0's 0, a declared
        card's pass_hands; played by ``seat``); knocked-out seats are left out (docs/rules.md §6 N13)."""
        moved = [list(h) for h in self.hands]
        for s in range(self.players):
            if self.active[s]:
                moved[self.next_seat(s)] = self.hands[s]
                self.hand_changed(s)
        self.hands = moved
        self.moves += 1
        self.emit(L.EV_PASS, seat)

    # ---- end of the round ------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.end is not None

    def win(self, seat: int) -> None:
        self.winner, self.end = seat, L.END_WON

    def end_without_winner(self, end: int) -> None:
        self.winner, self.end = -1, end

    # ---- asking the policies (every answer is checked, never corrected) --------------------------
    def view(self, seat: int, legal: tuple[int, ...] = (), bluffs: tuple[int, ...] = ()) -> PolicyView:
        return PolicyView(seat=seat, hand=tuple(self.hands[seat]), top=self.top, colour=self.colour,
                          direction=self.direction,
                          hand_sizes=tuple(len(h) for h in self.hands), pending=self.pending, legal=legal,
                          bluffs=bluffs, rules=self.rules, rng=self.game.play_rng,
                          pending_value=self.pending_value, active=tuple(self.active),
                          shown=tuple(self.shown), discard=tuple(self.discard_pile),
                          **(self.seen(self, seat) if self.seen is not None else {}))

    def invalid(self, seat: int, question: str, answer: Any, valid: str) -> ValueError:
        """The error of an invalid answer; the answer is shown abridged (a policy may answer anything, a
        100 MB string included), the whole message clipped to one line."""
        return ValueError(clip_message(f"policy {self.game.seats[seat].name!r} at seat {seat} answered "
                                       f"{_ANSWER.repr(answer)} to {question}; valid answers: {valid}"))

    def ask(self, seat: int, decision: str, *args: Any) -> Any:
        """``seat``'s policy's answer to a wing's own decision (the spin wheel's), ``decision(view, *args)``,
        unchecked: the wing that asks checks it (and raises :meth:`invalid`), as the ``ask_*`` below do."""
        return getattr(self.game.seats[seat].policy, decision)(self.view(seat), *args)

    def ask_play(self, seat: int, legal: tuple[int, ...]) -> int | None:
        """The card index to play, or None to draw (docs/rules.md §1.5 step 4)."""
        bluffs = self.bluff_indices(seat)
        choice = self.game.seats[seat].policy.play(self.view(seat, legal, bluffs))
        if choice is None and self.rules.voluntary_draw:
            return None
        if is_int(choice) and (choice in legal or choice in bluffs):
            return int(choice)
        valid = f"legal indices {list(legal)}"
        if bluffs:
            valid += f", bluff indices {list(bluffs)}"
        if self.rules.voluntary_draw:
            valid += ", None (draw)"
        raise self.invalid(seat, f"play() with hand {[cards.card_name(c) for c in self.hands[seat]]}",
                            choice, valid)

    def ask_stack(self, seat: int, options: tuple[int, ...]) -> int | None:
        """The stack response (an index of ``options``), or None to accept (docs/rules.md §1.7, §2.4.3 step 1)."""
        choice = self.game.seats[seat].policy.stack(self.view(seat, options))
        if choice is None:
            return None
        if is_int(choice) and choice in options:
            return int(choice)
        raise self.invalid(seat, f"stack() with pending {self.pending}", choice,
                            f"stack indices {list(options)} or None (accept)")

    def ask_jump_in(self, seat: int, index: int) -> bool:
        answer = self.game.seats[seat].policy.jump_in(self.view(seat), index)
        return self._ask_bool(seat, "jump_in()", answer)

    def ask_colour(self, seat: int) -> int:
        choice = self.game.seats[seat].policy.colour(self.view(seat))
        if is_int(choice) and 0 <= choice < 4:
            return int(choice)
        raise self.invalid(seat, "colour()", choice, "0, 1, 2 or 3")

    def ask_play_drawn(self, seat: int, card: int) -> bool:
        return self._ask_bool(seat, "play_drawn()", self.game.seats[seat].policy.play_drawn(self.view(seat), card))

    def ask_challenge(self, seat: int) -> bool:
        return self._ask_bool(seat, "challenge()", self.game.seats[seat].policy.challenge(self.view(seat)))

    def ask_target(self, seat: int, candidates: tuple[int, ...]) -> int:
        choice = self.game.seats[seat].policy.target(self.view(seat), candidates)
        if is_int(choice) and choice in candidates:
            return int(choice)
        raise self.invalid(seat, "target()", choice, f"one of the seats {list(candidates)}")

    def _ask_bool(self, seat: int, question: str, answer: Any) -> bool:
        if isinstance(answer, (bool, np.bool_)):
            return bool(answer)
        raise self.invalid(seat, question, answer, "True or False")


def is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))

