"""The differential grid shared by the differential and quality-counter tests (a helper module).

``CASES`` are hand-picked rule combinations; :func:`registry_cases` adds one case per registered variant ×
built-in policy, derived from the registries, so a new variant or policy is compared kernel-vs-reference
without editing a test.
"""

from unosim.game.policies import TWINNED_POLICIES as POLICIES
from unosim.game.rules import variant_names

CASES = {
    "classic-4-random-single": ("classic", 4, "random", {"match_mode": "single_round"}),
    "classic-2-random": ("classic", 2, "random", {"match_mode": "single_round"}),
    "classic-3-greedy-points-match": ("classic", 3, "greedy_points", {}),
    "classic-5-keep-wilds-blanks": ("classic", 5, "keep_wilds",
                                    {"blank_effects": ["shuffle_hands", "others_draw_1", "discard_colour"]}),
    "classic-4-bluff-challenge-lowest": (
        "classic", 4, "random(p_bluff=0.5,p_challenge=0.5,p_draw=0.3)",
        {"p_forget_uno": 0.3, "match_mode": "lowest", "target": 200,
         "blank_effects": ["draw_two_next", "plain_wild", "swap_hands"]}),
    "classic-6-mixed-no-blanks": ("classic", 6, "greedy_points,keep_wilds,random*",
                                  {"n_blank": 0, "match_mode": "single_round", "p_forget_uno": 0.2}),
    "classic-10-draw-until-playable": ("classic", 10, "random",
                                       {"draw_until_playable": True, "force_play_drawn": True,
                                        "match_mode": "single_round"}),
    "classic-6-big-hands": ("classic", 6, "random", {"hand_size": 15, "match_mode": "single_round"}),
    "classic-2-toggles-off": ("classic", 2, "random(p_draw=0.2,p_challenge=0.5)",
                              {"two_player_reverse_skip": False, "final_card_effects": False,
                               "voluntary_draw": False, "wd4_challenge": False, "match_mode": "single_round"}),
    "classic-3-no-bluffing": ("classic", 3, "random(p_bluff=1,p_challenge=1)",
                              {"no_bluffing": True, "match_mode": "single_round"}),
    "classic-4-tiny-cap": ("classic", 4, "random", {"max_turns_per_round": 15, "match_mode": "points",
                                                    "max_rounds_per_match": 5}),
    "minions-4-random-match": ("minions", 4, "random", {}),
    "minions-2-mixed": ("minions", 2, "random,greedy_points", {"p_dumbfu_fail": 0.5}),
    "minions-7-keep-wilds": ("minions", 7, "keep_wilds(p_challenge=0.3)",
                             {"p_dumbfu_fail": 1.0, "match_mode": "single_round", "p_catch": 1.0,
                              "p_forget_uno": 0.5}),
    # house rules on the classic family (docs/rules.md §4)
    "classic-4-same-kind-jump-in-seven-o": ("classic", 4, "random(p_challenge=0.4)",
                                            {"stacking": "same_kind", "jump_in": True, "seven_o": True,
                                             "match_mode": "single_round"}),
    "classic-3-any-draw-mercy": ("classic", 3, "random(p_bluff=0.3,p_challenge=0.5)",
                                 {"stacking": "any_draw", "mercy_limit": 16, "match_mode": "single_round",
                                  "draw_until_playable": True}),
    "classic-2-escalating-final": ("classic", 2, "greedy_points,keep_wilds",
                                   {"stacking": "escalating", "jump_in": True, "match_mode": "single_round"}),
    "minions-5-escalating-mercy": ("minions", 5, "keep_wilds,random*",
                                   {"stacking": "escalating", "mercy_limit": 18, "jump_in": True,
                                    "p_dumbfu_fail": 0.4, "match_mode": "single_round"}),
    # no_mercy (docs/rules.md §2.4)
    "no-mercy-4-random": ("no_mercy", 4, "random", {"match_mode": "single_round"}),
    "no-mercy-2-random": ("no_mercy", 2, "random", {"match_mode": "single_round"}),
    "no-mercy-6-heuristics": ("no_mercy", 6, "greedy_points,keep_wilds,random*", {"match_mode": "single_round"}),
    "no-mercy-3-points-match": ("no_mercy", 3, "random(p_draw=0.2)", {"p_forget_uno": 0.3, "target": 600}),
    "no-mercy-8-jump-in-final": ("no_mercy", 8, "random", {"jump_in": True, "final_card_effects": True,
                                                           "match_mode": "lowest", "target": 800}),
    # spin (docs/rules.md §2.3)
    "spin-4-random": ("spin", 4, "random", {"match_mode": "single_round"}),
    "spin-2-random-points": ("spin", 2, "random", {"target": 200}),
    "spin-6-heuristics": ("spin", 6, "keep_wilds,greedy_points,random*", {"match_mode": "single_round"}),
    "spin-5-weights-toggles": ("spin", 5, "random(p_bluff=0.2,p_challenge=0.5)",
                               {"spin_weights": [1, 1, 1, 2, 2, 3, 1, 4, 4], "spin_first_card_spins": True,
                                "spin_continue_after_winner": False, "shout_weight": [1, 2, 3, 4, 5],
                                "match_mode": "single_round"}),
    "spin-3-house-rules": ("spin", 3, "keep_wilds", {"jump_in": True, "stacking": "any_draw",
                                                     "seven_o": True, "match_mode": "single_round"}),
    # flip (docs/rules.md §2.6)
    "flip-4-bluff-challenge": ("flip", 4, "random(p_bluff=0.4,p_challenge=0.5,p_draw=0.2)",
                               {"p_forget_uno": 0.3, "match_mode": "single_round"}),
    "flip-2-points-match": ("flip", 2, "greedy_points,keep_wilds", {"target": 300}),
    "flip-6-house-rules": ("flip", 6, "keep_wilds,random*", {"jump_in": True, "seven_o": True, "mercy_limit": 22,
                                                             "draw_until_playable": True, "final_card_effects": False,
                                                             "match_mode": "single_round"}),
}


def registry_cases() -> dict[str, tuple[str, int, str, dict]]:
    """Every registered variant × built-in policy, 3 players, single rounds."""
    return {f"{variant}-3-{policy}": (variant, 3, policy, {"match_mode": "single_round"})
            for variant in variant_names() for policy in POLICIES}
