"""``lookahead`` in the reference engine: the compiled engine's recorded decisions, replayed.

The search of :mod:`unosim.engine.core.lookahead` plays thousands of rollouts per decision, which the slow
reference engine cannot twin in reasonable time. Instead the reference engine checks everything
around it: a traced compiled run records each play and stack answer of a lookahead seat as a
``LOOKAHEAD`` event (hand index, and whether a search chose it); :class:`ReplayedLookahead` gives those
answers back in order, drawing one number from the play stream for each searched answer exactly as
the search does, and takes every other decision as the seat's rollout preset (the Python twins of
:mod:`.policies`). The reference engine then plays the same games as the kernel, event for event
(tests/engine/policies/test_lookahead_replay.py), which ties the pause-and-resume turn loop, the stored choice, the
random stream and the rollout preset's decisions to the rules; the search itself is tested for
information-set consistency (tests/engine/policies/test_lookahead_infoset.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..game import protocol as L
from ..game.policies import PolicySpec, make_lineup
from .policies import resolve_lineup
from .policy import PolicyView, PythonPolicy

#: every decision a policy answers (:class:`PythonPolicy`'s methods: the core's and the wings' own, such as
#: the spin wheel's) but play and stack, which a lookahead seat's search answers
PRESET_DECISIONS = tuple(name for name in vars(PythonPolicy)
                         if not name.startswith("_") and name not in ("play", "stack"))


class ReplayedLookahead(PythonPolicy):
    """Seat ``seat``'s recorded lookahead answers (``(hand index or -1, searched)`` in order), then its
    rollout preset ``preset`` (a Python policy) for every other decision."""

    def __init__(self, seat: int, answers: Sequence[tuple[int, bool]], preset: PythonPolicy):
        self.seat = seat
        self.answers = list(answers)
        self.preset = preset
        self.used = 0
        for method in PRESET_DECISIONS:
            setattr(self, method, getattr(preset, method))

    def _answer(self, view: PolicyView, preset_answer) -> int | None:
        if self.used >= len(self.answers):
            raise ValueError(f"lookahead seat {self.seat}: the reference engine asks decision "
                             f"{self.used + 1}, the compiled run recorded {len(self.answers)}")
        index, searched = self.answers[self.used]
        self.used += 1
        if searched:
            view.rng.next64()   # the search's seed (engine/core/lookahead.py)
        else:
            expected = preset_answer(view)
            if (-1 if expected is None else expected) != index:
                raise ValueError(f"lookahead seat {self.seat}, decision {self.used}: the compiled "
                                 f"engine's rollout preset answered {index}, its twin {expected}")
        return None if index < 0 else index

    def play(self, view: PolicyView) -> int | None:
        return self._answer(view, self.preset.play)

    def stack(self, view: PolicyView) -> int | None:
        return self._answer(view, self.preset.stack)


def recorded_answers(events: np.ndarray, seat: int) -> list[tuple[int, bool]]:
    """Seat ``seat``'s ``LOOKAHEAD`` events of a traced compiled run: (hand index, searched)."""
    rows = events[(events[:, 0] == L.EV_LOOKAHEAD) & (events[:, 1] == seat)]
    return [(int(a), bool(b)) for a, b in rows[:, 2:4]]


def replayed_lineup(lineup, players: int, events: np.ndarray) -> list[PythonPolicy]:
    """The reference engine's lineup replaying one traced compiled game: each lookahead seat a
    :class:`ReplayedLookahead` over its recorded answers, every other seat its built-in twin."""
    specs = make_lineup(lineup, players)
    seats = []
    for seat, spec in enumerate(specs):
        if spec.name != "lookahead":
            seats.append(resolve_lineup([spec], 1)[0].policy)
            continue
        preset_name = L.ROLLOUT_PRESETS[int(spec.vector()[L.PP_ROLLOUT])]
        preset = resolve_lineup([PolicySpec(preset_name)], 1)[0].policy
        seats.append(ReplayedLookahead(seat, recorded_answers(events, seat), preset))
    return seats
