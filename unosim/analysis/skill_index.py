"""How much of a game is skill, on scales that published games and sports are measured on.

Pure functions from raw games (a tournament's per-seat finishes) to figures with seeded bootstrap
intervals over deals; nothing here plays or writes. Three indices, each from its own literature:

* **True-score decomposition** (:func:`decompose`), the method sports analysts use for leagues
  (T. Tango's "regression to the mean" recipe, written up by P. Birnbaum, "Luck vs. talent in the NHL
  standings", Sabermetric Research, 2013-01-21; summarised by M. Mauboussin, *The Success Equation*,
  Harvard Business Review Press, 2012, ch. 4): over ``n`` rounds a player's observed score varies as
  ``var(observed) = var(true) + var(luck)`` with ``var(luck) = σ²/n``, ``σ²`` the variance of one
  round's result. The **skill share** after ``n`` rounds is ``var(true) / (var(true) + σ²/n)``, and
  the **rounds to half** ``n½ = σ² / var(true)`` is the number of rounds after which skill explains
  half of the variance of the standings (Tango's "number of games where luck and talent are equally
  important"; the leagues' published values are on the results page, analyses/skill_index.py).
  A round's result is the share of the other seats the player finished ahead of (ties ½), as the
  ladder ranks (:mod:`.standings`): at two seats a win, a loss or a tie, as in a league's standings.
* **The expert's edge** ``s = 2q − 1`` (:func:`edge`): ``q`` the share of rounds the expert finishes
  ahead of ``random`` on the same deals; 0 in a game of pure chance, 1 when the expert always wins.
* **Rating spread with its noise floor** (:func:`spread_with_floor`): the standard deviation of the
  players' best-fit Elo ratings, Duersch, Lambrecht & Oechssler, "Measuring skill and chance in games",
  *European Economic Review*, August 2020. Ratings fitted to finite games spread even among
  identical players; the **noise floor** is that spread, found by simulation on the same games with
  every game's finishing order handed to the seats at random (a population of identical players with
  exactly the same number of games, ties and table sizes). ``corrected`` = √(spread² − floor²).

Every figure depends on the population of players: here a fixed set of programs, not humans
(docs/rules.md §8.6 says which numbers compare with which published ones).

Examples
--------
>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> talent = rng.normal(0.5, 0.05, size=(30, 1, 1))            # 30 players, one round per deal
>>> rounds = (rng.random((30, 2000, 1)) < talent).astype(float)
>>> fig = decompose(rounds, seed=1, resamples=200)
>>> 50 < fig["rounds_to_half"] < 200                          # truth: 0.2475 / 0.0025 = 99 rounds
True
"""

from __future__ import annotations

import math

import numpy as np

from .standings import CONFIDENCE, _bradley_terry

RESAMPLES = 1000        # bootstrap resamples over deals
NULL_REPLICATES = 200   # random relabellings of the games for the noise floor


def _tails(confidence: float) -> tuple[float, float]:
    tail = (1 - confidence) / 2 * 100
    return tail, 100 - tail


def _moments(rounds: np.ndarray, weights: np.ndarray | None = None) -> tuple[float, float]:
    """(var(true), σ²) of ``rounds`` (players, deals, rounds per deal), the deals weighted by how often
    a resample drew them."""
    players, deals, per_deal = rounds.shape
    w = np.ones(deals) if weights is None else weights
    total = w.sum()
    per_deal_mean = rounds.mean(axis=2)                                  # (players, deals)
    score = per_deal_mean @ w / total                                    # each player's mean score
    observed = score.var(ddof=1)
    # E[observed] = var(true) + (Σ var(e_i) − k·var(ē)) / (k − 1), e_i the sampling error of score i,
    # each variance clustered by deal (the rounds of a deal share its cards). Independent errors give
    # the mean var(e_i); in a tournament the scores sum to a constant (ē = 0) and the noise is k/(k − 1)
    # times that, which matters with a handful of players.
    def sampling_variance(per_deal: np.ndarray, mean: np.ndarray) -> np.ndarray:
        return ((per_deal - mean[..., None]) ** 2) @ w / (total - 1) / total

    of_each = sampling_variance(per_deal_mean, score)
    of_mean = sampling_variance(per_deal_mean.mean(axis=0), score.mean())
    noise = float((of_each.sum() - players * of_mean) / (players - 1))
    one_round = float(np.mean(((rounds - score[:, None, None]) ** 2).mean(axis=2) @ w / total))
    return observed - noise, one_round


def decompose(rounds: np.ndarray, *, seed: int, resamples: int = RESAMPLES,
              confidence: float = CONFIDENCE, season: int = 100) -> dict[str, float | None]:
    """The true-score decomposition of the players' scores.

    Parameters
    ----------
    rounds : ndarray of shape (players, deals, rounds per deal)
        Each player's result in each of its rounds (1 win, 0 loss, between: a share); every player
        plays the same number of rounds per deal.
    seed : int
        Seeds the bootstrap over deals.
    resamples : int
        Bootstrap resamples.
    confidence : float
        Level of the percentile intervals.
    season : int
        The number of rounds ``share_season`` is stated at.

    Returns
    -------
    dict
        ``var_true`` (the variance of the players' true scores: the observed variance minus what the
        scores' sampling errors add to it, clustered by deal; its bootstrap replicates re-centred on it), ``round_var`` (σ², one round's variance),
        ``share_one`` (skill share of one round's result), ``share_season`` (after ``season``
        rounds), ``rounds_to_half`` (σ² / var(true); None when var(true) ≤ 0), each with
        ``_ci_low``/``_ci_high``. The interval of ``rounds_to_half`` is the inverted interval of
        var(true)/σ² (its upper end None, unbounded, when that reaches 0).
    """
    rounds = np.asarray(rounds, dtype=float)
    if rounds.ndim != 3 or rounds.shape[0] < 2 or rounds.shape[1] < 2:
        raise ValueError(f"rounds has shape {rounds.shape}: valid is (players ≥ 2, deals ≥ 2, rounds per deal)")
    var_true, round_var = _moments(rounds)
    rng = np.random.default_rng(seed)
    deals = rounds.shape[1]
    boot = np.array([_moments(rounds, w) for w in rng.multinomial(deals, np.full(deals, 1 / deals), size=resamples)])
    # a resample's scores vary by their sampling noise once more, which lifts its var(true) by about that
    # noise: the replicates are centred on the estimate again (a bias-corrected percentile interval)
    boot[:, 0] -= boot[:, 0].mean() - var_true
    low, high = _tails(confidence)
    ratio, ratio_boot = var_true / round_var, boot[:, 0] / boot[:, 1]
    r_low, r_high = np.percentile(ratio_boot, [low, high])

    def share(r, n):
        r = np.maximum(r, 0.0)
        return n * r / (1 + n * r)

    out: dict[str, float | None] = {"var_true": float(var_true), "round_var": round_var}
    out["var_true_ci_low"], out["var_true_ci_high"] = (float(v) for v in np.percentile(boot[:, 0], [low, high]))
    out["round_var_ci_low"], out["round_var_ci_high"] = (float(v) for v in np.percentile(boot[:, 1], [low, high]))
    for name, n in (("share_one", 1), ("share_season", season)):
        out[name] = float(share(ratio, n))
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = float(share(r_low, n)), float(share(r_high, n))
    out["season"] = season
    out["rounds_to_half"] = float(1 / ratio) if ratio > 0 else None
    out["rounds_to_half_ci_low"] = float(1 / r_high) if r_high > 0 else None
    out["rounds_to_half_ci_high"] = float(1 / r_low) if r_low > 0 else None
    return out


def seat_results(finish: np.ndarray) -> np.ndarray:
    """Each seat's result of each game: the share of the other seats it finished ahead of, ties ½
    (``finish``: (arrangements, deals, seats), higher = further ahead, as :class:`.standings.Games`)."""
    finish = np.asarray(finish)
    seats = finish.shape[2]
    mine, theirs = finish[..., :, None], finish[..., None, :]
    ahead = (mine > theirs) + 0.5 * (mine == theirs)          # the diagonal counts ½ for each seat
    return (ahead.sum(axis=3) - 0.5) / (seats - 1)


def rounds_by_player(finish: np.ndarray, entrant_of: np.ndarray) -> np.ndarray:
    """(players, deals, rounds per deal): each entrant's results over the seats it held in each deal, as
    :func:`decompose` reads them (every entrant holds the same number of seats: a balanced tournament)."""
    results = seat_results(finish)
    players = int(entrant_of.max()) + 1
    held = [np.argwhere(entrant_of == e) for e in range(players)]
    if len({len(h) for h in held}) != 1:
        raise ValueError(f"the entrants hold {[len(h) for h in held]} seats: the decomposition needs a balanced "
                         "tournament (every entrant the same number of seats per deal)")
    return np.stack([results[h[:, 0], :, h[:, 1]].T for h in held])


def ahead_counts(finish: np.ndarray, entrant_of: np.ndarray) -> np.ndarray:
    """ahead[i, j, d]: the comparisons entrant i finished ahead of j in deal d (ties ½), over every game
    and pair of seats; ``entrant_of`` is (arrangements, seats) or one label per seat of every game
    (arrangements, deals, seats)."""
    finish = np.asarray(finish)
    arrangements, deals, seats = finish.shape
    labels = np.broadcast_to(entrant_of[:, None, :] if entrant_of.ndim == 2 else entrant_of, finish.shape)
    players = int(labels.max()) + 1
    ahead = np.zeros((players, players, deals))
    deal = np.broadcast_to(np.arange(deals)[None, :], (arrangements, deals))
    for s in range(seats):
        for t in range(seats):
            if s != t:
                value = (finish[:, :, s] > finish[:, :, t]) + 0.5 * (finish[:, :, s] == finish[:, :, t])
                np.add.at(ahead, (labels[:, :, s], labels[:, :, t], deal), value)
    return ahead


def edge(ahead: np.ndarray, expert: int, baseline: int, *, seed: int, resamples: int = RESAMPLES,
         confidence: float = CONFIDENCE) -> dict[str, float]:
    """``s = 2q − 1``: ``q`` the share of the comparisons of ``expert`` with ``baseline`` that the expert
    finished ahead (ties ½), with the percentile bootstrap interval over deals."""
    mine, theirs = ahead[expert, baseline], ahead[baseline, expert]
    total = mine + theirs
    rng = np.random.default_rng(seed)
    deals = len(mine)
    w = rng.multinomial(deals, np.full(deals, 1 / deals), size=resamples)
    q, q_boot = mine.sum() / total.sum(), (w @ mine) / (w @ total)
    low, high = np.percentile(q_boot, _tails(confidence))
    return {"q": float(q), "q_ci_low": float(low), "q_ci_high": float(high),
            "s": float(2 * q - 1), "s_ci_low": float(2 * low - 1), "s_ci_high": float(2 * high - 1)}


def _spread(ahead_sum: np.ndarray) -> float:
    return float(_bradley_terry(ahead_sum).std())


def spread_with_floor(finish: np.ndarray, entrant_of: np.ndarray, policy_sets: dict[str, list[int]], *,
                      seed: int, resamples: int = 200, replicates: int = NULL_REPLICATES,
                      confidence: float = CONFIDENCE) -> list[dict]:
    """The rating spread of each set of entrants, with its noise floor.

    Parameters
    ----------
    finish, entrant_of
        The tournament's games, as :class:`.standings.Games` holds them.
    policy_sets : dict
        name → the entrants (indices) rated together; each set's ratings are one Bradley–Terry fit to
        the comparisons among its members only.
    seed, resamples, replicates, confidence
        The seed, the bootstrap resamples over deals, the random relabellings of the noise floor, and
        the level of the intervals.

    Returns
    -------
    list of dict
        Per set: ``spread`` (Elo, the standard deviation of the ratings) with its bootstrap interval
        (the squared replicates re-centred on the squared estimate),
        ``floor`` (the root-mean-square spread of identical players: every game's finishing order dealt to its
        seats at random, ``replicates`` times; its interval a bootstrap over the relabellings) with
        ``floor_high`` (the ``confidence`` quantile of one relabelling's spread: a
        spread below it is not told apart from no skill), and ``corrected`` = √(max(spread² −
        floor², 0)) with the interval of the bootstrap spreads corrected likewise.
    """
    ahead = ahead_counts(finish, entrant_of)
    deals = ahead.shape[2]
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(deals, np.full(deals, 1 / deals), size=resamples)
    labels = np.broadcast_to(entrant_of[:, None, :], finish.shape)
    null = [ahead_counts(rng.permuted(finish, axis=2), labels).sum(axis=2) for _ in range(replicates)]
    low, high = _tails(confidence)
    rows = []
    for name, members in policy_sets.items():
        if len(members) < 2:
            raise ValueError(f"policy set {name!r} has {len(members)} entrant: valid is at least 2")
        sub = np.ix_(members, members)
        spread = _spread(ahead[sub].sum(axis=2))
        boot = np.array([_spread(np.tensordot(ahead[sub], w, axes=([2], [0]))) for w in weights]) ** 2
        # re-centred on the estimate (squared): a resample adds its sampling noise to the spread once more
        boot = np.sqrt(np.maximum(boot - (boot.mean() - spread ** 2), 0.0))
        floors = np.array([_spread(n[sub]) for n in null])
        floor = float(np.sqrt(np.mean(floors ** 2)))
        # the floor's own uncertainty (finitely many relabellings): a bootstrap over them
        floor_boot = np.sqrt((floors[rng.integers(0, replicates, size=(resamples, replicates))] ** 2).mean(axis=1))

        def corrected(x, floor=floor):
            return np.sqrt(np.maximum(np.asarray(x) ** 2 - floor ** 2, 0.0))

        rows.append({"policy_set": name, "entrants": len(members), "spread": spread,
                     "spread_ci_low": float(np.percentile(boot, low)), "spread_ci_high": float(np.percentile(boot, high)),
                     "floor": floor, "floor_ci_low": float(np.percentile(floor_boot, low)),
                     "floor_ci_high": float(np.percentile(floor_boot, high)),
                     "floor_high": float(np.percentile(floors, confidence * 100)),
                     "corrected": float(corrected(spread)),
                     "corrected_ci_low": float(np.percentile(corrected(boot), low)),
                     "corrected_ci_high": float(np.percentile(corrected(boot), high))})
    return rows


def share_after(rounds_to_half: float | None, n: int) -> float:
    """The skill share after ``n`` rounds of a game whose rounds to half is ``rounds_to_half``:
    n / (n + n½) (0 when skill never catches up)."""
    if rounds_to_half is None or math.isinf(rounds_to_half):
        return 0.0
    return n / (n + rounds_to_half)
