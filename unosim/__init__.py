"""unosim: fast, rigorous Monte Carlo simulation and statistics for UNO-family card games.

Entry points: :func:`simulate` (one cell, in memory), :func:`replay` (one game as a readable log),
:func:`get_variant` (rule sets), :func:`tournament` (a fair duplicate tournament of policies),
:func:`ladder` (policies rated on one scale per variant: how much of the game is skill),
:func:`tune` (search the ``weighted`` policy's weights against a field).
Studies, datasets and analyses live in submodules and the ``unosim`` CLI.

Importing the package loads neither numba nor the compiled engine: :mod:`unosim.simulate` imports
:mod:`unosim.engine` inside the call that runs it, and the engine sets up its cache then. So
``unosim.cards``, ``unosim.rules``, ``unosim.protocol`` and ``unosim.reference`` work without numba.
(``simulate`` is bound here eagerly rather than through a PEP 562 ``__getattr__``: the function shares
its name with its module, and a lazy binding would be shadowed by the module as soon as anything
imported ``unosim.simulate``.)
"""

from ._version import __version__
from .protocol import ENGINE_VERSION
from .rules import RuleSet, get_variant, variant_names
from .simulate import Results, simulate
from .tournaments import tournament
from .tournaments.ladder import ladder
from .trace import replay
from .tuning import tune

__all__ = ["__version__", "ENGINE_VERSION", "RuleSet", "get_variant", "variant_names", "Results",
           "ladder", "replay", "simulate", "tournament", "tune"]
