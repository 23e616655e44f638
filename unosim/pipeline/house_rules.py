"""A study spec for every house rule of a variant: ``unosim study new house-rules``.

The list of rules is derived from the rule registry (:mod:`unosim.game.rules`), never written out by hand:

* every on/off field of :class:`~unosim.game.rules.RuleSet` (the house-rule toggles of docs/rules.md §4:
  ``jump_in``, ``seven_o``, ``draw_until_playable``, ``voluntary_draw``, … and the spin-only ones) is
  flipped from the variant's published value;
* every other choice of a house rule with choices (:data:`unosim.game.rule_table.PARAMETERS`: the ways
  draw cards stack);
* ``mercy_limit``: switched on at the value no_mercy publishes when the variant has none, switched off
  when it has one;
* ``hand_size``: two cards fewer and two more than published (docs/rules.md §3).

A value the registry refuses for the variant (a toggle fixed in it, one that does not apply to its
family, a hand the deck cannot deal at the largest table) is left out. ``two_player_reverse_skip``
only changes anything with two active players, so its cell is run at 2 players only (and only when the
spec has 2 players), unless the variant knocks players out (then a 2-player endgame can arise at any
table size).

The spec has the variant as published (the baseline) and one named variant per alternative value, all
in one grid, so with common random numbers every cell deals the same decks as the baseline, game by
game; one ``[[comparisons]]`` entry per alternative compares it with the baseline. A rule that can
never change a game under the chosen policies is still run: the analysis reports it as identical games.

Some rules only matter when a player *chooses* something no built-in policy chooses by default:
bluffing a Wild Draw Four (``no_bluffing``), challenging one (``wd4_challenge``), drawing voluntarily
(``voluntary_draw``), keeping a playable drawn card (``force_play_drawn``). For those the spec adds the
lineup :data:`BEHAVIOUR_LINEUP`, casual players — ``random`` with the probabilities of docs/rules.md §5.1 switched on —
and says so in a comment, so that every such rule can change a game.

**Skill** (unless ``skill=False``, ``--no-skill``): the spec adds the lineup :data:`EXPERT_LINEUP` — the
expert ``lookahead`` in seat 0, ``random`` elsewhere — and its all-``random`` twin, in every cell, so
that the report's skill edge (:mod:`unosim.analysis.skill`) measures how much of each rule's game is
skill and the paired skill changes (:mod:`unosim.analysis.skill_rules`, their own Holm family) how each
rule changes it. The
expert plays far slower than ``random`` (docs/results/expert_speed.json), so its cells get their own grid with
at most :data:`SKILL_GAMES` games (the twin's cells keep the study's count; the pairs are the games both
have, the same deals by common random numbers).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..game import policies, rule_table, rules
from ..store.atomic import write_text_atomic
from .study import toml_value

DEFAULT_GAMES = 100_000
#: the expert-in-one-seat lineup of the skill cells, and their games (few: the expert's speed is in
#: docs/results/expert_speed.json)
EXPERT_LINEUP = ("expert", "lookahead,random*")
SKILL_GAMES = 5_000
HAND_SIZE_STEP = 2
#: rules that change a game only through a choice, and the policy parameter that makes the choice (the
#: rule table's ``behaviour``)
BEHAVIOURS = {r.name: r.behaviour for r in rule_table.PARAMETERS if r.behaviour}
#: the lineup that exercises them, casual players as people play: every seat picks any legal card and
#: sometimes keeps a playable drawn card, draws instead of playing, bluffs or challenges (the demo's too)
BEHAVIOUR_LINEUP = ("casual", "random(p_draw=0.1,p_bluff=0.1,p_challenge=0.1,p_keep_drawn=0.3)")


@dataclass(frozen=True)
class Alternative:
    """One cell of the house-rule study: ``name`` = the baseline with ``rule`` set to ``value``."""

    name: str
    rule: str
    value: Any
    two_players_only: bool = False


def toggle_fields() -> list[str]:
    """The on/off rules of the registry: every boolean field of RuleSet."""
    return [f.name for f in fields(rules.RuleSet) if f.type in ("bool", bool)]


def candidate_values(baseline: rules.RuleSet) -> list[tuple[str, Any]]:
    """(rule, value) pairs that differ from ``baseline``, before checking them against the registry."""
    out: list[tuple[str, Any]] = [(r.name, choice) for r in rule_table.PARAMETERS if r.group == "house"
                                  and r.widget == "choice" for choice in r.choices
                                  if choice != getattr(baseline, r.name)]
    out += [(name, not getattr(baseline, name)) for name in toggle_fields()]
    published_mercy = rules.get_variant("no_mercy").mercy_limit
    out.append(("mercy_limit", None if baseline.mercy_limit is not None else published_mercy))
    out += [("hand_size", baseline.hand_size - HAND_SIZE_STEP), ("hand_size", baseline.hand_size + HAND_SIZE_STEP)]
    return out


def alternatives(variant: str, players: list[int]) -> list[Alternative]:
    """Every valid alternative value of every house rule of ``variant`` at these player counts."""
    baseline = rules.get_variant(variant)
    out = []
    for rule, value in candidate_values(baseline):
        try:
            ruleset = rules.get_variant(variant, {rule: value})
            for n in players:
                ruleset.check_players(n)
        except ValueError:
            continue  # fixed in the variant, not of its family, or not dealable: the registry says no
        two_only = rule_table.BY_NAME[rule].two_active_seats and baseline.mercy_limit is None
        if two_only and 2 not in players:
            continue
        out.append(Alternative(_cell_name(rule, value), rule, value, two_only))
    return out


def _cell_name(rule: str, value: Any) -> str:
    if value is True:
        return rule
    if value is False:
        return f"no_{rule}"
    if value is None:
        return f"{rule}_off"
    return f"{rule}_{value}"


def house_rules_spec(variant: str, players: list[int], games: int = DEFAULT_GAMES,
                     lineups: list[str] | None = None, seed: int = 8, name: str | None = None,
                     skill: bool = True) -> str:
    """The TOML text of the study (validated by :func:`unosim.pipeline.study.parse_study` before it is returned);
    ``skill``: add the expert lineup and its all-random twin (module docstring)."""
    if variant not in rules.variant_names():
        raise ValueError(f"unknown variant {variant!r}: valid variants are {rules.variant_names()}")
    baseline = rules.get_variant(variant)
    for n in players:
        baseline.check_players(n)
    if games < 1:
        raise ValueError(f"games={games} must be at least 1")
    lineups = lineups or ["random"]
    parsed = [policies.parse_lineup(spec) for spec in lineups]
    names = {lu.name: lu.text for lu in parsed}
    predefined = {lu.name for lu in parsed if lu.builtin} | {"random"}
    alts = alternatives(variant, players)
    behaviour = sorted({a.name for a in alts if a.rule in BEHAVIOURS})
    if behaviour and BEHAVIOUR_LINEUP[0] not in names:
        names[BEHAVIOUR_LINEUP[0]] = BEHAVIOUR_LINEUP[1]
    if skill:
        names.setdefault("random", "random")   # the expert's all-random twin
    name = name or f"house_rules_{variant}"
    lines = [
        f"# Every house rule of {variant} against the variant as published: one cell per alternative value,",
        "# derived from the rule registry by `unosim study new house-rules`. With common random numbers every",
        "# cell deals the same decks as the baseline game by game, so each comparison is paired.",
        "# Regenerate: unosim study new house-rules " + _command(variant, players, games, lineups, seed, name, skill),
        *(["# Rules that act only through a choice no built-in policy makes by default (bluffing, challenging,",
           "# drawing voluntarily, keeping a playable drawn card): " + ", ".join(behaviour) + ".",
           f"# The lineup {BEHAVIOUR_LINEUP[0]} makes those choices (docs/rules.md §5.1)."]
          if behaviour else []),
        *([f"# Skill: the lineup {EXPERT_LINEUP[0]} ({EXPERT_LINEUP[1]}) beside its all-random twin measures how",
           "# much of each rule's game is skill (report: Skill); --no-skill leaves it out."] if skill else []),
        "[study]",
        f'name = "{name}"',
        f'description = "{variant} as published against each house rule, {_players_text(players)} players, '
        f'{games:,} games per cell, paired."',
        f"seed = {seed}",
        f"games = {games}",
        'mode = "single_round"',
        "common_random_numbers = true",
        "",
        "[variants]",
    ]
    for alt in alts:
        lines.append(f'{alt.name} = {{ base = "{variant}", rules = {{ {alt.rule} = {toml_value(alt.value)} }} }}')
    custom = {k: v for k, v in names.items() if k not in predefined}
    if skill:
        custom[EXPERT_LINEUP[0]] = EXPERT_LINEUP[1]
    if custom:
        lines += ["", "[lineups]"] + [f'{k} = "{v}"' for k, v in custom.items()]
    lineup_list = ", ".join(f'"{k}"' for k in names)
    every = [a.name for a in alts if not a.two_players_only]
    two_only = [a.name for a in alts if a.two_players_only]
    grids = [("", [variant, *every], players)] + ([("  # rules that only act with two active players",
                                                    two_only, [2])] if two_only else [])
    for comment, grid_variants, grid_players in grids:
        lines += ["", f"[[grid]]{comment}", f"variants = {toml_value(grid_variants)}",
                  f"players = {toml_value(grid_players)}", f"lineups = [{lineup_list}]"]
    if skill:
        for _, grid_variants, grid_players in grids:
            lines += ["", "[[grid]]  # the expert's cells (its all-random twin is in the grid above)",
                      f"variants = {toml_value(grid_variants)}", f"players = {toml_value(grid_players)}",
                      f'lineups = ["{EXPERT_LINEUP[0]}"]', f"games = {min(games, SKILL_GAMES)}"]
    for alt in alts:
        lines += ["", "[[comparisons]]", 'axis = "variant"', f'a = "{variant}"', f'b = "{alt.name}"']
    text = "\n".join(lines) + "\n"
    _validate(text)
    return text


def _command(variant, players, games, lineups, seed, name, skill=True) -> str:
    parts = [f"--variant {variant}", f"--players {','.join(map(str, players))}", f"--games {games}"]
    parts += [f"--lineup '{lu}'" for lu in lineups] + [f"--seed {seed}", f"--name {name}"]
    parts += [] if skill else ["--no-skill"]
    return " ".join(parts)


def _players_text(players: list[int]) -> str:
    return ", ".join(map(str, players[:-1])) + (" and " if len(players) > 1 else "") + str(players[-1])


def _validate(text: str) -> None:
    import tomllib

    from .study import parse_study
    parse_study(tomllib.loads(text), source="generated house-rule spec")


# ---- CLI: unosim study new house-rules --------------------------------------------------------------
def _players(text: str) -> list[int]:
    try:
        values = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--players {text!r}: expected integers such as 3,4") from None
    if not values:
        raise argparse.ArgumentTypeError("--players needs at least one player count")
    return values


def add_cli(study_sub) -> None:
    """Register ``study new house-rules`` on the ``unosim study`` subparsers."""
    new = study_sub.add_parser("new", help="write a new study spec (TOML) to edit and run")
    kinds = new.add_subparsers(dest="new_kind", required=True, metavar="KIND", parser_class=type(new))
    p = kinds.add_parser("house-rules", help="the variant as published against each of its house rules")
    p.add_argument("--variant", required=True, help="a registered variant (see `unosim variants`)")
    p.add_argument("--players", type=_players, required=True, help="player counts, e.g. 3,4")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"games per cell (default {DEFAULT_GAMES:,})")
    p.add_argument("--lineup", action="append", metavar="L",
                   help="a lineup (repeatable): 'greedy_points,random*' or NAME=LINEUP (default: random)")
    p.add_argument("--seed", type=int, default=8, help="the study seed (default 8)")
    p.add_argument("--name", help="the study name, i.e. its dataset directory (default house_rules_VARIANT)")
    p.add_argument("--out", help="the spec file to write (default: print it)")
    p.add_argument("--no-skill", action="store_true",
                   help=f"leave out the expert lineup ({EXPERT_LINEUP[1]}) and its all-random twin")
    p.set_defaults(run=_cmd_new_house_rules)


def _cmd_new_house_rules(args) -> None:
    text = house_rules_spec(args.variant, args.players, args.games, args.lineup, args.seed, args.name,
                            skill=not args.no_skill)
    if args.out:
        write_text_atomic(Path(args.out), text)
        print(f"wrote {args.out}: {text.count('[[comparisons]]')} house-rule cells against {args.variant}")
    else:
        print(text, end="")
