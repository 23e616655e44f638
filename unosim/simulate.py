"""``simulate``: validate, run the compiled engine, return tidy polars tables (in memory, no IO)."""

from __future__ import annotations

import numpy as np
import polars as pl

from . import cards
from .engine import layout as L
from .engine.layout import RawResults
from .engine.round import run_games
from .engine.state import ST_VIOLATIONS, TRACE_CAPACITY, new_game
from .policies import PolicySpec, lineup_arrays, make_lineup
from .rules import SPIN_OUTCOMES, RuleSet, get_variant

MAX_SEED = 2**63 - 1


def resolve(variant, players, lineup, rules) -> tuple[RuleSet, tuple[PolicySpec, ...]]:
    """Validated (RuleSet, lineup) for a call; raises ValueError naming any bad input."""
    rs = get_variant(variant, rules)
    rs.check_players(players)
    return rs, make_lineup(lineup, players)


def check_games(games: int, seed: int, first_game: int = 0) -> None:
    for name, value, lo in (("games", games, 1), ("first_game", first_game, 0), ("seed", seed, 0)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < lo:
            raise ValueError(f"{name}={value!r} must be an integer ≥ {lo}")
    if seed > MAX_SEED or first_game + games > MAX_SEED:
        raise ValueError(f"seed and game indices must stay below 2**63 (got seed={seed})")


def run_compiled(rs: RuleSet, players: int, lineup: tuple[PolicySpec, ...], seed: int, first_game: int,
                 games: int, *, deck_order=None, trace: bool = False, audit: bool = False) -> RawResults:
    """Play games with the numba engine, growing the output buffers as matches need.

    ``audit`` (tests) makes the kernel check its invariants after every turn; a violation raises.
    """
    ir, fr, deck = rs.compile(players)
    ir[L.IR_AUDIT] = audit
    pol, pp = lineup_arrays(lineup)
    order = np.asarray(deck_order if deck_order is not None else deck[:0], np.int64)
    if deck_order is not None and sorted(order.tolist()) != sorted(deck.tolist()):
        raise ValueError("deck_order must be a permutation of the variant's deck")
    single = rs.match_mode == "single_round"
    chunks, done = [], 0
    batch = games
    while done < games:
        todo = min(batch, games - done)
        cap = todo if single else todo * 12 + rs.max_rounds_per_match
        block = new_game(ir, fr, pol, pp, trace)
        g = block[0]
        # the kernel writes every cell of the rounds, seats and matches rows it reports; opening hands
        # are counted up from zero
        rounds = np.empty((cap, L.RC_SIZE), np.int32)
        seats = np.empty((cap * players, L.SC_SIZE), np.int32)
        opening = np.zeros((cap * players, cards.N_HAND_CLASSES), np.int8)
        matches = np.empty((todo, L.MC_SIZE), np.int32)
        n_done, n_rounds, n_events = run_games(
            g, deck, seed, first_game + done, todo, order, rounds, seats, opening, matches)
        if trace and n_events > TRACE_CAPACITY:   # too many events: trace fewer games per call
            if todo == 1:
                raise ValueError(f"game {first_game + done} emits {n_events} trace events, more than "
                                 f"{TRACE_CAPACITY}; trace it with fewer rounds")
            batch = max(1, todo // 2)
            continue
        if audit and g["st"][ST_VIOLATIONS]:
            raise AssertionError(f"engine invariant violated {g['st'][ST_VIOLATIONS]} time(s) in "
                                 f"games {first_game + done}..{first_game + done + todo - 1}")
        events = g["ev"][:n_events].copy() if trace else np.zeros((0, 4), np.int32)
        chunks.append((rounds[:n_rounds], seats[:n_rounds * players], opening[:n_rounds * players],
                       matches[:n_done], events))
        done += n_done
    return RawResults(*(np.concatenate(parts) for parts in zip(*chunks, strict=True)))


_END = pl.Enum(list(L.END_NAMES))


def _labels(names, dtype, codes: np.ndarray) -> pl.Series:
    """names[codes] as a polars column, gathered in Rust (no Python string per row)."""
    return pl.Series(list(names), dtype=dtype).gather(codes.astype(np.int64))
_MATCH_END = pl.Enum(list(L.MATCH_END_NAMES))


def _quality_columns(cols: dict[str, np.ndarray]) -> dict[str, pl.Series]:
    """The game-quality measures (``unosim.engine.quality``) in compact dtypes: ``winner_max_deficit``
    and ``max_hand`` never exceed the largest deck (168 cards); ``lead_changes`` is bounded by the turns
    of the round, so it keeps the turn counter's width. No winner: ``winner_max_deficit`` is null."""
    deficit = cols["winner_max_deficit"]
    return {
        "lead_changes": pl.Series("lead_changes", cols["lead_changes"]),
        "winner_max_deficit": pl.Series("winner_max_deficit", deficit.astype(np.int16)).set(
            pl.Series(deficit < 0), None),
        "max_hand": pl.Series("max_hand", cols["max_hand"].astype(np.int16)),
    }


class Results:
    """Results of one ``simulate`` call: polars tables ``rounds``, ``seats``, ``matches``.

    Column definitions follow RULES.md §1.13; see the README's dataset schema.
    """

    def __init__(self, raw: RawResults, rules: RuleSet, players: int, lineup: tuple[PolicySpec, ...],
                 seed: int):
        self.raw = raw
        self.rules = rules
        self.players = players
        self.lineup = lineup
        self.seed = seed
        self._frames: dict[str, pl.DataFrame] = {}

    def __repr__(self) -> str:
        return (f"Results({self.rules.name}, players={self.players}, matches={len(self.raw.matches)}, "
                f"rounds={len(self.raw.rounds)})")

    @property
    def rounds(self) -> pl.DataFrame:
        if "rounds" not in self._frames:
            r = self.raw.rounds
            cols = {name: r[:, i] for i, name in enumerate(L.ROUND_COLUMNS)}
            self._frames["rounds"] = pl.DataFrame({
                "game": cols["game"].astype(np.int64),
                "round": cols["round"].astype(np.int16),
                "players": np.full(len(r), self.players, np.int8),
                "variant": pl.repeat(self.rules.name, len(r), dtype=pl.String, eager=True),
                **{k: cols[k].astype(np.int8) for k in ("dealer_seat", "first_seat", "winner_seat")},
                "end": _labels(L.END_NAMES, _END, cols["end"]),
                **{k: cols[k] for k in ("n_turns", "n_plays", "n_draws", "n_reshuffles", "points",
                                        "dumbfu_penalties", "knockouts", "largest_stack", "swaps_7",
                                        "passes_0", "spins", "final_spins", *SPIN_OUTCOMES)},
                **_quality_columns(cols),
            })
        return self._frames["rounds"]

    @property
    def seats(self) -> pl.DataFrame:
        if "seats" not in self._frames:
            n = self.players
            r, s, o = self.raw.rounds, self.raw.seats, self.raw.opening
            seat = np.tile(np.arange(n, dtype=np.int8), len(r))
            dealer = np.repeat(r[:, L.RC_DEALER], n)
            labels = [p.label for p in self.lineup]
            frame = {
                "game": np.repeat(r[:, L.RC_GAME].astype(np.int64), n),
                "round": np.repeat(r[:, L.RC_ROUND].astype(np.int16), n),
                "players": np.full(len(seat), n, np.int8),
                "seat": seat,
                "rel_dealer": ((seat - dealer) % n).astype(np.int8),
                "policy": _labels(labels, pl.String, seat),
                "won": s[:, L.SC_WON].astype(bool),
                **{k: s[:, getattr(L, "SC_" + c)] for k, c in (
                    ("cards_left", "CARDS_LEFT"), ("points_left", "POINTS_LEFT"), ("n_drawn", "DRAWN"),
                    ("n_played", "PLAYED"))},
                "knocked_out": s[:, L.SC_KNOCKED_OUT].astype(bool),
                "knockout_turn": s[:, L.SC_KNOCKOUT_TURN],
                "wheel_gained": s[:, L.SC_WHEEL_GAINED],
                "wheel_lost": s[:, L.SC_WHEEL_LOST],
                **{f"open_{name}": o[:, i] for i, name in enumerate(cards.HAND_CLASSES)},
            }
            self._frames["seats"] = pl.DataFrame(frame)
        return self._frames["seats"]

    @property
    def matches(self) -> pl.DataFrame:
        if "matches" not in self._frames:
            m = self.raw.matches
            self._frames["matches"] = pl.DataFrame({
                "game": m[:, L.MC_GAME].astype(np.int64),
                "players": np.full(len(m), self.players, np.int8),
                "n_rounds": m[:, L.MC_ROUNDS],
                "first_dealer": m[:, L.MC_FIRST_DEALER].astype(np.int8),
                "winner_seat": m[:, L.MC_WINNER].astype(np.int8),
                "n_winners": m[:, L.MC_N_WINNERS].astype(np.int8),
                "winners_mask": m[:, L.MC_WINNERS_MASK].astype(np.int16),
                "end": _labels(L.MATCH_END_NAMES, _MATCH_END, m[:, L.MC_END]),
            })
        return self._frames["matches"]


def simulate(variant: str | RuleSet, *, players: int, games: int, seed: int, lineup="random",
             rules: dict | None = None, first_game: int = 0) -> Results:
    """Play ``games`` matches of ``variant`` with ``players`` seats and return their statistics.

    ``rules`` overrides fields of the variant (``{"n_blank": 0, "match_mode": "single_round"}``);
    ``lineup`` is one policy for every seat, one per seat, or ``"greedy_points,random*"``. Match ``g``
    (``first_game <= g < first_game + games``) depends only on ``(seed, g)``, so chunked runs
    concatenate to exactly the rows of one large run.
    """
    rs, specs = resolve(variant, players, lineup, rules)
    check_games(games, seed, first_game)
    raw = run_compiled(rs, players, specs, seed, first_game, games)
    return Results(raw, rs, players, specs, seed)
