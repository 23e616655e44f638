"""Numeric layouts shared by the compiled engine, the reference engine and the Python API.

Everything here is a plain integer constant (numba freezes module globals at compile time, which is
right for constants and wrong for rule switches: rule switches travel in the ``irules``/``frules``
arrays below).

Compiled rules (``RuleSet.compile``)
------------------------------------
``irules`` int64[IR_SIZE] and ``frules`` float64[FR_SIZE], indexed by the ``IR_*`` / ``FR_*`` names.

Round and match table columns (``RC_*``, ``MC_*``) are the raw int64 outputs of the kernels (a game
number is any integer below 2**63), seat table columns (``SC_*``) int32; :mod:`unosim.simulate` names
them. Trace events (``EV_*``) are 4-int (int64) records
``(code, seat, a, b)`` emitted identically by both engines; see ``unosim/engine/__init__.py`` for
the protocol that fixes their order. :class:`RawResults` is the container both engines return.
"""

from dataclasses import dataclass

import numpy as np

# ---- compiled integer rules -----------------------------------------------------------------------
IR_FAMILY = 0            # index into rules.FAMILIES
IR_PLAYERS = 1
IR_HAND_SIZE = 2
IR_MATCH_MODE = 3        # 0 points, 1 lowest, 2 single_round
IR_TARGET = 4
IR_FIRST_DEALER = 5      # -1 random, else the seat
IR_MAX_TURNS = 6
IR_MAX_ROUNDS = 7
IR_UNO_PENALTY = 8
IR_DUMBFU_PENALTY = 9
IR_STACKING = 10         # STACKING_*
IR_JUMP_IN = 11
IR_SEVEN_O = 12
IR_DRAW_UNTIL_PLAYABLE = 13
IR_FORCE_PLAY_DRAWN = 14
IR_VOLUNTARY_DRAW = 15
IR_WD4_CHALLENGE = 16    # already false when no_bluffing is on (challenges are then not offered)
IR_NO_BLUFFING = 17
IR_TWO_PLAYER_REVERSE_SKIP = 18
IR_FINAL_CARD_EFFECTS = 19
IR_MERCY_LIMIT = 20      # 0 = off
IR_SPIN_FIRST_CARD_SPINS = 21
IR_SPIN_CONTINUE_AFTER_WINNER = 22
IR_BLANK_EFFECT = 23     # 3 entries: effect of blank card 0, 1, 2 (index into rules.BLANK_EFFECTS)
IR_AUDIT = 26           # 1: the kernel audits its own state (tests); never changes the game
IR_SIZE = 27

FAMILY_CLASSIC, FAMILY_MINIONS, FAMILY_SPIN, FAMILY_NO_MERCY = 0, 1, 2, 3
MODE_POINTS, MODE_LOWEST, MODE_SINGLE_ROUND = 0, 1, 2
STACKING_NONE, STACKING_SAME_KIND, STACKING_ANY_DRAW, STACKING_ESCALATING = 0, 1, 2, 3
BLANK_PLAIN_WILD, BLANK_SWAP_HANDS, BLANK_SHUFFLE_HANDS = 0, 1, 2
BLANK_OTHERS_DRAW_1, BLANK_DISCARD_COLOUR, BLANK_DRAW_TWO_NEXT = 3, 4, 5

# ---- compiled float rules ---------------------------------------------------------------------------
FR_P_CATCH = 0
FR_P_DUMBFU_FAIL = 1
FR_P_FORGET_UNO = 2      # 10 entries, one per seat
FR_SHOUT_WEIGHT = 12     # 10 entries, one per seat
FR_SPIN_WEIGHT = 22      # N_SPIN_OUTCOMES entries, as given (the wheel draw normalises)
FR_SIZE = 31
N_SPIN_OUTCOMES = 9      # the wheel's outcomes, in rules.SPIN_OUTCOMES order

MAX_PLAYERS = 10
MAX_CARDS = 168          # largest deck: no hand or pile can exceed it
# A turned-up first-card WD4 goes back at a random place (§1.9): almost surely a few tries, but not
# bounded by construction; after this many returns the round ends truncated (RC_LOOP_BOUND_HITS = 1).
FIRST_CARD_MAX_RETURNS = 1000

# ---- round table (int64 columns) --------------------------------------------------------------------
RC_GAME = 0
RC_ROUND = 1
RC_DEALER = 2
RC_FIRST_SEAT = 3
RC_WINNER = 4
RC_END = 5               # END_*
RC_TURNS = 6
RC_PLAYS = 7
RC_DRAWS = 8
RC_RESHUFFLES = 9
RC_POINTS = 10
RC_DUMBFU_PENALTIES = 11
RC_KNOCKOUTS = 12
RC_LARGEST_STACK = 13
RC_SWAPS_7 = 14
RC_PASSES_0 = 15
RC_SPINS = 16
RC_FINAL_SPINS = 17
RC_OUTCOME = 18          # 9 columns: one count per wheel outcome, in rules.SPIN_OUTCOMES order
RC_LOOP_BOUND_HITS = 27  # loops cut short by an explicit bound (the round then ends truncated); see round.py
RC_LEAD_CHANGES = 28     # game-quality measures: see engine.quality and protocol §3 "Quality measures"
RC_WINNER_MAX_DEFICIT = 29   # -1 when the round has no winner (a null in the tables)
RC_MAX_HAND = 30
RC_SIZE = 31
ROUND_COLUMNS = ("game", "round", "dealer_seat", "first_seat", "winner_seat", "end", "n_turns",
                 "n_plays", "n_draws", "n_reshuffles", "points", "dumbfu_penalties", "knockouts",
                 "largest_stack", "swaps_7", "passes_0", "spins", "final_spins",
                 "almost_uno", "discard_number", "discard_colour", "draw_red", "draw_blue",
                 "trade_hands", "show_hand", "war", "uno_spin", "loop_bound_hits",
                 "lead_changes", "winner_max_deficit", "max_hand")

END_WON, END_KNOCKOUT, END_STALEMATE, END_TRUNCATED = 0, 1, 2, 3
END_NAMES = ("won", "knockout", "stalemate", "truncated")

# ---- seat table (int32 columns), one row per seat per round ----------------------------------------
SC_WON = 0
SC_CARDS_LEFT = 1
SC_POINTS_LEFT = 2
SC_DRAWN = 3
SC_PLAYED = 4
SC_KNOCKED_OUT = 5
SC_KNOCKOUT_TURN = 6     # 1-based turn index, 0 if not knocked out
SC_WHEEL_GAINED = 7      # cards that entered the hand through wheel outcomes
SC_WHEEL_LOST = 8        # cards that left the hand through wheel outcomes
SC_SIZE = 9
SEAT_COLUMNS = ("won", "cards_left", "points_left", "n_drawn", "n_played", "knocked_out",
                "knockout_turn", "wheel_gained", "wheel_lost")
# opening hands are a separate int8 matrix [round*players + seat, cards.N_HAND_CLASSES]

# ---- match table (int64 columns) --------------------------------------------------------------------
MC_GAME = 0
MC_ROUNDS = 1
MC_FIRST_DEALER = 2
MC_WINNER = 3            # the winner; the lowest co-winner seat in `lowest` mode; -1 when none
MC_N_WINNERS = 4
MC_WINNERS_MASK = 5      # bit s set when seat s won the match
MC_END = 6               # MATCH_END_*
MC_SIZE = 7
MATCH_COLUMNS = ("game", "n_rounds", "first_dealer", "winner_seat", "n_winners", "winners_mask", "end")
MATCH_END_WON, MATCH_END_NO_WINNER, MATCH_END_TRUNCATED = 0, 1, 2
MATCH_END_NAMES = ("won", "no_winner", "truncated")

# ---- trace events (code, seat, a, b) ---------------------------------------------------------------
EV_ROUND_START = 1   # seat = dealer, a = round index (0-based), b = game index
EV_FIRST_CARD = 2    # seat = F, a = card turned up
EV_RETURN = 3        # seat = -1; a first-card WD4 put back: a = card, b = insert position in the draw pile
EV_FIRST_SEAT = 4    # seat = the seat taking the first turn, a = direction (+1/-1)
EV_TURN = 5          # seat = player, a = turn number (1-based), b = 1 for a jump-in
EV_PLAY = 6          # seat, a = card
EV_COLOUR = 7        # seat names colour a
EV_DRAW = 8          # seat draws card a
EV_DRAW_FAIL = 9     # seat could not draw (both piles empty)
EV_RESHUFFLE = 10    # a = cards moved into the draw pile
EV_SKIP = 11         # seat is skipped (loses its turn)
EV_CHALLENGE = 12    # seat (victim) challenges; a = 1 if the WD4 player was guilty
EV_UNO = 13          # seat at a checkpoint; a = 1 called, 2 forgot and caught, 3 forgot, not caught
EV_POSE = 14         # seat's Dumb Fu window closes; a = 1 the pose failed (penalty), 0 held
EV_SWAP = 15         # seat swaps hands with seat a
EV_REDEAL = 16       # shuffle_hands by seat
EV_DISCARD = 17      # seat discards card a by an effect (not a play)
EV_ROUND_END = 18    # seat = winner (-1 none), a = END_*, b = points
EV_DUMBFU = 19       # seat opens a pose window (the target)
EV_MATCH_END = 20    # seat = winner (-1 none), a = winners mask, b = MATCH_END_*
EV_ACCEPT = 21       # seat accepts the pending penalty, a = P
EV_KNOCKOUT = 22     # seat is knocked out (mercy), a = 1-based turn index
EV_PASS = 23         # seat played a 0: every active hand moves to next(seat)
EV_ROULETTE = 24     # seat (the victim) names colour a and reveals
EV_SPIN = 25         # seat spins; a = outcome index (rules.SPIN_OUTCOMES), b = 1 for a final-card spin
EV_REVEAL = 26       # War: seat reveals card a
EV_WAR = 27          # War won by seat (-1: no winner)
EV_TRADE = 28        # Trade Hands spun by seat
EV_SHOW = 29         # seat shows its hand
EV_SHOUT = 30        # seat shouts "UNO Spin" first
EV_SPINNER = 31      # seat is designated to spin at its next turn
EV_NAMES = {1: "round_start", 2: "first_card", 3: "return", 4: "first_seat", 5: "turn", 6: "play",
            7: "colour", 8: "draw", 9: "draw_fail", 10: "reshuffle", 11: "skip", 12: "challenge",
            13: "uno", 14: "pose", 15: "swap", 16: "redeal", 17: "discard", 18: "round_end",
            19: "dumbfu", 20: "match_end", 21: "accept", 22: "knockout", 23: "pass",
            24: "roulette", 25: "spin", 26: "reveal", 27: "war", 28: "trade", 29: "show", 30: "shout",
            31: "spinner"}


@dataclass(frozen=True)
class RawResults:
    """Both engines' numeric output; rows in game order, then round order."""

    rounds: np.ndarray    # int64[R, RC_SIZE]
    seats: np.ndarray     # int32[R * players, SC_SIZE], row = round_row * players + seat
    opening: np.ndarray   # int8[R * players, N_HAND_CLASSES], opening hand per seat
    matches: np.ndarray   # int64[M, MC_SIZE]
    events: np.ndarray    # int64[E, 4] (code, seat, a, b); empty unless traced
