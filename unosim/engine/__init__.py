"""The compiled game engine and its protocol.

The numeric layouts (rule arrays, output tables, game record, event codes, policy ids) are declared
once in :mod:`unosim.game.protocol` (pure Python, shared with the reference engine and the API). The kernel
modules, in dependency order: :mod:`.rng` (random streams), :mod:`.state` (the game record and
read-only verbs), :mod:`.policy` (the one dispatch of every policy decision, over :mod:`.policy_random`,
:mod:`.policy_heuristic`, :mod:`.policy_weighted`), :mod:`.piles` (moving cards, knock-outs),
:mod:`.wheel` (spin), :mod:`.effects` (card effects, skips, UNO checkpoint), :mod:`.round` (turn,
round, match; the entry point ``run_games``) and :mod:`.lookahead` (the search). Only they hold numba
code, and nothing imports them until the engine is first used (``import unosim``, ``unosim.game.rules`` or
``unosim.reference`` never do).

They are compiled per *build* (:mod:`.builds`): a call compiles only the mechanisms its variant uses
and the policies its lineup needs, switched by the constants of :mod:`.features`, and each build is
cached once per engine version wherever the checkout is (:mod:`.cache`). :func:`kernel` returns a build
ready to run (compiling it first, announced on stderr, :mod:`.notice`); :func:`choose` picks the build
for a call: the smallest one already compiled that covers it, else its own. Which build plays a game
never changes the game.

Both engines — these kernels and the readable pure-Python twin in :mod:`unosim.reference` — follow
docs/rules.md **and** the protocol below, which fixes everything docs/rules.md leaves to the
implementation (order of random numbers, order of cards in hands and piles, trace events). Given the
same seed, variant, lineup and rules, the two engines therefore produce identical traces, which the
differential tests check.

1. Random numbers
-----------------
Each game (= match) owns two xoshiro256** streams, ``deck`` (stream 0) and ``play`` (stream 1), seeded
from ``(seed, game)`` only (``MASK = 2**64-1``, ``GOLDEN = 0x9E3779B97F4A7C15``)::

    mix64(z):  z = (z ^ z>>30) * 0xBF58476D1CE4E5B9;  z = (z ^ z>>27) * 0x94D049BB133111EB;  z ^ z>>31
    k0 = mix64(seed ^ 0x243F6A8885A308D3);  k1 = mix64(k0 + (game + 1) * GOLDEN)
    stream s: x = k1 + (s + 1) * 0xD1B54A32D192ED03; 4 times: x += GOLDEN; state[i] = mix64(x)

(all arithmetic mod 2**64). Draws: ``next64()`` is xoshiro256**; ``below(n) = ((next64() >> 11) * n)
>> 53`` (uniform in ``0..n-1``); ``uniform() = (next64() >> 11) * 2**-53``; ``bernoulli(p)`` returns
False for ``p <= 0`` and True for ``p >= 1`` **without drawing**, else ``uniform() < p``.
``shuffle(a)`` is Fisher-Yates: for ``i = len-1 .. 1``: ``j = below(i + 1)``, swap ``a[i], a[j]``.

The ``deck`` stream serves the dealer draw, the deck shuffle, first-card WD4 reinsertion, reshuffles
and ``shuffle_hands`` redeals. Everything else (policy choices, UNO forget/catch, Dumb Fu pose) uses
the ``play`` stream. Cells that share the deck and player count thus deal identical opening hands
whatever the lineup or house rules (common random numbers).

2. Cards in hands and piles
---------------------------
A hand is an ordered list: dealt and drawn cards are appended; a played or discarded card is removed
keeping the order of the others; ``swap_hands`` exchanges two lists whole. The draw pile is an array
whose **last** element is the top; the initial deck is ``cards.deck_ids`` (ascending ids) shuffled.
The discard pile is an array whose last element is ``T``. Cards placed "under" ``T`` (blank
``discard_colour``) are inserted directly below ``T`` one by one in hand order. A reshuffle forms
the new draw pile from the discard pile minus ``T`` (bottom first) and shuffles it with ``deck``; a
reshuffle that would move no card does nothing (no event, not counted).

3. The round
------------
::

    D = first_dealer (or deck.below(n) when random) in the first round of a match, else previous D + 1
    emit ROUND_START(D, round, game); shuffle; deal hand_size rounds of one card to D+1, D+2, ...
    record opening hands; F = D+1; d = +1
    turn up: T = pop(); emit FIRST_CARD(F, T); a WD4 goes back at index j = deck.below(m+1) of the
      m-card draw pile (index m = top): emit RETURN(T, j) and turn up again; after FIRST_CARD_MAX_RETURNS (1000) returns
  the WD4 stays as T and the round ends truncated with no turn (loop_bound_hits = 1)
    first-card effect (docs/rules.md §1.9), acting player F, with these events:
      SKIP: SKIP(F), start next(F) | DRAW_TWO: F draws 2, SKIP(F), start next(F)
      REVERSE: d = -1, start D | WILD/DUMB_FU: COLOUR(F, c) | BLANK: COLOUR(F, c) then its effect
    emit FIRST_SEAT(first, d); checkpoint(F)
    repeat:
      if n_turns == max_turns_per_round: end truncated
      n_turns += 1; emit TURN(p, n_turns); TURN(p); stop if the round ended
      checkpoint(acting player)
      stalemate: a turn (its checkpoint included) in which no card moved and no hand changed owner is
      idle; after n_active idle turns in a row the round ends as stalemate

``TURN(p)`` (classic family): minions pose event for ``p``; ``L`` = indices of legal cards in hand
order. The policy returns a hand index or *draw* (not consulted when ``L`` is empty: *draw*).
*draw*: draw one card (draw_until_playable: until a legal card is drawn or the draw fails); if the
last card drawn is legal the policy decides whether to play it (``force_play_drawn``: it must).
A play removes the card, emits ``PLAY(p, c)``, then for a wild ``COLOUR(p, c)`` (also for a last
card); an empty hand ends the round (final-card effects, §1.11) except a last ``shuffle_hands`` blank
with final-card effects on, which redeals and continues with ``next(p)``. Otherwise the effect:

* SKIP: ``SKIP(v)`` for ``v = next(p)`` (pose event of ``v``), next ``next(v)``.
* REVERSE: ``d = -d``; two active players and ``two_player_reverse_skip``: ``SKIP(opponent)``, ``p``
  again; otherwise ``next(p)``.
* DRAW_TWO: ``v`` draws 2, then ``SKIP(v)``, next ``next(v)``.
* WD4: the victim's policy decides to challenge (only with ``wd4_challenge``): ``CHALLENGE(v,
  guilty)``; guilty → ``p`` draws 4, next ``v``; innocent → ``v`` draws 6, ``SKIP(v)``, next
  ``next(v)``; no challenge → ``v`` draws 4, ``SKIP(v)``, next ``next(v)``.
* DUMB_FU: ``DUMBFU(t)`` for ``t = next(p)`` (opens/replaces its window), next ``t``.
* BLANK: per ``blank_effects``: ``swap_hands`` → policy target, ``SWAP(p, t)``; ``shuffle_hands`` →
  ``REDEAL(p)``; ``others_draw_1`` → the others draw 1 from ``next(p)`` in direction ``d``;
  ``discard_colour`` → ``DISCARD(p, c)`` for each card of colour ``A`` in hand order (an emptied
  hand wins); ``draw_two_next`` → ``v`` draws 2, ``SKIP(v)``, next ``next(v)``.

Draws emit ``DRAW(s, c)``, or ``DRAW_FAIL(s)`` (the obligation ends); a reshuffle emits
``RESHUFFLE(m)`` before the draw that needed it. A skip of a seat with an open Dumb Fu window is a
pose event after the skipping card's draws. A window closes at its second event: ``play.bernoulli(
p_dumbfu_fail)``, ``POSE(t, fail)``, a failure draws ``dumbfu_penalty``.

``checkpoint(a)``: for seats ``a, a+d, a+2d, ...`` (active ones, all ``n``), each with one card and
``uno_done`` clear: ``forgot = bernoulli(p_forget_uno[s])``; not forgot → ``UNO(s, 1)``; forgot →
``caught = bernoulli(p_catch)`` → ``UNO(s, 2)`` and draw ``uno_penalty``, else ``UNO(s, 3)``; then
``uno_done[s]`` is set. ``uno_done`` clears whenever a hand's size changes or it changes owner.

``shuffle_hands`` by ``p``: the hands of seats ``0..n-1`` (active), each in hand order, are
concatenated, shuffled with ``deck``, and dealt from the end of that array one card at a time to
``p+1, p+2, ...`` (active seats, clockwise) until none remain.

End: ``ROUND_END(winner, end, points)``; then for a finished match ``MATCH_END(winner, mask, end)``.

Quality measures (round columns; :mod:`.quality`). A *standings check* happens once when the setup is
over (after ``checkpoint(F)``, or when the setup ended the round) and once after every counted turn,
jump-ins included: after its checkpoint, or at once when the turn ended the round (so the winner's
empty hand is seen); the turn cap adds no check. Knocked-out seats are not active. At a check the
*leader* is the unique active seat with strictly the fewest cards (none while two or more tie).

* ``lead_changes``: checks whose leader exists and differs from the previous leader of the round (the
  last check that had one); the first leader is not a change, and ties neither count nor reset it.
* ``winner_max_deficit``: the winner's largest (own hand − smallest active hand) over the checks; 0
  when it was never behind; -1 in the raw table, null in ``simulate(...).rounds``, without a winner.
  Tracked per seat (``g["deficit"]``) as the winner is known only at the end.
* ``max_hand``: the largest hand any seat held at any moment of the round: ``hand_size`` from the deal,
  raised by every single draw as the card enters the hand (a knocked-out hand counts with the card
  that reached the mercy limit). No other move makes the largest hand larger.

4. Decisions (built-in policies)
--------------------------------
Every decision is asked of the seat's policy id through :mod:`.policy`; an id that is no built-in
policy raises ``ValueError`` (``run_games`` checks the lineup before the first game).

``random`` is docs/rules.md §5 with optional parameters ``p_draw``, ``p_bluff``, ``p_challenge`` (default 0,
i.e. exactly §5): normal turn — ``L`` empty → draw; else if ``voluntary_draw`` and
``play.bernoulli(p_draw)`` → draw; else if bluffing is allowed, the hand holds an illegal WD4 and
``play.bernoulli(p_bluff)`` → the first illegal WD4 in hand order; else ``L[play.below(len(L))]``.
Colour: ``play.below(4)``. Drawn legal card: kept if ``play.bernoulli(p_keep_drawn)`` (every built-in;
at the default 0 nothing is drawn), else played. Challenge: ``play.bernoulli(p_challenge)``.
Target: ``candidates[play.below(k)]``, candidates = the other active seats from ``next(p)`` in
direction ``d``.

``greedy_points`` plays the legal card with the most points (first in hand order on ties);
``keep_wilds`` plays a coloured legal card if it has one — maximising 100 × (cards of that colour in
its hand) + points, first on ties — else the first legal wild. Both: colour = the colour they hold
most after the play (lowest index on ties; ``play.below(4)`` if they hold no coloured card), target =
the candidate with the fewest cards (first on ties), drawn legal card played unless
``p_keep_drawn`` keeps it, never draw voluntarily or bluff, challenge with
``play.bernoulli(p_challenge)``.

``weighted`` (and its presets) scores every option of a decision by Σ weight × feature and takes the
best; the features, the options and the tie rules (a draw from the play stream only among tied
options) are specified in :mod:`.policy_features` and :mod:`.policy_weighted`.

``lookahead`` (engine/lookahead.py) answers a play or stack decision with the choice its search
stored before the turn (the turn loop pauses before its turn, ``play_round`` runs the search; a search
draws one ``play.next64()`` as its seed, before any other number of the turn) and every other decision
as its rollout preset; each play or stack answer emits ``LOOKAHEAD(p, index or -1, searched)``.
The search runs only when the turn will ask a play or stack decision with at least two options and no
Dumb Fu pose closes first; otherwise the preset answers and no number is drawn for it.

5. Stacking, no_mercy and the other house rules (docs/rules.md §1.7, §2.4, §4)
----------------------------------------------------------------------
State: pending total ``P``, last draw value ``V``, last stacked kind ``K``. A draw card that takes
effect (played with cards left) adds its value: ``P += value``, ``V = value``, ``K = kind``, and
``largest_stack = max(largest_stack, P)``; this also holds with ``stacking = none``, where ``P`` is
then resolved at once (so ``largest_stack`` is the largest single penalty).

* ``stacking = none`` (classic family): DRAW_TWO/WD4 resolve at once as in §3 above, ``P = 0`` after.
* ``stacking != none``: after the draw card (WD4 played normally: after the victim declined to
  challenge) the responder ``r = next(p)`` (WRD4: ``d = -d`` first; two active players: ``r = p``)
  takes the next turn, a **response turn**: ``S`` = hand indices (hand order) allowed by the mode —
  ``same_kind``: kind ``== K``; ``any_draw``: any draw card; ``escalating``: draw value ``>= V`` — no
  colour match, no WD4 restriction. The policy picks an index of ``S`` or accepts. Accept:
  ``ACCEPT(r, P)``, ``P = V = 0`` and ``K = -1`` *before* the draws, then ``r`` draws the old ``P``
  one by one; next ``next(r)``. A stack response is played like any card (``PLAY``, ``COLOUR`` for a
  wild) and cannot be challenged. A challenged WD4 resolves as §1.8 and ``P = 0`` afterwards.
* ``random``: ``S`` empty → accept; else ``S[play.below(len(S))]``. ``greedy_points`` / ``keep_wilds``
  stack whenever ``S`` is non-empty, choosing from ``S`` exactly as for a normal play.

Mercy (``mercy_limit > 0``): ``draw_one`` checks after the card enters the hand; at ``hlen >=
mercy_limit`` the seat is knocked out: ``KNOCKOUT(s, turn)``, its hand is appended (hand order) to the
**set-aside** pile, it becomes inactive, the draw obligation ends (the draw reports failure), and if it
was the responder ``P = V = 0``. One active seat left → it wins (``end = knockout``) at once. After a
knockout the next turn belongs to ``next(last knocked-out seat)`` (applied when the acting turn ends).
A reshuffle appends the set-aside pile (oldest first) after the discards, then shuffles.

no_mercy setup: turn up cards until a NUMBER (each ``FIRST_CARD``; earlier ones stay in the discard pile
in turn-up order, under ``T``); no first-card effect; ``FIRST_SEAT(F, +1)``; checkpoint(F).

Effects (with cards left): ``seven_o`` 7 → target = policy target (as blank ``swap_hands``),
``SWAP(p, t)``, ``swaps_7 += 1``; 0 → ``PASS(p)``: every active hand moves to ``next(seat)`` at once,
``passes_0 += 1``. SKIP_EVERYONE → next ``p``. DISCARD_ALL → ``DISCARD(p, c)`` for every other card of
its colour in hand order, placed under ``T`` (an emptied hand wins). ROULETTE: ``v = next(p)``;
``c = policy colour of v``; ``ROULETTE(v, c)``, ``A = c``; ``v`` draws until a card of colour ``c``
(wilds do not count) or the obligation ends; next ``next(v)``. REVERSE with two active seats
(``two_player_reverse_skip``): ``d = -d``, ``SKIP(opponent)``, ``p`` again (as classic).

Final card: no_mercy has none (``P`` discarded) unless ``final_card_effects``: then a final draw card
makes ``next(p)`` (after a WRD4's reversal; two active seats: the opponent) draw the whole ``P`` (this
card included), mercy applying. Classic family with stacking: a final DRAW_TWO/WD4 makes ``next(p)``
draw ``P`` including the card.

Jump-in (``jump_in``): after the checkpoint of a turn whose last act was a play (or of a jump-in), with
``P = 0`` and ``T`` not wild, seats from ``next(last player)`` in direction ``d`` (active, not the last
player; each other seat once, also when the last player was knocked out by its UNO penalty) are
asked in turn; the first holding a card with id ``== T`` (first such index in hand order)
whose policy agrees (built-ins: always) jumps in: the turn cap is checked, ``n_turns += 1``,
``TURN(s, n, 1)`` (``b = 1`` marks a jump-in), then the play and its effect, the checkpoint, and the
jump-in check again (chains).

Scoring with knock-outs: the round winner scores the active opponents' hands plus 250 per seat knocked
out in the round (every family: a house-rule knock-out counts like no_mercy's); ``lowest`` adds 250 to a
knocked-out seat instead of its (set-aside) hand.

6. spin: spin cards and the wheel (docs/rules.md §2.3)
-----------------------------------------------
A spin card (NUMBER with the spin flag) played with cards left makes ``next(p)`` the designated
spinner (``SPINNER``; a new spin card replaces it; a jump-in cancels it); the next player is
``next(p)`` as for any number. ``TURN(s)`` of the designated spinner: minions pose event (never in
spin), then ``s`` spins instead of the turn: the designation is cleared and ``spin(s)`` runs.
``spin_first_card_spins``: a spin card turned up first designates ``F``.

``spin(s, final)``: ``o = weighted(play, spin_weights)`` — ``u = uniform() * sum(w)``, the first ``i``
with ``u < w[0] + ... + w[i]`` (outcome order of ``rules.SPIN_OUTCOMES``; ``w`` and ``shout_weight`` scaled
by the power of two that puts their largest entry in [0.5, 1), which changes no draw and keeps sums
finite) — then ``SPIN(s, o, final)``
and the outcome. ``E`` = the seats that take part: every active seat, except the round winner in a
final spin. Discarding ``D`` (a list of hand indices, in the order the cards go down): each card is
removed from the hand and put on the discard pile (``DISCARD(seat, c)``); the last one is the new
``T``; if it is wild the discarder's colour decision names ``A`` (``COLOUR``), else ``A`` = its colour;
nothing discarded → ``T``, ``A`` unchanged. After a discard, a hand that became empty wins at once
(not in a final spin; no final-card effects).

* ALMOST_UNO (``hlen > 2``): random — ``idx = [0..h-1]``, ``play.shuffle(idx)``; discard ``idx[:h-2]``
  in that order. Heuristics keep the two cards with the highest keep score (ties: earlier in hand) and
  discard the rest in hand order; keep score: greedy_points ``-points``; keep_wilds ``1000`` for a
  wild, else ``100 × (cards of its colour) + points``.
* DISCARD_NUMBER / DISCARD_COLOUR: the candidates are the distinct numbers of its NUMBER cards
  (ascending) / the distinct colours of its coloured cards (ascending); none → nothing. random — pick
  ``play.below(k)``, take every matching card (hand order), ``play.shuffle`` that list, discard it.
  Heuristics discard every matching card in hand order, choosing greedy_points: the largest total
  points (first on ties); keep_wilds: the most cards (first on ties).
* DRAW_RED / DRAW_BLUE: ``s`` draws until a card of colour R (0) / B (3) or a wild is drawn, or the
  obligation ends.
* TRADE_HANDS: every seat of ``E`` gives its hand to the next seat of ``E`` clockwise (``i → i+1``,
  whatever ``d``): ``TRADE(s)``.
* SHOW_HAND: ``SHOW(s)``; the hand is recorded as seen (the ``shown`` colour counts of ``s``); no
  other change. ``keep_wilds`` uses it: among colours tied for its most-held, it names the one the
  next seat was last seen to hold fewest of (never seen: counts 0).
* WAR: participants = seats of ``E`` holding a NUMBER card, in order from ``s`` in direction ``d``.
  Each level, each remaining participant (in that order) reveals its highest unrevealed NUMBER
  card — random: ``play.below(k)`` among the ``k`` such cards of that number (hand order); heuristics:
  the first — ``REVEAL(seat, c)``; a participant without one drops out. No one left → no winner; one
  left → it wins (at level 0 too); otherwise the unique highest reveal of this level wins, else the
  tied seats go on to the next level. The winner ``w`` — ``WAR(w)`` — discards all its revealed cards:
  random in ``play.shuffle`` order of the reveal list, heuristics in reveal order. No winner →
  ``WAR(-1)``.
* UNO_SPIN: eligible = seats of ``E`` holding a card, in seat order ``0..n-1``; the shouter is
  ``weighted(play, shout_weight of the eligible)``: ``SHOUT(w)``; it discards one card — random
  ``play.below(h)``; greedy_points the most points (first on ties); keep_wilds its highest-point
  coloured card, a wild only if it holds nothing else (first on ties).

Next turn: ``next(war winner)`` / ``next(shouter)`` when ``spin_continue_after_winner``, else
``next(s)``; then the checkpoint (acting seat ``s``). Final card: after ``p`` wins with a spin card
(``final_card_effects``), ``next(p)`` spins with ``final = 1`` (not a turn; no checkpoint; an emptied
hand changes nothing). Counters: ``spins`` (spin turns and final spins), ``final_spins``, one per
outcome; per seat ``wheel_gained`` (cards drawn by DRAW_RED/DRAW_BLUE and received by TRADE_HANDS)
and ``wheel_lost`` (cards discarded by the wheel and given away by TRADE_HANDS).
"""

from __future__ import annotations

import importlib
import sys
import types
from dataclasses import dataclass

from .builds import Build, build_for

#: the build of this package's own modules (``unosim.engine.round`` …): everything
OWN_BUILD = Build.full()
_loaded: dict[Build, Kernel] = {}
#: the compiles this process made: (build, seconds)
COMPILES: list[tuple[Build, float]] = []


@dataclass(frozen=True)
class Kernel:
    """A loaded build: its entry point and game record constructor (``round.run_games``,
    ``state.new_game``, ``state.TRACE_CAPACITY``)."""

    build: Build
    round: types.ModuleType
    state: types.ModuleType

    @property
    def run_games(self):
        return self.round.run_games

    def new_game(self, ir, fr, pol, pp, trace=False):
        return self.state.new_game(ir, fr, pol, pp, trace)


def package_name(build: Build) -> str:
    """The Python package a build's kernel modules load under (``unosim.engine`` for :data:`OWN_BUILD`)."""
    if build == OWN_BUILD:
        return __name__
    return f"{__name__}.build__{build.key.replace('-', '_').replace('.', '__')}"


def _import(build: Build) -> Kernel:
    """Import the kernel modules as the build's package: a package whose ``__path__`` is this directory
    and whose ``features`` module holds the build's switches, so relative imports resolve inside it."""
    from . import _jit   # registers the per-build cache locator before any function is decorated

    name = package_name(build)
    _jit.PACKAGES[name] = build
    if name != __name__ and name not in sys.modules:
        package = types.ModuleType(name, f"unosim's engine, {build.describe()}")
        package.__path__ = list(__path__)
        package.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
        features = types.ModuleType(f"{name}.features")
        features.__dict__.update(build.constants())
        sys.modules[name] = package
        sys.modules[features.__name__] = features
    return Kernel(build, importlib.import_module(f"{name}.round"), importlib.import_module(f"{name}.state"))


def choose(needed: Build) -> Build:
    """The build a call needing ``needed`` runs on: ``needed`` itself if it is compiled (or loaded in
    this process), else the smallest compiled build covering it, else the build ``UNOSIM_ENGINE_BUILD``
    names if it covers the call, else ``needed`` (compiled on first use)."""
    from . import cache

    if needed in _loaded or cache.is_warm(needed):
        return needed
    covering = [b for b in (*_loaded, *cache.warm_builds()) if b.covers(needed)]
    if covering:
        return min(covering, key=lambda b: (b.size, b.key))
    preferred = preferred_build()
    return preferred if preferred is not None and preferred.covers(needed) else needed


def preferred_build() -> Build | None:
    """``UNOSIM_ENGINE_BUILD``: a build to compile instead of each call's own (``full``: every mechanism
    and policy, compiled once for everything; or a build key such as ``blank-stacking.weighted``)."""
    import os

    raw = os.environ.get("UNOSIM_ENGINE_BUILD", "").strip()
    if not raw:
        return None
    if raw == "full":
        return Build.full()
    try:
        return Build.from_key(raw)
    except ValueError as exc:
        raise ValueError(f"UNOSIM_ENGINE_BUILD={raw!r} is invalid: {exc}; valid is 'full' or a build key "
                         f"such as {Build.full().key!r}") from None


def kernel(build: Build) -> Kernel:
    """The build, ready to run: loaded from the cache, or compiled first (announced on stderr with an
    estimate and the time so far; another process compiling the same build is waited for)."""
    if build in _loaded:
        return _loaded[build]
    from numba.core import config

    from . import cache
    from .notice import CompileNotice

    loaded = _import(build)
    if config.DISABLE_JIT:   # NUMBA_DISABLE_JIT=1 compiles nothing: no notice, no marker
        _loaded[build] = loaded
        return loaded
    if cache.is_warm(build):
        _first_call(loaded)
        cache.mark_used(build)
    else:
        with cache.compile_lock(build, lambda: _say(f"unosim: waiting for another process that is compiling "
                                                     f"the {build.describe()}…")):
            if cache.is_warm(build):   # another process compiled it while this one waited
                _first_call(loaded)
            else:
                with CompileNotice(build.describe(), estimate_seconds(build)) as notice:
                    _first_call(loaded)
                cache.mark_compiled(build, notice.seconds)
                COMPILES.append((build, notice.seconds))
    _loaded[build] = loaded
    return loaded


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _first_call(loaded: Kernel) -> None:
    """One tiny game (classic core, random, one round: every build plays it), which compiles or loads
    the entry point for the build's game record."""
    import numpy as np

    from ..game.policies import lineup_arrays, make_lineup
    from ..game.rules import get_variant

    ir, fr, deck = get_variant("classic", {"n_blank": 0, "match_mode": "single_round"}).compile(2)
    pol, pp = lineup_arrays(make_lineup("random", 2))
    block = loaded.new_game(ir, fr, pol, pp)
    from ..game.protocol import MC_SIZE, RC_SIZE, SC_SIZE
    from ..game.cards import N_HAND_CLASSES
    loaded.run_games(block[0], deck, 0, 0, 1, deck[:0], np.empty((1, RC_SIZE), np.int64),
                     np.empty((2, SC_SIZE), np.int32), np.zeros((2, N_HAND_CLASSES), np.int8),
                     np.empty((1, MC_SIZE), np.int64), 1)


def estimate_seconds(build: Build) -> float:
    """How long the build takes to compile on one core of this machine: the measured model of
    :func:`.builds.model_seconds`, scaled by how fast earlier compiles here were against the model."""
    from . import cache
    from .builds import model_seconds

    ratios = sorted(seconds / model_seconds(b) for b, seconds in cache.recorded_compiles())
    scale = ratios[len(ratios) // 2] if ratios else 1.0
    return model_seconds(build) * min(max(scale, 0.5), 3.0)


__all__ = ["Build", "Kernel", "OWN_BUILD", "build_for", "choose", "estimate_seconds", "kernel", "package_name",
           "preferred_build"]
