"""The compiled game engine.

The numeric layouts (rule arrays, output tables, game record, event codes, policy ids) are declared
once in :mod:`unosim.game.protocol` (pure Python, shared with the reference engine and the API). The kernel
modules, in dependency order: :mod:`.rng` (random streams), :mod:`.card_terms` (the ``weighted``
policy's card-only terms), :mod:`.state` (the game record and read-only verbs), :mod:`.policy` (the
one dispatch of every policy decision, over :mod:`.policy_random`, :mod:`.policy_heuristic`,
:mod:`.policy_weighted`), :mod:`.piles` (moving cards, knock-outs), :mod:`.mechanics` (one wing per
mechanism — Dumb Fu poses, the spin wheel, 7-0, UNO Flip's sides — behind the fixed hooks the core
calls), :mod:`.effects` (card effects, skips, UNO checkpoint), :mod:`.turn` (the turn and the turn
loop), :mod:`.lookahead` (the search) and :mod:`.round` (round and match; the entry point ``run_games``).
Only they hold the engine's numba code (the package's one other compiled loop is in
:mod:`unosim.analysis.card_values`), and nothing imports them until the engine is first used
(``import unosim``, ``unosim.game.rules`` or ``unosim.reference`` never do).

They are compiled per *build* (:mod:`.builds`): a call compiles only the mechanisms its variant uses
and the policies its lineup needs, switched by the constants of :mod:`.features`, and each build is
cached once per engine version wherever the checkout is (:mod:`.cache`). :mod:`.loader` loads them:
:func:`kernel` returns a build ready to run (compiling it first, announced on stderr, :mod:`.notice`);
:func:`choose` picks the build for a call: the smallest one already compiled that covers it, else its
own. Which build plays a game never changes the game.

Both engines — these kernels and the readable pure-Python twin in :mod:`unosim.reference` — follow
docs/rules.md **and** the protocol of docs/protocol.md (cited as "protocol §x"), which fixes everything
docs/rules.md leaves to the implementation: the order of random numbers, the order of cards in hands
and piles, and the trace events. Given the same seed, variant, lineup and rules, the two engines
therefore produce identical traces, which the differential tests check.
"""

from .builds import Build, build_for
from .loader import COMPILES, OWN_BUILD, Kernel, choose, estimate_seconds, kernel, package_name, preferred_build

__all__ = ["Build", "COMPILES", "Kernel", "OWN_BUILD", "build_for", "choose", "estimate_seconds", "kernel",
           "package_name", "preferred_build"]
