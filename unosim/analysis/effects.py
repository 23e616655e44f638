"""What a house rule (or a lineup) does to the game: the effects of every comparison of a study.

For each ``[[comparisons]]`` entry of the spec and each shared value of the other axes, cell A (the
baseline) and cell B are compared on the measures below, using each game's first round (in match
modes later rounds diverge and are not independent of the first). When the cells share decks (common
random numbers) rounds are paired by game index; otherwise the samples are independent.

Measures (one value per round; docs/rules.md §1.13 for the columns):

* ``length`` — turns per round (``n_turns``);
* ``lead_changes`` — changes of the unique leader per round (tension);
* ``comebacks`` — 1 when the round was won by a seat that had been ≥ 3 cards behind the smallest
  active hand (``winner_max_deficit`` ≥ 3), else 0; rounds without a winner count 0, so the mean is
  the share of all rounds won from behind;
* ``max_hand`` — the largest hand any seat held;
* ``penalty`` (largest pending draw per round, ``largest_stack``) and ``knockouts`` — only when one
  of the two cells has a non-zero value (the rule family has stacking or knock-outs);
* ``fairness`` — the spread (max − min) of the win rates by position after the dealer;
* ``skill_edge`` — for a lineup with one skilled seat, when both variants also have the all-``random``
  lineup: the change in the skilled seat's edge (its win rate minus that seat's win rate under the
  all-random lineup on the same decks).

Every effect has an estimate (B − A), a 95% interval and a p-value that agree
(:mod:`unosim.analysis.inference`; for ``fairness`` a percentile bootstrap, whose p-value is the
bootstrap tail share, agreeing with the interval up to 1/``BOOTSTRAP`` draws), the relative change
B/A − 1 with Fieller's interval, and Holm's adjusted p-value over every effect of the study.

When the two cells played identical games (every outcome column equal, game by game) no interval is
printed: the row says ``identical`` — the rule never changed a game under these policies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from ..policies import make_lineup
from .inference import holm, paired_difference, unpaired_difference
from .win_rates import CELL

COMEBACK_DEFICIT = 3
BOOTSTRAP = 4000
_KEYS = ("game", "round", "variant", "players", "lineup")


@dataclass(frozen=True)
class Measure:
    name: str
    label: str          # what one unit of the measure is, for tables and sentences
    columns: tuple[str, ...]
    value: Callable[[], pl.Expr]
    only_when_nonzero: bool = False


MEASURES = (
    Measure("length", "turns per round", ("n_turns",), lambda: pl.col("n_turns")),
    Measure("lead_changes", "lead changes per round", ("lead_changes",), lambda: pl.col("lead_changes")),
    Measure("comebacks", f"share of rounds won from ≥ {COMEBACK_DEFICIT} cards behind",
            ("winner_max_deficit",),
            lambda: (pl.col("winner_max_deficit") >= COMEBACK_DEFICIT).fill_null(False)),
    Measure("max_hand", "largest hand in a round", ("max_hand",), lambda: pl.col("max_hand")),
    Measure("penalty", "largest draw penalty in a round", ("largest_stack",),
            lambda: pl.col("largest_stack"), only_when_nonzero=True),
    Measure("knockouts", "knock-outs per round", ("knockouts",), lambda: pl.col("knockouts"),
            only_when_nonzero=True),
)
MEASURE_LABELS = {m.name: m.label for m in MEASURES} | {
    "fairness": "spread of win rates by position after the dealer",
    "skill_edge": "skilled seat's edge over the all-random lineup",
}


def first_rounds(rounds: pl.LazyFrame | pl.DataFrame, cell: Mapping[str, object]) -> pl.DataFrame:
    """The first round of every game of one cell (``variant``, ``players``, ``lineup``), by game."""
    lazy = rounds.lazy().filter(pl.col("round") == 0)
    for column, value in cell.items():
        lazy = lazy.filter(pl.col(column).cast(pl.String) == str(value))
    return lazy.collect().sort("game")


def identical_games(frame_a: pl.DataFrame, frame_b: pl.DataFrame) -> bool:
    """True when the two cells' rounds are equal in every outcome column, game by game."""
    if frame_a.height != frame_b.height or not frame_a["game"].equals(frame_b["game"]):
        return False
    outcome = [c for c in frame_a.columns if c in frame_b.columns and c not in _KEYS]
    return all(_comparable(frame_a[c]).equals(_comparable(frame_b[c])) for c in outcome)


def _comparable(column: pl.Series) -> pl.Series:
    """Categorical columns by their text: two files may encode the same values differently."""
    return column.cast(pl.String) if column.dtype in (pl.Categorical, pl.Enum) else column


def compare_cells(frame_a: pl.DataFrame, frame_b: pl.DataFrame, players: int, *, paired: bool,
                  confidence: float = 0.95, seed: int = 0) -> list[dict[str, object]]:
    """One row per measure for cell A against cell B (frames of :func:`first_rounds`)."""
    if paired and identical_games(frame_a, frame_b):
        rows = []
        for m in MEASURES:
            if _applies(m, frame_a, frame_b, nonzero=m.only_when_nonzero):
                mean = frame_a.select(m.value().cast(pl.Float64).mean()).item()
                rows.append({"measure": m.name, "mean_a": mean, "mean_b": mean})
        spread = float(position_spread(np.bincount(winner_positions(frame_a, players) + 1,
                                                   minlength=players + 1)[1:], frame_a.height))
        rows.append({"measure": "fairness", "mean_a": spread, "mean_b": spread})
        return [{**row, "identical": True, "n": frame_a.height, "test": "identical games"} for row in rows]
    if paired:
        joined = frame_a.join(frame_b, on="game", suffix="_b")
        frame_a, frame_b = joined.select(frame_a.columns), joined.select(
            pl.col("game"), *[pl.col(f"{c}_b").alias(c) for c in frame_b.columns if c != "game"])
    rows = []
    for m in MEASURES:
        if not _applies(m, frame_a, frame_b, nonzero=m.only_when_nonzero):
            continue
        a = frame_a.select(m.value().cast(pl.Float64)).to_series().to_numpy()
        b = frame_b.select(m.value().cast(pl.Float64)).to_series().to_numpy()
        effect = paired_difference(a, b, confidence) if paired else unpaired_difference(a, b, confidence)
        rows.append({"measure": m.name, "identical": False,
                     "test": "paired t" if paired else "Welch t", **effect})
    rows.append({"measure": "fairness", "identical": False,
                 **spread_difference(winner_positions(frame_a, players), winner_positions(frame_b, players),
                                     players, paired=paired, confidence=confidence, seed=seed)})
    return rows


def _applies(m: Measure, frame_a: pl.DataFrame, frame_b: pl.DataFrame, *, nonzero: bool) -> bool:
    if not all(c in frame_a.columns and c in frame_b.columns for c in m.columns):
        return False
    if not nonzero:
        return True
    return any(frame.select(m.value().cast(pl.Float64).abs().sum()).item() > 0 for frame in (frame_a, frame_b))


def winner_positions(frame: pl.DataFrame, players: int) -> np.ndarray:
    """Each round's winner as a position after the dealer (1 = first dealt, 0 = dealer), −1 when none."""
    won = frame["winner_seat"].to_numpy().astype(np.int64)
    dealer = frame["dealer_seat"].to_numpy().astype(np.int64)
    return np.where(won >= 0, (won - dealer) % players, -1)


def position_spread(counts: np.ndarray, n) -> np.ndarray:
    """max − min win rate over positions; ``counts`` (..., players) wins per position out of ``n``."""
    rates = counts / np.asarray(n, np.float64)[..., None]
    return rates.max(axis=-1) - rates.min(axis=-1)


def spread_difference(pos_a: np.ndarray, pos_b: np.ndarray, players: int, *, paired: bool,
                      confidence: float = 0.95, seed: int = 0) -> dict[str, object]:
    """Spread of win rates by position in B minus A, with a percentile bootstrap interval over games
    (pairs resampled jointly when paired: a multinomial draw on the table of (A, B) winner positions)
    and the bootstrap p-value 2·min(P*(Δ ≤ 0), P*(Δ ≥ 0))."""
    rng = np.random.default_rng(seed)
    k = players + 1  # position −1 (no winner) is column 0
    if paired:
        joint = np.bincount((pos_a + 1) * k + (pos_b + 1), minlength=k * k)
        n = len(pos_a)
        draws = rng.multinomial(n, joint / n, size=BOOTSTRAP).reshape(BOOTSTRAP, k, k)
        boot_a, boot_b = draws.sum(axis=2)[:, 1:], draws.sum(axis=1)[:, 1:]
        na = nb = n
    else:
        na, nb = len(pos_a), len(pos_b)
        ca, cb = np.bincount(pos_a + 1, minlength=k), np.bincount(pos_b + 1, minlength=k)
        boot_a = rng.multinomial(na, ca / na, size=BOOTSTRAP)[:, 1:]
        boot_b = rng.multinomial(nb, cb / nb, size=BOOTSTRAP)[:, 1:]
    count_a = np.bincount(pos_a + 1, minlength=k)[1:]
    count_b = np.bincount(pos_b + 1, minlength=k)[1:]
    spread_a, spread_b = float(position_spread(count_a, na)), float(position_spread(count_b, nb))
    delta = position_spread(boot_b, nb) - position_spread(boot_a, na)
    alpha = 1 - confidence
    low, high = np.quantile(delta, [alpha / 2, 1 - alpha / 2])
    p_value = min(1.0, 2 * min(np.mean(delta <= 0), np.mean(delta >= 0)))
    return {"mean_a": spread_a, "mean_b": spread_b, "estimate": spread_b - spread_a, "ci_low": float(low),
            "ci_high": float(high), "p_value": float(p_value), "n": min(na, nb),
            "rel_change": spread_b / spread_a - 1 if spread_a > 0 else np.nan,
            "rel_low": np.nan, "rel_high": np.nan, "test": "bootstrap (spread)"}


def skilled_seat(lineup_spec: str, players: int) -> int | None:
    """The one seat whose policy is not ``random`` (None unless exactly one)."""
    seats = [i for i, p in enumerate(make_lineup(lineup_spec, players)) if p.name != "random"]
    return seats[0] if len(seats) == 1 else None


def all_random(lineup_spec: str, players: int) -> bool:
    """True for the plain all-``random`` lineup (no policy parameters)."""
    return all(p.name == "random" and not p.params for p in make_lineup(lineup_spec, players))


def skill_edge_change(frames: Mapping[str, pl.DataFrame], seat: int, confidence: float = 0.95) -> dict:
    """Change of the skilled seat's edge between variants A and B. ``frames`` holds the first rounds of
    ``a_skilled``, ``a_random``, ``b_skilled``, ``b_random``, all on the same decks: per game the edge
    is won(skilled lineup) − won(all random) for that seat; B's edge minus A's, paired t."""
    games = frames["a_skilled"]["game"]
    for f in frames.values():
        if not f["game"].equals(games):
            raise ValueError("skill_edge_change needs the four cells on the same games (common random numbers)")
    won = {k: (f["winner_seat"] == seat).cast(pl.Float64).to_numpy() for k, f in frames.items()}
    edge_a, edge_b = won["a_skilled"] - won["a_random"], won["b_skilled"] - won["b_random"]
    return {"measure": "skill_edge", "identical": False, "test": "paired t",
            **paired_difference(edge_a, edge_b, confidence)}


def effects(rounds: pl.LazyFrame | pl.DataFrame, cells: pl.DataFrame, comparisons: Sequence[Mapping],
            shares_decks: Callable[[str, str], bool], confidence: float = 0.95) -> pl.DataFrame:
    """Every comparison × shared other axes × measure, with Holm's adjustment over all of them.

    ``cells``: one row per cell (``name``, ``variant``, ``players``, ``lineup``, ``lineup_spec``);
    ``comparisons``: dicts with ``axis`` (``variant`` or ``lineup``), ``a``, ``b``."""
    cache: dict[str, pl.DataFrame] = {}

    def frame(row: Mapping) -> pl.DataFrame:
        if row["name"] not in cache:
            cache.clear()  # keep at most the cells of one comparison in memory
            cache[row["name"]] = first_rounds(rounds, {c: row[c] for c in CELL})
        return cache[row["name"]]

    by_name = {r["name"]: r for r in cells.iter_rows(named=True)}
    rows = []
    for spec in comparisons:
        axis, other = spec["axis"], [c for c in CELL if c != spec["axis"]]
        side_a, side_b = cells.filter(pl.col(axis) == spec["a"]), cells.filter(pl.col(axis) == spec["b"])
        for pair in side_a.join(side_b, on=other, suffix="_b").iter_rows(named=True):
            cell_a, cell_b = by_name[pair["name"]], by_name[pair["name_b"]]
            paired = shares_decks(cell_a["name"], cell_b["name"])
            label = {"axis": axis, "a": spec["a"], "b": spec["b"], **{c: pair[c] for c in other},
                     "paired": paired}
            fa = frame(cell_a)
            fb = first_rounds(rounds, {c: cell_b[c] for c in CELL})
            seed = int.from_bytes(hashlib.blake2b(f"{cell_a['name']}|{cell_b['name']}".encode(),
                                                  digest_size=8).digest(), "little")
            for row in compare_cells(fa, fb, int(pair["players"]), paired=paired, confidence=confidence,
                                     seed=seed):
                rows.append({**label, **row})
            if axis == "variant":
                edge = _skill_row(rounds, cells, cell_a, cell_b, fa, fb, shares_decks, confidence)
                if edge:
                    rows.append({**label, **edge})
    return finish_effects(rows)


def _skill_row(rounds, cells, cell_a, cell_b, fa, fb, shares_decks, confidence) -> dict | None:
    players = int(cell_a["players"])
    seat = skilled_seat(cell_a["lineup_spec"], players)
    if seat is None:
        return None
    randoms = {}
    for side, cell in (("a", cell_a), ("b", cell_b)):
        match = [r for r in cells.filter((pl.col("variant") == cell["variant"])
                                         & (pl.col("players") == players)).iter_rows(named=True)
                 if all_random(r["lineup_spec"], players)]
        if not match or not shares_decks(match[0]["name"], cell_a["name"]) \
                or not shares_decks(match[0]["name"], cell_b["name"]):
            return None
        randoms[side] = first_rounds(rounds, {c: match[0][c] for c in CELL})
    frames = {"a_skilled": fa, "a_random": randoms["a"], "b_skilled": fb, "b_random": randoms["b"]}
    if identical_games(fa, fb) and identical_games(randoms["a"], randoms["b"]):
        return {"measure": "skill_edge", "identical": True, "n": fa.height, "test": "identical games"}
    return skill_edge_change(frames, seat, confidence)


_EFFECT_SCHEMA = {
    "axis": pl.String, "a": pl.String, "b": pl.String, "variant": pl.String, "players": pl.Int64,
    "lineup": pl.String, "paired": pl.Boolean, "measure": pl.String, "identical": pl.Boolean,
    "mean_a": pl.Float64, "mean_b": pl.Float64, "estimate": pl.Float64, "ci_low": pl.Float64,
    "ci_high": pl.Float64, "p_value": pl.Float64, "rel_change": pl.Float64, "rel_low": pl.Float64,
    "rel_high": pl.Float64, "n": pl.Int64, "test": pl.String,
}


def finish_effects(rows: list[dict]) -> pl.DataFrame:
    """The effect rows as a table with ``label``, Holm's ``p_holm`` and ``significant`` (p_holm < 0.05)."""
    table = pl.DataFrame([{k: r.get(k) for k in _EFFECT_SCHEMA} for r in rows], schema=_EFFECT_SCHEMA)
    table = table.with_columns(pl.col("measure").replace_strict(MEASURE_LABELS, default=None).alias("label"),
                               pl.Series("p_holm", holm(table["p_value"].fill_null(np.nan).to_numpy())))
    return table.with_columns(significant=(pl.col("p_holm") < 0.05).fill_null(False))
