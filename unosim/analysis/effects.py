"""What a house rule (or a lineup) does to the game: the effects of every comparison of a study.

For each ``[[comparisons]]`` entry of the spec and each shared value of the other axes, cell A (the
baseline) and cell B are compared on the measures below, using each game's first round (in match
modes later rounds diverge and are not independent of the first). When the cells share decks (common
random numbers) rounds are paired by game index; otherwise the samples are independent.

Measures (one value per round; docs/rules.md §1.13 for the columns):

* ``length`` — turns per round (``n_turns``). A round stopped by the turn cap counts as the cap, so
  when a cell has truncated rounds the mean is the Kaplan–Meier *restricted* mean up to the cap (with
  censoring only at the cap the two are equal); every row carries each cell's ``truncated_a``/
  ``truncated_b`` share and the ``cap``, and the findings say so;
* ``lead_changes`` — changes of the unique leader per round (tension), over rounds with a winner;
* ``comebacks`` — the share of rounds *with a winner* won by a seat that had been ≥ 3 cards behind the
  smallest active hand (``winner_max_deficit`` ≥ 3). Rounds without a winner (truncated, stalemate) are
  left out of both measures — they would otherwise count as "no comeback" and as very many lead
  changes, and a rule that makes rounds hit the cap would seem to change tension. Each cell is
  measured on its *own* won rounds, also when paired: the pairs where both rounds have a winner are a
  subset the rule selects (a rule that stalls most rounds keeps the quick ones), so the paired
  comparison is the difference of the two cells' ratio means with the delta method's variance over
  games (:func:`~unosim.analysis.inference.paired_ratio_difference`; the paired t test when every round
  has a winner); ``n`` is the paired games;
* ``no_winner`` — the share of rounds that end with no winner: a stalemate (§1.6: nobody can play and
  the piles are spent) or the turn cap; only when one of the two cells has such a round. A rare 0/1
  event: the exact McNemar test when paired, Fisher's exact test when not, each with Newcombe's score
  interval (:mod:`unosim.analysis.inference`), not a t test. A rule that
  leaves half its rounds without a winner (``draw_until_playable`` with bluffers who keep the card drawn
  after a challenge) makes a worse game however much longer its rounds are;
* ``max_hand`` — the largest hand any seat held;
* ``penalty`` (largest pending draw per round, ``largest_stack``) and ``knockouts`` — only when one
  of the two cells has a non-zero value (the rule family has stacking or knock-outs);
* ``fairness`` — whether the split of wins over positions after the dealer changes: χ² homogeneity of
  the two cells' winner positions (won rounds) for independent cells, and for paired cells the same
  statistic's exact permutation test (A and B swapped within each game, :data:`PERMUTATIONS` draws,
  p = (hits + 1)/(draws + 1), never 0). Its estimate is the change of the spread (max − min win rate
  over positions), with a percentile bootstrap interval over games (the test and the interval are not
  one inversion here: the class of practical size, docs/rules.md §8.2, is decided on the interval and
  "supported" on the test);
Every effect but ``fairness`` has an estimate (B − A), a raw 95% interval and a p-value that agree
(:mod:`unosim.analysis.inference`), the relative change B/A − 1 with Fieller's interval (NaN bounds
when the set is unbounded), and Holm's adjusted p-value over every effect of the study (one family,
named "effects" in the report; a comparison repeated by a cell listed twice counts once,
:mod:`unosim.analysis.twin_cells`). How a rule changes the skilled seat's edge is its own table and Holm
family (:mod:`unosim.analysis.skill_rules`).

When the two cells played identical games (every outcome column equal, game by game) no interval is
printed: the row says ``identical`` — the rule never changed a game under these policies.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from ..game.policies import make_lineup
from .distributions import chi2_sf
from .inference import paired_difference, paired_ratio_difference, unpaired_difference
from .measures import COMEBACK_DEFICIT, EFFECT_MEASURES
from .measures import MEASURES as MEASURE_INFO
from .practical import classify, games_to_decide
from .proportions import exact_paired_proportions, exact_unpaired_proportions
from .twin_cells import Cell, game_twins, with_holm
from .win_rates import CELL

PERMUTATIONS = 20_000
BOOTSTRAP = 2_000
_KEYS = ("game", "round", "variant", "players", "lineup")


@dataclass(frozen=True)
class Measure:
    """How one measure of :mod:`.measures` is computed per round (its record there: name, unit, minimum)."""

    name: str
    columns: tuple[str, ...]
    value: Callable[[], pl.Expr]
    only_when_nonzero: bool = False
    won_rounds_only: bool = False  # null for a round without a winner (left out of means and tests)

    @property
    def label(self) -> str:
        return MEASURE_INFO[self.name].unit

    def expr(self) -> pl.Expr:
        """The per-round value as Float64, null where the measure does not apply."""
        value = self.value().cast(pl.Float64)
        return pl.when(pl.col("winner_seat") >= 0).then(value) if self.won_rounds_only else value


MEASURES = (
    Measure("length", ("n_turns",), lambda: pl.col("n_turns")),
    Measure("lead_changes", ("lead_changes", "winner_seat"), lambda: pl.col("lead_changes"), won_rounds_only=True),
    Measure("comebacks", ("winner_max_deficit", "winner_seat"),
            lambda: (pl.col("winner_max_deficit") >= COMEBACK_DEFICIT).fill_null(False), won_rounds_only=True),
    Measure("no_winner", ("winner_seat",), lambda: pl.col("winner_seat") < 0, only_when_nonzero=True),
    Measure("max_hand", ("max_hand",), lambda: pl.col("max_hand")),
    Measure("penalty", ("largest_stack",), lambda: pl.col("largest_stack"), only_when_nonzero=True),
    Measure("knockouts", ("knockouts",), lambda: pl.col("knockouts"), only_when_nonzero=True),
)
MEASURE_LABELS = {name: MEASURE_INFO[name].unit for name in EFFECT_MEASURES}


def first_rounds(rounds: pl.LazyFrame | pl.DataFrame, cell: Mapping[str, object]) -> pl.DataFrame:
    """The first round of every game of one cell (``variant``, ``players``, ``lineup``), by game."""
    lazy = rounds.lazy().filter(pl.col("round") == 0)
    for column, value in cell.items():
        lazy = lazy.filter(pl.col(column).cast(pl.String) == str(value))
    return lazy.collect().sort("game")


def all_rounds(rounds: pl.LazyFrame | pl.DataFrame, cell: Mapping[str, object]) -> pl.DataFrame:
    """Every round of every game of one cell, by game and round."""
    lazy = rounds.lazy()
    for column, value in cell.items():
        lazy = lazy.filter(pl.col(column).cast(pl.String) == str(value))
    return lazy.collect().sort("game", "round")


def identical_games(frame_a: pl.DataFrame, frame_b: pl.DataFrame) -> bool:
    """True when the two cells' rounds are equal in every outcome column, game by game (and round by
    round: pass every round of a match, :func:`all_rounds`, not only the first)."""
    keys = [c for c in ("game", "round") if c in frame_a.columns and c in frame_b.columns]
    if frame_a.height != frame_b.height or not all(frame_a[c].equals(frame_b[c]) for c in keys):
        return False
    outcome = [c for c in frame_a.columns if c in frame_b.columns and c not in _KEYS]
    return all(_comparable(frame_a[c]).equals(_comparable(frame_b[c])) for c in outcome)


def _comparable(column: pl.Series) -> pl.Series:
    """Categorical columns by their text: two files may encode the same values differently."""
    return column.cast(pl.String) if column.dtype in (pl.Categorical, pl.Enum) else column


def compare_cells(frame_a: pl.DataFrame, frame_b: pl.DataFrame, players: int, *, paired: bool,
                  confidence: float = 0.95, seed: int = 0, identical: bool | None = None) -> list[dict[str, object]]:
    """One row per measure for cell A against cell B (frames of :func:`first_rounds`). ``identical``:
    whether every round of the two cells was the same (None: judged from the first rounds given)."""
    if identical is None:
        identical = identical_games(frame_a, frame_b)
    if paired and identical:
        rows = []
        for m in MEASURES:
            if _applies(m, frame_a, frame_b, nonzero=m.only_when_nonzero):
                mean = frame_a.select(m.expr().mean()).item()
                rows.append({"measure": m.name, "mean_a": mean, "mean_b": mean})
        spread = float(position_spread(np.bincount(winner_positions(frame_a, players) + 1,
                                                   minlength=players + 1)[1:], frame_a.height))
        rows.append({"measure": "fairness", "mean_a": spread, "mean_b": spread})
        return [{**row, **truncation(frame_a, frame_b), "identical": True, "n": frame_a.height,
                 "test": "identical games"} for row in rows]
    if paired:
        joined = frame_a.join(frame_b, on="game", suffix="_b")
        frame_a, frame_b = joined.select(frame_a.columns), joined.select(
            pl.col("game"), *[pl.col(f"{c}_b").alias(c) for c in frame_b.columns if c != "game"])
    rows = []
    for m in MEASURES:
        if not _applies(m, frame_a, frame_b, nonzero=m.only_when_nonzero):
            continue
        a = frame_a.select(m.expr()).to_series().fill_null(np.nan).to_numpy()
        b = frame_b.select(m.expr()).to_series().fill_null(np.nan).to_numpy()
        counted_a, counted_b = ~np.isnan(a), ~np.isnan(b)
        if min(counted_a.sum(), counted_b.sum()) < 2:
            continue  # (almost) no round with a winner: nothing to compare
        rows.append({"measure": m.name, "identical": False, **_difference(m, a, b, paired, confidence)})
    rows.append({"measure": "fairness", "identical": False,
                 **fairness_change(winner_positions(frame_a, players), winner_positions(frame_b, players),
                                   players, paired=paired, seed=seed)})
    return [{**row, **truncation(frame_a, frame_b)} for row in rows]


def _difference(m: Measure, a: np.ndarray, b: np.ndarray, paired: bool, confidence: float) -> dict[str, object]:
    """B − A of one measure's per-round values (NaN: the round does not count), with its ``test``. Paired:
    a 0/1 event of every round (no winner) by the exact McNemar test (unpaired: Fisher's exact test); a measure of won rounds over each
    cell's *own* won rounds (the delta method over games: the rounds a rule leaves without a winner are its
    choice, so the pairs where both cells have a winner are not a sample of either); else the paired t.
    Unpaired: Welch's t over each cell's counted rounds."""
    if not paired and m.name == "no_winner":
        return {"test": "Fisher exact", **exact_unpaired_proportions(a > 0, b > 0, confidence)}
    if not paired:
        return {"test": "Welch t", **unpaired_difference(a[~np.isnan(a)], b[~np.isnan(b)], confidence)}
    if m.name == "no_winner":
        return {"test": "exact McNemar", **exact_paired_proportions(a > 0, b > 0, confidence)}
    if m.won_rounds_only:
        counted_a, counted_b = ~np.isnan(a), ~np.isnan(b)
        return {"test": "paired delta method (own won rounds)",
                **paired_ratio_difference(np.where(counted_a, a, 0.0), counted_a, np.where(counted_b, b, 0.0),
                                          counted_b, confidence)}
    return {"test": "paired t", **paired_difference(a, b, confidence)}


def truncation(frame_a: pl.DataFrame, frame_b: pl.DataFrame) -> dict[str, object]:
    """Each cell's share of rounds stopped by the turn cap, and the cap (largest truncated length)."""
    def share(frame):
        return float((frame["end"].cast(pl.String) == "truncated").mean()) if "end" in frame.columns else 0.0
    caps = [int(f.filter(pl.col("end").cast(pl.String) == "truncated")["n_turns"].max() or 0)
            for f in (frame_a, frame_b) if "end" in f.columns]
    return {"truncated_a": share(frame_a), "truncated_b": share(frame_b), "cap": max(caps, default=0) or None}


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


def fairness_change(pos_a: np.ndarray, pos_b: np.ndarray, players: int, *, paired: bool,
                    seed: int = 0) -> dict[str, object]:
    """Does the split of wins over positions after the dealer differ between A and B? ``pos_*``: each
    round's winner position (−1 for none, see :func:`winner_positions`).

    The statistic is Pearson's χ² of homogeneity of the 2 × N table of winner positions (won rounds).
    Independent cells: its asymptotic χ² p-value (N − 1 degrees of freedom). Paired cells (the same
    decks): the rounds of one game are not independent, so the p-value is that of the exact
    permutation distribution under "A and B are exchangeable within a game" — each game's two winner
    positions swapped with probability ½, drawn as binomials per ordered pair of positions (fast at
    any sample size). The estimate is spread(B) − spread(A), with the bootstrap interval of
    :func:`spread_change_interval`."""
    k = players + 1  # position −1 (no winner) is column 0
    count_a = np.bincount(pos_a + 1, minlength=k)[1:]
    count_b = np.bincount(pos_b + 1, minlength=k)[1:]
    na, nb = len(pos_a), len(pos_b)
    spread_a, spread_b = float(position_spread(count_a, na)), float(position_spread(count_b, nb))
    observed = homogeneity_statistic(count_a, count_b)
    if paired:
        joint = np.bincount((pos_a + 1) * k + (pos_b + 1), minlength=k * k).reshape(k, k)
        p_value, test = permutation_p_value(joint, observed, seed), "permutation χ² (paired)"
    else:
        used = (count_a + count_b) > 0
        dof = int(used.sum()) - 1
        p_value = float(chi2_sf(observed, dof)) if dof > 0 else 1.0
        test = "χ² homogeneity"
    ci_low, ci_high = spread_change_interval(pos_a, pos_b, players, paired=paired, seed=seed)
    return {"mean_a": spread_a, "mean_b": spread_b, "estimate": spread_b - spread_a, "ci_low": ci_low,
            "ci_high": ci_high, "p_value": p_value, "n": min(na, nb),
            "rel_change": spread_b / spread_a - 1 if spread_a > 0 else math.nan,
            "rel_low": math.nan, "rel_high": math.nan, "test": test}


def spread_change_interval(pos_a: np.ndarray, pos_b: np.ndarray, players: int, *, paired: bool, seed: int = 0,
                           draws: int = BOOTSTRAP, confidence: float = 0.95) -> tuple[float, float]:
    """The percentile bootstrap interval of spread(B) − spread(A) over games (a paired game's two rounds
    resampled together): what the practical class of a fairness change is decided on (docs/rules.md
    §8.2). The test stays the χ² / permutation test above; the interval is descriptive (the spread, a
    max − min, is biased upward in small samples in both cells alike)."""
    rng = np.random.default_rng([seed, 1])
    k = players + 1
    if paired:
        joint = np.bincount((pos_a + 1) * k + (pos_b + 1), minlength=k * k)
        counts = rng.multinomial(len(pos_a), joint / joint.sum(), size=draws).reshape(draws, k, k)
        count_a, count_b = counts.sum(axis=2)[:, 1:], counts.sum(axis=1)[:, 1:]
    else:
        count_a = rng.multinomial(len(pos_a), np.bincount(pos_a + 1, minlength=k) / len(pos_a), size=draws)[:, 1:]
        count_b = rng.multinomial(len(pos_b), np.bincount(pos_b + 1, minlength=k) / len(pos_b), size=draws)[:, 1:]
    change = position_spread(count_b, len(pos_b)) - position_spread(count_a, len(pos_a))
    tail = (1 - confidence) / 2 * 100
    return float(np.percentile(change, tail)), float(np.percentile(change, 100 - tail))


def homogeneity_statistic(count_a: np.ndarray, count_b: np.ndarray) -> np.ndarray:
    """Pearson's χ² of homogeneity of two rows of counts (the last axis); 0 where a column is empty."""
    count_a, count_b = np.asarray(count_a, np.float64), np.asarray(count_b, np.float64)
    total_a, total_b = count_a.sum(-1, keepdims=True), count_b.sum(-1, keepdims=True)
    column = count_a + count_b
    n = total_a + total_b
    with np.errstate(divide="ignore", invalid="ignore"):
        exp_a, exp_b = column * total_a / n, column * total_b / n
        terms = np.where(exp_a > 0, (count_a - exp_a) ** 2 / exp_a, 0.0) + \
            np.where(exp_b > 0, (count_b - exp_b) ** 2 / exp_b, 0.0)
    return terms.sum(-1)


def permutation_p_value(joint: np.ndarray, observed: float, seed: int, draws: int = PERMUTATIONS) -> float:
    """p-value of the within-pair permutation test of :func:`homogeneity_statistic`. ``joint[i, j]``: games
    whose A round had winner column i and B round column j (column 0: no winner). Swapping a game's two
    rounds moves it from (i, j) to (j, i); for each unordered pair {i, j} the number left unswapped is
    binomial(n_ij + n_ji, ½)."""
    rng = np.random.default_rng(seed)
    k = joint.shape[0]
    count_a = np.tile(np.diag(joint).astype(np.float64), (draws, 1))
    count_b = count_a.copy()
    for i in range(k):
        for j in range(i + 1, k):
            pairs = int(joint[i, j] + joint[j, i])
            if pairs == 0:
                continue
            stay = rng.binomial(pairs, 0.5, size=draws)  # games with A in column i, B in column j
            count_a[:, i] += stay
            count_b[:, j] += stay
            count_a[:, j] += pairs - stay
            count_b[:, i] += pairs - stay
    simulated = homogeneity_statistic(count_a[:, 1:], count_b[:, 1:])
    hits = int(np.sum(simulated >= observed - 1e-9 * max(observed, 1.0)))
    return (hits + 1) / (draws + 1)


def same_games(effects_table: pl.DataFrame) -> dict[tuple[str, int, str], str]:
    """Each cell (variant, players, lineup) that played the very games of another, by the ``identical``
    rows of the effects table, with that other cell as text ("classic 4p random"): a per-cell finding
    counts such a pair once (a rule that never acted is not a second result)."""
    out: dict[tuple[str, int, str], str] = {}
    if effects_table.is_empty():
        return out
    for row in effects_table.filter(pl.col("identical").fill_null(False)).iter_rows(named=True):
        if row["axis"] == "variant":
            same, other = (row["b"], row["players"], row["lineup"]), (row["a"], row["players"], row["lineup"])
        else:
            same, other = (row["variant"], row["players"], row["b"]), (row["variant"], row["players"], row["a"])
        out.setdefault((str(same[0]), int(same[1]), str(same[2])), f"{other[0]} {other[1]}p {other[2]}")
    return out


def with_same_games(table: pl.DataFrame, same: dict[tuple[str, int, str], str]) -> pl.DataFrame:
    """``table`` (one row or more per cell) with ``same_games_as``: the cell whose games this cell played
    (:func:`same_games`), empty for a cell of its own."""
    keys = zip(table["variant"].cast(pl.String), table["players"], table["lineup"].cast(pl.String), strict=True)
    return table.with_columns(same_games_as=pl.Series([same.get((v, int(p), lineup)) for v, p, lineup in keys], dtype=pl.String))


def skilled_seat(lineup_spec: str, players: int) -> int | None:
    """The one seat whose policy is not ``random`` (None unless exactly one)."""
    seats = [i for i, p in enumerate(make_lineup(lineup_spec, players)) if p.name != "random"]
    return seats[0] if len(seats) == 1 else None


def all_random(lineup_spec: str, players: int) -> bool:
    """True for the plain all-``random`` lineup (no policy parameters)."""
    return all(p.name == "random" and not p.params for p in make_lineup(lineup_spec, players))


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
    pairs = comparison_pairs(cells, comparisons)
    done: dict[int, list[dict]] = {}
    for i in by_a_cell(pairs):
        spec, pair = pairs[i]
        cell_a, cell_b = by_name[pair["name"]], by_name[pair["name_b"]]
        paired = shares_decks(cell_a["name"], cell_b["name"])
        label = pair_label(spec, pair, paired)
        fa = frame(cell_a)
        fb = first_rounds(rounds, {c: cell_b[c] for c in CELL})
        seed = int.from_bytes(hashlib.blake2b(f"{cell_a['name']}|{cell_b['name']}".encode(),
                                              digest_size=8).digest(), "little")
        same = paired and identical_games(fa, fb) and _every_round_identical(rounds, cell_a, cell_b)
        done[i] = [{**label, **row} for row in compare_cells(fa, fb, int(pair["players"]), paired=paired,
                                                             confidence=confidence, seed=seed, identical=same)]
    return finish_effects([row for i in range(len(pairs)) for row in done[i]], game_twins(cells))


def comparison_pairs(cells: pl.DataFrame, comparisons: Sequence[Mapping]) -> list[tuple[Mapping, dict]]:
    """Each ``[[comparisons]]`` entry with every pair of cells it compares, A's and B's at each shared value
    of the other axes, in the spec's order: (entry, the pair's row: A's cell columns, and B's ``name_b``)."""
    return [(spec, pair) for spec in comparisons
            for pair in cells.filter(pl.col(spec["axis"]) == spec["a"])
            .join(cells.filter(pl.col(spec["axis"]) == spec["b"]), on=[c for c in CELL if c != spec["axis"]],
                  suffix="_b").iter_rows(named=True)]


def by_a_cell(pairs: Sequence[tuple[Mapping, dict]]) -> list[int]:
    """The indices of ``pairs`` in order of their A cell, stable: a loop that keeps one A cell in memory
    reads each once (a house-rule study compares every rule with the same few baseline cells)."""
    return sorted(range(len(pairs)), key=lambda i: pairs[i][1]["name"])


def pair_label(spec: Mapping, pair: dict, paired: bool) -> dict[str, object]:
    """The columns that name a compared pair in the effect tables: axis, a, b, the shared cell columns."""
    return {"axis": spec["axis"], "a": spec["a"], "b": spec["b"],
            **{c: pair[c] for c in CELL if c != spec["axis"]}, "paired": paired}


def _every_round_identical(rounds, cell_a: Mapping, cell_b: Mapping) -> bool:
    """In match modes the first rounds can agree while a later round differs: compare them all."""
    return identical_games(all_rounds(rounds, {c: cell_a[c] for c in CELL}),
                           all_rounds(rounds, {c: cell_b[c] for c in CELL}))


_EFFECT_SCHEMA = {
    "axis": pl.String, "a": pl.String, "b": pl.String, "variant": pl.String, "players": pl.Int64,
    "lineup": pl.String, "paired": pl.Boolean, "measure": pl.String, "identical": pl.Boolean,
    "mean_a": pl.Float64, "mean_b": pl.Float64, "estimate": pl.Float64, "ci_low": pl.Float64,
    "ci_high": pl.Float64, "p_value": pl.Float64, "rel_change": pl.Float64, "rel_low": pl.Float64,
    "rel_high": pl.Float64, "n": pl.Int64, "test": pl.String, "truncated_a": pl.Float64,
    "truncated_b": pl.Float64, "cap": pl.Int64,
}


def finish_effects(rows: list[dict], twins: Mapping[Cell, str] | None = None) -> pl.DataFrame:
    """The effect rows as a table with ``label``, Holm's ``p_holm`` (each test once: ``twins``, the cells
    that play another's games, :mod:`.twin_cells`), ``significant`` (p_holm < 0.05), the row's ``class`` on
    its interval and its ``games_to_decide`` (:mod:`.practical`)."""
    table = pl.DataFrame([{k: r.get(k) for k in _EFFECT_SCHEMA} for r in rows], schema=_EFFECT_SCHEMA)
    table = with_holm(table.with_columns(pl.col("measure").replace_strict(MEASURE_LABELS, default=None)
                                         .alias("label")), "p_value", twins)
    table = table.with_columns(significant=(pl.col("p_holm") < 0.05).fill_null(False))
    rows = table.to_dicts()
    return table.with_columns(pl.Series("class", [classify(r["measure"], r) for r in rows], pl.String),
                              pl.Series("games_to_decide", [games_to_decide(r["measure"], r) for r in rows],
                                        pl.Int64))

