"""A designer's profile of "better": what they want of each measure (docs/rules.md §8.7).

A profile is a small named set, the ``[profile]`` table of a study spec or ``unosim analyze --profile``::

    [profile]
    length = "shorter"          # or "longer", "any", or a target band of mean turns: [20, 30]
    fairness = "fairer"         # or "any"
    no_winner = "fewer"         # rounds with no winner (a stalemate or the turn cap)
    comebacks = "more"
    lead_changes = "more"
    skill = "any"               # the skilled seat's edge over random players: "more", "less" or "any"

Keys and words are those of :data:`.measures.PROFILE_KEYS`; a key left out keeps its default
(:meth:`Profile.default`); ``"any"`` leaves a measure out of the verdicts. Every mistake raises
:class:`ProfileError`, one line naming the bad key or value and the valid ones.

The default wants what nearly every complaint about a shedding game asks for — shorter rounds, fairer
seats, fewer rounds that stall, more comebacks and lead changes (an open game to the end) — and judges
neither the room for skill (a family game may want less of it, a competitive one more) nor hand sizes,
draw penalties and knock-outs (means, not ends: their effect shows in length and comebacks).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .measures import MEASURES, PROFILE_KEYS

ANY = "any"
#: profile key → {word: +1 (more of the measure's value is better) / −1 (less is better)}
WORDS: dict[str, dict[str, int]] = {
    "length": {"longer": 1, "shorter": -1},
    "fairness": {"fairer": -1},       # the measure is the spread of win rates by position: less is fairer
    "no_winner": {"more": 1, "fewer": -1},
    "comebacks": {"more": 1, "fewer": -1},
    "lead_changes": {"more": 1, "fewer": -1},
    "skill": {"more": 1, "less": -1},
    "max_hand": {"larger": 1, "smaller": -1},
    "penalty": {"larger": 1, "smaller": -1},
    "knockouts": {"more": 1, "fewer": -1},
}
DEFAULT = {"length": "shorter", "fairness": "fairer", "no_winner": "fewer", "comebacks": "more",
           "lead_changes": "more", "skill": ANY, "max_hand": ANY, "penalty": ANY, "knockouts": ANY}
assert set(WORDS) == set(PROFILE_KEYS) == set(DEFAULT)
#: keys that take a target band [low, high] (in the measure's unit: mean turns per round for length)
BANDS = ("length",)


class ProfileError(ValueError):
    """An invalid profile; the message is one line naming the problem and the valid choices."""


@dataclass(frozen=True)
class Wish:
    """What the profile wants of one measure: ``sign`` +1 more / −1 less / 0 any, or a ``band``."""

    word: str
    sign: int = 0
    band: tuple[float, float] | None = None

    @property
    def judged(self) -> bool:
        return self.sign != 0 or self.band is not None

    def as_value(self) -> str | list[float]:
        return list(self.band) if self.band is not None else self.word


@dataclass(frozen=True)
class Profile:
    """A designer's profile: one :class:`Wish` per profile key (:data:`.measures.PROFILE_KEYS`)."""

    wishes: tuple[tuple[str, Wish], ...]

    @staticmethod
    def default() -> Profile:
        return Profile.from_mapping({})

    @staticmethod
    def from_mapping(data: Mapping[str, object] | None) -> Profile:
        """The profile of ``data`` (keys left out keep the default); raises :class:`ProfileError`."""
        data = {} if data is None else data
        if not isinstance(data, Mapping):
            raise ProfileError(f"a profile must be a table of key = wish, got {data!r}")
        unknown = sorted(set(data) - set(WORDS))
        if unknown:
            raise ProfileError(f"unknown profile key {unknown[0]!r}: valid keys are {sorted(WORDS)}")
        merged = {**DEFAULT, **data}
        return Profile(tuple((key, _wish(key, merged[key])) for key in WORDS))

    @staticmethod
    def parse(text: str, base: Profile | None = None) -> Profile:
        """A profile from ``key=wish,key=wish`` (a band as ``length=20-30``), e.g. for the command line;
        keys left out keep ``base`` (default: the default profile)."""
        data: dict[str, object] = dict(base.as_mapping()) if base else {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition("=")
            if not sep:
                raise ProfileError(f"profile item {part!r} is not key=wish: valid keys are {sorted(WORDS)}")
            band = re.fullmatch(r"\s*([0-9.]+)\s*-\s*([0-9.]+)\s*", value)
            data[key.strip()] = [float(band[1]), float(band[2])] if band else value.strip()
        return Profile.from_mapping(data)

    def wish(self, profile_key: str) -> Wish:
        return dict(self.wishes)[profile_key]

    def wish_for_measure(self, measure: str) -> Wish:
        """The wish for an analysis measure (``skill_edge`` for the key ``skill``); ``any`` when none."""
        key = MEASURES[measure].profile
        return self.wish(key) if key else Wish(ANY)

    def as_mapping(self) -> dict[str, str | list[float]]:
        return {key: wish.as_value() for key, wish in self.wishes}

    def judged(self) -> list[str]:
        """The analysis measures this profile judges, in its order."""
        return [PROFILE_KEYS[key] for key, wish in self.wishes if wish.judged]

    def describe(self) -> str:
        """"shorter length, fairer seats, …" — the judged wishes in words."""
        parts = []
        for key, wish in self.wishes:
            if wish.band is not None:
                parts.append(f"{key.replace('_', ' ')} {wish.band[0]:g}–{wish.band[1]:g} turns")
            elif wish.judged:
                changes = MEASURES[PROFILE_KEYS[key]].changes
                parts.append(changes[0 if wish.sign > 0 else 1].format(policy="the skilled player"))
        return ", ".join(parts) if parts else "nothing judged"


def _wish(key: str, value: object) -> Wish:
    words = WORDS[key]
    valid = sorted(words) + [ANY] + (["[low, high]"] if key in BANDS else [])
    if isinstance(value, str):
        word = value.strip().lower()
        if word == ANY:
            return Wish(ANY)
        if word in words:
            return Wish(word, words[word])
        raise ProfileError(f"profile {key} = {value!r} is not a wish for {key}: valid are {valid}")
    if key in BANDS and isinstance(value, (list, tuple)) and len(value) == 2 \
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        low, high = float(value[0]), float(value[1])
        if not (math.isfinite(low) and math.isfinite(high) and 0 <= low < high):
            raise ProfileError(f"profile {key} = {list(value)!r} is not a band: give [low, high] with 0 ≤ low < high")
        return Wish("band", band=(low, high))
    raise ProfileError(f"profile {key} = {value!r} is not a wish for {key}: valid are {valid}")
