"""Is the expert an expert everywhere? ``lookahead`` head to head against each preset and ``random``.

For each variant and opponent, a duplicate tournament (``seating="rotations"``, seed 1): at 2 players the
expert against the opponent; at N > 2 players the expert against a field of N - 1 copies of the opponent,
where its share against the field is the smallest of its head-to-head shares against the copies (the one
the claim "beats the field" rests on). Every pair is stored as it finishes (``--pairs``), so a long check
resumes where it stopped and grows by more variants or opponents; ``docs/results/expert.json`` (a results
page) is rebuilt from every stored pair, one table per variant and table size.

    python analyses/expert_check.py --variant minions --players 2 --deals 20000 \\
        --opponents by_number,keep_wilds,save_wilds,by_colour

Cost: the expert plays every game (docs/results/expert_speed.json has its games per CPU-second).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from unosim.game.policies import parse_policy
from unosim.game.rules import get_variant
from unosim.game.version import commit, machine, measured_over
from unosim.store.atomic import write_text_atomic
from unosim.strategies.tournaments import tournament
from unosim.strategies.tournaments.ladder import parse_rung

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "data" / "results" / "expert_pairs"
RESULTS = ROOT / "docs" / "results" / "expert.json"
EXPERT = "lookahead"
SEED = 1


def play_pair(variant: str, players: int, opponent: str, deals: int, n_jobs: int, expert: str = EXPERT) -> dict:
    """The expert against ``opponent`` (a field of copies at more than 2 seats): its smallest head-to-head share."""
    rung = parse_rung(variant)
    start = time.perf_counter()
    result = tournament(rung.variant, players=players, policies=[expert] + [opponent] * (players - 1), games=deals,
                        seed=SEED, rules=rung.rules or None, seating="rotations", n_jobs=n_jobs)
    rows = result.head_to_head.filter(result.head_to_head["a"] == parse_policy(expert).label).sort("ci_low").to_dicts()
    worst = rows[0]
    return {"variant": variant, "players": players, "opponent": opponent, "deals": deals, "seed": SEED,
            "expert": parse_policy(expert).label, "shares": [round(r["estimate"], 4) for r in rows],
            "estimate": worst["estimate"], "ci_low": worst["ci_low"], "ci_high": worst["ci_high"],
            "comparisons": worst["comparisons"], "seconds": round(time.perf_counter() - start, 1),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit() or "unknown",
            "machine": machine()}


def verdict(pair: dict) -> str:
    """Whether the expert beats the opponent: its share's 95 % interval above, below or around 0.5."""
    if pair["ci_low"] > 0.5:
        return "yes"
    return "no (it loses)" if pair["ci_high"] < 0.5 else "not shown"


def pair_path(folder: Path, variant: str, players: int, opponent: str, deals: int) -> Path:
    safe = variant.replace(":", "_").replace("=", "").replace(",", "_")
    return folder / f"{safe}__p{players}__{opponent}__{deals}.json"


def results_page(folder: Path) -> dict:
    pairs = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    tables = []
    for variant, players in sorted({(p["variant"], p["players"]) for p in pairs}):
        mine = sorted((p for p in pairs if (p["variant"], p["players"]) == (variant, players)),
                      key=lambda p: p["ci_low"])
        rung = parse_rung(variant)
        field = "one seat each" if players == 2 else f"the expert against {players - 1} copies of the opponent"
        rules = ", ".join(f"{k}={v}" for k, v in rung.rules.items()) or "as published"
        deck = int(get_variant(rung.variant, rung.rules or None).deck_counts().sum())
        tables.append({
            "caption": f"{rung.label}, {players} players",
            "setting": f"variant {rung.variant} ({deck}-card deck), rules {rules}, {players} players ({field}); "
                       f"single rounds, every deal under every rotation of the seats, seed {SEED}",
            "measured": measured_over(mine),
            "columns": ["opponent", "deals", "expert's share", "95 % interval", "beats it"],
            "rows": [[p["opponent"], f"{p['deals']:,}", f"{p['estimate']:.3f}",
                      f"[{p['ci_low']:.3f}, {p['ci_high']:.3f}]", verdict(p)]
                     for p in mine],
        })
    return {
        "title": "Is the expert an expert everywhere?",
        "about": ("The expert (`lookahead`, its default budget) head to head against each preset and `random`, "
                  "in duplicate tournaments: the same deals replayed under every rotation of the seats, so card "
                  "and seat luck cancel. The share is how often the expert finishes ahead of the opponent on the "
                  "same deal (at more than 2 players, ahead of each of the opponent's copies: the smallest of "
                  "those shares). \"beats it\": yes when the 95 % interval lies above 0.5, no (it loses) when below, "
                  "not shown when it holds 0.5. Rows are sorted from the "
                  "closest opponent."),
        "command": "python analyses/expert_check.py --variant V --players N --deals D --opponents A,B,...",
        "measured": measured_over(pairs) if pairs else {},
        "tables": tables,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", required=True, help="a variant with rules: classic:n_blank=0")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--opponents", required=True, help="comma-separated policy specs")
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--expert", default=EXPERT, help="the expert's policy spec (screens: lookahead(z=1.5))")
    parser.add_argument("--pairs", type=Path, default=PAIRS, help="where each finished pair is stored")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    args.pairs.mkdir(parents=True, exist_ok=True)
    for variant in args.variant:
        for opponent in args.opponents.split(","):
            path = pair_path(args.pairs, variant, args.players, opponent, args.deals)
            if path.exists():
                continue
            pair = play_pair(variant, args.players, opponent, args.deals, args.n_jobs, args.expert)
            write_text_atomic(path, json.dumps(pair, indent=1) + "\n")
            print(f"{variant}, {args.players} players, vs {opponent}: {pair['estimate']:.3f} "
                  f"[{pair['ci_low']:.3f}, {pair['ci_high']:.3f}] (all: {pair['shares']}; {pair['seconds']:.0f} s)",
                  flush=True)
            write_text_atomic(args.out, json.dumps(results_page(args.pairs), indent=1) + "\n")
    write_text_atomic(args.out, json.dumps(results_page(args.pairs), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
