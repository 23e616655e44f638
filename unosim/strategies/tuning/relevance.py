"""Which weights can matter under the rules at hand: a probe before the search.

Some weights score options that the rules never offer — ``w_accept`` without stacking (no penalty to
stack on), ``w_colour_shown`` outside spin (nobody shows a hand), the swap-target weights without a
swap card. Searching them would spend CMA-ES's samples on directions that change nothing and print
meaningless numbers in the tuned policy. So before the search each requested weight is moved far —
``PROBE_STEP`` score units up and down from the start, so far that an option the rules offer is then
taken whenever its feature is positive (or avoided whenever it can be) — and the start and both moved policies play
``PROBE_DEALS`` probe deals in every seat position: a weight whose moves change no game (every round
and seat row identical) is left at the start's value and reported as fixed. The probe deals come from
their own seed stream, so the probe takes nothing from the search's or the evaluation's deals.

A weight that matters only in a situation none of the probe deals reached is fixed too; a larger
probe (``PROBE_DEALS``) would find it, at the cost of time before the search.
"""

from __future__ import annotations

import numpy as np

from ...play.simulate import run_compiled
from .duplicate import Table
from .space import WeightSpace

PROBE_DEALS = 300
PROBE_STEP = 1000.0   # score units: far past every preset's spread of option scores (about 150)


def _games(table: Table, policy, seed: int) -> list[np.ndarray]:
    """Everything the probe deals produce with ``policy`` in every seat position."""
    out = []
    for seat in range(table.players):
        raw = run_compiled(table.rules, table.players, table.lineup(policy, seat), seed, 0, PROBE_DEALS)
        out += [raw.rounds, raw.seats]
    return out


def relevant(space: WeightSpace, table: Table, seed: int) -> tuple[str, ...]:
    """The weights of ``space`` whose far moves change at least one probe game."""
    x0 = space.start_point()
    base = _games(table, space.policy(x0), seed)
    keep = []
    for i, name in enumerate(space.names):
        for step in (PROBE_STEP, -PROBE_STEP):
            x = x0.copy()
            x[i] += step
            moved = _games(table, space.policy(x), seed)
            if any(not np.array_equal(a, b) for a, b in zip(base, moved, strict=True)):
                keep.append(name)
                break
    return tuple(keep)
