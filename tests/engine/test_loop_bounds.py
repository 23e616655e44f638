"""The explicit loop bound of the engines (issue 12, item 1): the first-card WD4 returns (docs/rules.md
§1.9) are the one engine loop without a termination proof; after ``FIRST_CARD_MAX_RETURNS`` returns the
round ends ``truncated`` before its first turn and ``loop_bound_hits`` counts it, identically in both
engines.

The bound (1000) is never reached by chance, so the test lowers it to 2 in a subprocess that runs the
kernel interpreted (``NUMBA_DISABLE_JIT=1`` reads the constant at run time) beside the reference engine,
with four WD4s stacked under the cards dealt: three WD4s in a row are then certain.
"""

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import warnings
    import numpy as np
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)  # xoshiro wraps by design
    from unosim import reference
    from unosim.game import cards
    from unosim.game import protocol as L
    from unosim.play.simulate import resolve, run_compiled
    L.FIRST_CARD_MAX_RETURNS = 2
    rs, specs = resolve("classic", 3, "random", {"match_mode": "single_round", "hand_size": 5})
    deck = cards.deck_ids(rs.deck_counts()).tolist()
    others = [c for c in deck if c != cards.ID_WD4]
    dealt, rest = others[-15:], others[:-15]
    order = rest + [cards.ID_WD4] * 4 + dealt      # last = top: the deal takes `dealt`, then the WD4s
    compiled = run_compiled(rs, 3, specs, 1, 0, 1, deck_order=order, trace=True, audit=True)
    ref = reference.play(rs, 3, specs, 1, 0, 1, deck_order=order, trace=True)
    for name in ("events", "rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, name), getattr(ref, name)), name
    row = compiled.rounds[0]
    assert row[L.RC_END] == L.END_TRUNCATED and row[L.RC_LOOP_BOUND_HITS] == 1, row
    assert row[L.RC_TURNS] == 0 and row[L.RC_WINNER] == -1
    returns = [e for e in compiled.events if e[0] == L.EV_RETURN]
    assert len(returns) == 2
    print("ok")
""")


def test_first_card_return_bound_ends_the_round_truncated_in_both_engines():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


def test_the_bound_is_never_hit_in_ordinary_play():
    import unosim

    res = unosim.simulate("classic", players=4, games=3000, seed=3, rules={"match_mode": "single_round"})
    assert res.rounds["loop_bound_hits"].sum() == 0
    assert (res.rounds["end"] == "won").all()
