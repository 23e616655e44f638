"""A tournament dataset's standings: who finished ahead of whom, read back from the dataset.

``unosim tournament`` (:mod:`unosim.strategies.tournaments`) writes ``tournament.json`` beside the
manifest: the entrants, which entrant each seat of each arrangement holds and which cell played it.
:func:`load_tournament` reads it with the dataset and computes the standings and the head-to-head
(:mod:`.standings`);
:func:`tournament_of` joins it to the standings already computed (what the report shows).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from ..game.seating import SCHEMES, Entrant

TOURNAMENT_FILE = "tournament.json"


@dataclass(frozen=True)
class TournamentResult:
    """A finished tournament: standings (one row per policy), head-to-head (one row per ordered pair)."""

    variant: str
    players: int
    games: int
    seed: int
    seating: str
    entrants: tuple[Entrant, ...]
    arrangements: dict[str, tuple[int, ...]]
    standings: pl.DataFrame
    head_to_head: pl.DataFrame
    path: Path | None
    #: arrangement -> the arrangement whose cell played its games (``seating.played_by``): the same
    #: policy spec in every seat, so the same games; None: each arrangement played its own
    played_by: dict[str, str] | None = None

    def head_to_head_matrix(self, intervals: bool = False) -> pl.DataFrame:
        """The head-to-head shares as a square table: row A, column B = share A finished ahead of B
        (``intervals``: as text in %, "50.3 [49.9, 50.7]")."""
        names = [e.name for e in self.entrants]
        table = self.head_to_head
        if intervals:   # formatted as the checked sentences print them (format(100 · value, ".1f"))
            table = table.with_columns(pl.Series("estimate", [
                f"{100 * e:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
                for e, lo, hi in table.select("estimate", "ci_low", "ci_high").iter_rows()], pl.String))
        wide = table.pivot(on="b", index="a", values="estimate")
        return (pl.DataFrame({"a": names}).join(wide, on="a", how="left")
                .select("a", *[pl.col(n) if n in wide.columns else pl.lit(None, wide.schema["a"] if intervals
                                                                          else pl.Float64).alias(n)
                               for n in names]))

    @property
    def title(self) -> str:
        return (f"{self.variant}, {self.players} players: {self.games:,} deals × "
                f"{len(self.arrangements)} arrangements" + ("" if self.seating == SCHEMES[0] else
                                                            f" by {self.seating}"))


def load_tournament(path: str | Path) -> TournamentResult:
    """The standings of a tournament dataset (verified like any dataset by ``open_dataset``)."""
    from ..store.reader import open_dataset
    from . import standings as st
    ds = open_dataset(path)
    desc = _description(ds.path)
    entrants = tuple(Entrant(e["name"], e["spec"]) for e in desc["entrants"])
    arrangements = {k: tuple(v) for k, v in desc["arrangements"].items()}
    games = st.games_from_tables(ds.seats, ds.rounds, arrangements, desc.get("played_by"))
    ahead, comparisons = st.pairwise(games, len(entrants))
    return _result(desc, ds.path, st.standings(games, ahead, entrants, desc["seed"]),
                   st.head_to_head(ahead, comparisons, entrants))


def tournament_of(path: str | Path, standings: pl.DataFrame, head_to_head: pl.DataFrame) -> TournamentResult:
    """The tournament of the dataset at ``path`` with its standings and head-to-head as already computed
    (the analysis tables ``standings`` and ``head_to_head``): reads ``tournament.json``, computes nothing."""
    return _result(_description(Path(path)), Path(path), standings, head_to_head)


def _description(root: Path) -> dict:
    from ..store.layout import DatasetError
    try:
        return json.loads((root / TOURNAMENT_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"{root} is a study dataset but not a tournament (no {TOURNAMENT_FILE}); "
                           f"`unosim tournament` writes one") from None


def _result(desc: dict, path: Path, standings: pl.DataFrame, head_to_head: pl.DataFrame) -> TournamentResult:
    return TournamentResult(variant=desc["variant"], players=desc["players"], games=desc["games"],
                            seed=desc["seed"], seating=desc.get("seating", SCHEMES[0]),
                            entrants=tuple(Entrant(e["name"], e["spec"]) for e in desc["entrants"]),
                            arrangements={k: tuple(v) for k, v in desc["arrangements"].items()},
                            standings=standings, head_to_head=head_to_head, path=path,
                            played_by=desc.get("played_by"))
