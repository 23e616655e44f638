"""Game-quality measures of one round, tracked while it is played (protocol §3 "Quality measures";
the compiled twin is :mod:`unosim.engine.record.quality`, which states the definitions in full).

A *standings check* happens before the first turn and after every counted turn (jump-ins included),
once its checkpoint is done or at the moment the round ended; ``max_hand`` is raised by the deal and
by every single draw, the only moves that make a hand grow.
"""

from __future__ import annotations


class QualityCounters:
    """``lead_changes``, the per-seat running maximum deficit, and ``max_hand`` of one round."""

    def __init__(self, players: int):
        self.leader: int | None = None      # the last unique leader, None before the first one
        self.lead_changes = 0
        self.max_deficit = [0] * players    # per seat: largest (own hand - smallest active hand)
        self.max_hand = 0

    def check_standings(self, hands: list[list[int]], active: list[bool]) -> None:
        """The leader is the unique active seat with strictly the fewest cards (none while tied); a
        unique leader other than the previous unique leader is a lead change. Every active seat's
        deficit is its hand size minus the smallest active hand size."""
        sizes = {seat: len(hand) for seat, hand in enumerate(hands) if active[seat]}
        fewest = min(sizes.values())
        leaders = [seat for seat, size in sizes.items() if size == fewest]
        if len(leaders) == 1:
            if self.leader is not None and leaders[0] != self.leader:
                self.lead_changes += 1
            self.leader = leaders[0]
        for seat, size in sizes.items():
            self.max_deficit[seat] = max(self.max_deficit[seat], size - fewest)

    def hand_grew(self, size: int) -> None:
        self.max_hand = max(self.max_hand, size)

    def winner_max_deficit(self, winner: int) -> int:
        """The winner's largest deficit; -1 (null in the tables) when the round has no winner."""
        return self.max_deficit[winner] if winner >= 0 else -1
