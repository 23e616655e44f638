"""The declared protocol (unosim.game.protocol) and the numba-free parts of the package.

The protocol's constants are generated from ordered tables: these tests check that the tables tile
their records exactly, that every consumer reads the same numbers, and that the pure-Python half of
unosim (cards, rules, protocol, the reference engine) imports and plays with numba absent.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from unosim.game import policies, protocol, rule_table
from unosim.reference.mechanics import spin as reference_spin

LAYOUTS = (protocol.IRULES, protocol.FRULES, protocol.ROUND_TABLE, protocol.SEAT_TABLE, protocol.MATCH_TABLE,
           protocol.STATE, protocol.SEAT_STATE)


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda la: la.prefix)
def test_layout_tiles_its_record(layout):
    """Offsets are the running sum of the sizes: every slot belongs to exactly one field."""
    owner = np.full(layout.size, -1)
    for k, f in enumerate(layout.fields):
        start = getattr(protocol, f"{layout.prefix}_{f.name}")
        assert (owner[start:start + f.size] == -1).all(), f.name
        owner[start:start + f.size] = k
    assert (owner >= 0).all()
    assert getattr(protocol, f"{layout.prefix}_SIZE") == layout.size


@pytest.mark.parametrize("layout", (protocol.ROUND_TABLE, protocol.SEAT_TABLE, protocol.MATCH_TABLE),
                         ids=lambda la: la.prefix)
def test_every_table_slot_has_a_unique_column_name(layout):
    assert len(layout.columns) == layout.size
    assert len(set(layout.columns)) == layout.size


def test_spin_outcomes_sized_once():
    n = rule_table.N_SPIN_OUTCOMES
    assert protocol.ROUND_COLUMNS[protocol.RC_OUTCOME:protocol.RC_OUTCOME + n] == rule_table.SPIN_OUTCOMES
    assert protocol.FRULES.fields[[f.name for f in protocol.FRULES.fields].index("SPIN_WEIGHT")].size == n
    assert [f.__name__ for f in reference_spin.OUTCOMES] == list(rule_table.SPIN_OUTCOMES)
    assert [getattr(protocol, o.upper()) for o in rule_table.SPIN_OUTCOMES] == list(range(n))


def test_event_codes_are_unique_and_named():
    codes = [v for k, v in protocol.GENERATED.items() if k.startswith("EV_")]
    assert sorted(codes) == list(range(1, len(protocol.EVENTS) + 1))
    assert all(protocol.EV_NAMES[getattr(protocol, f"EV_{event.name.upper()}")] == event.name for event in protocol.EVENTS)


def test_policy_ids_and_parameters_come_from_the_protocol():
    assert [policies.POLICIES[name].id for name in protocol.POLICY_NAMES] == list(range(len(protocol.POLICY_NAMES)))
    assert [protocol.RANDOM, protocol.GREEDY_POINTS, protocol.KEEP_WILDS] == [0, 1, 2]
    spec = policies.parse_policy("random(p_bluff=0.25)")
    assert spec.vector().shape == (protocol.N_POLICY_PARAMS,)
    assert spec.vector()[protocol.PP_BLUFF] == 0.25
    for info in policies.POLICIES.values():
        assert set(info.params) <= set(protocol.POLICY_PARAMS)


def test_a_duplicate_field_is_refused():
    with pytest.raises(ValueError, match="XX_A is declared twice"):
        protocol.Layout("XX", (protocol.field("A"), protocol.field("A")))


def _run_without_numba(code: str) -> subprocess.CompletedProcess:
    prelude = "import sys; sys.modules['numba'] = None\n"
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=300)


def test_pure_python_half_imports_without_numba():
    out = _run_without_numba("import unosim, unosim.game.cards, unosim.game.rules, unosim.game.protocol, unosim.reference\n"
                             "print('unosim.engine' in sys.modules)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_importing_unosim_loads_no_numba():
    out = subprocess.run([sys.executable, "-c", "import sys, unosim; unosim.get_variant('spin').compile(3); "
                          "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('unosim.engine')))"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_reference_engine_plays_every_variant_without_numba():
    code = ("import numpy as np\n"
            "from unosim.game import protocol, rules\n"
            "from unosim.reference import play\n"
            "for name in rules.variant_names():\n"
            "    raw = play(rules.get_variant(name), 3, 'random', seed=5, n_games=4, trace=True)\n"
            "    assert raw.matches.shape == (4, protocol.MC_SIZE)\n"
            "    assert raw.rounds.shape[1] == protocol.RC_SIZE and len(raw.rounds) >= 4\n"
            "    assert (raw.events[:, 0] == protocol.EV_ROUND_END).sum() == len(raw.rounds)\n"
            "    print(name, len(raw.events))\n")
    out = _run_without_numba(code)
    assert out.returncode == 0, out.stderr
    from unosim.game import rules
    assert [line.split()[0] for line in out.stdout.splitlines()] == rules.variant_names()


def test_every_wing_appends_its_fields_after_the_core():
    """A mechanism's columns, record slots and events come after the core's, in the registry's order, so
    adding a wing moves no other index; the output code zeroes the wings' columns from RC_WINGS/SC_WINGS."""
    from unosim.game import protocol as P

    for layout, table in ((P.ROUND_TABLE, "rounds"), (P.SEAT_TABLE, "seats"), (P.STATE, "state"),
                          (P.SEAT_STATE, "seat_state")):
        wing = P.wing_fields(table)
        assert layout.fields[len(layout.fields) - len(wing):] == wing, table
    assert P.ROUND_COLUMNS[P.RC_WINGS:] == P.wing_columns("rounds")
    assert P.SEAT_COLUMNS[P.SC_WINGS:] == P.wing_columns("seats")
    names = [event.name for event in P.EVENTS]
    assert names[len(names) - len(P.wing_fields("events")):] == [event.name for event in P.wing_fields("events")]
    assert all(isinstance(m, P.Mechanism) for m in P.MECHANISMS.values())


def test_a_mechanism_record_is_frozen():
    import dataclasses

    from unosim.game import protocol as P

    with pytest.raises(dataclasses.FrozenInstanceError):
        P.MECHANISMS["spin"].label = "wheel"
