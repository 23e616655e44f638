"""The results pages, from the JSON results files in ``docs/results/``: every figure with the date,
commit and machine it was measured on, and the command that measures it again.

A results file holds ``title``, ``about`` (markdown), ``command``, ``measured`` (``date``, ``commit``,
``machine``) and ``tables``: each a ``caption``, its ``setting`` (deck, rules, players: what the figures
apply to), ``columns`` and ``rows``, and optionally its own ``measured`` when it was measured apart.
A file of ``kind`` ``skill_index`` makes its pages by :mod:`skill_pages` (a page per variant, a chart).
"""

from __future__ import annotations

import json
from pathlib import Path

FOLDER = "results"
RESULTS = Path(__file__).parents[1] / "results"
STAMP_FIELDS = ("date", "commit", "machine")


def load(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    for where in [data.get("measured", {}), *(t.get("measured", data.get("measured", {})) for t in data["tables"])]:
        missing = [f for f in STAMP_FIELDS if not where.get(f)]
        if missing:
            raise ValueError(f"{path.name}: a table has no {', '.join(missing)}: every figure names the date, "
                             f"commit and machine it was measured on")
    for table in data["tables"]:
        if any(len(row) != len(table["columns"]) for row in table["rows"]):
            raise ValueError(f"{path.name}: table {table['caption']!r} has a row of the wrong width")
    return data


def stamp(measured: dict) -> str:
    return (f"Measured {measured['date']} at commit `{measured['commit']}` on {measured['machine']}.")


def render(data: dict) -> str:
    lines = [f"# {data['title']}", "", data["about"], "", f"Measure again: `{data['command']}`.", "",
             stamp(data["measured"]), ""]
    for table in data["tables"]:
        lines += [f"## {table['caption']}", "", f"*{table['setting']}*"]
        if "measured" in table:
            lines += ["", stamp(table["measured"])]
        lines += ["", "| " + " | ".join(table["columns"]) + " |", "|" + "---|" * len(table["columns"])]
        lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in table["rows"]]
        if table.get("note"):
            lines += ["", table["note"]]
        lines.append("")
    return "\n".join(lines)


def pages() -> dict[str, str]:
    import skill_pages
    out = {}
    index = ["# Results", "", "Every measured figure of unosim lives in a results file (`docs/results/*.json`) "
             "with the setting it applies to (deck, rules, players) and the date, commit and machine it was "
             "measured on; these pages are generated from them. A table measured over several commits names "
             "the first and the last. `make bench` writes its figures to `data/bench-results.json`; "
             "`analyses/strength.py` writes its tables into `docs/results/strength.json` (this site's strength "
             "page); `analyses/skill_index.py` writes `docs/results/skill_index.json` (How much is skill, a page per "
             "variant); `unosim tournament` prints its standings.", "",
             "| page | measured |", "|---|---|"]
    for path in sorted(RESULTS.glob("*.json")):
        data = load(path)
        if data.get("kind") == skill_pages.KIND:   # a page per variant and a chart besides the tables
            out.update(skill_pages.pages(data, path.stem))
        else:
            out[f"{FOLDER}/{path.stem}.md"] = render(data)
        index.append(f"| [{data['title']}]({path.stem}.md) | {data['measured']['date']} |")
    out[f"{FOLDER}/index.md"] = "\n".join(index) + "\n"
    return out
