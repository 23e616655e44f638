"""UNO Flip's pairings of light and dark faces, as data (docs/rules.md §6 F1).

The maker does not publish which dark face is printed on the back of which light face, and the pairing
matters: it decides what a seat learns from the backs of the others' cards (§2.6.6) and which cards turn
into which at a Flip. So a pairing is deck data, chosen by the rule ``flip_pairing``: one TOML file in
``unosim/game/flip_pairings/`` per pairing, listing the 112 physical cards as ``[light face, dark face]``
(faces named as :func:`unosim.game.cards.card_name` prints them). Each file's comments say where it comes
from.

Pure Python (the rule table reads :func:`names` to validate the rule); :mod:`unosim.game.cards` turns a
pairing into card ids and checks each side against the rulebook's composition.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DIRECTORY = Path(__file__).with_name("flip_pairings")
#: the pairing games use unless told otherwise (every result before pairings were data used it)
DEFAULT = "shared_backs"


@dataclass(frozen=True)
class Pairing:
    """One pairing: its name (the file's stem), a one-line summary, and the physical cards."""

    name: str
    summary: str
    cards: tuple[tuple[str, str], ...]   # one (light face, dark face) per physical card

    def face_determined(self) -> bool:
        """Whether a face names its card: every face sits on one back only (both copies share it), so
        a seat seeing the backs of a hand knows the hand."""
        backs: dict[str, set[str]] = {}
        for light, dark in self.cards:
            backs.setdefault(light, set()).add(dark)
            backs.setdefault(dark, set()).add(light)
        return all(len(b) == 1 for b in backs.values())


def names() -> tuple[str, ...]:
    """Every pairing shipped, the default first."""
    stems = sorted(p.stem for p in DIRECTORY.glob("*.toml"))
    return (DEFAULT, *(s for s in stems if s != DEFAULT))


@cache
def load(name: str) -> Pairing:
    """The pairing ``name``; an unknown name is an error listing the pairings there are."""
    if name not in names():
        raise ValueError(f"unknown flip_pairing {name!r}: valid are {list(names())}")
    path = DIRECTORY / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries = data.get("cards")
    if not isinstance(entries, list) or not all(
            isinstance(e, list) and len(e) == 2 and all(isinstance(f, str) for f in e) for e in entries):
        raise ValueError(f"{path}: `cards` must be a list of [light face, dark face] pairs of card names")
    return Pairing(name, str(data.get("summary", "")), tuple((light, dark) for light, dark in entries))

