"""Figures from the analysis tables (matplotlib). Plot functions only draw: every number they show is a
column of a table made by :mod:`unosim.analysis`; they filter and lay out, never estimate.

Each function returns a ``matplotlib.figure.Figure`` made without pyplot (no global figure state, no GUI
backend needed; a notebook displays it inline); :func:`to_png` and :func:`to_svg` encode one for the
report. By concept: :mod:`.distributions` (per cell: positions, lengths, survival, card values, matches,
game quality), :mod:`.effects` (what a rule or lineup changes), :mod:`.rankings` (skill edges, card
balance), :mod:`.design` (a design search's Pareto chart), all laid out by :mod:`.layout` (desktop or phone: :func:`phone`).
"""

from .design import pareto_chart
from .distributions import (
                            MIN_AT_RISK,
                            card_values_vs_points,
                            length_curves,
                            match_vs_round,
                            quality_by_cell,
                            survival_curves,
                            win_rate_by_position,
)
from .effects import effect_forest, effect_row_label, length_differences, paired_deltas
from .layout import DESKTOP, Layout, pad_for_phone, phone, to_png, to_svg
from .rankings import card_balance_chart, skill_chart

__all__ = ["DESKTOP", "MIN_AT_RISK", "Layout", "card_balance_chart", "card_values_vs_points", "effect_forest",
           "effect_row_label", "length_curves", "length_differences", "match_vs_round", "pad_for_phone",
           "paired_deltas", "pareto_chart", "phone", "quality_by_cell", "skill_chart", "survival_curves", "to_png", "to_svg",
           "win_rate_by_position"]
