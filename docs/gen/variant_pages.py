"""One page per variant, from the family registry (``unosim.game.families``) and the rule sets it makes:
deck by card kind, players, the rules the variant changes, fixes, lacks or alone has."""

from __future__ import annotations

from collections import Counter

FOLDER = "reference/variants"


def _deck_rows(rs) -> list[str]:
    from unosim.game import cards

    per_kind: Counter = Counter()
    points = {}
    for card in cards.deck_ids(rs.deck_counts()):
        kind = cards.KIND_NAMES[cards.KIND[card]].lower().replace("_", " ")
        per_kind[kind] += 1
        points[kind] = "face value" if cards.KIND[card] == cards.NUMBER else int(cards.POINTS[card])
    return ["| card kind | cards | points |", "|---|---|---|",
            *(f"| {kind} | {n} | {points[kind]} |" for kind, n in per_kind.items())]


def _listing(keys) -> str:
    return ", ".join(f"`{k}`" for k in keys) if keys else "none"


def variant_page(name: str) -> str:
    from unosim.game import families, rules
    from unosim.game.rule_table import format_value

    rs = rules.get_variant(name)
    spec = families.get(rs.family)
    classic = rules.get_variant("classic")
    changed = {k: v for k, v in rs.as_dict().items() if k != "family" and rules.applies(k, "classic")
               and rules.applies(k, rs.family) and v != classic.as_dict()[k]}
    lines = [f"# `{name}`", "", rules.variant_description(name) + ".", "",
             f"* **Players**: {rs.player_range[0]}–{rs.max_players()}; **deck**: {rs.deck_size} cards; "
             f"**rules key**: `{rs.key}`; **mechanism**: `{spec.mechanics}`.",
             "* **Differs from `classic` by default in**: "
             + (", ".join(f"`{k}={format_value(v)}`" for k, v in changed.items()) or "nothing") + ".",
             f"* **Fixed** (other values are refused): {_listing(spec.fixed)}.",
             f"* **Not in this variant**: {_listing(spec.not_applicable)}.",
             f"* **Rules only this variant has**: {_listing(spec.own_rules)}.",
             f"* **Round counters only this variant fills**: {_listing(spec.counters)}.", "",
             "The full rules are in [the rule book](../../rules.md) §2; `unosim rules "
             f"{name}` prints every rule in effect.", "", "## Deck", "", *_deck_rows(rs), ""]
    return "\n".join(lines)


def pages() -> dict[str, str]:
    from unosim.game import rules

    names = rules.variant_names()
    index = ["# Variants", "", "Generated from the family registry (`unosim.game.families.REGISTRY`): one "
             "page per variant `unosim variants` lists.", "", "| variant | players | description |",
             "|---|---|---|"]
    out = {}
    for name in names:
        rs = rules.get_variant(name)
        index.append(f"| [`{name}`]({name}.md) | {rs.player_range[0]}–{rs.max_players()} | "
                     f"{rules.variant_description(name)} |")
        out[f"{FOLDER}/{name}.md"] = variant_page(name)
    out[f"{FOLDER}/index.md"] = "\n".join(index) + "\n"
    return out
