"""The ``weighted`` built-in policy and its presets in Python: the reference twin of
``unosim.engine.policies.weighted`` (features: ``unosim.engine.policies.weighted_features``).

Every feature, every score (the same float64 terms added in the same order) and every tie rule is the
kernel's, so both engines make the same choices and draw the same numbers from the play stream; the
differential tests compare their traces.
"""

from __future__ import annotations

from ..game import cards
from ..game.protocol import POLICY_PARAMS
from .card_tables import COLOUR, KIND, NUMBER_OF
from .policy import PolicyView, PythonPolicy, features

CLOSE_TO_UNO = 2   # as engine/policies/weighted_features.py


def _seat_from(view: PolicyView, direction: int) -> int:
    """The first active seat from view.seat in ``direction`` (next(seat) for view.direction)."""
    n = len(view.hand_sizes)
    seat = view.seat
    for _ in range(n):
        seat = (seat + direction) % n
        if not view.active or view.active[seat]:
            return seat
    return view.seat


def _colour_counts(hand) -> list[int]:
    counts = [0, 0, 0, 0, 0]   # the four colours, then the wilds (cards.NO_COLOUR)
    for card in hand:
        counts[COLOUR[card]] += 1
    return counts


class WeightedPolicy(PythonPolicy):
    """``weighted`` with a full parameter vector (``PolicySpec.vector()``: a preset's weights included)."""

    def __init__(self, vector):
        self.p = dict(zip(POLICY_PARAMS, (float(x) for x in vector), strict=True))

    # ---- scores -------------------------------------------------------------------------------------
    def _context(self, view: PolicyView) -> tuple:
        held = _colour_counts(view.hand)
        seen = _colour_counts(view.discard) if self.p["w_seen"] != 0.0 else [0] * 5
        next_close = view.hand_sizes[_seat_from(view, view.direction)] <= CLOSE_TO_UNO
        prev_close = view.hand_sizes[_seat_from(view, -view.direction)] <= CLOSE_TO_UNO
        return held, seen, next_close, prev_close, features(view)

    def _card_score(self, view: PolicyView, i: int, context) -> float:
        held, seen, next_close, prev_close, f = context
        w = self.p
        c = view.hand[i]
        colour, kind, top = COLOUR[c], KIND[c], view.top
        coloured = colour != cards.NO_COLOUR
        attack = f.attack[c]
        score = w["w_points"] * f.points[c]
        score += w["w_action"] * (1.0 if coloured and kind != cards.NUMBER else 0.0)
        score += w["w_wild"] * (0.0 if coloured else 1.0)
        score += w["w_draw"] * f.draw[c]
        score += w["w_colour_left"] * (held[colour] - 1 if coloured else 0)
        score += w["w_keeps_colour"] * (1.0 if colour == view.colour else 0.0)
        score += w["w_number_match"] * (1.0 if kind == cards.NUMBER and KIND[top] == cards.NUMBER
                                        and NUMBER_OF[c] == NUMBER_OF[top] else 0.0)
        score += w["w_attack"] * attack
        score += w["w_attack_close"] * (attack if next_close else 0.0)
        score += w["w_reverse_close"] * (f.reverse[c] if prev_close else 0.0)
        score += w["w_own_hand"] * len(view.hand)
        score += w["w_seen"] * (seen[colour] if coloured else 0)
        score += w["w_order"] * (-i)
        return score

    @staticmethod
    def _best(view: PolicyView, options: list, scores: list[float]):
        """The best-scoring option; k > 1 tied: the play stream's below(k)-th of them, in option order."""
        best = max(scores)
        tied = [o for o, s in zip(options, scores, strict=True) if s == best]
        return tied[view.rng.below(len(tied))] if len(tied) > 1 else tied[0]

    def _choose_card(self, view: PolicyView, draw_score: float | None, bluff: int | None):
        context = self._context(view)
        options: list = list(view.legal)
        scores = [self._card_score(view, i, context) for i in view.legal]
        if draw_score is not None:
            options.append(None)
            scores.append(draw_score)
        if bluff is not None:
            options.append(bluff)
            scores.append(self._card_score(view, bluff, context) + self.p["w_bluff"])
        return self._best(view, options, scores)

    def _plays(self, view: PolicyView, index: int) -> bool:
        return self._card_score(view, index, self._context(view)) >= self.p["w_keep"]

    # ---- decisions ----------------------------------------------------------------------------------
    def play(self, view: PolicyView) -> int | None:
        draw = self.p["w_voluntary_draw"] if view.rules.voluntary_draw else None
        return self._choose_card(view, draw, view.bluffs[0] if view.bluffs else None)

    def stack(self, view: PolicyView) -> int | None:
        return self._choose_card(view, self.p["w_accept"], None) if view.legal else None

    def play_drawn(self, view: PolicyView, card: int) -> bool:
        if view.rng.bernoulli(self.p["p_keep_drawn"]):
            return False
        return self._plays(view, len(view.hand) - 1)

    def jump_in(self, view: PolicyView, index: int) -> bool:
        return self._plays(view, index)

    def colour(self, view: PolicyView) -> int:
        w = self.p
        held = _colour_counts(view.hand)
        seen = _colour_counts(view.discard) if w["w_colour_seen"] != 0.0 else [0] * 5
        shown = _colour_counts(view.shown[_seat_from(view, view.direction)] or ()) if view.shown else [0] * 5
        scores = []
        for k in range(4):
            score = w["w_colour_held"] * held[k]
            score += w["w_colour_seen"] * seen[k]
            score += w["w_colour_shown"] * shown[k]
            score += w["w_colour_order"] * (-k if held[k] > 0 else -4)
            scores.append(score)
        return self._best(view, [0, 1, 2, 3], scores)

    def target(self, view: PolicyView, candidates: tuple[int, ...]) -> int:
        w = self.p
        scores = [w["w_target_hand"] * view.hand_sizes[t] + w["w_target_order"] * (-j)
                  for j, t in enumerate(candidates)]
        return self._best(view, list(candidates), scores)

    def challenge(self, view: PolicyView) -> bool:
        w = self.p
        score = w["w_challenge"] + w["w_challenge_hand"] * view.hand_sizes[_seat_from(view, -view.direction)]
        if score != 0.0:
            return score > 0.0
        return view.rng.bernoulli(w["p_challenge"])

    # ---- the spin wheel: never random (engine/policies/weighted.py) -----------------------------------
    def _scores(self, view: PolicyView) -> list[float]:
        context = self._context(view)
        return [self._card_score(view, i, context) for i in range(len(view.hand))]

    def almost_uno(self, view: PolicyView) -> list[int]:
        scores = self._scores(view)
        kept = set(sorted(range(len(scores)), key=lambda i: (scores[i], i))[:2])
        return [i for i in range(len(scores)) if i not in kept]

    def _discard_group(self, view: PolicyView, options: tuple[int, ...], key) -> tuple[int, list[int]]:
        scores = self._scores(view)
        groups = [[i for i, c in enumerate(view.hand) if key(c) == option] for option in options]
        totals = []
        for group in groups:
            total = 0.0
            for i in group:
                total += scores[i]
            totals.append(total)
        best = max(range(len(options)), key=lambda k: totals[k])   # the first on ties
        return options[best], groups[best]

    def discard_number(self, view: PolicyView, numbers: tuple[int, ...]) -> tuple[int, list[int]]:
        return self._discard_group(view, numbers,
                                   lambda c: NUMBER_OF[c] if KIND[c] == cards.NUMBER else -1)

    def discard_colour(self, view: PolicyView, colours: tuple[int, ...]) -> tuple[int, list[int]]:
        return self._discard_group(view, colours, lambda c: COLOUR[c])

    def war_reveal(self, view: PolicyView, candidates: tuple[int, ...]) -> int:
        return candidates[0]

    def war_discard(self, view: PolicyView, revealed: tuple[int, ...]) -> list[int]:
        return list(revealed)

    def uno_spin_discard(self, view: PolicyView) -> int | None:
        scores = self._scores(view)
        return max(range(len(scores)), key=lambda i: scores[i])   # the first on ties
