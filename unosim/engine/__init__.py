"""The compiled game engine.

The numeric layouts (rule arrays, output tables, game record, event codes, policy ids) are declared
once in :mod:`unosim.game.protocol` (pure Python, shared with the reference engine and the API). The
kernel code is a stack of four folders, each importing only the ones below it:

* :mod:`.core` — the fixed hooks to the wings (:mod:`.core.hooks`), card effects, the turn and turn loop
  (:mod:`.core.turn`), the search (:mod:`.core.lookahead`), the output rows, the audit, and the round and
  match with the entry point ``run_games`` (:mod:`.core.round`);
* :mod:`.mechanics` — one wing per mechanism (blank cards, Dumb Fu poses, the spin wheel, No Mercy's cards,
  stacking, 7-0, UNO Flip's sides) behind the hooks the core calls;
* :mod:`.policies` — the one dispatch of every policy decision (:mod:`.policies.dispatch`) over random, the
  heuristics and ``weighted``;
* :mod:`.record` — the game record and its read-only verbs (:mod:`.record.state`), the random streams,
  moving cards and knock-outs (:mod:`.record.piles`), the quality measures and the search's beliefs.

Only they hold the engine's numba code (the package's one other compiled loop is in
:mod:`unosim.analysis.card_values`), and nothing imports them until the engine is first used
(``import unosim``, ``unosim.game.rules`` or ``unosim.reference`` never do).

They are compiled per *build* (:mod:`.compiler.builds`): a call compiles only the mechanisms its variant uses
and the policies its lineup needs, switched by the constants of :mod:`.features`, and each build is
cached once per engine version wherever the checkout is (:mod:`.compiler.cache`). The build machinery
(:mod:`.compiler`, never compiled) loads them: :func:`kernel` returns a build ready to run (compiling it
first, announced on stderr, :mod:`.compiler.notice`); :func:`choose` picks the build for a call: the smallest
one already compiled that covers it, else its own. Which build plays a game never changes the game.

Both engines — these kernels and the readable pure-Python twin in :mod:`unosim.reference` — follow
docs/rules.md **and** the protocol of docs/protocol.md (cited as "protocol §x"), which fixes everything
docs/rules.md leaves to the implementation: the order of random numbers, the order of cards in hands
and piles, and the trace events. Given the same seed, variant, lineup and rules, the two engines
therefore produce identical traces, which the differential tests check.
"""

from .compiler.builds import Build, build_for
from .compiler.loader import (
           COMPILES,
           OWN_BUILD,
           Kernel,
           choose,
           estimate_seconds,
           kernel,
           package_name,
           preferred_build,
)

__all__ = ["Build", "COMPILES", "Kernel", "OWN_BUILD", "build_for", "choose", "estimate_seconds", "kernel",
           "package_name", "preferred_build"]
