"""``python -m bench.game_hashes OUT.json [--check BASELINE.json]``: the games' fingerprint.

Plays many configurations — every family, every rule of :data:`unosim.game.rule_table.PARAMETERS` at a
value other than its default, every built-in policy and weighted preset, 2 to 6 seats — and writes a
content hash of each one's raw tables and trace. A restructure of the engine that must not change the
games compares the file written before it with the one written after (``--check``).

The hashes do not depend on where a field sits in a record: raw table columns are hashed by name in
sorted order (a column appended elsewhere is the same table), and trace events by event name rather
than code (a renumbered event is the same trace). The replay text (what tests/engine/golden/ holds) is
hashed too. The opening hands are hashed over the built-in classes; the declared cards' slots
(``opening_declared``) only where a configuration declares cards.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

from unosim.game import protocol as L
from unosim.game.cards import N_HAND_CLASSES
from unosim.game.rules import get_variant
from unosim.play.simulate import resolve, run_compiled
from unosim.play.trace import describe_events

FAMILIES = ("classic", "minions", "spin", "no_mercy", "flip")
# one value other than the default for every rule (several for the enumerations)
RULE_VALUES = {
    "hand_size": [5],
    "n_blank": [1],
    "blank_effects": [["plain_wild", "others_draw_1", "discard_colour"], ["draw_two_next", "shuffle_hands",
                                                                          "swap_hands"]],
    "deck": [{"draw_two": 12, "wild": 8}],
    "match_mode": ["lowest", "single_round"],
    "target": [150],
    "first_dealer": [1],
    "max_turns_per_round": [40],
    "max_rounds_per_match": [3],
    "p_forget_uno": [0.5, [0.9, 0.1]],
    "p_catch": [0.9],
    "uno_penalty": [4],
    "p_dumbfu_fail": [0.6],
    "dumbfu_penalty": [1],
    "spin_weights": [[1, 1, 1, 1, 1, 1, 3, 3, 1], [0, 0, 0, 0, 0, 5, 0, 1, 0]],
    "shout_weight": [[3.0, 1.0]],
    "stacking": ["same_kind", "any_draw", "escalating", "none"],
    "jump_in": [True],
    "seven_o": [True],
    "draw_until_playable": [True],
    "force_play_drawn": [True],
    "voluntary_draw": [False],
    "wd4_challenge": [False],
    "no_bluffing": [True],
    "two_player_reverse_skip": [False],
    "final_card_effects": [False],
    "mercy_limit": [14, None],
    "spin_first_card_spins": [True],
    "spin_continue_after_winner": [False],
}
# rules added after the baseline was taken: their configurations come after every earlier one, so an
# earlier configuration keeps its name and seed
LATER_RULE_VALUES = {
    "flip_pairing": ["transcribed"],
    "cards": [["draw_three:coloured,effects=draw:3,points=20,count=2",
               "everyone:wild,effects=wild+others_draw:1,points=40,count=4"]],
}
POLICIES = ("random", "random(p_bluff=0.5,p_challenge=0.5,p_draw=0.2,p_keep_drawn=0.5)", "greedy_points",
            "keep_wilds", "weighted", "by_colour", "by_number", "high_card_out", "save_wilds", "punisher",
            "colour_counter", "weighted(w_points=1,w_bluff=2,w_accept=-1,w_target_order=1)")
SEARCH = ("lookahead(rollouts=3,horizon=3)", "lookahead(rollouts=4,horizon=0,rollout=colour_counter,prune=0)",
          "lookahead(rollouts=2,horizon=5,anchor=random,z=0.5)")


def _per_seat(value, players):
    """A two-seat example of a per-seat rule, stretched to ``players`` seats."""
    return [value[i % len(value)] for i in range(players)] if isinstance(value, list) else value


def configurations() -> list[dict]:
    """Every configuration, as keyword arguments of :func:`play` plus a name."""
    out = []
    players_cycle = (2, 3, 4, 5, 6)
    k = 0
    for family in FAMILIES:
        for name, values in RULE_VALUES.items():
            for value in values:
                players = players_cycle[k % 5] if name != "two_player_reverse_skip" else 2
                if name in ("shout_weight", "p_forget_uno"):
                    value = _per_seat(value, players)
                lineup = ",".join(POLICIES[(k + i) % len(POLICIES)] for i in range(players))
                out.append(dict(variant=family, players=players, lineup=lineup, rules={name: value},
                                seed=100 + k, games=12))
                k += 1
        for players in players_cycle:
            for policy in POLICIES:
                out.append(dict(variant=family, players=players, lineup=policy, rules={}, seed=7 + k, games=8))
                k += 1
            out.append(dict(variant=family, players=players,
                            lineup=",".join(["lookahead(rollouts=3,horizon=3)"] + ["random"] * (players - 1)),
                            rules={"match_mode": "single_round"}, seed=k, games=3))
            k += 1
        for search in SEARCH:
            out.append(dict(variant=family, players=3, lineup=f"{search},keep_wilds,colour_counter",
                            rules={"match_mode": "single_round", "p_forget_uno": 0.3}, seed=k, games=2))
            k += 1
    # house rules together (each one's step in the same turn)
    for family in ("classic", "minions", "spin", "flip"):
        for players in (2, 4, 6):
            out.append(dict(variant=family, players=players, lineup=",".join(("random", "greedy_points", "punisher", "weighted", "keep_wilds", "colour_counter")[:players]),
                            rules={"jump_in": True, "seven_o": True, "mercy_limit": 16,
                                   "draw_until_playable": True, "p_forget_uno": 0.4,
                                   **({"stacking": "any_draw"} if family != "flip" else {})},
                            seed=k, games=10))
            k += 1
    for family in FAMILIES:
        for name, values in LATER_RULE_VALUES.items():
            for value in values:
                players = players_cycle[k % 5]
                lineup = ",".join(POLICIES[(k + i) % len(POLICIES)] for i in range(players))
                out.append(dict(variant=family, players=players, lineup=lineup, rules={name: value},
                                seed=100 + k, games=12))
                k += 1
    for i, config in enumerate(out):
        config["name"] = f"{i:04d} {config['variant']} {config['players']}p {config['lineup']} {config['rules']}"
    return out


def _hash_table(array: np.ndarray, columns: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for name in sorted(columns):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(array[:, columns.index(name)]).astype(np.int64).tobytes())
    return digest.hexdigest()[:20]


def _hash_matrix(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:20]


def _hash_events(events: np.ndarray) -> str:
    digest = hashlib.sha256()
    for code, seat, a, b in events.tolist():
        digest.update(f"{L.EV_NAMES[code]} {seat} {a} {b};".encode())
    return digest.hexdigest()[:20]


def _hash_text(events: np.ndarray) -> str:
    try:
        return hashlib.sha256(describe_events(events).encode()).hexdigest()[:20]
    except IndexError as error:   # a declared card (rule `cards`) the replay text cannot name yet
        return f"no text: {error}"


def play(config: dict) -> dict:
    """The hashes of one configuration: raw rounds, seats, opening hands, matches; the trace's events
    and replay text (a traced call of the same games)."""
    rs, specs = resolve(config["variant"], config["players"], config["lineup"], config["rules"])
    raw = run_compiled(rs, config["players"], specs, config["seed"], 0, config["games"])
    traced = run_compiled(rs, config["players"], specs, config["seed"], 0, config["games"], trace=True)
    declared = raw.opening[:, N_HAND_CLASSES:]
    return {
        "rounds": _hash_table(raw.rounds, L.ROUND_COLUMNS),
        "seats": _hash_table(raw.seats, L.SEAT_COLUMNS),
        "opening": _hash_matrix(raw.opening[:, :N_HAND_CLASSES]),
        "matches": _hash_table(raw.matches, L.MATCH_COLUMNS),
        "traced_rounds": _hash_table(traced.rounds, L.ROUND_COLUMNS),
        "events": _hash_events(traced.events),
        "text": _hash_text(traced.events),
        "n_rounds": len(raw.rounds),
        **({"opening_declared": _hash_matrix(declared)} if declared.any() else {}),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="where to write the hashes (JSON)")
    parser.add_argument("--check", help="a file written before: exit 1 unless every hash is equal")
    args = parser.parse_args(argv)
    hashes, skipped = {}, []
    for config in configurations():
        try:
            get_variant(config["variant"], config["rules"]).check_players(config["players"])
        except ValueError as error:   # a rule the family fixes or does not have; too many seats
            skipped.append(f"{config['name']}: {error}")
            continue
        hashes[config["name"]] = play(config)
    with open(args.out, "w") as f:
        json.dump({"configurations": hashes, "skipped": skipped}, f, indent=1, sort_keys=True)
    print(f"{len(hashes)} configurations hashed, {len(skipped)} skipped (not valid for their family)")
    if args.check:
        with open(args.check) as f:
            before = json.load(f)["configurations"]
        differ = [name for name in sorted(before) if before[name] != hashes.get(name)]
        for name in differ[:20]:
            print(f"DIFFERS: {name}\n  before {before[name]}\n  now    {hashes.get(name)}")
        print(f"{len(differ)} of {len(before)} configurations differ" if differ else
              f"all {len(before)} configurations equal ({len(set(hashes) - set(before))} new, without a baseline)")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
