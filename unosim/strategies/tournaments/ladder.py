"""The skill ladder: ``random`` → presets → expert on one Bradley–Terry scale per variant and table size.

``unosim.ladder(["classic", "classic:n_blank=0", "no_mercy"], players=2, games=500, seed=1)`` plays one
duplicate tournament (:func:`unosim.strategies.tournaments.tournament`) per variant among every policy of the
ladder (default :data:`LADDER_POLICIES`: ``random``, the two heuristics, every ``weighted`` preset and
the expert ``lookahead``; a tuned vector or any other built-in spec can be added). With more policies
than seats every subset of them takes the table in turn (:mod:`.seating`), so every pair meets on the
same deals, and the ratings of one variant are one Bradley–Terry fit (Elo scale, mean 0, bootstrap
interval over deals; :mod:`unosim.analysis.standings`).

Per variant the result holds the ratings (the ladder, highest first), the head-to-head shares, the pairs
the ladder orders against their own head-to-head (:func:`unosim.analysis.luck.inconsistencies`: a
policy rated above another must not lose to it with an interval below ½) and the skill figures of
:mod:`unosim.analysis.luck` (the expert against ``random`` and against the best other policy, rounds
needed, the rating spread). A variant is a registered name, optionally with rule overrides after a
colon: ``classic:n_blank=0``, ``classic:stacking=any_draw,n_blank=0`` (values as ``--set`` reads them).
"""

from __future__ import annotations

import json
import os
import platform
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from ...game import rules as rules_module
from ...game import seating
from ...game.policies import LADDER_POLICIES, PolicySpec
from ...game.version import commit
from ...store.atomic import write_bytes_atomic, write_text_atomic
from .python_policies import has_python_policy, reference_tournament

EXPERT = LADDER_POLICIES[-1]
BASELINE = LADDER_POLICIES[0]


@dataclass(frozen=True)
class Rung:
    """One variant of the ladder: its label (as given), registered name and rule overrides."""

    label: str
    variant: str
    rules: dict


def parse_rung(text: str) -> Rung:
    """``classic`` or ``classic:n_blank=0,stacking=any_draw``; bad input is a ValueError naming it."""
    from ...game.rule_values import parse_set
    name, _, overrides = text.partition(":")
    if name not in rules_module.variant_names():
        raise ValueError(f"ladder variant {text!r}: {name!r} is unknown; valid variants are "
                         f"{rules_module.variant_names()}")
    rules = parse_set([item for item in overrides.split(",") if item]) if overrides else {}
    rules_module.get_variant(name, rules)   # a rule the variant refuses raises here, naming it
    return Rung(text, name, rules)


@dataclass(frozen=True)
class LadderResult:
    """A ladder per variant: ``ratings`` (variant, policy, rating with interval, win rate, rank),
    ``head_to_head`` (variant, a, b, share with interval), ``skill`` (one row per variant) and
    ``inconsistencies`` (variant, higher, lower: empty when the ladder agrees with its head-to-head)."""

    players: int
    games: int
    seed: int
    rungs: tuple[Rung, ...]
    ratings: pl.DataFrame
    head_to_head: pl.DataFrame
    skill: pl.DataFrame
    inconsistencies: pl.DataFrame

    def chart(self):
        """The ratings of every policy, one line per variant (:func:`unosim.reporting.tournament_chart.ladder_chart`)."""
        from ...reporting.tournament_chart import ladder_chart
        return ladder_chart(self.ratings, players=self.players,
                            title=f"skill ladder, {self.players} players: {self.games:,} deals per pair")

    def to_json(self) -> str:
        """The tables with what they were measured under (deck and rules per variant, deals, seed, date,
        commit, machine): the results file the docs pages are generated from."""
        variants = {r.label: {"variant": r.variant, "rules": r.rules,
                              "rule_set": rules_module.get_variant(r.variant, r.rules).as_dict()}
                    for r in self.rungs}
        doc = {"kind": "skill_ladder", "players": self.players, "deals": self.games, "seed": self.seed,
               "variants": variants, "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
               "commit": commit(), "machine": {"cpus": os.cpu_count(),
                                                                "python": platform.python_version()},
               "ratings": self.ratings.to_dicts(), "skill": self.skill.to_dicts(),
               "head_to_head": self.head_to_head.to_dicts(), "inconsistencies": self.inconsistencies.to_dicts()}
        return json.dumps(doc, indent=1, default=str) + "\n"

    def write(self, path: str | Path) -> Path:
        """The results file (atomic) and the chart beside it (``<stem>.png``)."""
        from ...reporting.plots import to_png
        path = Path(path)
        write_text_atomic(path, self.to_json())
        write_bytes_atomic(path.with_suffix(".png"), to_png(self.chart(), dpi=96))
        return path


def ladder(variants, *, players: int = 2, games: int, seed: int, policies=None, n_jobs: int = 1,
           progress: bool | None = False) -> LadderResult:
    """Rate ``policies`` (default :data:`LADDER_POLICIES`; they must include ``lookahead`` and
    ``random``) in one duplicate tournament per variant of ``variants`` (names, optionally
    ``name:rule=value,...``) at ``players`` seats over ``games`` deals, seeded by ``seed``."""
    from ...analysis import luck
    from ...analysis import standings as st
    rungs = tuple(parse_rung(v) for v in ([variants] if isinstance(variants, str) else variants))
    if not rungs:
        raise ValueError("a ladder needs at least one variant, e.g. ['classic', 'classic:n_blank=0']")
    if len({r.label for r in rungs}) < len(rungs):
        raise ValueError(f"a variant is given twice in {[r.label for r in rungs]}")
    # the door: parsed once, passed inward as PolicySpecs (and Python policies as given)
    policy_list = seating.parse_entries(LADDER_POLICIES if policies is None else policies)
    python = has_python_policy(policy_list)
    specs = [p for p in policy_list if isinstance(p, PolicySpec)]
    if not any(p.label == BASELINE for p in specs) or not (python or any(p.name == EXPERT for p in specs)):
        shown = [p.label if isinstance(p, PolicySpec) else p for p in policy_list]
        raise ValueError(f"the ladder's policies {shown} must hold {EXPERT!r} (any budget) and plain "
                         f"{BASELINE!r}: the skill figures compare the one with the other (with a Python policy: "
                         f"plain {BASELINE!r}, and no {EXPERT!r}: the reference engine has no lookahead)")
    tables: dict[str, list[pl.DataFrame]] = {"ratings": [], "head_to_head": [], "skill": [], "inconsistencies": []}
    for rung in rungs:
        result, played = _rung(rung, players, policy_list, games, seed, n_jobs, progress, python)
        ahead, _ = st.pairwise(played, len(result.entrants))
        point, boot = st.bootstrap_ratings(ahead, seed)
        rated = (result.standings.select("policy", "rating", "rating_ci_low", "rating_ci_high", "win_rate",
                                         "ci_low", "ci_high")
                 .sort("rating", descending=True).with_row_index("rank", offset=1))
        tag = pl.lit(rung.label).alias("variant")
        tables["ratings"].append(rated.select(tag, pl.all()))
        tables["head_to_head"].append(result.head_to_head.select(tag, pl.all()))
        tables["inconsistencies"].append(luck.inconsistencies(rated, result.head_to_head).select(tag, pl.all()))
        # the skill figures are the expert's; a ladder with a Python policy asks them of the user's policy
        expert = next(e.name for e, item in zip(result.entrants, policy_list, strict=True)
                      if (not isinstance(item, PolicySpec) if python else item.name == EXPERT))
        skill = luck.skill_row(result.head_to_head, rated, expert, BASELINE, luck.rating_spread(point, boot))
        tables["skill"].append(pl.DataFrame([{"variant": rung.label, "players": players, "deals": games, **skill}]))
    return LadderResult(players, games, seed, rungs, **{k: pl.concat(v, how="diagonal_relaxed")
                                                       for k, v in tables.items()})


def _rung(rung: Rung, players: int, policy_list: tuple, games: int, seed: int, n_jobs: int, progress, python: bool):
    """(tournament result, its games as arrays) of one variant: compiled, or in the reference engine when a
    Python policy takes part (:mod:`.python_policies`)."""
    from ...analysis import standings as st
    from ...store.reader import open_dataset
    from . import tournament
    if python:
        if n_jobs != 1:
            raise ValueError(f"n_jobs={n_jobs!r}: a ladder with a Python policy is played in this process by the "
                             "reference engine; valid is n_jobs=1")
        return reference_tournament(rung.variant, players, policy_list, games, seed, rung.rules or None, "rotations")
    with tempfile.TemporaryDirectory(prefix="unosim-ladder-") as tmp:
        result = tournament(rung.variant, players=players, policies=policy_list, games=games, seed=seed,
                            rules=rung.rules or None, out=tmp, n_jobs=n_jobs, progress=progress, seating="rotations")
        ds = open_dataset(result.path)
        return result, st.games_from_tables(ds.seats, ds.rounds, result.arrangements, result.played_by)
