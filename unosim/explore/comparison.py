"""A what-if comparison: a request → a two-cell study spec → the study's own run, analysis and findings.

A :class:`Comparison` is what the explorer's page and ``POST /api/compare`` send: the variant, players,
lineup, games, seed, what a game is (``mode``), the baseline's rule overrides and the what-if's (both
may carry a designer ``deck``, docs/rules.md §2.5). It is validated here with the same checks as the
CLI (``RuleSet`` validation, the lineup parser, the study-spec parser), so a bad request gets the same
one-line message ``unosim`` prints.

The comparison *is* a study: :meth:`Comparison.spec` is the TOML of a two-cell study (the baseline and
the what-if at the chosen players and lineup, one ``[[comparisons]]`` entry), and :func:`run` plays it
with :func:`unosim.runner.run_study`, writes the analysis with :func:`unosim.analysis.standard.write_standard_tables`
(the tables and ``findings.json`` of ``unosim analyze``, every claim checked) and reads back the findings, checked by
the claim checker. So the findings the explorer shows are, sentence for sentence, what ``unosim study
run`` + ``analyze`` + ``report`` say for the saved spec ("save as study"). With common random numbers
the two cells deal the same decks game by game (paired) unless the what-if changes the deck.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..game import policies, rule_table, rules

#: most games per cell one comparison may ask for; bigger questions are a study (save as study)
MAX_GAMES = 200_000
DEFAULT_GAMES = 20_000
STUDY_NAME = "what_if"
BASELINE, WHAT_IF = "baseline", "what_if"
_KEYS = {"variant", "players", "lineup", "games", "seed", "mode", "baseline", "what_if"}


@dataclass(frozen=True)
class Comparison:
    """One what-if question (validated at construction; a ValueError names the bad value)."""

    variant: str = "classic"
    players: int = 4
    lineup: str = "random"
    games: int = DEFAULT_GAMES
    seed: int = 1
    mode: str = "single_round"
    baseline: dict[str, Any] = field(default_factory=dict)
    what_if: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.variant, str) or self.variant not in rules.variant_names():
            raise ValueError(f"unknown variant {self.variant!r}: valid variants are {rules.variant_names()}")
        if not isinstance(self.games, int) or isinstance(self.games, bool) or not 1 <= self.games <= MAX_GAMES:
            raise ValueError(f"games={self.games!r} is invalid: valid is 1..{MAX_GAMES:,} per cell in the explorer "
                             f"(save the comparison as a study to run more)")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise ValueError(f"seed={self.seed!r} is invalid: valid is an integer ≥ 0")
        if self.mode not in rules.MATCH_MODES:
            raise ValueError(f"mode={self.mode!r} is invalid: valid is one of {list(rules.MATCH_MODES)}")
        for side in (BASELINE, WHAT_IF):
            overrides = getattr(self, side)
            if not isinstance(overrides, dict):
                raise ValueError(f"{side}={overrides!r} is invalid: valid is a table of rule name → value")
            if "match_mode" in overrides:
                raise ValueError(f"{side}: match_mode is set once for the comparison, by mode")
            self.ruleset(side).check_players(self.players)
        if not isinstance(self.lineup, str):
            raise ValueError(f"lineup={self.lineup!r} is invalid: valid is a lineup such as 'greedy_points,random*'")
        policies.make_lineup(self.lineup, self.players)
        self.study()   # the spec parser's own checks (names, grid)

    @classmethod
    def from_json(cls, data: Any) -> Comparison:
        if not isinstance(data, dict):
            raise ValueError(f"the request must be a JSON object with keys from {sorted(_KEYS)}")
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r} in the request: valid keys are {sorted(_KEYS)}")
        return cls(**data)

    def ruleset(self, side: str) -> rules.RuleSet:
        return rules.get_variant(self.variant, {**getattr(self, side), "match_mode": self.mode})

    def as_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "players": self.players, "lineup": self.lineup, "games": self.games,
                "seed": self.seed, "mode": self.mode, "baseline": self.baseline, "what_if": self.what_if}

    def spec(self) -> str:
        """The TOML study spec of this comparison (what "save as study" writes)."""
        lineup = policies.parse_lineup(self.lineup)
        changed = {k: v for k, v in self.what_if.items() if self.baseline.get(k) != v}
        lines = [
            "# A what-if comparison saved by `unosim explore`: run it with",
            "#   unosim study run what_if.toml && unosim analyze data/what_if && unosim report data/what_if",
            "[study]",
            f'name = "{STUDY_NAME}"',
            "description = " + _toml(f"{self.variant}, {self.players} players, lineup {self.lineup}: what if "
                                     f"{_describe(changed)}?"),
            f"seed = {self.seed}",
            f"games = {self.games}",
            f'mode = "{self.mode}"',
            "common_random_numbers = true",
            "",
            "[variants]",
            _variant_line(BASELINE, self.variant, self.baseline),
            _variant_line(WHAT_IF, self.variant, self.what_if),
        ]
        if not lineup.builtin:
            lines += ["", "[lineups]", f"{lineup.name} = {_toml(lineup.text)}"]
        lines += ["", "[[grid]]", f'variants = ["{BASELINE}", "{WHAT_IF}"]', f"players = [{self.players}]",
                  f'lineups = ["{lineup.name}"]', "", "[[comparisons]]", 'axis = "variant"', f'a = "{BASELINE}"',
                  f'b = "{WHAT_IF}"']
        return "\n".join(lines) + "\n"

    def study(self):
        from ..pipeline.study import parse_study
        return parse_study(tomllib.loads(self.spec()), source="the comparison")


def _describe(changed: dict[str, Any]) -> str:
    if not changed:
        return "nothing changes"
    return ", ".join(f"{k} = {rule_table.format_value(_frozen(v))}" for k, v in changed.items())


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(value.items())
    return tuple(value) if isinstance(value, list) else value


def _variant_line(name: str, base: str, overrides: dict[str, Any]) -> str:
    parts = [f'base = "{base}"']
    plain = {k: v for k, v in overrides.items() if k != "deck"}
    if plain:
        parts.append(f"rules = {_toml(plain)}")
    if overrides.get("deck"):
        parts.append(f"deck = {_toml(overrides['deck'])}")
    return f"{name} = {{ {', '.join(parts)} }}"


def _toml(value: Any) -> str:
    """A JSON value as TOML (inline tables and arrays; None as the rule word ``none``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return '"none"'
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    raise ValueError(f"value {value!r} cannot be written to a study spec")


# ---- running ------------------------------------------------------------------------------------------
#: the charts the page shows, by the name :func:`unosim.charts.study_charts` gives them (prefix match)
PAGE_CHARTS = ("house_rule_effects", "turn_survival", "skill_edge")
#: the tables the page shows and offers as CSV
ANALYSIS = "analysis"
PAGE_TABLES = ("effects", "win_rates", "lengths", "compare_wins", "compare_lengths", "skill", "card_values")


def run(comparison: Comparison, workdir: str | Path) -> dict[str, Any]:
    """Play, analyse and draw ``comparison`` as a study under ``workdir`` (the dataset is
    ``workdir/what_if``); returns the page's result (findings, tables, chart SVGs, the spec)."""
    result, tables = analyse(comparison, workdir)
    return {**result, "charts": charts(tables, comparison)}


def analyse(comparison: Comparison, workdir: str | Path) -> tuple[dict[str, Any], dict]:
    """Play the study and write its analysis as ``unosim analyze`` does (the standard tables as CSV and
    ``findings.json``, every claim checked first); returns the page's result without charts, and the
    tables (for :func:`charts`)."""
    from ..analysis.few_games import too_few_games
    from ..analysis.standard import read_findings, standard_tables, write_standard_tables
    from ..reporting.charts import charts_left_out
    from ..store.reader import open_dataset
    from ..pipeline.runner import run_study

    summary = run_study(comparison.study(), workdir, n_jobs=1, chunk_size=chunk_size(comparison), force=True,
                        progress=False)
    ds = open_dataset(summary.path)
    tables = standard_tables(ds)
    write_standard_tables(tables, ds.path / ANALYSIS)
    found = read_findings(ds.path / ANALYSIS) or []
    result = {
        "comparison": comparison.as_json(),
        "findings": [{"subject": c.subject, "text": c.text, "kind": c.kind, "section": c.section} for c in found],
        "tables": {name: _json_rows(tables[name]) for name in PAGE_TABLES if name in tables},
        "csv": sorted(tables),
        "paired": bool(tables["effects"]["paired"].all()) if "effects" in tables else None,
        "decks": {side: comparison.ruleset(side).deck_in_effect() for side in (BASELINE, WHAT_IF)},
        "spec": comparison.spec(),
        "notes": too_few_games(tables) + charts_left_out(tables),   # what the games were too few for
    }
    return result, tables


def _json_rows(frame) -> list[dict[str, Any]]:
    """The rows as JSON allows them: a NaN or infinite number (an unbounded interval) becomes null."""
    return [{k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in row.items()}
            for row in frame.to_dicts()]


def chunk_size(comparison: Comparison) -> int:
    """Games per job: four jobs per cell (the page's progress steps; more jobs cost more files)."""
    return max(1, -(-comparison.games // 4))


def charts(tables: dict, comparison: Comparison) -> dict[str, str]:
    """The page's charts as SVG text, drawn by the report's chart code (:func:`unosim.charts.study_charts`)
    and, for the win rate by seat of any lineup, by :func:`unosim.plots.win_rate_by_position`."""
    from ..reporting import plots
    from ..reporting.charts import study_charts

    out = {c.name: plots.to_svg(c.draw()).decode("utf-8") for c in study_charts(tables)
           if c.name.startswith(PAGE_CHARTS)}
    # by seat, for any lineup (the report draws positions after the dealer, for one-policy lineups only)
    out["win_rate_by_seat"] = plots.to_svg(plots.win_rate_by_position(
        tables["win_rates"], "seat", f"lineup {comparison.lineup}")).decode("utf-8")
    return out
