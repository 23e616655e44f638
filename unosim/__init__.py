"""unosim: fast, rigorous Monte Carlo simulation and statistics for UNO-family card games.

Entry points: :func:`simulate` (one cell, in memory), :func:`replay` (one game as a readable log),
:func:`get_variant` (rule sets), :func:`tournament` (a fair duplicate tournament of policies),
:func:`ladder` (policies rated on one scale per variant: how much of the game is skill),
:func:`tune` (search the ``weighted`` policy's weights against a field), :func:`design` (search the rules
and deck for the game a designer wants).

Everything else lives in subpackages, in layers (each imports only those below it):
:mod:`unosim.cli` (the ``unosim`` command), :mod:`unosim.design` (design search),
:mod:`unosim.strategies` (tournaments, tuning),
:mod:`unosim.reporting`, :mod:`unosim.analysis`, :mod:`unosim.pipeline` (studies),
:mod:`unosim.play` (simulate, replay), :mod:`unosim.engine` (compiled) and :mod:`unosim.reference`
(pure Python), :mod:`unosim.store` (datasets) and :mod:`unosim.game` (cards, rules, policies).

Importing the package loads neither numba nor the compiled engine: :mod:`unosim.play.simulate` imports
:mod:`unosim.engine` inside the call that runs it, and the engine sets up its cache then. So
``unosim.game`` and ``unosim.reference`` work without numba.
"""

from typing import TYPE_CHECKING

from .game.protocol import ENGINE_VERSION
from .game.rules import RuleSet, get_variant, variant_names
from .game.version import __version__

# The entry points below are imported on first use (PEP 562): a study worker imports
# ``unosim.pipeline.worker``, which imports this package first, and needs none of the tournaments, tuning
# or replay modules (with them, a worker's start took more CPU: docs/results/code_choices.json).
_LAZY = {"Results": ".play.simulate", "simulate": ".play.simulate", "tournament": ".strategies.tournaments",
         "replay": ".play.trace", "tune": ".strategies.tuning", "ladder": ".strategies.tournaments.ladder",
         "design": ".design"}

if TYPE_CHECKING:  # what type checkers and editors see
    from .design import design
    from .play.simulate import Results, simulate
    from .play.trace import replay
    from .strategies.tournaments import tournament
    from .strategies.tournaments.ladder import ladder
    from .strategies.tuning import tune

__all__ = ["__version__", "ENGINE_VERSION", "RuleSet", "get_variant", "variant_names", "Results",
           "design", "ladder", "replay", "simulate", "tournament", "tune"]


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'unosim' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
