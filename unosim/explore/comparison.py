"""A what-if comparison: a request → a two-cell study spec → the study's own run, analysis and findings.

A :class:`Comparison` is what the explorer's page and ``POST /api/compare`` send: the variant, players,
lineup, games, seed, what a game is (``mode``), the baseline's rule overrides and the what-if's (both
may carry a designer ``deck``, docs/rules.md §2.5). It is validated here with the same checks as the
CLI (``RuleSet`` validation, the lineup parser, the study-spec parser), so a bad request gets the same
one-line message ``unosim`` prints.

The comparison *is* a study: :meth:`Comparison.spec` is the TOML of a two-cell study (the baseline and
the what-if at the chosen players and lineup, one ``[[comparisons]]`` entry), and :func:`run` plays it
with :func:`unosim.pipeline.runner.run_study`, writes the analysis with :func:`unosim.analysis.standard.write_standard_tables`
(the tables and ``findings.json`` of ``unosim analyze``, every claim checked) and reads back the findings, checked by
the claim checker. So the findings the explorer shows are, sentence for sentence, what ``unosim study
run`` + ``analyze`` + ``report`` say for the saved spec ("save as study"). With common random numbers
the two cells deal the same decks game by game (paired) unless the what-if changes the deck.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..game import policies, rule_table, rules
from ..pipeline.study import toml_value
from . import declared_cards

#: most games per cell one comparison may ask for; bigger questions are a study (save as study)
MAX_GAMES = 200_000
DEFAULT_GAMES = 20_000
STUDY_NAME = "what_if"
BASELINE, WHAT_IF = "baseline", "what_if"
#: most what-ifs compared side by side with one baseline
MAX_WHAT_IFS = 4
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
    what_if: dict[str, Any] | list[dict[str, Any]] = field(default_factory=dict)   # up to MAX_WHAT_IFS

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
        what_ifs = self.what_if if isinstance(self.what_if, list) else [self.what_if]
        if not 1 <= len(what_ifs) <= MAX_WHAT_IFS:
            raise ValueError(f"what_if has {len(what_ifs)} what-ifs: valid is 1..{MAX_WHAT_IFS} against one baseline")
        for side, overrides in ((BASELINE, self.baseline), *((WHAT_IF, w) for w in what_ifs)):
            if not isinstance(overrides, dict):
                raise ValueError(f"{side}={overrides!r} is invalid: valid is a table of rule name → value")
            if "match_mode" in overrides:
                raise ValueError(f"{side}: match_mode is set once for the comparison, by mode")
            ruleset = self._ruleset(overrides)
            ruleset.check_players(self.players)
        if not isinstance(self.lineup, str):
            raise ValueError(f"lineup={self.lineup!r} is invalid: valid is a lineup such as 'greedy_points,random*'")
        policies.make_lineup(self.lineup, self.players)
        base = self._ruleset(self.baseline)
        for i, overrides in enumerate(what_ifs):
            if self._ruleset(overrides) == base:
                which = "the what-if" if len(what_ifs) == 1 else f"what-if {i + 1}"
                raise ValueError(f"{which} changes nothing: it plays the baseline's rules and deck "
                                 f"({_describe(self.baseline) if self.baseline else 'the published ' + self.variant}); "
                                 "change a rule or the deck of the what-if")
        self.study()   # the spec parser's own checks (names, grid)

    @classmethod
    def from_json(cls, data: Any) -> Comparison:
        if not isinstance(data, dict):
            raise ValueError(f"the request must be a JSON object with keys from {sorted(_KEYS)}")
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r} in the request: valid keys are {sorted(_KEYS)}")
        return cls(**data)

    @property
    def what_ifs(self) -> list[dict[str, Any]]:
        """The what-ifs, each compared with the baseline (one, or up to :data:`MAX_WHAT_IFS` side by side)."""
        return self.what_if if isinstance(self.what_if, list) else [self.what_if]

    @property
    def cells(self) -> int:
        return 1 + len(self.what_ifs)

    def ruleset(self, side: str) -> rules.RuleSet:
        """The rules of ``baseline``, ``what_if`` (the first what-if) or ``what_if_<i>`` (what-if i, from 1)."""
        if side == BASELINE:
            return self._ruleset(self.baseline)
        index = int(side.removeprefix(WHAT_IF).lstrip("_") or 1) - 1
        return self._ruleset(self.what_ifs[index])

    def _ruleset(self, overrides: dict[str, Any]) -> rules.RuleSet:
        return rules.get_variant(self.variant, {**overrides, "match_mode": self.mode})

    def names(self) -> tuple[str, list[str]]:
        """The variant names of the spec, so findings name the rule ("seven_o (vs classic)"): the baseline
        is the variant's own name (``baseline`` when it changes rules of its own), each what-if is named by
        what it changes against the baseline (:func:`rule_name`), made unique."""
        base = self.variant if not self.baseline else BASELINE
        names: list[str] = []
        for overrides in self.what_ifs:
            changed = {k: v for k, v in overrides.items() if self.baseline.get(k) != v}
            changed.update({k: self._ruleset({}).as_dict().get(k) for k in self.baseline if k not in overrides})
            name = rule_name(changed) or WHAT_IF
            while name in names or name == base:
                name += "_b"
            names.append(name)
        return base, names

    def as_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "players": self.players, "lineup": self.lineup, "games": self.games,
                "seed": self.seed, "mode": self.mode, "baseline": self.baseline, "what_if": self.what_if}

    def spec(self) -> str:
        """The TOML study spec of this comparison (what "save as study" writes)."""
        lineup = policies.parse_lineup(self.lineup)
        base, names = self.names()
        changes = [_describe({k: v for k, v in w.items() if self.baseline.get(k) != v}) for w in self.what_ifs]
        lines = [
            "# A what-if comparison saved by `unosim explore`: run it with",
            "#   unosim study run what_if.toml && unosim analyze data/what_if && unosim report data/what_if",
            "[study]",
            f'name = "{STUDY_NAME}"',
            "description = " + toml_value(f"{self.variant}, {self.players} players, lineup {self.lineup}: what if "
                                     f"{' / '.join(changes)}?"),
            f"seed = {self.seed}",
            f"games = {self.games}",
            f'mode = "{self.mode}"',
            "common_random_numbers = true",
            "",
            "[variants]",
            *([_variant_line(base, self.variant, self.baseline)] if base != self.variant else []),   # else built in
            *(_variant_line(name, self.variant, w) for name, w in zip(names, self.what_ifs, strict=True)),
        ]
        if not lineup.builtin:
            lines += ["", "[lineups]", f"{lineup.name} = {toml_value(lineup.text)}"]
        lines += ["", "[[grid]]", f"variants = {toml_value([base, *names])}", f"players = [{self.players}]",
                  f'lineups = ["{lineup.name}"]']
        for name in names:
            lines += ["", "[[comparisons]]", 'axis = "variant"', f'a = "{base}"', f'b = "{name}"']
        return "\n".join(lines) + "\n"

    def study(self):
        from ..pipeline.study import parse_study
        return parse_study(tomllib.loads(self.spec()), source="the comparison")


def rule_name(changed: dict[str, Any]) -> str:
    """A what-if's name from what it changes: ``seven_o`` (a rule switched on), ``no_jump_in`` (off),
    ``stacking_any_draw``, ``hand_size_5``, ``designer_deck``; several joined by ``_and_``; at most 60
    characters."""
    parts = []
    for key, value in changed.items():
        if key == "deck":
            parts.append("designer_deck")
        elif key == "cards":   # declared cards (docs/rules.md §2.7): the what-if is named by them
            parts.append("with_" + "_".join(_card_names(value)) if value else "no_declared_cards")
        elif value is True:
            parts.append(key)
        elif value is False:
            parts.append(f"no_{key}")
        else:
            parts.append(re.sub(r"[^a-z0-9]+", "_", f"{key}_{value}".lower()).strip("_"))
    return "_and_".join(parts)[:60].rstrip("_")


def _card_names(value: Any) -> list[str]:
    """The names of declared cards as a request gives them (a table name → card, or ``--card`` strings)."""
    if isinstance(value, dict):
        return [str(name) for name in value]
    return [str(item).partition(":")[0] for item in (value if isinstance(value, list) else [value])]


def _describe(changed: dict[str, Any]) -> str:
    if not changed:
        return "nothing changes"
    return ", ".join(f"{k} = {rule_table.format_value(_frozen(v))}" if k != "cards" else
                     "with " + ", ".join(_card_labels(v)) if v else "no declared cards" for k, v in changed.items())


def _card_labels(value: Any) -> list[str]:
    from ..game.custom_cards import normalise
    return [declared_cards.label(card) for card in normalise("cards", value)]


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(value.items())
    return tuple(value) if isinstance(value, list) else value


def _variant_line(name: str, base: str, overrides: dict[str, Any]) -> str:
    parts = [f'base = "{base}"']
    plain = {k: v for k, v in overrides.items() if k not in ("deck", "cards")}
    if plain:
        parts.append(f"rules = {toml_value(plain)}")
    for key in ("deck", "cards"):
        if overrides.get(key):
            parts.append(f"{key} = {toml_value(overrides[key])}")
    return f"{name} = {{ {', '.join(parts)} }}"


# ---- running ------------------------------------------------------------------------------------------
#: the charts the page shows, by the name :func:`unosim.charts.study_charts` gives them (prefix match)
PAGE_CHARTS = ("house_rule_effects", "turn_survival", "skill_edge")
#: the tables the page shows and offers as CSV
ANALYSIS = "analysis"
PAGE_TABLES = ("scorecard", "effects", "win_rates", "lengths", "compare_wins", "compare_lengths", "skill",
               "card_values")


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
    from ..analysis.verdicts import ranked
    from ..pipeline.runner import run_study
    from ..reporting.charts import charts_left_out
    from ..store.reader import open_dataset

    summary = run_study(comparison.study(), workdir, n_jobs=1, chunk_size=chunk_size(comparison), force=True,
                        progress=False)
    ds = open_dataset(summary.path)
    tables = standard_tables(ds)
    write_standard_tables(tables, ds.path / ANALYSIS)
    found = read_findings(ds.path / ANALYSIS) or []
    base, names = comparison.names()
    result = {
        "comparison": comparison.as_json(),
        "names": {"baseline": base, "what_ifs": names},
        **answer(tables, found),
        "findings": [{"subject": c.subject, "text": c.text, "kind": c.kind, "section": c.section,
                      "verdict": c.verdict, "scope": c.scope} for c in ranked(found)],
        "tables": {name: _json_rows(tables[name]) for name in PAGE_TABLES if name in tables},
        "csv": sorted(tables),
        "paired": bool(tables["effects"]["paired"].all()) if "effects" in tables else None,
        "decks": {side: comparison.ruleset(side).deck_in_effect() for side in (BASELINE, WHAT_IF)},
        # the declared cards each what-if plays, as the answer names them ("draw_three (2 per colour)")
        "cards": [declared_cards.labels(comparison.ruleset(f"{WHAT_IF}_{i + 1}"))
                  for i in range(len(comparison.what_ifs))],
        "spec": comparison.spec(),
        "notes": too_few_games(tables) + charts_left_out(tables),   # what the games were too few for
    }
    return result, tables


def answer(tables: dict, found: list) -> dict[str, Any]:
    """What the page opens with, as the report does: one verdict sentence per what-if (the rule-level
    verdict claims) and the scorecard picture (:mod:`unosim.reporting.scorecard`)."""
    from ..reporting.scorecard import comparisons, scorecard_html
    card, verdicts = tables.get("scorecard"), tables.get("verdicts")
    if card is None or card.is_empty() or verdicts is None:
        return {"verdicts": [], "scorecard_html": ""}
    by_subject = {c.subject: c for c in found if c.section == "verdict" and not c.scope}
    shown = [(comp, by_subject.get(f"{comp.b} (vs {comp.a})")) for comp in comparisons(verdicts, card)]
    return {"verdicts": [{"b": comp.b, "a": comp.a, "verdict": claim.verdict, "text": claim.text}
                         for comp, claim in shown if claim is not None],
            "scorecard_html": str(scorecard_html(card, verdicts))}


def _json_rows(frame) -> list[dict[str, Any]]:
    """The rows as JSON allows them: a NaN or infinite number (an unbounded interval) becomes null."""
    return [{k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in row.items()}
            for row in frame.to_dicts()]


def chunk_size(comparison: Comparison) -> int:
    """Games per job: four jobs per cell (the page's progress steps; more jobs cost more files)."""
    return max(1, -(-comparison.games // 4))


PHONE = ".phone"   # a chart's phone layout in the page's charts: <name>.phone


def charts(tables: dict, comparison: Comparison) -> dict[str, str]:
    """The page's charts as SVG text, drawn by the report's chart code (:func:`unosim.reporting.charts.study_charts`)
    and, for the win rate by seat of any lineup, by :func:`unosim.reporting.plots.win_rate_by_position`; each also in
    its phone layout (``<name>.phone``: panels in one column, text at 10 px or more on a 390-px screen),
    which the page shows on a narrow screen."""
    from ..reporting import plots
    from ..reporting.charts import study_charts

    drawers = {c.name: c.draw for c in study_charts(tables) if c.name.startswith(PAGE_CHARTS)}
    # by seat, for any lineup (the report draws positions after the dealer, for one-policy lineups only)
    drawers["win_rate_by_seat"] = lambda: plots.win_rate_by_position(tables["win_rates"], "seat",
                                                                     f"lineup {comparison.lineup}")
    out = {name: plots.to_svg(draw()).decode("utf-8") for name, draw in drawers.items()}
    with plots.phone():
        out.update({name + PHONE: plots.to_svg(plots.pad_for_phone(draw())).decode("utf-8")
                    for name, draw in drawers.items()})
    return out
