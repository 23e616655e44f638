"""Which build of the compiled engine a call needs (pure Python: no numba here).

The engine's source is compiled per *build*: the rule mechanisms a call's variant uses and the policy
tier its lineup needs. A build compiles only that code — numba prunes
every branch on a false compile-time constant of :mod:`unosim.engine.features` before typing, so the callees behind
it are never typed, optimised or emitted — and each build is cached on its own
(:mod:`.cache`). The games do not depend on the build: a build that covers a call plays exactly the
games of the smallest one (tests/engine/test_builds.py compares them).

Mechanisms (:data:`MECHANISMS`) are the verbs a variant's cards or house rules add to the core turn
(numbers, Skip, Reverse, Draw Two, wilds and Wild Draw Four, the UNO checkpoint, the match). A rule
switch that is not a mechanism (``draw_until_playable``, ``wd4_challenge``, the match mode …) stays
data in the compiled rules and is in every build. Policy tiers (:data:`POLICY_TIERS`) are ordered:
``basic`` holds ``random``, ``greedy_points`` and ``keep_wilds``; ``weighted`` adds ``weighted`` and its
presets; ``lookahead`` adds the search, whose rollouts play every preset. Every build can record a
trace (a replay): the check is one predictable branch per event, too cheap to measure in the kernel's
throughput, and a separate traced build would cost a replay a compile as long as the plain one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...game import protocol as L
from ...game.protocol import LOOKAHEAD, WEIGHTED
from ...game.rule_table import switched_on

# name -> how a compile notice names it (the order is the build key's): protocol.MECHANISMS, the one
# registry of mechanisms (classic's blank cards, three families' own cards and turn steps, the house
# rules that add a step to the turn, UNO Flip's sides)
MECHANISMS = {name: mechanism.label for name, mechanism in L.MECHANISMS.items()}
# the mechanisms a family's own rules always use (a house rule can add more): its own, if it names one,
# and No Mercy's fixed house rules
IMPLIED = {"no_mercy": ("stacking", "mercy", "seven_o")}


def family_mechanisms(family: str) -> tuple[str, ...]:
    """The mechanisms the family ``family`` (``RuleSet.mechanics``) always uses."""
    return ((family,) if family in MECHANISMS else ()) + IMPLIED.get(family, ())


POLICY_TIERS = ("basic", "weighted", "lookahead")
TIER_POLICIES = {"basic": "random/greedy policies", "weighted": "random/greedy/weighted policies",
                 "lookahead": "every policy, lookahead included"}


@dataclass(frozen=True)
class Build:
    """One build of the engine: the mechanisms compiled in and the policy tier."""

    mechanisms: frozenset[str] = frozenset()
    policies: str = "basic"

    def __post_init__(self):
        unknown = set(self.mechanisms) - set(MECHANISMS)
        if unknown:
            raise ValueError(f"unknown engine mechanism(s) {sorted(unknown)}: valid are {list(MECHANISMS)}")
        if self.policies not in POLICY_TIERS:
            raise ValueError(f"unknown policy tier {self.policies!r}: valid are {list(POLICY_TIERS)}")
        object.__setattr__(self, "mechanisms", frozenset(self.mechanisms))

    @classmethod
    def full(cls) -> Build:
        """Every mechanism and policy (the build of ``unosim.engine``'s own modules)."""
        return cls(frozenset(MECHANISMS), "lookahead")

    @property
    def key(self) -> str:
        """A readable, unique name: ``blank.basic``, ``no_mercy-stacking-mercy-seven_o.lookahead``."""
        mechanisms = "-".join(m for m in MECHANISMS if m in self.mechanisms) or "core"
        return f"{mechanisms}.{self.policies}"

    @classmethod
    def from_key(cls, key: str) -> Build:
        """The build named ``key`` (its :attr:`key`); a ValueError for anything else."""
        parts = key.split(".")
        if len(parts) != 2:
            raise ValueError(f"{key!r} is not an engine build key (mechanisms.policies)")
        mechanisms = frozenset() if parts[0] == "core" else frozenset(parts[0].split("-"))
        build = cls(mechanisms, parts[1])
        if build.key != key:
            raise ValueError(f"{key!r} is not an engine build key in canonical order ({build.key!r})")
        return build

    @property
    def size(self) -> tuple[int, int]:
        """Orders builds from the smallest: mechanisms compiled in, then the policy tier."""
        return len(self.mechanisms), POLICY_TIERS.index(self.policies)

    def covers(self, other: Build) -> bool:
        """Whether this build can play every call ``other`` can."""
        return (self.mechanisms >= other.mechanisms
                and POLICY_TIERS.index(self.policies) >= POLICY_TIERS.index(other.policies))

    def union(self, other: Build) -> Build:
        """The smallest build covering both."""
        tier = max(self.policies, other.policies, key=POLICY_TIERS.index)
        return Build(self.mechanisms | other.mechanisms, tier)

    def describe(self) -> str:
        """What a user reads: ``classic engine (blank cards), random/greedy policies``."""
        families = [f for f in L.FAMILIES if f in self.mechanisms]
        if not families or "blank" in self.mechanisms:
            families.insert(0, "classic")
        implied = {m for f in families for m in family_mechanisms(f)}
        extras = [MECHANISMS[m] for m in MECHANISMS if m in self.mechanisms and m not in implied]
        text = " + ".join(families) + " engine"
        if extras:
            text += f" ({', '.join(extras)})"
        return f"{text}, {TIER_POLICIES[self.policies]}"

    def constants(self) -> dict[str, bool]:
        """The compile-time switches of :mod:`unosim.engine.features` for this build."""
        tier = POLICY_TIERS.index(self.policies)
        return {**{f"HAS_{m.upper()}": m in self.mechanisms for m in MECHANISMS},
                "HAS_WEIGHTED": tier >= 1, "HAS_LOOKAHEAD": tier >= 2}


def mechanisms_of(rules) -> frozenset[str]:
    """The mechanisms a rule set (``unosim.game.rules.RuleSet``) uses."""
    used = set(family_mechanisms(rules.mechanics))
    used |= switched_on(rules)   # the blanks' and the house rules' mechanisms: the rule table says which
    used |= {"cards"} if rules.new_cards else set()   # new cards declared as data (docs/rules.md §2.7)
    return frozenset(used)


def tier_of(lineup) -> str:
    """The policy tier a lineup (``PolicySpec`` per seat) needs."""
    ids = {spec.id for spec in lineup}
    if LOOKAHEAD in ids:
        return "lookahead"
    return "weighted" if WEIGHTED in ids else "basic"


def build_for(rules, lineup) -> Build:
    """The smallest build that plays ``lineup`` under ``rules`` (a RuleSet)."""
    return Build(mechanisms_of(rules), tier_of(lineup))




def model_seconds(build: Build) -> float:
    """A build's compile time on one core of the 2-core development machine (measured; see
    :data:`COMPILE_SECONDS`): the core, plus each mechanism and the policy tier."""
    parts = COMPILE_SECONDS
    return (parts["core"] + sum(MECHANISM_COMPILE_SECONDS[m] for m in build.mechanisms)
            + parts[build.policies])


# The model's parts, in CPU seconds of a cold compile on one idle core (docs/results/engine_compile.json):
# the core is the build with no mechanism and the basic tier; a mechanism's own cost
# and each tier's here are what adding it to the core cost. Mechanisms compiled together cost more than
# the sum, and machines differ: a compile's notice scales the model by this machine's earlier compiles
# (loader.estimate_seconds).
COMPILE_SECONDS = {"core": 18.0, "basic": 0.0, "weighted": 3.0, "lookahead": 21.0}
MECHANISM_COMPILE_SECONDS = {"blank": 6.0, "minions": 3.0, "spin": 18.0, "no_mercy": 3.0, "stacking": 2.0,
                             "mercy": 1.5, "seven_o": 1.5, "jump_in": 5.0, "flip": 9.0, "cards": 4.0}
