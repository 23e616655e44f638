"""The measures of a game, declared once: the one vocabulary of findings, verdicts, scorecards and searches.

A :class:`MeasureInfo` holds everything the project says about one measure: its key in the analysis
tables, its plain name for a designer, its unit, its minimum effect (docs/rules.md §8.2), the words of
its sentences, the section of docs/rules.md §8 that defines it, how it is computed, and the direction a
designer's default profile calls better (:mod:`.verdicts`). :mod:`.claims` takes the minimum effects
from here, :mod:`.findings` the phrases, :mod:`.effects` the labels of its table, :mod:`.verdicts` the
profile keys and directions. A design search whose objectives are these measures should use
:data:`MEASURES` and :data:`PROFILE_KEYS` as its vocabulary too.
"""

from __future__ import annotations

from dataclasses import dataclass

COMEBACK_DEFICIT = 3


@dataclass(frozen=True)
class MeasureInfo:
    """One measure. ``minimum``: the smallest effect worth stating, relative (``|B/A − 1|``) when
    ``relative`` else absolute (``|B − A|`` in the measure's unit; a share: 0.01 = 1 percentage point);
    a relative measure compared from a zero baseline uses ``zero_baseline`` (absolute) instead.
    ``more``/``less``: the words of a larger/smaller value; ``what``: the thing they qualify.
    ``share_of``: a share of rounds, stated in percentage points (``of won rounds``). ``better``: the
    default profile's wish (``"more"``, ``"less"``, or None: not judged by default). ``profile``: the
    key of a designer's profile (None: not a profile measure). ``table``: the analysis table of its rows."""

    name: str
    plain: str
    unit: str
    table: str
    minimum: float
    relative: bool
    rules: str
    computed: str
    more: str = "more"
    less: str = "fewer"
    what: str = ""
    zero_baseline: float | None = None
    share_of: str | None = None
    subject_first: bool = False
    better: str | None = None
    profile: str | None = None
    centre: float = 0.0
    count_unit: str = ""                       # the unit of an absolute difference of a relative measure
    changes: tuple[str, str] = ("", "")        # a verdict's words for a larger / a smaller value

    @property
    def minimum_text(self) -> str:
        """The minimum effect as a reader sees it: "2% relative", "1 percentage point"."""
        if self.relative:
            return f"{self.minimum:.0%} relative"
        points = self.minimum * 100
        return f"{points:g} percentage point{'' if points == 1 else 's'}"


MEASURES: dict[str, MeasureInfo] = {m.name: m for m in (
    MeasureInfo("length", "round length", "turns per round", "effects", 0.02, True, "docs/rules.md §8.3",
                "mean turns per round; with rounds stopped by the turn cap, the Kaplan–Meier restricted mean up "
                "to the cap", "longer", "shorter", "rounds", zero_baseline=1.0, subject_first=True,
                better="less", profile="length", count_unit="turns", changes=("longer rounds", "shorter rounds")),
    MeasureInfo("no_winner", "rounds with no winner", "share of rounds that end with no winner (a stalemate or "
                "the turn cap)", "effects", 0.01, False, "docs/rules.md §8.3",
                "share of rounds ending in a stalemate or at the turn cap; exact test (McNemar when paired)",
                what="rounds with no winner (a stalemate or the turn cap)", share_of="of rounds", better="less",
                profile="no_winner", changes=("more rounds with no winner", "fewer rounds with no winner")),
    MeasureInfo("lead_changes", "lead changes", "lead changes per round with a winner", "effects", 0.02, True,
                "docs/rules.md §8.3", "changes of the unique leader per round, over each cell's own rounds with "
                "a winner", what="lead changes per round with a winner", zero_baseline=0.05, better="more",
                profile="lead_changes", count_unit="lead changes", changes=("more lead changes", "fewer lead changes")),
    MeasureInfo("comebacks", "comebacks", f"share of rounds with a winner won from ≥ {COMEBACK_DEFICIT} cards "
                "behind", "effects", 0.01, False, "docs/rules.md §8.3",
                f"share of each cell's own rounds with a winner won by a seat that had been ≥ {COMEBACK_DEFICIT} "
                "cards behind the smallest hand",
                what=f"comebacks (share of won rounds won from ≥ {COMEBACK_DEFICIT} cards behind)",
                share_of="of won rounds", better="more", profile="comebacks",
                changes=("more comebacks", "fewer comebacks")),
    MeasureInfo("max_hand", "hand sizes", "largest hand in a round", "effects", 0.02, True, "docs/rules.md §8.2",
                "the largest hand any seat held in the round", "larger", "smaller", "the largest hand",
                zero_baseline=0.1, subject_first=True, profile="max_hand",
                count_unit="cards", changes=("larger hands", "smaller hands")),
    MeasureInfo("penalty", "draw penalties", "largest draw penalty in a round", "effects", 0.02, True,
                "docs/rules.md §8.2", "the largest pending draw of the round (stacking families)", "larger",
                "smaller", "draw penalties", zero_baseline=0.1, subject_first=True, profile="penalty",
                count_unit="cards", changes=("larger draw penalties", "smaller draw penalties")),
    MeasureInfo("knockouts", "knock-outs", "knock-outs per round", "effects", 0.02, True, "docs/rules.md §8.2",
                "seats knocked out per round (the mercy rule)", what="knock-outs per round", zero_baseline=0.01,
                profile="knockouts", count_unit="knock-outs", changes=("more knock-outs", "fewer knock-outs")),
    MeasureInfo("fairness", "seat fairness", "split of wins by position after the dealer (change of the spread)",
                "effects", 0.01, False, "docs/rules.md §8.4",
                "spread (best − worst position's share of rounds) of B minus A; χ² homogeneity or its paired "
                "permutation test, interval by bootstrap over games", "wider", "narrower",
                "the spread of win rates by position", better="less", profile="fairness",
                changes=("less fair seats", "fairer seats")),
    MeasureInfo("skill_edge", "room for skill", "change of the skilled seat's edge over its all-random twin "
                "(share of won rounds)", "skill_changes", 0.01, False, "docs/rules.md §8.6",
                "per rule: the skilled seat's share of its own won rounds minus that seat's share in the "
                "all-random twin on the same deals, B minus A; paired over games", "raises", "cuts",
                better=None, profile="skill", changes=("a larger edge for {policy} over random players",
                                                        "a smaller edge for {policy} over random players")),
    MeasureInfo("skill", "skill edge", "share of won rounds minus the fair share 1/N", "skill", 0.01, False,
                "docs/rules.md §8.6", "the skilled seat's share of the rounds with a winner minus 1/N (Wilson)"),
    MeasureInfo("spread", "seat spread", "best minus worst position's win rate", "fairness", 0.01, False,
                "docs/rules.md §8.4", "best minus worst position's share of rounds, Tukey's interval"),
    MeasureInfo("card", "card value", "change of win probability against the points line", "card_balance", 0.005,
                False, "docs/rules.md §8.2", "a card's change of win probability against the line of printed "
                "points"),
    MeasureInfo("head_to_head", "head-to-head share", "share of seat comparisons won", "head_to_head", 0.01,
                False, "docs/rules.md §8.6", "share of seat comparisons one entrant finishes ahead, over deals",
                centre=0.5),
)}

#: the measures of the effects table, in the order findings state them
EFFECT_MEASURES = ("length", "no_winner", "lead_changes", "comebacks", "max_hand", "penalty", "knockouts",
                   "fairness")
#: a designer's profile key → its measure (:class:`.verdicts.Profile`)
PROFILE_KEYS: dict[str, str] = {m.profile: m.name for m in MEASURES.values() if m.profile}


def measure(name: str) -> MeasureInfo:
    """The record of ``name``, or a one-line error naming the valid measures."""
    try:
        return MEASURES[name]
    except KeyError:
        raise ValueError(f"unknown measure {name!r}: valid measures are {sorted(MEASURES)}") from None
