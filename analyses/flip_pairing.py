"""Which UNO Flip results depend on the pairing of faces (docs/rules.md §6 F1): the winner's points, the
first seat's edge and the round's length under each pairing, by player count; and the expert's share of
wins against ``random`` seats, which depends on what the backs tell it (§2.6.6).

    python analyses/flip_pairing.py --games 100000 --expert-games 10000 --players 2,4 [--lineup random]

Single rounds of ``flip`` under every pairing of :func:`unosim.game.flip_pairing.names`, each pairing with
its own seed (independent samples); the differences against the default pairing with their z-scores
(difference over the standard error of the difference). Writes ``docs/results/flip_pairing.json`` (or ``--out``).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import polars as pl

from unosim.game import flip_pairing
from unosim.game.version import measured_since
from unosim.play.simulate import simulate
from unosim.store.atomic import write_text_atomic

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "results" / "flip_pairing.json"


def measure(players: int, pairing: str, games: int, seed: int, lineup: str) -> dict:
    """Per-round figures of one cell: mean and standard error of the winner's points and of the turns,
    and the first seat's share of the won rounds."""
    rounds = simulate("flip", players=players, games=games, seed=seed, lineup=lineup,
                      rules={"match_mode": "single_round", "flip_pairing": pairing}).rounds
    won = rounds.filter(pl.col("winner_seat") >= 0)
    n = won.height
    points, turns = won["points"].cast(pl.Float64), rounds["n_turns"].cast(pl.Float64)
    first = (won["winner_seat"] == won["first_seat"]).mean()
    return {"rounds": rounds.height, "won": n,
            "points": (points.mean(), points.std() / math.sqrt(n)),
            "turns": (turns.mean(), turns.std() / math.sqrt(rounds.height)),
            "first": (first, math.sqrt(first * (1 - first) / n)),
            "flips": rounds["flips"].cast(pl.Float64).mean()}


def expert_share(players: int, pairing: str, games: int, seed: int) -> tuple[float, float]:
    """The share of single rounds won by a ``lookahead`` seat (default budget) against ``random`` seats,
    with its standard error."""
    seats = simulate("flip", players=players, games=games, seed=seed, lineup="lookahead,random*",
                     rules={"match_mode": "single_round", "flip_pairing": pairing}).seats
    share = seats.filter(pl.col("seat") == 0)["won"].cast(pl.Float64).mean()
    return share, math.sqrt(share * (1 - share) / games)


def expert_table(player_counts: list[int], games: int) -> dict:
    rows = []
    for players in player_counts:
        shares = {name: expert_share(players, name, games, seed)
                  for seed, name in enumerate(flip_pairing.names(), start=1)}
        base = shares[flip_pairing.DEFAULT]
        rows += [[players, name, f"{share[0]:.4f} ± {share[1]:.4f}",
                  f"{share[0] - base[0]:+.4f} (z = {z(share, base):.1f})" if name != flip_pairing.DEFAULT else ""]
                 for name, share in shares.items()]
    return {"caption": "the expert against random seats",
            "setting": f"variant flip, rules as published; seat 0 `lookahead` (default budget), every other seat "
                       f"`random`; single rounds, {games:,} per pairing and player count, seeds 1, 2, … by pairing",
            "columns": ["players", "pairing", "expert's share of wins", "vs shared_backs"], "rows": rows}


def z(a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - b[0]) / math.hypot(a[1], b[1])


def table(players: int, cells: dict[str, dict], games: int, lineup: str) -> dict:
    base = cells[flip_pairing.DEFAULT]
    rows = []
    for name, cell in cells.items():
        versus = name != flip_pairing.DEFAULT
        rows.append([
            name, f"{cell['won']:,}",
            f"{cell['points'][0]:.2f} ± {cell['points'][1]:.2f}",
            f"{cell['points'][0] / base['points'][0] - 1:+.1%} (z = {z(cell['points'], base['points']):.1f})" if versus else "",
            f"{cell['first'][0]:.4f} ± {cell['first'][1]:.4f}",
            f"{z(cell['first'], base['first']):+.1f}" if versus else "",
            f"{cell['turns'][0]:.2f} ± {cell['turns'][1]:.2f}",
            f"{cell['turns'][0] / base['turns'][0] - 1:+.1%} (z = {z(cell['turns'], base['turns']):.1f})" if versus else "",
            f"{cell['flips']:.2f}",
        ])
    return {"caption": f"flip, {players} players",
            "setting": f"variant flip (112 double-sided cards), rules as published, {players} players, lineup "
                       f"{lineup} at every seat; single rounds, {games:,} per pairing, seeds 1, 2, … by pairing",
            "columns": ["pairing", "won rounds", "winner's points", "vs shared_backs", "first seat's share of wins",
                        "z vs shared_backs", "turns per round", "vs shared_backs", "flips per round"],
            "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--lineup", default="random")
    parser.add_argument("--expert-games", type=int, default=10_000, help="0: no expert table")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    tables = []
    for players in (int(p) for p in args.players.split(",")):
        cells = {name: measure(players, name, args.games, seed, args.lineup)
                 for seed, name in enumerate(flip_pairing.names(), start=1)}
        tables.append(table(players, cells, args.games, args.lineup))
        print(json.dumps(tables[-1]["rows"], ensure_ascii=False))
    if args.expert_games:
        tables.append(expert_table([int(p) for p in args.players.split(",")], args.expert_games))
        print(json.dumps(tables[-1]["rows"], ensure_ascii=False))
    data = {
        "title": "Which UNO Flip results depend on the pairing of faces?",
        "about": "The maker does not publish which dark face is on the back of which light face "
                 "(docs/rules.md §6 F1). `shared_backs` is the pairing every other UNO Flip figure uses; "
                 "`transcribed` is one physical deck as transcribed card by card from one unverified public "
                 "source. A pairing changes which cards turn into which at a Flip, so the hands' points after "
                 "a Flip, the round's length and the seats' edges may all move, and so does what a player learns "
                 "from the backs of the others' cards: under `shared_backs` a back names its card, under "
                 "`transcribed` it leaves two candidates for most cards, which the expert (`lookahead`) "
                 "samples (docs/rules.md §2.6.6). The z-scores are the differences over their standard errors "
                 "(independent samples). ± is one standard error.",
        "command": f"python analyses/flip_pairing.py --games {args.games} --expert-games {args.expert_games} "
                   f"--players {args.players} --lineup {args.lineup}",
        "measured": measured_since(started),
        "tables": tables,
    }
    write_text_atomic(args.out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
