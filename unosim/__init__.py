"""unosim: fast, rigorous Monte Carlo simulation and statistics for UNO-family card games.

Entry points: :func:`simulate` (one cell, in memory), :func:`replay` (one game as a readable log),
:func:`get_variant` (rule sets), :func:`tournament` (a fair duplicate tournament of policies),
:func:`ladder` (policies rated on one scale per variant: how much of the game is skill),
:func:`tune` (search the ``weighted`` policy's weights against a field).

Everything else lives in subpackages, in layers (each imports only those below it):
:mod:`unosim.cli` (the ``unosim`` command), :mod:`unosim.strategies` (tournaments, tuning),
:mod:`unosim.reporting`, :mod:`unosim.analysis`, :mod:`unosim.pipeline` (studies),
:mod:`unosim.play` (simulate, replay), :mod:`unosim.engine` (compiled) and :mod:`unosim.reference`
(pure Python), :mod:`unosim.store` (datasets) and :mod:`unosim.game` (cards, rules, policies).

Importing the package loads neither numba nor the compiled engine: :mod:`unosim.play.simulate` imports
:mod:`unosim.engine` inside the call that runs it, and the engine sets up its cache then. So
``unosim.game`` and ``unosim.reference`` work without numba.
"""

from .game.version import __version__
from .game.protocol import ENGINE_VERSION
from .game.rules import RuleSet, get_variant, variant_names
from .play.simulate import Results, simulate
from .strategies.tournaments import tournament
from .play.trace import replay
from .strategies.tuning import tune
from .strategies.tournaments.ladder import ladder

__all__ = ["__version__", "ENGINE_VERSION", "RuleSet", "get_variant", "variant_names", "Results",
           "ladder", "replay", "simulate", "tournament", "tune"]
