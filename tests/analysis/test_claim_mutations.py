"""The checker reads the sentence: the text of honest claims, edited the way a wrong sentence would read
(a direction word of the other sign, another lineup, table size or variant, a changed number — in the
text alone or in the text and its recorded number alike), is rejected every time (issue 43: ≥ 1,000
mutations, 100 %)."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
from claim_tables import as_csv, table_sets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unosim.analysis.checker import check_claims
from unosim.analysis.claims import Claim
from unosim.analysis.findings import claims

MUTATIONS = 1000
#: direction words and their other sign
OPPOSITES = [("longer", "shorter"), ("more", "fewer"), ("more", "less"), ("raises", "cuts"), ("larger", "smaller"),
             ("wider", "narrower"), ("most", "least")]
_PLAYERS = re.compile(r"\b(\d+)p\b|\bat (\d+) players\b|\((\d+) players\b")


def _names(tables, columns) -> list[str]:
    return sorted({str(v) for t in tables.values() for c in columns if c in t.columns for v in t[c].drop_nulls()})


def mutations(claim: Claim, tables, rng: np.random.Generator) -> list[Claim]:
    """Every kind of edit that applies to ``claim`` (each a claim whose text differs from the honest one)."""
    text, out = claim.text, []

    def edit(new_text: str, **fields) -> None:
        if new_text != text:
            out.append(dataclasses.replace(claim, text=new_text, **fields))

    for a, b in OPPOSITES:
        for word, other in ((a, b), (b, a)):
            if re.search(rf"\b{word}\b", text):
                edit(re.sub(rf"\b{word}\b", other, text, count=1))
    found = _PLAYERS.search(text)
    if found:
        group = next(i for i, g in enumerate(found.groups(), 1) if g)
        players = int(found.group(group))
        other = players + int(rng.integers(1, 4))
        edit(text[:found.start(group)] + str(other) + text[found.end(group):])
    lineups = _names(tables, ("lineup",))
    found = re.search(r"\blineup ([A-Za-z0-9_]+)", text)
    if found and len(lineups) > 1:
        other = next(x for x in rng.permutation(lineups) if x != found.group(1))
        edit(text[:found.start(1)] + str(other) + text[found.end(1):])
    if "all-random players" in text:
        edit(text.replace("all-random players", "lineup greedy_first", 1))
    variants = _names(tables, ("variant",))
    said = [v for v in variants if re.search(rf"\b{re.escape(v)}\b", text)]
    if said and len(variants) > 1:
        word = said[int(rng.integers(len(said)))]
        other = next(x for x in rng.permutation(variants) if x != word)
        edit(re.sub(rf"\b{re.escape(word)}\b", str(other), text, count=1))
    if claim.numbers:
        i = int(rng.integers(len(claim.numbers)))
        number = claim.numbers[i]
        where = text.find(number.text)
        digits = [k for k, ch in enumerate(number.text) if ch.isdigit()]
        if where >= 0 and digits:
            k = digits[int(rng.integers(len(digits)))]
            wrong = number.text[:k] + str((int(number.text[k]) + int(rng.integers(1, 10))) % 10) + number.text[k + 1:]
            lied = text[:where] + wrong + text[where + len(number.text):]
            edit(lied)                                                     # the text alone
            edit(lied, numbers=tuple(dataclasses.replace(n, text=wrong) if j == i else n
                                     for j, n in enumerate(claim.numbers)))   # the text and its record alike
    return out


@settings(max_examples=2, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_every_edited_sentence_is_rejected(data):
    done, kinds = 0, set()
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    while done < MUTATIONS:
        tables = as_csv(data.draw(table_sets()))
        honest = claims(tables)
        assert check_claims(tables, honest) == []
        edits = [mutations(c, tables, rng) for c in honest]
        for round_ in range(max((len(e) for e in edits), default=0)):
            # one edit of every claim that has one left, checked together: each must be named by a problem
            mutated = [e[round_] if round_ < len(e) else c for c, e in zip(honest, edits, strict=True)]
            problems = check_claims(tables, mutated)
            for claim, original in zip(mutated, honest, strict=True):
                if claim is original:
                    continue
                done += 1
                kinds.add(_kind(original, claim))
                assert any(p.endswith(f" — {claim.text!r}") for p in problems), \
                    f"accepted an edited sentence:\n  honest: {original.text}\n  edited: {claim.text}"
    assert {"words", "number"} <= kinds


def _kind(original: Claim, mutated: Claim) -> str:
    return "number" if re.sub(r"\D", "", original.text) != re.sub(r"\D", "", mutated.text) else "words"
