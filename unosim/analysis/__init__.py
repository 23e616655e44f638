"""Statistics on study datasets: pure functions from polars frames to tidy tables.

Every table has one row per estimate with ``estimate``, ``ci_low``, ``ci_high`` and ``n`` (the sample
it rests on), beside the grouping columns (the standard ``length_distributions`` holds counts and
shares only); plots and the report only display them. Findings are claims built from these tables and
checked against them (:mod:`.findings`, :mod:`.checker`).
"""

from .card_balance import card_balance
from .card_values import card_values
from .effects import effects
from .fairness import seat_fairness
from .intervals import wilson_interval, with_mean_ci, with_wilson
from .lengths import distribution, length_distributions, length_summary
from .matches import match_ends, match_vs_round_wins, rounds_per_match
from .paired import compare_lengths, compare_wins
from .skill import skill_edges
from .skill_rules import skill_changes
from .standard import comparisons, read_tables, standard_tables, write_tables
from .survival import restricted_means, turn_survival
from .win_rates import points_when_winning, win_rates, win_rates_by_dealer_position

__all__ = ["card_balance", "card_values", "compare_lengths", "compare_wins", "comparisons", "distribution",
           "effects", "restricted_means", "seat_fairness", "skill_changes", "skill_edges", "turn_survival",
           "length_distributions", "length_summary", "match_ends", "match_vs_round_wins", "points_when_winning",
           "read_tables", "rounds_per_match", "standard_tables", "wilson_interval", "win_rates",
           "win_rates_by_dealer_position", "with_mean_ci", "with_wilson", "write_tables"]
