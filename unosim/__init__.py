"""unosim: fast, rigorous Monte Carlo simulation and statistics for UNO-family card games.

Entry points: :func:`simulate` (one cell, in memory), :func:`replay` (one game as a readable log),
:func:`get_variant` (rule sets), :func:`tournament` (a fair duplicate tournament of policies). Studies, datasets and analyses live in submodules and the ``unosim`` CLI.
"""

from ._version import __version__
from .engine import ENGINE_VERSION
from .rules import RuleSet, get_variant, variant_names
from .simulate import Results, simulate
from .tournaments import tournament
from .trace import replay

__all__ = ["__version__", "ENGINE_VERSION", "RuleSet", "get_variant", "variant_names", "Results",
           "replay", "simulate", "tournament"]
