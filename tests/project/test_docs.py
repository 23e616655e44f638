"""docs/rules.md is the rule book the code, the CLI and the README cite: every cited section exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"

# every place a user or a reader of the code meets a citation
CITING = [*sorted((ROOT / "unosim").rglob("*.py")), *sorted((ROOT / "unosim" / "reporting" / "templates").glob("*")),
          *sorted((ROOT / "analyses").rglob("*.py")), *sorted((ROOT / "analyses").rglob("*.toml")),
          *sorted((ROOT / "notebooks").glob("*.py")), *sorted((ROOT / "docs").rglob("*.md")),
          ROOT / "README.md", ROOT / "data" / "README.md"]

SECTION = re.compile(r"(?<!protocol )(?<!protocol\.md )§\s*(\d+(?:\.\d+)*)")
# "protocol §3", "docs/protocol.md §6": the engines' order of play
PROTOCOL = re.compile(r"protocol(?:\.md)? §\s*(\d+)")
PROTOCOL_DOC = ROOT / "docs" / "protocol.md"
# "§6 #S2", "§6 S7", "§6 S11/S13": decisions listed in the tables of §6
DECISION = re.compile(r"§\s*6,?\s+#?([CMSN]\d+(?:/[CMSN]?\d+)*)")
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", re.MULTILINE)
DECISION_ROW = re.compile(r"^\| ([CMSN]\d+) \|", re.MULTILINE)


def _headings() -> set[str]:
    return set(HEADING.findall(RULES_DOC.read_text()))


def _citations(pattern: re.Pattern) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in CITING:
        if path.is_file():
            for match in pattern.finditer(path.read_text()):
                found.setdefault(match.group(1), []).append(str(path.relative_to(ROOT)))
    return found


def test_rules_doc_has_every_top_level_section():
    assert {"1", "2", "3", "4", "5", "6", "7"} <= _headings()


def test_every_family_has_its_section_in_the_variants_chapter():
    """A new family (CONTRIBUTING's walk-through) is documented where users look for its rules: a heading
    ``### 2.N `name` — …`` of docs/rules.md §2."""
    from unosim.game.protocol import FAMILIES
    variants = re.findall(r"^### 2\.\d+ `(\w+)`", RULES_DOC.read_text(), re.MULTILINE)
    assert set(FAMILIES) <= set(variants), sorted(set(FAMILIES) - set(variants))


def test_every_cited_section_is_a_heading_of_the_rules_doc():
    headings = _headings()
    cited = _citations(SECTION)
    assert len(cited) > 30, "the citation pattern no longer finds the citations"
    missing = {section: files[:3] for section, files in cited.items() if section not in headings}
    assert not missing, f"sections cited but absent from docs/rules.md: {missing}"


def test_every_cited_protocol_section_is_a_heading_of_the_protocol_doc():
    headings = set(re.findall(r"^## (\d+)\. ", PROTOCOL_DOC.read_text(), re.MULTILINE))
    cited = _citations(PROTOCOL)
    assert len(cited) >= 5, "the protocol citation pattern no longer finds the citations"
    missing = {section: files[:3] for section, files in cited.items() if section not in headings}
    assert not missing, f"sections cited but absent from docs/protocol.md: {missing}"


def test_every_cited_decision_is_in_the_decision_tables():
    rows = set(DECISION_ROW.findall(RULES_DOC.read_text()))
    cited = _citations(DECISION)
    assert cited, "the decision pattern no longer finds the citations"
    missing = {}
    for group, files in cited.items():
        family = group[0]
        for ident in group.split("/"):
            ident = ident if ident[0].isalpha() else family + ident
            if ident not in rows:
                missing[ident] = files[:3]
    assert not missing, f"decisions cited but absent from docs/rules.md §6: {missing}"


def test_headings_are_unique():
    numbers = HEADING.findall(RULES_DOC.read_text())
    assert len(numbers) == len(set(numbers))


# spelled in pieces so that the one-off rewrite of old citations leaves this test alone
@pytest.mark.parametrize("word", ["RULES" + ".md §", "RULES" + " §", "seeds", "seed 00", "shared/"])
def test_rules_doc_cites_nothing_outside_the_repository(word):
    assert word not in RULES_DOC.read_text()


def test_code_cites_the_rules_doc_not_an_outside_file():
    """Nothing in unosim/ or analyses/ points at a rules file outside the repository."""
    outside = re.compile(r"\bRULES(\.md)?\b")
    offenders = [f"{path.relative_to(ROOT)}:{n}" for path in CITING
                 if path.is_file() and path.parts[len(ROOT.parts)] in ("unosim", "analyses")
                 for n, line in enumerate(path.read_text().splitlines(), 1) if outside.search(line)]
    assert not offenders, f"cite docs/rules.md instead: {offenders[:10]} ({len(offenders)} lines)"


def test_the_glossary_names_every_card_key():
    """Every card class a deck, a card-value table or a report names has a line in docs/glossary.md."""
    from unosim.game.cards import HAND_CLASSES
    glossary = (Path(__file__).parents[2] / "docs" / "glossary.md").read_text(encoding="utf-8")
    numbers = {f"n{i}" for i in range(10)}
    missing = [key for key in HAND_CLASSES if key not in numbers and f"| `{key}` |" not in glossary]
    assert not missing, missing
