"""``simulate``: validate, run the compiled engine, return tidy polars tables (in memory, no IO)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

from ..game import cards, custom_cards
from ..game import protocol as L
from ..game.checks import as_int
from ..game.policies import PolicySpec, lineup_arrays, make_lineup
from ..game.protocol import RawResults, output_buffers
from ..game.rules import RuleSet, get_variant
from ..store.columns import Column, Constant, Labels, WithNulls, polars_column

if TYPE_CHECKING:
    import polars as pl

MAX_SEED = 2**63 - 1
# A simulate() call keeps every row in memory; it refuses work whose tables would outgrow this budget
# (bytes, override with the UNOSIM_MEMORY_BUDGET environment variable). Larger runs go through a study,
# which writes chunks to disk.
DEFAULT_MEMORY_BUDGET = 4 * 2**30
# The kernel hands control back to Python after about this many turns (a fraction of a second:
# docs/results/code_choices.json), so Ctrl-C is seen between calls; a single match is never split, and the
# split never changes a result.
TURN_BUDGET = 1_000_000
GAMES_PER_CALL = 20_000
# A match-mode batch's round buffer holds this many rounds per match (a guess at a typical match) plus
# one longest match; the kernel stops starting matches when the rest of the buffer could not hold a
# longest one, so the guess sizes the buffer, never the result.
ROUNDS_PER_MATCH_GUESS = 12


def memory_budget() -> int:
    raw = os.environ.get("UNOSIM_MEMORY_BUDGET")
    if raw is None:
        return DEFAULT_MEMORY_BUDGET
    try:
        return max(1, int(raw))
    except ValueError:
        raise ValueError(f"UNOSIM_MEMORY_BUDGET={raw!r} is invalid: valid is a number of bytes") from None


def bytes_per_round(players: int) -> int:
    """Memory one round takes in a call's result: the raw rows plus the tables built from them (about
    twice the raw size; the factor 3 leaves room for the concatenation)."""
    raw = L.RC_SIZE * 8 + players * (L.SC_SIZE * 4 + L.N_OPENING)
    return 3 * raw


def resolve(variant, players, lineup, rules) -> tuple[RuleSet, tuple[PolicySpec, ...]]:
    """Validated (RuleSet, lineup) for a call; raises ValueError naming any bad input."""
    rs = get_variant(variant, rules)
    rs.check_players(players)
    return rs, make_lineup(lineup, int(players))


def check_games(games: int, seed: int, first_game: int = 0, players: int | None = None) -> tuple[int, int, int]:
    """(games, seed, first_game) as Python ints, or a ValueError naming the bad one.

    Game numbers are 0 .. 2**63 - 1 (int64 labels end to end); with ``players`` the call is also checked
    against the per-call memory budget (at least one round per game).
    """
    seed = as_int("seed", seed, 0, MAX_SEED)
    first_game = as_int("first_game", first_game, 0, MAX_SEED)
    games = as_int("games", games, 1)
    if games - 1 > MAX_SEED - first_game:
        raise ValueError(f"games={games} from first_game={first_game} is invalid: game numbers must stay "
                         f"≤ 2**63 - 1 = {MAX_SEED} (the last game would be {first_game + games - 1})")
    if players is not None:
        need = games * (bytes_per_round(players) + L.MC_SIZE * 8)
        budget = memory_budget()
        if need > budget:
            most = budget // (bytes_per_round(players) + L.MC_SIZE * 8)
            raise ValueError(
                f"games={games} is too many for one call: its tables need at least {need / 2**30:,.1f} GiB, "
                f"over the per-call memory budget of {budget / 2**30:,.1f} GiB (UNOSIM_MEMORY_BUDGET); valid "
                f"is at most {most:,} games with {players} players — split the call with first_game, or run "
                f"a study, which writes its results to disk in chunks")
    return games, seed, first_game


class CallStopped(Exception):
    """A call's ``stop`` event was set: it ended between two kernel calls, returning nothing."""


def run_compiled(rs: RuleSet, players: int, lineup: tuple[PolicySpec, ...], seed: int, first_game: int,
                 games: int, *, deck_order=None, trace: bool = False, audit: bool = False,
                 build=None, stop=None) -> RawResults:
    """Play games with the numba engine in bounded calls, growing the output as matches need.

    Each kernel call plays at most ``GAMES_PER_CALL`` games and returns after about ``TURN_BUDGET``
    turns, so Python regains control (and a pending Ctrl-C raises KeyboardInterrupt) at short
    intervals; match g depends only on (seed, g), so the split changes no result. ``audit`` (tests)
    makes the kernel check its invariants after every turn; a violation raises. ``build``
    (``unosim.engine.Build``): the engine build to play on, which must cover the call; by default the
    smallest compiled build that covers it, else the call's own (compiled first: ``unosim.engine``).
    ``stop`` (a ``threading.Event``): once set, the call raises :class:`CallStopped` before its next
    kernel call (a thread cannot be interrupted as Ctrl-C interrupts the main thread).
    """
    players, seed, first_game, games = int(players), int(seed), int(first_game), int(games)
    ir, fr, deck = rs.compile(players)
    ir[L.IR_AUDIT] = audit
    pol, pp = lineup_arrays(lineup)
    order = np.asarray(deck_order if deck_order is not None else deck[:0], np.int64)
    if deck_order is not None and sorted(order.tolist()) != sorted(deck.tolist()):
        raise ValueError("deck_order must be a permutation of the variant's deck")
    single = rs.match_mode == "single_round"
    budget = memory_budget()
    per_round = bytes_per_round(players)
    # single_round: exactly one round per game, so the kernel writes straight into the final arrays;
    # other modes grow a list of chunks, concatenated at the end
    whole = output_buffers(games, games, players) if single else None
    chunks, events, done, rows = [], [], 0, 0
    batch = GAMES_PER_CALL
    kernel = _kernel(rs, lineup, build)
    run_games, capacity = kernel.run_games, kernel.state.TRACE_CAPACITY
    block = kernel.new_game(ir, fr, pol, pp, trace)
    # terminates: every kernel call completes at least one game (its buffers hold a full match and the
    # turn budget is checked only after the first), and a traced batch too large is halved down to one
    while done < games:
        if stop is not None and stop.is_set():
            raise CallStopped(f"stopped after {done:,} of {games:,} games")
        todo = min(batch, games - done)
        g = block[0]
        g["st"][L.ST_VIOLATIONS] = 0
        if single:   # the calls fill one set of tables, from row `done` on
            rounds, seats, opening, matches = whole
            opening[done * players:(done + todo) * players] = 0   # counted up from zero (a retried traced batch counts again)
            first_row = done
        else:
            rounds, seats, opening, matches = output_buffers(todo * ROUNDS_PER_MATCH_GUESS + rs.max_rounds_per_match,
                                                             todo, players)
            first_row = 0
        n_done, n_rounds, n_events = run_games(
            g, deck, seed, first_game + done, todo, order, rounds, seats, opening, matches, first_row, TURN_BUDGET)
        if trace and n_events > capacity:   # too many events: trace fewer games per call
            if todo == 1:
                raise ValueError(f"game {first_game + done} emits {n_events} trace events, more than "
                                 f"{capacity}; trace it with fewer rounds")
            batch = max(1, todo // 2)
            continue
        if audit and g["st"][L.ST_VIOLATIONS]:
            raise AssertionError(f"engine invariant violated {g['st'][L.ST_VIOLATIONS]} time(s) in "
                                 f"games {first_game + done}..{first_game + done + n_done - 1}")
        if trace:
            events.append(g["ev"][:n_events].copy())
        if not single:
            chunks.append((_trim(rounds, n_rounds), _trim(seats, n_rounds * players),
                           _trim(opening, n_rounds * players), _trim(matches, n_done)))
        done += n_done
        rows += n_rounds
        if rows * per_round > budget and done < games:
            raise ValueError(
                f"games={games} is too many for one call: after {done:,} games the tables already hold "
                f"{rows:,} rounds, over the per-call memory budget of {budget / 2**30:,.1f} GiB "
                f"(UNOSIM_MEMORY_BUDGET); split the call with first_game, or run a study")
    return _joined(whole if single else None, chunks, events)


def _kernel(rs: RuleSet, lineup: tuple[PolicySpec, ...], build):
    """The engine build to play on: ``build`` if it covers the call, by default the smallest compiled one
    that does."""
    from .. import engine  # the compiled engine loads (and sets up its cache) on first use

    needed = engine.build_for(rs, lineup)
    if build is not None and not build.covers(needed):
        raise ValueError(f"engine build {build.key!r} cannot play this call: it needs {needed.key!r}")
    return engine.kernel(build or engine.choose(needed))


def _joined(whole, chunks: list, events: list) -> RawResults:
    """The tables of a call: the one set the calls filled (``whole``), or its chunks joined."""
    trace_rows = np.concatenate(events) if events else np.zeros((0, 4), np.int64)
    if whole is not None:
        return RawResults(*whole, trace_rows)
    if len(chunks) == 1:
        return RawResults(*chunks[0], trace_rows)
    # joined column by column, so the tables stay column-major
    return RawResults(*(np.concatenate([p.T for p in parts], axis=1).T for parts in zip(*chunks, strict=True)),
                      trace_rows)


def _trim(buffer: np.ndarray, n: int) -> np.ndarray:
    """The first n rows; copied (column-major) when they use less than half the buffer, so it can be freed."""
    return buffer[:n] if 2 * n >= len(buffer) else buffer[:n].copy(order="F")


def _quality_columns(cols: dict[str, np.ndarray]) -> dict[str, Column]:
    """The game-quality measures (``unosim.engine.record.quality``) in compact dtypes: ``winner_max_deficit``
    and ``max_hand`` never exceed the largest deck (168 cards); ``lead_changes`` is bounded by the turns
    of the round, so it keeps the turn counter's width. No winner: ``winner_max_deficit`` is null."""
    deficit = cols["winner_max_deficit"]
    return {
        "lead_changes": cols["lead_changes"].astype(np.int32),
        "winner_max_deficit": WithNulls(deficit.astype(np.int16), deficit < 0),
        "max_hand": cols["max_hand"].astype(np.int16),
    }


def _wing_columns(raw: np.ndarray, layout: L.Layout, table: str) -> dict[str, Column]:
    """The wings' ``rounds`` or ``seats`` columns (``protocol.MECHANISMS``), each in its field's type."""
    return {column: raw[:, layout.offsets[f.name] + i].astype(f.dtype)
            for f in L.wing_fields(table) for i, column in enumerate(f.columns)}


class Results:
    """Results of one ``simulate`` call: polars tables ``rounds``, ``seats``, ``matches``.

    Column definitions follow docs/rules.md §1.13; see docs/reference/dataset.md. Each table is
    defined once, as numpy columns (:meth:`columns`); the polars frames and a study's parquet parts
    (:func:`unosim.store.writer.part_table`) are both built from them.
    """

    def __init__(self, raw: RawResults, rules: RuleSet, players: int, lineup: tuple[PolicySpec, ...],
                 seed: int):
        self.raw = raw
        self.rules = rules
        self.players = players
        self.lineup = lineup
        self.seed = seed
        self._frames: dict[str, pl.DataFrame] = {}

    @classmethod
    def empty(cls, rules: RuleSet, players: int, lineup: tuple[PolicySpec, ...]) -> Results:
        """The results of no games: every table with its columns and types and no rows, built without
        the engine (a study's parent takes the parts' schema from it, and so never loads the engine)."""
        return cls(RawResults(*output_buffers(0, 0, players), np.zeros((0, 4), np.int64)), rules, players, lineup, 0)

    def __repr__(self) -> str:
        return (f"Results({self.rules.name}, players={self.players}, matches={len(self.raw.matches)}, "
                f"rounds={len(self.raw.rounds)})")

    def to_pandas(self, table: str):
        """Table ``rounds``, ``seats`` or ``matches`` as pandas: pyarrow dtypes, categorical labels."""
        from ..store.interop import to_pandas
        return to_pandas(getattr(self, _check_table(table)))

    @property
    def rounds(self) -> pl.DataFrame:
        return self._frame("rounds")

    @property
    def seats(self) -> pl.DataFrame:
        return self._frame("seats")

    @property
    def matches(self) -> pl.DataFrame:
        return self._frame("matches")

    def _frame(self, table: str) -> pl.DataFrame:
        if table not in self._frames:
            import polars as pl  # on first use: a study worker builds parquet parts, never frames (columns.py)
            self._frames[table] = pl.DataFrame([polars_column(k, c) for k, c in self.columns(table).items()])
        return self._frames[table]

    def columns(self, table: str) -> dict[str, Column]:
        """Table ``rounds``, ``seats`` or ``matches`` as named columns, in the frame's order."""
        return {"rounds": self._round_columns, "seats": self._seat_columns,
                "matches": self._match_columns}[_check_table(table)]()

    def _round_columns(self) -> dict[str, Column]:
        r = self.raw.rounds
        cols = {name: r[:, i] for i, name in enumerate(L.ROUND_COLUMNS)}
        return {
            "game": cols["game"].astype(np.int64),
            "round": cols["round"].astype(np.int32),
            "players": np.full(len(r), self.players, np.int8),
            "variant": Constant(self.rules.name, len(r)),
            **{k: cols[k].astype(np.int8) for k in ("dealer_seat", "first_seat", "winner_seat")},
            "end": Labels(L.END_NAMES, cols["end"], enum=True),
            **{k: cols[k].astype(np.int32) for k in (
                "n_turns", "n_plays", "n_draws", "n_reshuffles", "points", "knockouts", "largest_stack",
                "loop_bound_hits")},
            **_quality_columns(cols),
            **_wing_columns(r, L.ROUND_TABLE, "rounds"),
        }

    def _seat_columns(self) -> dict[str, Column]:
        n = self.players
        r, s, o = self.raw.rounds, self.raw.seats, self.raw.opening
        seat = np.tile(np.arange(n, dtype=np.int8), len(r))
        dealer = np.repeat(r[:, L.RC_DEALER], n)
        return {
            "game": np.repeat(r[:, L.RC_GAME].astype(np.int64), n),
            "round": np.repeat(r[:, L.RC_ROUND].astype(np.int32), n),
            "players": np.full(len(seat), n, np.int8),
            "seat": seat,
            "rel_dealer": ((seat - dealer) % n).astype(np.int8),
            "policy": Labels(tuple(p.label for p in self.lineup), seat, enum=False),
            "won": s[:, L.SC_WON].astype(bool),
            **{k: s[:, getattr(L, "SC_" + c)] for k, c in (
                ("cards_left", "CARDS_LEFT"), ("points_left", "POINTS_LEFT"), ("n_drawn", "DRAWN"),
                ("n_played", "PLAYED"))},
            "knocked_out": s[:, L.SC_KNOCKED_OUT].astype(bool),
            "knockout_turn": s[:, L.SC_KNOCKOUT_TURN],
            **_wing_columns(s, L.SEAT_TABLE, "seats"),
            **{f"open_{name}": o[:, i] for i, name in enumerate(cards.HAND_CLASSES)},
            **{name: o[:, cards.N_HAND_CLASSES + slot] for slot, name in enumerate(custom_cards.OPEN_DECLARED)},
        }

    def _match_columns(self) -> dict[str, Column]:
        m = self.raw.matches
        return {
            "game": m[:, L.MC_GAME].astype(np.int64),
            "players": np.full(len(m), self.players, np.int8),
            "n_rounds": m[:, L.MC_ROUNDS].astype(np.int32),
            "first_dealer": m[:, L.MC_FIRST_DEALER].astype(np.int8),
            "winner_seat": m[:, L.MC_WINNER].astype(np.int8),
            "n_winners": m[:, L.MC_N_WINNERS].astype(np.int8),
            "winners_mask": m[:, L.MC_WINNERS_MASK].astype(np.int16),
            "end": Labels(L.MATCH_END_NAMES, m[:, L.MC_END], enum=True),
        }


def _check_table(table: str) -> str:
    if table not in ("rounds", "seats", "matches"):
        raise ValueError(f"unknown table {table!r}: valid are ['rounds', 'seats', 'matches']")
    return table


def simulate(variant: str | RuleSet, *, players: int, games: int, seed: int, lineup="random",
             rules: dict | None = None, first_game: int = 0, stop=None) -> Results:
    """Play ``games`` matches of ``variant`` with ``players`` seats and return their statistics.

    ``rules`` overrides fields of the variant (``{"n_blank": 0, "match_mode": "single_round"}``);
    ``lineup`` is one policy for every seat, one per seat, or ``"greedy_points,random*"``. Match ``g``
    (``first_game <= g < first_game + games``) depends only on ``(seed, g)``, so chunked runs
    concatenate to exactly the rows of one large run. Game numbers are int64 (up to 2**63 - 1).

    The tables stay in memory: a call whose tables would exceed the per-call memory budget (4 GiB,
    ``UNOSIM_MEMORY_BUDGET`` bytes) is refused with a ValueError before it starts; split it with
    ``first_game`` or run a study. Ctrl-C interrupts a long call within a fraction of a second; on
    another thread, setting ``stop`` (a ``threading.Event``) does: the call raises :class:`CallStopped`.
    """
    rs, specs = resolve(variant, players, lineup, rules)
    players = int(players)
    games, seed, first_game = check_games(games, seed, first_game, players)
    raw = run_compiled(rs, players, specs, seed, first_game, games, stop=stop)
    return Results(raw, rs, players, specs, seed)
