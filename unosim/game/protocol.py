"""The numeric protocol shared by the compiled engine, the reference engine and the Python API.

Pure Python (numpy, never numba): every record layout, id and code the two engines exchange is
declared here ONCE, as an ordered table, and the index constants are generated from the tables (the
pattern of OpenSpiel's observer, which derives offsets from ``(name, size)`` lists). Adding a field is
one line in its table; every later index moves with it and nothing is numbered by hand.

Generated module-level names (plain integers; numba freezes module globals at compile time, which is
right for constants and wrong for rule switches: rule switches travel in ``irules``/``frules``):

* ``IR_*`` / ``FR_*``: slots of the compiled rules, ``irules`` int64[IR_SIZE], ``frules``
  float64[FR_SIZE] (filled by ``RuleSet.compile``);
* ``RC_*`` (round table, int64), ``SC_*`` (seat table, int32), ``MC_*`` (match table, int64): the raw
  output columns of both engines, with ``ROUND_COLUMNS`` / ``SEAT_COLUMNS`` / ``MATCH_COLUMNS`` their
  names in :mod:`unosim.play.simulate`'s tables;
* ``ST_*`` / ``SE_*``: the compiled game record's scalar state and per-seat state (``engine/record/state.py``);
* ``EV_*``: trace event codes of the 4-int (int64) records ``(code, seat, a, b)``, ``EV_NAMES`` code →
  name; the order of events is fixed by the protocol in :mod:`unosim.engine`;
* enumerations ``FAMILY_*``, ``END_*``, ``MATCH_END_*``, the vocabularies of the rules the rule table
  numbers (``MODE_*`` …: :func:`unosim.game.rule_table.numbered`) and the built-in policy ids (``RANDOM`` …)
  with their parameter slots (``PP_*``).

:class:`RawResults` is the container both engines return. ``ENGINE_VERSION`` numbers this protocol as
written to datasets: change it whenever a table's columns or their meaning change.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import rule_table
from .rule_table import MAX_PLAYERS

ENGINE_VERSION = 6   # 2: int64 game/round/match/event outputs, loop_bound_hits column; 3: UNO Flip (flips
#                      column, its card classes in the opening hands); 4: the expert prunes (lookahead's
#                      prune parameter, default 1: the games of a lineup with the expert differ); 5: every
#                      wing's columns and events after the core's (minions', spin's, 7-0's moved; games equal);
#                      6: each declared card's opening count (open_declared_1 …; games equal)

from .card_effects import N_CARD_SLOTS  # noqa: E402
from .cards import MAX_CARDS, N_HAND_CLASSES  # noqa: E402  (largest deck: no hand or pile can exceed it)

#: columns of the opening-hand matrix: the built-in hand classes, then one per declared card's slot
#: (docs/rules.md §2.7: ``custom_cards.ALL_HAND_CLASS``), so that each declared card is counted on its own
N_OPENING = N_HAND_CLASSES + N_CARD_SLOTS

# A turned-up first-card WD4 goes back at a random place (docs/rules.md §1.9): almost surely a few
# tries, but not bounded by construction; after this many returns the round ends truncated
# (RC_LOOP_BOUND_HITS = 1).
FIRST_CARD_MAX_RETURNS = 1000


# ---- tables and the generator -----------------------------------------------------------------------
@dataclass(frozen=True)
class Field:
    """One slot group of a record: ``name`` (the constant's suffix), how many slots, the output column
    names (tables only) and what it holds."""

    name: str
    size: int = 1
    columns: tuple[str, ...] = ()
    doc: str = ""
    dtype: str = "int32"   # a table column's type in the results (a wing's counters: int32)


def field(name: str, spec: int | str | tuple[str, ...] = 1, doc: str = "") -> Field:
    """A Field from a compact spec: a slot count, one column name, or a tuple of column names."""
    if isinstance(spec, str):
        return Field(name, 1, (spec,), doc)
    if isinstance(spec, tuple):
        return Field(name, len(spec), spec, doc)
    return Field(name, spec, (), doc)


class Layout:
    """An ordered record of named slot groups; each group's offset is the sum of the sizes before it."""

    def __init__(self, prefix: str, fields: tuple[Field, ...]):
        self.prefix = prefix
        self.fields = fields
        self.offsets: dict[str, int] = {}
        offset = 0
        for f in fields:
            if f.name in self.offsets:
                raise ValueError(f"{prefix}_{f.name} is declared twice")
            self.offsets[f.name] = offset
            offset += f.size
        self.size = offset

    @property
    def columns(self) -> tuple[str, ...]:
        """Output column names, one per slot (tables only)."""
        return tuple(c for f in self.fields for c in f.columns)

    def constants(self) -> dict[str, int]:
        return {**{f"{self.prefix}_{name}": off for name, off in self.offsets.items()},
                f"{self.prefix}_SIZE": self.size}


def enum_constants(prefix: str, names: tuple[str, ...], start: int = 0) -> dict[str, int]:
    """``PREFIX_NAME = index`` for each name (``prefix`` may be empty)."""
    head = f"{prefix}_" if prefix else ""
    return {f"{head}{n.upper()}": i for i, n in enumerate(names, start)}


# ---- enumerations -----------------------------------------------------------------------------------
# The rule mechanisms the kernels implement (IR_FAMILY); unosim.game.families maps variants onto them.
FAMILIES = ("classic", "minions", "spin", "no_mercy", "flip")
# The rule vocabulary is the rule table's (unosim.game.rule_table): each rule says what of it the kernels
# number (Rule.numbered); the enumerations below are the protocol's own.
END_NAMES = ("won", "knockout", "stalemate", "truncated")
MATCH_END_NAMES = ("won", "no_winner", "truncated")

# Built-in policies: ids are positions in POLICY_NAMES; every policy's parameter vector has one slot
# per name of POLICY_PARAMS (PP_DRAW …: the name without its ``p_``; PP_W_POINTS …: a weight). The
# probabilities come first, then the ``weighted`` policy's weights, one per feature of
# engine/policies/weighted_features.py (documented there), then the ``lookahead`` search's parameters.
POLICY_NAMES = ("random", "greedy_points", "keep_wilds", "weighted", "lookahead")
PROBABILITY_PARAMS = ("p_draw", "p_bluff", "p_challenge", "p_keep_drawn")
WEIGHT_PARAMS = (
    # a card option (play, stack, drawn card, jump-in; the wheel's discards), summed in this order
    "w_points", "w_action", "w_wild", "w_draw", "w_colour_left", "w_keeps_colour", "w_number_match",
    "w_attack", "w_attack_close", "w_reverse_close", "w_own_hand", "w_seen", "w_order",
    # the options that are not a card
    "w_voluntary_draw", "w_bluff", "w_accept", "w_keep",
    # naming a colour
    "w_colour_held", "w_colour_seen", "w_colour_shown", "w_colour_order",
    # choosing a swap target
    "w_target_hand", "w_target_order",
    # challenging a Wild Draw Four
    "w_challenge", "w_challenge_hand",
)
# the lookahead search's budget (worlds per option), rollout preset (an index of ROLLOUT_PRESETS),
# rollout depth in turns, anchor preset (an index of ROLLOUT_PRESETS) and the significance (in standard
# errors) a searched option needs to overrule the anchor's choice, and the standard errors by which an
# option must trail to be dropped before the budget is spent (0: never; engine/core/lookahead.py)
SEARCH_PARAMS = ("rollouts", "rollout", "horizon", "anchor", "z", "prune")
POLICY_PARAMS = PROBABILITY_PARAMS + WEIGHT_PARAMS + SEARCH_PARAMS
N_POLICY_PARAMS = len(POLICY_PARAMS)
# The presets a lookahead seat's rollouts (and its decisions other than play and stack) use, by the
# index its ``rollout`` parameter holds; the first is the default. A name that is not in POLICY_NAMES is
# a preset of ``weighted`` (unosim.game.policies.PRESETS; its weights travel in the lookahead seat's vector).
ROLLOUT_PRESETS = ("greedy_points", "keep_wilds", "random", "by_colour", "by_number", "high_card_out",
                   "save_wilds", "punisher", "colour_counter")


# ---- trace events ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Event:
    """A trace event ``(code, seat, a, b)``: ``name`` (its constant is ``EV_<NAME>``) and what the fields
    hold. A wing's event also says how a replay reads it (:mod:`unosim.play.trace` reads the core's own):
    ``line``, formatted with ``who`` (``seat 2``), ``seat``, ``card`` (card ``a``'s name), ``colour`` (colour
    ``a`` on the side in play), ``a_word`` and ``b_word`` (``a_words[a]``, ``b_words[b]``); ``nobody``, the
    line when the seat is -1; ``hands``, what it does to the hands' sizes (a move of
    ``unosim.play.trace.HAND_MOVES``); ``sets_side``: ``a`` is the side in play from now on."""

    name: str
    doc: str
    line: str = ""
    nobody: str = ""
    a_words: tuple[str, ...] = ()
    b_words: tuple[str, ...] = ()
    hands: str = ""
    sets_side: bool = False


# ---- the mechanisms, and what each one's wing adds to the records (engine/mechanics/, reference/mechanics/)
@dataclass(frozen=True)
class Mechanism:
    """A verb a variant's cards or house rules add to the core turn, and everything its wing adds to the
    records; the engine compiles one only when a call uses it (``unosim.engine.compiler.builds``).

    ``label``: how a compile notice names it. Its fields, appended after the core's in the order of
    :data:`MECHANISMS` (adding a wing moves no other index): ``rounds`` and ``seats``, the round- and
    seat-table columns (counters: a column's ``dtype`` is its type in the results); ``state`` and
    ``seat_state``, its slots in the game record's scalar and per-seat state. ``arrays``: its scratch
    arrays in the game record, ``(name, dtype, shape)``. ``events``: its trace events (:class:`Event`, each with
    the line a replay shows). ``decisions``: the policy decisions it asks (``engine/policies/dispatch.py``).
    ``version``: the wing's own number, raised when the wing's games change (its rules or its order of play):
    a dataset records the version of every mechanism it plays, and a resume under another version is
    refused as under another :data:`ENGINE_VERSION` (:mod:`unosim.pipeline.start`), while datasets that do not
    play the wing stay resumable. A change of its fields (columns, slots) changes the tables: that raises
    :data:`ENGINE_VERSION`."""

    label: str
    rounds: tuple[Field, ...] = ()
    seats: tuple[Field, ...] = ()
    state: tuple[Field, ...] = ()
    seat_state: tuple[Field, ...] = ()
    arrays: tuple[tuple[str, str, tuple[int, ...]], ...] = ()
    events: tuple[Event, ...] = ()
    decisions: tuple[str, ...] = ()
    version: int = 1


MECHANISMS: dict[str, Mechanism] = {
    "blank": Mechanism("blank cards", decisions=("choose_target",)),
    "minions": Mechanism(
        "minions",
        rounds=(field("DUMBFU_PENALTIES", "dumbfu_penalties", doc="Dumb Fu poses broken (docs/rules.md §2.2.2)"),),
        state=(field("DUMBFU", doc="dumbfu_penalties this round"),),
        seat_state=(field("WINDOW", doc="Dumb Fu pose window: -1 closed, else events counted so far"),),
        version=2,
    ),
    "spin": Mechanism(
        "spin",
        rounds=(field("SPINS", "spins"), field("FINAL_SPINS", "final_spins"),
                field("OUTCOME", rule_table.BY_NAME["spin_weights"].keys, doc="one count per wheel outcome")),
        seats=(field("WHEEL_GAINED", "wheel_gained", doc="cards that entered the hand through wheel outcomes"),
               field("WHEEL_LOST", "wheel_lost", doc="cards that left the hand through wheel outcomes")),
        state=(field("SPINNER", doc="seat designated to spin at its next turn, -1 if none"),
               field("SPINS"), field("FINAL_SPINS")),
        seat_state=(field("WHEEL_GAINED"), field("WHEEL_LOST")),
        events=(Event("spin", "seat spins; a = outcome index (the rule spin_weights' keys), b = 1 for a final-card spin",
                      "{who} spins{b_word}: {a_word}", a_words=tuple(o.upper() for o in rule_table.BY_NAME["spin_weights"].keys),
                      b_words=("", " (final card)"), hands="goes_out_if_b"),
                Event("reveal", "War: seat reveals card a", "{who} reveals {card}"),
                Event("war", "War won by seat (-1: no winner)", "War won by seat {seat}", nobody="War: no winner"),
                Event("trade", "Trade Hands spun by seat", "every hand moves to the left neighbour", hands="rotate"),
                Event("show", "seat shows its hand", "{who} shows its hand"),
                Event("shout", "seat shouts \"UNO Spin\" first", "{who} shouts UNO Spin first"),
                Event("spinner", "seat is designated to spin at its next turn", "{who} will spin at its turn")),
        arrays=(("outcomes", "int64", (rule_table.BY_NAME["spin_weights"].size,)), ("mark", "int64", (MAX_CARDS,)),
                ("order", "int64", (MAX_CARDS,)), ("war_value", "int64", (MAX_PLAYERS,)),
                ("tally", "int64", (10,)), ("group_points", "int64", (10,)),   # per number 0..9
                ("fbuf", "float64", (MAX_PLAYERS,))),
        decisions=("almost_uno_discards", "choose_group", "order_discards", "war_reveal", "choose_colour"),
        version=2,
    ),
    "no_mercy": Mechanism("no_mercy", decisions=("choose_colour",)),
    "stacking": Mechanism("stacking", decisions=("choose_stack",)),
    "mercy": Mechanism("mercy"),
    "seven_o": Mechanism(
        "7-0",
        rounds=(field("SWAPS_7", "swaps_7", doc="7s that swapped hands (docs/rules.md §4 seven_o)"),
                field("PASSES_0", "passes_0", doc="0s that passed every hand on")),
        state=(field("SWAPS7", doc="7-swaps this round"), field("PASSES0", doc="0-passes this round")),
        decisions=("choose_target",),
        version=2,
    ),
    "jump_in": Mechanism("jump-in", decisions=("jumps_in",)),
    "flip": Mechanism(
        "flip",
        rounds=(field("FLIPS", "flips", doc="Flip cards that took effect (docs/rules.md §2.6.3)"),),
        state=(field("SIDE", doc="UNO Flip: 0 light side in play, 1 dark side"),
               field("FLIPS", doc="flips this round")),
        events=(Event("flip", "seat's Flip card turns every card over; a = side now in play (0 light, 1 dark)",
                      "{who}'s Flip turns every card over: the {a_word} side is in play", a_words=("light", "dark"),
                      sets_side=True),),
    ),
    "cards": Mechanism("declared cards", decisions=("choose_target",)),   # docs/rules.md §2.7: effects as data
}


def wing_fields(table: str) -> tuple:
    """Every wing's fields of ``table`` (``rounds``, ``seats``, ``state``, ``seat_state`` or ``events``), in
    the order of :data:`MECHANISMS`: what the wings append after the core's."""
    return tuple(f for wing in MECHANISMS.values() for f in getattr(wing, table))


def wing_arrays() -> tuple[tuple[str, str, tuple[int, ...]], ...]:
    """Every wing's scratch arrays in the game record, in the order of :data:`MECHANISMS`."""
    return tuple(a for wing in MECHANISMS.values() for a in wing.arrays)


def wing_columns(table: str = "rounds") -> tuple[str, ...]:
    """The ``rounds`` or ``seats`` columns the wings append after the core's."""
    return tuple(c for f in wing_fields(table) for c in f.columns)


# ---- compiled rules ---------------------------------------------------------------------------------
# The rule slots are generated from the rule table (unosim.game.rule_table.PARAMETERS: each rule's slot, size and
# description, in table order); RuleSet.compile fills them with each rule's encoder.
IRULES = Layout("IR", (
    field("FAMILY", doc="index into FAMILIES"),
    field("PLAYERS"),
    *(field(name, size, doc) for name, size, doc in rule_table.kernel_slots("IR")),
    field("AUDIT", doc="1: the kernel audits its own state (tests); never changes the game"),
))
FRULES = Layout("FR", tuple(field(name, size, doc) for name, size, doc in rule_table.kernel_slots("FR")))

# ---- output tables ----------------------------------------------------------------------------------
ROUND_TABLE = Layout("RC", (
    field("GAME", "game"),
    field("ROUND", "round"),
    field("DEALER", "dealer_seat"),
    field("FIRST_SEAT", "first_seat"),
    field("WINNER", "winner_seat"),
    field("END", "end", doc="END_*"),
    field("TURNS", "n_turns"),
    field("PLAYS", "n_plays"),
    field("DRAWS", "n_draws"),
    field("RESHUFFLES", "n_reshuffles"),
    field("POINTS", "points"),
    field("KNOCKOUTS", "knockouts"),
    field("LARGEST_STACK", "largest_stack"),
    field("LOOP_BOUND_HITS", "loop_bound_hits",
          doc="loops cut short by an explicit bound (the round then ends truncated); see engine/core/turn.py"),
    field("LEAD_CHANGES", "lead_changes", doc="game-quality measures: engine.quality"),
    field("WINNER_MAX_DEFICIT", "winner_max_deficit", doc="-1 when the round has no winner (a null)"),
    field("MAX_HAND", "max_hand"),
    *wing_fields("rounds"),
))
SEAT_TABLE = Layout("SC", (
    field("WON", "won"),
    field("CARDS_LEFT", "cards_left"),
    field("POINTS_LEFT", "points_left"),
    field("DRAWN", "n_drawn"),
    field("PLAYED", "n_played"),
    field("KNOCKED_OUT", "knocked_out"),
    field("KNOCKOUT_TURN", "knockout_turn", doc="1-based turn index, 0 if not knocked out"),
    *wing_fields("seats"),
))
# opening hands are a separate int8 matrix [round*players + seat, N_OPENING]
MATCH_TABLE = Layout("MC", (
    field("GAME", "game"),
    field("ROUNDS", "n_rounds"),
    field("FIRST_DEALER", "first_dealer"),
    field("WINNER", "winner_seat", doc="the winner; the lowest co-winner seat in `lowest` mode; -1: none"),
    field("N_WINNERS", "n_winners"),
    field("WINNERS_MASK", "winners_mask", doc="bit s set when seat s won the match"),
    field("END", "end", doc="MATCH_END_*"),
))
ROUND_COLUMNS = ROUND_TABLE.columns
SEAT_COLUMNS = SEAT_TABLE.columns
MATCH_COLUMNS = MATCH_TABLE.columns

# ---- the compiled game record (engine/record/state.py) -----------------------------------------------------
STATE = Layout("ST", (
    field("N", doc="players"),
    field("DEALER"),
    field("DIR", doc="+1 / -1"),
    field("TOP", doc="card id of T"),
    field("COLOUR", doc="colour in play A"),
    field("TURNS"),
    field("PLAYS"),
    field("DRAWS"),
    field("RESHUFFLES"),
    field("MOVES", doc="cards moved or hands exchanged so far (progress detector, docs/rules.md §1.6)"),
    field("ENDED"),
    field("WINNER"),
    field("END"),
    field("N_ACTIVE"),
    field("TRACE"),
    field("EV_LEN"),
    field("FIRST_SEAT"),
    field("VIOLATIONS", doc="audit mode: failed invariant checks (engine/core/audit.py)"),
    field("P", doc="pending penalty P (stacking)"),
    field("V", doc="draw value of the last draw card in the stack"),
    field("K", doc="kind of the last draw card in the stack (same_kind stacking)"),
    field("RESPONDER", doc="seat that must respond to P"),
    field("LARGEST", doc="largest_stack"),
    field("KNOCKOUTS"),
    field("KO_SEAT", doc="last seat knocked out during the current turn, -1 if none"),
    field("PLAYED", doc="1 if the current turn (or jump-in) played a card"),
    field("LAST_PLAYER"),
    field("UNO_CHECKS", doc="0 when checkpoints cannot change anything: no trace and nobody forgets UNO"),
    field("EV_CAP", doc="rows of the trace buffer `ev` (kept as data: see round.new_game)"),
    field("LOOP_BOUND_HITS", doc="loops of this round cut short by an explicit bound (RC_LOOP_BOUND_HITS)"),
    field("LEADER", doc="quality measures (engine.quality): last unique leader, -1 before the first"),
    field("LEAD_CHANGES"),
    field("MAX_HAND", doc="largest hand held so far in the round"),
    field("IDLE", doc="idle turns in a row so far (stalemate, §1.6), kept while the turn loop pauses"),
    field("LA_SEARCH", doc="1: a lookahead seat's turn pauses the turn loop for its search (0 in rollouts)"),
    field("LA_READY", doc="1: the search of the seat about to move is done (engine/core/lookahead.py)"),
    field("LA_CHOICE", doc="the searched choice: hand index, -1 draw/accept, -2 none (the rollout preset)"),
    *wing_fields("state"),
))
SEAT_STATE = Layout("SE", (
    field("DRAWN"),
    field("PLAYED"),
    field("UNO_DONE"),
    field("ACTIVE"),
    field("KO_TURN", doc="1-based turn of the knock-out, 0 if none"),
    *wing_fields("seat_state"),
))

# ---- trace events (code, seat, a, b); codes start at 1 (0 is never a valid event) ------------------
EVENTS = (
    Event("round_start", "seat = dealer, a = round index (0-based), b = game index"),
    Event("first_card", "seat = F, a = card turned up"),
    Event("return", "seat = -1; a first-card WD4 put back: a = card, b = insert position in the draw pile"),
    Event("first_seat", "seat = the seat taking the first turn, a = direction (+1/-1)"),
    Event("turn", "seat = player, a = turn number (1-based), b = 1 for a jump-in"),
    Event("play", "seat, a = card"),
    Event("colour", "seat names colour a"),
    Event("draw", "seat draws card a"),
    Event("draw_fail", "seat could not draw (both piles empty)"),
    Event("reshuffle", "a = cards moved into the draw pile"),
    Event("skip", "seat is skipped (loses its turn)"),
    Event("challenge", "seat (victim) challenges; a = 1 if the WD4 player was guilty"),
    Event("uno", "seat at a checkpoint; a = 1 called, 2 forgot and caught, 3 forgot, not caught"),
    Event("pose", "seat's Dumb Fu window closes; a = 1 the pose failed (penalty), 0 held", "{who} {a_word}",
          a_words=("held the Dumb Fu pose", "breaks the Dumb Fu pose")),
    Event("swap", "seat swaps hands with seat a"),
    Event("redeal", "shuffle_hands by seat"),
    Event("discard", "seat discards card a by an effect (not a play)"),
    Event("round_end", "seat = winner (-1 none), a = END_*, b = points"),
    Event("dumbfu", "seat opens a pose window (the target)", "{who} must hold the Dumb Fu pose"),
    Event("match_end", "seat = winner (-1 none), a = winners mask, b = MATCH_END_*"),
    Event("accept", "seat accepts the pending penalty, a = P"),
    Event("knockout", "seat is knocked out (mercy), a = 1-based turn index"),
    Event("pass", "seat played a 0: every active hand moves to next(seat)"),
    Event("roulette", "seat (the victim) names colour a and reveals",
          "{who} names colour {colour} for the Roulette and reveals"),
    Event("lookahead", "a lookahead seat decides: a = hand index (-1 draw/accept), b = 1 when searched"),
    *wing_fields("events"),
)
EV_NAMES = {code: event.name for code, event in enumerate(EVENTS, 1)}
EVENT_WIDTH = 4          # (code, seat, a, b)


def _generated() -> dict[str, int]:
    out: dict[str, int] = {}
    for layout in (IRULES, FRULES, ROUND_TABLE, SEAT_TABLE, MATCH_TABLE, STATE, SEAT_STATE):
        out.update(layout.constants())
    out.update(enum_constants("FAMILY", FAMILIES))
    for rule in rule_table.numbered():
        out.update(enum_constants(rule.numbered, rule.vocabulary))
    out.update(enum_constants("END", END_NAMES))
    out.update(enum_constants("MATCH_END", MATCH_END_NAMES))
    out.update(enum_constants("", POLICY_NAMES))
    out.update(enum_constants("PP", tuple(p.removeprefix("p_") for p in POLICY_PARAMS)))
    out.update(enum_constants("EV", tuple(event.name for event in EVENTS), start=1))
    # where the wings' columns start: the output code zeroes them all, and a wing compiled in writes its own
    out["RC_WINGS"] = ROUND_TABLE.size - sum(f.size for f in wing_fields("rounds"))
    out["SC_WINGS"] = SEAT_TABLE.size - sum(f.size for f in wing_fields("seats"))
    clash = set(out) & set(globals())
    if clash:
        raise RuntimeError(f"generated protocol names clash with module names: {sorted(clash)}")
    return out


GENERATED = _generated()
globals().update(GENERATED)


@dataclass(frozen=True)
class RawResults:
    """Both engines' numeric output; rows in game order, then round order."""

    rounds: np.ndarray    # int64[R, RC_SIZE]
    seats: np.ndarray     # int32[R * players, SC_SIZE], row = round_row * players + seat
    opening: np.ndarray   # int8[R * players, N_OPENING], opening hand per seat
    matches: np.ndarray   # int64[M, MC_SIZE]
    events: np.ndarray    # int64[E, EVENT_WIDTH] (code, seat, a, b); empty unless traced


def output_buffers(n_rounds: int, n_matches: int, players: int) -> tuple[np.ndarray, ...]:
    """The compiled engine's output tables: rounds, seats, opening hands, matches. The kernel writes every cell
    of the rounds, seats and matches rows it reports; opening hands are counted up from zero.

    Column-major (Fortran order): each column of a table is one contiguous array, which the polars frames
    and a study's parquet parts take as it is. Row-major, every column was a strided copy first, most of
    the time of building the frames and a study job's arrow arrays; the kernel writes a row's cells a
    column apart instead, slightly slower (docs/results/code_choices.json). A slice of the rows is another array type to numba, compiled again: a kernel call is given
    whole tables and the row it starts at."""
    rounds, seats, matches = (GENERATED[f"{t}_SIZE"] for t in ("RC", "SC", "MC"))   # columns per table
    return (np.empty((n_rounds, rounds), np.int64, order="F"),
            np.empty((n_rounds * players, seats), np.int32, order="F"),
            np.zeros((n_rounds * players, N_OPENING), np.int8, order="F"),
            np.empty((n_matches, matches), np.int64, order="F"))


__all__ = ["ENGINE_VERSION", "MAX_PLAYERS", "MAX_CARDS", "FIRST_CARD_MAX_RETURNS", "Field", "Layout",
           "N_OPENING", "RawResults", "output_buffers", "FAMILIES", "Event", "Mechanism", "MECHANISMS", "wing_fields", "wing_arrays", "wing_columns", "END_NAMES", "MATCH_END_NAMES", "POLICY_NAMES",
           "PROBABILITY_PARAMS", "WEIGHT_PARAMS", "SEARCH_PARAMS", "POLICY_PARAMS", "N_POLICY_PARAMS",
           "ROLLOUT_PRESETS", "IRULES", "FRULES", "ROUND_TABLE", "SEAT_TABLE",
           "MATCH_TABLE", "STATE", "SEAT_STATE", "EVENTS", "EV_NAMES", "EVENT_WIDTH", "ROUND_COLUMNS",
           "SEAT_COLUMNS", "MATCH_COLUMNS", *GENERATED]
