"""The engine under ``NUMBA_DISABLE_JIT=1`` (plain Python + numpy) plays exactly the same games as the
compiled engine: catches code that only works compiled, or integer widths that differ between numba
and numpy (DESIGN-NOTES pitfall 3)."""

import os
import subprocess
import sys
import textwrap

import numpy as np

from unosim.play.simulate import resolve, run_compiled

CASES = [("classic", 4, "random(p_bluff=0.2,p_challenge=0.5)", {"p_forget_uno": 0.3}),
         ("minions", 3, "keep_wilds", {"p_dumbfu_fail": 0.5}),
         ("spin", 5, "greedy_points,random*", {"jump_in": True}),
         ("no_mercy", 4, "random", {"p_forget_uno": 0.3}),
         ("classic", 4, "by_colour,punisher,colour_counter,weighted(w_voluntary_draw=1,w_bluff=2,"
          "w_challenge=-3,w_challenge_hand=1,w_points=0.5,p_keep_drawn=0.3)",
          {"stacking": "any_draw", "jump_in": True}),
         ("spin", 4, "save_wilds,by_number,high_card_out,colour_counter", {"seven_o": True}),
         # the lookahead search (its rollouts run the interpreted turn loop too) and its beliefs
         ("no_mercy", 3, "lookahead(rollouts=1,horizon=3),random*", {}),
         ("classic", 3, "lookahead(rollouts=1,horizon=2,rollout=by_colour),random*", {"seven_o": True})]

SCRIPT = textwrap.dedent("""
    import sys, warnings
    import numpy as np
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)  # xoshiro wraps by design
    from unosim.play.simulate import resolve, run_compiled
    cases = {cases!r}
    arrays = {{}}
    for k, (variant, players, lineup, rules) in enumerate(cases):
        rs, specs = resolve(variant, players, lineup, {{"match_mode": "single_round", **rules}})
        raw = run_compiled(rs, players, specs, 5, 0, 12, trace=True)
        for table in ("rounds", "seats", "opening", "matches", "events"):
            arrays[f"{{k}}_{{table}}"] = getattr(raw, table)
    np.savez(sys.argv[1], **arrays)
""")


def test_interpreted_engine_equals_compiled_engine(tmp_path):
    path = tmp_path / "interpreted.npz"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, "-c", SCRIPT.format(cases=CASES), str(path)], env=env, check=True,
                   timeout=300)
    interpreted = np.load(path)
    for k, (variant, players, lineup, rules) in enumerate(CASES):
        rs, specs = resolve(variant, players, lineup, {"match_mode": "single_round", **rules})
        raw = run_compiled(rs, players, specs, 5, 0, 12, trace=True)
        for table in ("rounds", "seats", "opening", "matches", "events"):
            assert np.array_equal(interpreted[f"{k}_{table}"], getattr(raw, table)), (variant, table)
