"""The rule table page: every rule parameter of the rule table (``unosim.game.rule_table.PARAMETERS``:
what it does, valid values, docs section), then its default in each variant and where it does not
apply (``unosim.game.rules``)."""

from __future__ import annotations

PAGE = "reference/rule-table.md"


def _cell(rules, key: str, variant: str) -> str:
    from unosim.game.rule_table import format_value

    rs = rules.get_variant(variant)
    if not rules.applies(key, rs.family):
        return "—"
    return f"`{format_value(rs.as_dict()[key])}`"


def page() -> str:
    from unosim.game import rules

    variants = rules.variant_names()
    lines = ["# Rule table", "",
             "Every rule field of `RuleSet` with its default in each variant (— : the variant does not "
             "have it). Set any of them with `--set key=value` on the command line or "
             "`rules={...}` in Python; [the rules](../rules.md) explain each one (§3 parameters, §4 house "
             "rules), and `unosim rules VARIANT` prints the rules in effect.", "",
             "| rule | " + " | ".join(f"`{v}`" for v in variants) + " |",
             "|---|" + "---|" * len(variants)]
    for key in rules.RULE_KEYS:
        lines.append(f"| `{key}` | " + " | ".join(_cell(rules, key, v) for v in variants) + " |")
    from unosim.game import rule_table

    lines += ["", "## What each rule does", "",
              "The same table as [the rules](../rules.md) §3.1, generated from the rule table "
              "(`unosim/game/rule_table.py`), where each rule is declared once.", "",
              rule_table.markdown()]
    return "\n".join(lines) + "\n"
