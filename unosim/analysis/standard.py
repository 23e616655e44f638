"""The standard analyses of a study dataset: every table the report shows, by name."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import polars as pl

from ..store import table_store
from ..store.atomic import write_text_atomic
from ..store.reader import Dataset
from .card_balance import card_balance
from .card_prices import declared_by_variant
from .card_values import card_values
from .cells import CellScan, streaming, tables_by_cell
from .checker import assert_claims
from .claims import CLAIM_TABLES, Claim
from .design import design_tables
from .effects import by_a_cell, comparison_pairs, effects, pair_label
from .fairness import seat_fairness, with_fairness_holm
from .findings import claims
from .lengths import length_distributions, length_summary
from .matches import match_ends, match_vs_round_wins, rounds_per_match
from .paired import LENGTH_METRICS, compared_rows, length_difference, seat_wins
from .profile import Profile
from .quality import game_quality
from .skill import skill_edges
from .skill_rules import skill_changes
from .survival import restricted_means, turn_survival
from .twin_cells import game_twins, with_holm
from .verdicts import scorecard, verdicts
from .win_rates import CELL, points_when_winning, win_rates, win_rates_by_dealer_position

TABLE_DIR = "analysis"
#: version of the set of standard tables and their columns; `unosim report` recomputes tables of another one
ANALYSIS_FORMAT = 5
FORMAT_FILE = "FORMAT"
FINDINGS_FILE = "findings.json"


def standard_tables(ds: Dataset, confidence: float = 0.95,
                    ready: Callable[[dict[str, pl.DataFrame]], None] | None = None,
                    profile: Profile | None = None) -> dict[str, pl.DataFrame]:
    """Win rates, fairness, lengths (censoring-aware), game quality, skill, card values and balance,
    match statistics, and the effects of the spec's comparisons, as tidy tables.

    The per-cell tables are computed one cell at a time (:mod:`unosim.analysis.cells`); what spans
    cells (Holm's adjustments, card balance, skill, comparisons) is computed on the stacked tables.
    ``ready`` is given every table but those of the comparisons (final: nothing later changes them) before
    the comparisons are made, the longest part of a house-rule study's analysis: a caller draws their
    charts meanwhile (:class:`unosim.reporting.charts.ChartDrawing`). With comparisons, the ``verdicts``
    and ``scorecard`` of ``profile`` (default: the study's ``[profile]``, :func:`study_profile`)."""
    tables = tables_by_cell(ds, lambda cell: cell_tables(cell, confidence))
    twins = game_twins(ds.cells())
    tables["fairness"] = with_fairness_holm(tables["fairness"], twins)
    tables["card_balance"] = card_balance(tables["card_values"], confidence, twins)
    if tables["quality"].is_empty():
        del tables["quality"]  # a dataset from before the game-quality counters
    with streaming():
        matches = "game" if ds.manifest["study"]["mode"] != "single_round" else None
        # the B side of a variant comparison is a house rule (its skill is in skill_changes); every other
        # variant, the A sides and a multi-variant study's published variants alike, is a game of its own
        house_rules = frozenset(c["b"] for c in ds.manifest["study"]["comparisons"] if c["axis"] == "variant")
        skill = skill_edges(ds.rounds, ds.cells(), confidence, cluster=matches, house_rules=house_rules)
        if not skill.is_empty():
            tables["skill"] = skill
        if ready is not None:
            ready(dict(tables))
        if ds.manifest["study"]["comparisons"]:
            tables["effects"] = effects(ds.rounds, ds.cells(), ds.manifest["study"]["comparisons"],
                                        ds.shares_decks, confidence)
            changes = skill_changes(ds.rounds, ds.cells(), ds.manifest["study"]["comparisons"], ds.shares_decks,
                                    confidence)
            if not changes.is_empty():
                tables["skill_changes"] = changes
            tables["compare_wins"], tables["compare_lengths"] = comparisons(ds, confidence)
            tables.update(judged(tables, profile or study_profile(ds)))
    tables.update(tournament_tables(ds))
    tables.update(design_tables(ds.path))
    return tables


def study_profile(ds: Dataset) -> Profile:
    """The designer's profile of the study's spec (``[profile]``), else the default."""
    return Profile.from_mapping(ds.manifest["study"].get("profile"))


def judged(tables: dict[str, pl.DataFrame], profile: Profile) -> dict[str, pl.DataFrame]:
    """The ``verdicts`` and ``scorecard`` tables of ``profile`` (:mod:`.verdicts`), from the tables as
    written (what the checker re-derives them from)."""
    written = as_written({k: tables[k] for k in ("effects", "skill_changes") if k in tables})
    return {"verdicts": verdicts(written, profile), "scorecard": scorecard(written, profile)}


def tournament_tables(ds: Dataset) -> dict[str, pl.DataFrame]:
    """A tournament dataset's standings and head-to-head (with Holm over the pairs), else nothing."""
    from .tournament import TOURNAMENT_FILE, load_tournament
    if not (ds.path / TOURNAMENT_FILE).is_file():
        return {}
    result = load_tournament(ds.path)
    return {"standings": result.standings, "head_to_head": result.head_to_head}


def cell_tables(ds: Dataset | CellScan, confidence: float = 0.95) -> dict[str, pl.DataFrame]:
    """The tables grouped by cell, of the rows of ``ds`` (a whole dataset or one cell)."""
    matches = "game" if ds.manifest["study"]["mode"] != "single_round" else None  # rounds cluster by match
    tables = {
        "win_rates": win_rates(ds.seats, confidence=confidence, cluster=matches),
        "win_rates_dealer": win_rates_by_dealer_position(ds.seats, confidence=confidence, cluster=matches),
        "fairness": with_fairness_holm(seat_fairness(ds.rounds, confidence=confidence, cluster=matches),
                                       game_twins(pl.DataFrame(ds.manifest["study"]["cells"]))),
        "points": points_when_winning(ds.rounds, confidence=confidence),
        "lengths": lengths_with_censoring(ds.rounds, confidence),
        # the counts and shares of each length; its survival (which would count a round stopped by the
        # turn cap as ended there) is left out: the survival table is Kaplan–Meier's
        "length_distributions": length_distributions(ds.rounds, confidence=confidence).drop(
            "estimate", "ci_low", "ci_high"),
        "survival": turn_survival(ds.rounds, confidence=confidence),
        "quality": game_quality(ds.rounds, confidence=confidence),
        "card_values": card_values(ds.seats, confidence=confidence, declared=declared_by_variant(
            pl.DataFrame(ds.manifest["study"]["cells"]))),
    }
    if ds.manifest["study"]["mode"] != "single_round":
        tables["rounds_per_match"] = rounds_per_match(ds.matches, confidence=confidence)
        tables["match_ends"] = match_ends(ds.matches, confidence=confidence)
        tables["match_wins"] = match_vs_round_wins(ds.seats, ds.matches, confidence=confidence)
    return tables


def lengths_with_censoring(rounds: pl.LazyFrame, confidence: float = 0.95) -> pl.DataFrame:
    """:func:`length_summary` with the cell's ``truncated_share`` on every row and, on the ``n_turns``
    row, the Kaplan-Meier ``restricted_mean`` up to ``restricted_to`` turns (truncated rounds censored).
    A quantile of turns at the cap in a cell with capped rounds is empty: it is not a length any round
    had, only that the rounds there lasted longer than the cap (docs/rules.md §8.3: "> cap")."""
    summary = length_summary(rounds, confidence=confidence)
    censoring = restricted_means(rounds).with_columns(pl.col("players").cast(summary.schema["players"]))
    censoring = censoring.with_columns(pl.col(c).cast(summary.schema[c]) for c in ("variant", "lineup"))
    table = summary.join(censoring, on=list(CELL), how="left")
    turns = pl.col("metric") == "n_turns"
    table = table.with_columns(pl.when(turns).then(pl.col(c)).otherwise(None).alias(c)
                               for c in ("restricted_mean", "restricted_to"))
    at_cap = turns & (pl.col("truncated_share") > 0)
    return table.with_columns(pl.when(at_cap & (pl.col(q) >= pl.col("restricted_to"))).then(None).otherwise(pl.col(q))
                              .alias(q) for q in table.columns if q[0] == "q" and q[1:].isdigit())


def comparisons(ds: Dataset, confidence: float = 0.95) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Every ``[[comparisons]]`` entry of the spec at each shared value of the other axes: the win rate of
    every seat and the length metrics, paired when the two cells share decks, each table with Holm's
    ``p_holm`` over its rows. (The game-quality effects are :func:`unosim.analysis.effects`.)"""
    cells = ds.cells()
    pairs = comparison_pairs(cells, ds.manifest["study"]["comparisons"])
    side_a: dict[str, tuple[pl.DataFrame, pl.DataFrame]] = {}   # the A cell of the pairs in turn
    done = {}
    for i in by_a_cell(pairs):
        spec, pair = pairs[i]
        shared = {c: pair[c] for c in CELL if c != spec["axis"]}
        if pair["name"] not in side_a:
            side_a.clear()
            side_a[pair["name"]] = compared_rows(ds.seats, ds.rounds, {**shared, spec["axis"]: spec["a"]})
        (wins_a, lengths_a), (wins_b, lengths_b) = side_a[pair["name"]], compared_rows(
            ds.seats, ds.rounds, {**shared, spec["axis"]: spec["b"]})
        label = pair_label(spec, pair, ds.shares_decks(pair["name"], pair["name_b"]))
        done[i] = (seat_wins(wins_a, wins_b, paired=label["paired"], confidence=confidence)
                   .select(*[pl.lit(v).alias(k) for k, v in label.items()], pl.all()),
                   [{**label, **length_difference(lengths_a.select("game", metric), lengths_b.select("game", metric),
                                                  metric, paired=label["paired"], confidence=confidence)}
                    for metric in LENGTH_METRICS])
    wins = [done[i][0] for i in range(len(pairs))]
    lengths = [row for i in range(len(pairs)) for row in done[i][1]]
    wins_table, lengths_table = pl.concat(wins, how="diagonal_relaxed"), pl.DataFrame(lengths)
    twins = game_twins(ds.cells())
    return tuple(with_holm(t, "p_value", twins) for t in (wins_table, lengths_table))


def write_tables(tables: dict[str, pl.DataFrame], directory: str | Path) -> list[Path]:
    """Each table as ``<directory>/<name>.csv`` (atomically, with a checksummed index); returns the paths."""
    return table_store.write_tables(tables, directory)


def read_tables(directory: str | Path) -> dict[str, pl.DataFrame]:
    """The tables written by :func:`write_tables` that its index vouches for (stale ones left out)."""
    return table_store.read_tables(directory)


def as_written(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """Each table as a reader of its CSV file sees it (written and parsed back in memory)."""
    return {name: pl.read_csv(io.BytesIO(table_store.csv_bytes(t)), infer_schema_length=None)
            for name, t in tables.items()}


def checked_claims(tables: dict[str, pl.DataFrame], profile: Profile | None = None) -> list[Claim]:
    """The findings' claims of ``tables`` as written to CSV under ``profile``, verified by the checker
    (raises :class:`~unosim.analysis.checker.ClaimError` on any violation)."""
    written = as_written(tables)
    found = claims(written, profile)
    assert_claims(written, found, profile)
    return found


def findings_json(found: list[Claim], profile: Profile | None = None) -> str:
    return json.dumps({"format": ANALYSIS_FORMAT, "families": {t.name: t.family for t in CLAIM_TABLES.values() if t.family},
                       "profile": (profile or Profile.default()).as_mapping(),
                       "claims": [c.as_dict() for c in found]}, indent=1, ensure_ascii=False) + "\n"


def write_standard_tables(tables: dict[str, pl.DataFrame], directory: str | Path,
                          profile: Profile | None = None) -> list[Path]:
    """:func:`write_tables` with ``findings.json`` (the checked claims under ``profile``, indexed like the
    tables, and the profile itself) and a ``FORMAT`` file naming :data:`ANALYSIS_FORMAT`. Raises
    ClaimError before writing anything when a finding contradicts its tables. ``profile`` must be the one
    the ``verdicts`` table was judged with (default: the default profile)."""
    found = checked_claims(tables, profile)
    paths = table_store.write_tables(tables, directory, {FINDINGS_FILE: findings_json(found, profile)})
    write_text_atomic(Path(directory) / FORMAT_FILE, f"{ANALYSIS_FORMAT}\n")
    return paths


def read_findings(directory: str | Path) -> list[Claim] | None:
    """The claims of ``findings.json`` (None when absent, stale or of another format)."""
    text = table_store.read_document(directory, FINDINGS_FILE)
    if text is None:
        return None
    data = json.loads(text)
    if data.get("format") != ANALYSIS_FORMAT:
        return None
    return [Claim.from_dict(c) for c in data["claims"]]


def read_profile(directory: str | Path) -> Profile | None:
    """The profile ``findings.json`` was judged under (None when absent, stale or of another format)."""
    text = table_store.read_document(directory, FINDINGS_FILE)
    if text is None:
        return None
    data = json.loads(text)
    return Profile.from_mapping(data.get("profile")) if data.get("format") == ANALYSIS_FORMAT else None


def read_standard_tables(directory: str | Path) -> dict[str, pl.DataFrame] | None:
    """The tables of :func:`write_standard_tables`, or None when absent or of another format."""
    marker = Path(directory) / FORMAT_FILE
    if not marker.exists() or marker.read_text().strip() != str(ANALYSIS_FORMAT):
        return None
    return read_tables(directory)
