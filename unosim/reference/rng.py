"""xoshiro256** in plain Python ints (the reference engine's random numbers).

The seeding and every derived draw follow docs/protocol.md §1 exactly, so the
compiled engine's numba copy produces the same numbers. All arithmetic is modulo 2**64 (``& MASK``).
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
SEED_SALT = 0x243F6A8885A308D3
STREAM_STEP = 0xD1B54A32D192ED03
DECK_STREAM, PLAY_STREAM = 0, 1


def mix64(z: int) -> int:
    """SplitMix64 finaliser: a bijective scramble of one 64-bit word."""
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


class Xoshiro:
    """One xoshiro256** stream of one game: ``Xoshiro(seed, game, stream)`` (stream 0 deck, 1 play)."""

    def __init__(self, seed: int, game: int, stream: int):
        k0 = mix64(seed ^ SEED_SALT)
        k1 = mix64(k0 + (game + 1) * GOLDEN)
        x = (k1 + (stream + 1) * STREAM_STEP) & MASK
        state = []
        for _ in range(4):
            x = (x + GOLDEN) & MASK
            state.append(mix64(x))
        self.state = state

    def next64(self) -> int:
        s0, s1, s2, s3 = self.state
        result = (_rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        self.state = [s0, s1, s2, s3]
        return result

    def below(self, n: int) -> int:
        """Uniform integer in ``0..n-1`` (multiply-shift on the top 53 bits)."""
        return ((self.next64() >> 11) * n) >> 53

    def uniform(self) -> float:
        """Uniform float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) * 2.0**-53

    def bernoulli(self, p: float) -> bool:
        """True with probability ``p``; certain outcomes (p <= 0 or p >= 1) consume no number."""
        if p <= 0.0:
            return False
        if p >= 1.0:
            return True
        return self.uniform() < p

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place, from the last index down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
