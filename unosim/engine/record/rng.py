"""Random numbers (protocol §1): two xoshiro256** streams per game in the game record.

``below``/``uniform``/``bernoulli``/``shuffle``/``weighted`` are the only ways the engine consumes
randomness, each exactly as the protocol describes, so the reference engine can replay the streams.
"""

import numpy as np

from unosim.engine.compiler.jit import njit

DECK_STREAM, PLAY_STREAM = 0, 1


# ---- random numbers (protocol §1) -------------------------------------------------------------------
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
SEED_SALT = np.uint64(0x243F6A8885A308D3)
STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
U11, U53 = np.uint64(11), np.uint64(53)
INV53 = 1.0 / 9007199254740992.0


@njit
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit
def seed_streams(g, seed, game):
    rng = g["rng"]
    k0 = mix64(np.uint64(seed) ^ SEED_SALT)
    k1 = mix64(k0 + np.uint64(game + 1) * GOLDEN)
    for s in range(2):
        x = k1 + np.uint64(s + 1) * STREAM_SALT
        for i in range(4):
            x = x + GOLDEN
            rng[4 * s + i] = mix64(x)


@njit
def rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(inline='always')
def advance(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in locals: (output, new state)."""
    result = rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit
def next64(g, stream):
    rng = g["rng"]
    o = 4 * stream
    result, s0, s1, s2, s3 = advance(rng[o], rng[o + 1], rng[o + 2], rng[o + 3])
    rng[o], rng[o + 1], rng[o + 2], rng[o + 3] = s0, s1, s2, s3
    return result


@njit
def below(g, stream, n):
    return np.int64(((next64(g, stream) >> U11) * np.uint64(n)) >> U53)


@njit
def uniform(g, stream):
    return np.float64(next64(g, stream) >> U11) * INV53


@njit
def bernoulli(g, stream, p):
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return uniform(g, stream) < p


@njit
def shuffle(g, a, m, stream):
    """Fisher-Yates, the draw for position i being ``below(i + 1)``; the stream's state stays in locals
    for the whole shuffle (one load and one store instead of one per draw: a round's shuffle is a
    visible share of a classic round, docs/results/code_choices.json). The same numbers as calling ``below`` m - 1 times."""
    rng = g["rng"]
    o = 4 * stream
    s0, s1, s2, s3 = rng[o], rng[o + 1], rng[o + 2], rng[o + 3]
    for i in range(m - 1, 0, -1):
        x, s0, s1, s2, s3 = advance(s0, s1, s2, s3)
        j = np.int64(((x >> U11) * np.uint64(i + 1)) >> U53)
        a[i], a[j] = a[j], a[i]
    rng[o], rng[o + 1], rng[o + 2], rng[o + 3] = s0, s1, s2, s3


@njit
def weighted(g, weights, k):
    """Index i < k drawn with probability ∝ weights[i] (play stream, protocol §6)."""
    total = 0.0
    for i in range(k):
        total += weights[i]
    u = uniform(g, PLAY_STREAM) * total
    acc = 0.0
    for i in range(k):
        acc += weights[i]
        if u < acc:
            return i
    for i in range(k - 1, -1, -1):   # only reachable through rounding: the last positive weight
        if weights[i] > 0:
            return i
    return k - 1
