"""Fair tournaments in the duplicate format: the same deals replayed with the policies rotated.

``unosim.tournament("classic", players=4, policies=["random", "greedy_points", "keep_wilds"],
games=20_000, seed=1)`` plays ``games`` **deals**. Game ``g``'s deck stream depends only on
``(seed, g)`` (docs/protocol.md §1), so the same game index under another seat
arrangement deals the same cards and picks the same dealer: each deal is replayed under every
arrangement of :mod:`.seating`, where every policy sits in every seat equally often. Card luck and seat
luck then cancel, and what remains between the policies is their play.

A tournament **is a study dataset**: it generates a study spec (a cell per arrangement, lineups
``s00``, ``s01``, ..., all cells in single rounds with common random numbers and the same seed; an
arrangement that differs from an earlier one only in which copy of a policy sits where has the same
games and no cell of its own: ``seating.played_by``) and
runs it through :func:`unosim.pipeline.runner.run_study`, so the manifest, the ledger and integrity checks,
resume after a kill, parallel jobs (``n_jobs``, a dask ``scheduler``), ``unosim analyze`` and
``unosim report`` all apply. Beside the manifest it writes ``tournament.json`` (the entrants, which
entrant each seat of each arrangement holds, and the cell that played each arrangement); the standings
are computed from the dataset (:mod:`unosim.analysis.standings`) and, with ``out``, written as CSV under
``<dataset>/tournament/``.

Decisions:

* Single rounds only: a deal is one round (a match would be a sequence of deals whose length
  depends on the play). ``rules`` may not set ``match_mode`` to anything else.
* ``k >= 2`` policies at ``N`` seats. ``k <= N``: each takes ``N // k`` seats, ``N % k`` of them one
  more (every choice of which); ``k > N``: every ``N``-subset of them takes the table in turn (see
  :mod:`.seating`; at most ``seating.MAX_ARRANGEMENTS`` arrangements). A policy given twice plays
  against a copy of itself. ``seating="rotations"`` replays each deal fewer times (for slow policies
  such as ``lookahead``); the default ``"permutations"`` also balances who sits beside whom.
* Without ``out`` the dataset lives in a temporary directory that is deleted once the standings are
  computed (``result.path`` is then None).
"""

from __future__ import annotations

import dataclasses
import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...game import seating
from ...game.seating import Entrant, parse_entries
from ...store.atomic import write_text_atomic
from .python_policies import has_python_policy, reference_tournament

if TYPE_CHECKING:   # the standings are analysis (scipy, numba): loaded when a tournament is read
    from ...analysis.tournament import TournamentResult

TABLE_DIR = "tournament"
FORMAT = 1
MODE = "single_round"


def tournament(variant: str, *, players: int, policies, games: int, seed: int, rules: dict | None = None,
               out: str | Path | None = None, name: str | None = None, n_jobs: int = 1,
               chunk_size: int | None = None, scheduler: str | None = None, force: bool = False,
               progress: bool | None = False, seating: str = "permutations",
               timeout: float | None = None) -> TournamentResult:
    """Play a duplicate tournament of ``policies`` and return its standings.

    ``policies``: a list of policy specs (``["random", "greedy_points", "random(p_draw=0.3)"]``) or
    one comma-separated string. ``games``: the number of deals (each played under every arrangement).
    ``rules``: rule overrides of ``variant``. ``out``: parent directory of the dataset
    ``<out>/<name>`` (default name ``tournament_<variant>_p<players>``); None plays in a temporary
    directory. ``n_jobs`` (default 1: in this process), ``chunk_size``, ``scheduler``, ``force``,
    ``progress``: as :func:`unosim.pipeline.runner.run_study`; ``seating``: the arrangement scheme of
    :mod:`.seating` (``"permutations"`` or ``"rotations"``); a dataset of the same name holding another
    tournament is refused unless ``force``, the same tournament is resumed (or reused when complete). Bad input raises ValueError naming the value and what is valid.

    A Python policy among ``policies`` (an object with ``play(view)`` or a callable) plays the whole
    tournament in the reference engine, against any built-in policy but ``lookahead``
    (:mod:`.python_policies`); ``progress`` then shows the games played, and ``timeout`` (seconds; None:
    none) stops it with a TimeoutError. The compiled engine's tournament takes no ``timeout``.
    """
    from ...analysis.tournament import load_tournament
    from ...pipeline.runner import run_study
    policies = parse_entries(policies)   # the door: parsed once, passed inward as PolicySpecs
    if has_python_policy(policies):
        return _python_tournament(variant, players, policies, games, seed, rules, seating, bool(progress), timeout,
                                  out=out, n_jobs=n_jobs, chunk_size=chunk_size, scheduler=scheduler)
    if timeout is not None:
        raise ValueError(f"timeout={timeout!r}: only a tournament with a Python policy takes a timeout (the compiled "
                         f"engine's is a study: interrupt it with Ctrl-C and resume it); valid is None")
    study, entrant_list, arrangement_map = build_study(variant, players, policies, games, seed, rules,
                                                       name or default_name(variant, players), seating)
    if out is None:
        with tempfile.TemporaryDirectory(prefix="unosim-tournament-") as tmp:
            summary = run_study(study, tmp, n_jobs=n_jobs, chunk_size=chunk_size, scheduler=scheduler,
                                progress=progress)
            _write_description(summary.path, variant, players, games, seed, seating, entrant_list, arrangement_map)
            result = load_tournament(summary.path)
        return dataclasses.replace(result, path=None)
    summary = run_study(study, out, n_jobs=n_jobs, chunk_size=chunk_size, scheduler=scheduler, force=force,
                        progress=progress)
    _write_description(summary.path, variant, players, games, seed, seating, entrant_list, arrangement_map)
    result = load_tournament(summary.path)
    write_tables(result)
    return result


def _python_tournament(variant, players, policies, games, seed, rules, scheme, progress, timeout,
                       **engine) -> TournamentResult:
    """:func:`tournament` with a Python policy: played in memory by the reference engine."""
    wanted = {"out": None, "n_jobs": 1, "chunk_size": None, "scheduler": None}
    for key, value in engine.items():
        if value != wanted[key]:
            raise ValueError(f"{key}={value!r}: a tournament with a Python policy is played in this process by the "
                             f"reference engine and writes no dataset; valid is {key}={wanted[key]!r}")
    return reference_tournament(variant, players, policies, games, seed, rules, scheme, progress=progress,
                                timeout=timeout)[0]


def default_name(variant: str, players: int) -> str:
    return f"tournament_{variant}_p{players}"


def build_study(variant: str, players: int, policies: tuple, games: int, seed: int, rules: dict | None, name: str,
                scheme: str = seating.SCHEMES[0]):
    """The study spec of a tournament (validated) of the parsed ``policies`` (:func:`seating.parse_entries`),
    its entrants and arrangements by lineup name."""
    from ...pipeline.study import parse_study
    players, games, seed, overrides, ruleset = seating.check_tournament(variant, players, games, seed, rules, scheme)
    entrant_list = seating.entrants(policies, players, scheme)
    arrangement_map = seating.arrangement_names(seating.arrangements(len(entrant_list), players, scheme))
    played = [lu for lu, by in seating.played_by(arrangement_map, entrant_list).items() if lu == by]
    vname = f"{variant}_rules" if overrides else variant
    spec: dict[str, Any] = {
        "study": {"name": name, "seed": seed, "games": games, "mode": MODE, "common_random_numbers": True,
                  "description": f"duplicate tournament: {', '.join(e.name for e in entrant_list)}"},
        "lineups": {lu: ",".join(entrant_list[e].spec for e in arrangement_map[lu]) for lu in played},
        "grid": [{"variants": [vname], "players": [players], "lineups": played}],
    }
    if overrides:
        spec["variants"] = {vname: {"base": variant, "rules": overrides}}
    return parse_study(spec, source="tournament"), entrant_list, arrangement_map


def _write_description(root: Path, variant: str, players: int, games: int, seed: int, scheme: str,
                       entrant_list: tuple[Entrant, ...], arrangement_map: dict[str, tuple[int, ...]]) -> None:
    text = json.dumps({"format": FORMAT, "variant": variant, "players": players, "games": games, "seed": seed,
                       "seating": scheme, "entrants": [{"name": e.name, "spec": e.spec} for e in entrant_list],
                       "arrangements": {k: list(v) for k, v in arrangement_map.items()},
                       "played_by": seating.played_by(arrangement_map, entrant_list)}, indent=2)
    from ...analysis.tournament import TOURNAMENT_FILE
    write_text_atomic(root / TOURNAMENT_FILE, text + "\n")


def write_tables(result: TournamentResult) -> list[Path]:
    """standings.csv, head_to_head.csv and tournament.png under ``<dataset>/tournament/`` (atomic)."""
    from ...reporting.plots import to_png
    from ...reporting.tournament_chart import result_chart
    from ...store.atomic import write_bytes_atomic
    folder = result.path / TABLE_DIR
    written = []
    for stem, frame in (("standings", result.standings), ("head_to_head", result.head_to_head)):
        path = folder / f"{stem}.csv"
        write_text_atomic(path, frame.write_csv())
        written.append(path)
    png = folder / "tournament.png"
    write_bytes_atomic(png, to_png(result_chart(result), dpi=96))
    written.append(png)
    return written
