"""The reference engine's xoshiro256** and seeding (protocol §1)."""

import pytest

from unosim.reference.rng import GOLDEN, MASK, Xoshiro, mix64


def test_mix64_is_the_splitmix64_finaliser():
    assert mix64(0) == 0
    assert mix64(GOLDEN) == 0xE220A8397B1DCDAF          # splitmix64's first output for seed 0


def test_xoshiro256starstar_known_outputs():
    rng = Xoshiro(0, 0, 0)
    rng.state = [1, 2, 3, 4]
    assert [rng.next64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


def test_seeding_follows_the_protocol():
    k0 = mix64(7 ^ 0x243F6A8885A308D3)
    k1 = mix64(k0 + 4 * GOLDEN)
    x = (k1 + 2 * 0xD1B54A32D192ED03) & MASK
    state = []
    for _ in range(4):
        x = (x + GOLDEN) & MASK
        state.append(mix64(x))
    assert Xoshiro(7, 3, 1).state == state


def test_streams_games_and_seeds_are_distinct_and_reproducible():
    first = {(seed, game, stream): Xoshiro(seed, game, stream).next64()
             for seed in (0, 1) for game in (0, 1, 2) for stream in (0, 1)}
    assert len(set(first.values())) == len(first)
    assert Xoshiro(1, 2, 1).next64() == first[(1, 2, 1)]


def test_below_uniform_and_ranges():
    rng = Xoshiro(3, 0, 1)
    values = [rng.below(6) for _ in range(6000)]
    assert set(values) == set(range(6))
    assert all(abs(values.count(v) - 1000) < 150 for v in range(6))
    assert all(0.0 <= rng.uniform() < 1.0 for _ in range(1000))


def test_below_uses_the_top_53_bits():
    rng, twin = Xoshiro(5, 1, 0), Xoshiro(5, 1, 0)
    assert rng.below(10) == ((twin.next64() >> 11) * 10) >> 53


@pytest.mark.parametrize("p,expected", [(0.0, False), (-1.0, False), (1.0, True), (2.0, True)])
def test_certain_bernoulli_draws_nothing(p, expected):
    rng, untouched = Xoshiro(9, 0, 1), Xoshiro(9, 0, 1)
    assert rng.bernoulli(p) is expected
    assert rng.next64() == untouched.next64()


def test_bernoulli_compares_one_uniform():
    rng, twin = Xoshiro(9, 0, 1), Xoshiro(9, 0, 1)
    assert rng.bernoulli(0.3) == (twin.uniform() < 0.3)


def test_shuffle_is_fisher_yates_from_the_end():
    items = list(range(10))
    Xoshiro(2, 0, 0).shuffle(items)
    expected, twin = list(range(10)), Xoshiro(2, 0, 0)
    for i in range(9, 0, -1):
        j = twin.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and sorted(items) == list(range(10))
