"""The "How much is skill" pages, from ``docs/results/skill_index.json`` (``analyses/skill_index.py``):
the overview (the comparable-index table, the published values beside it, the chart placing every
variant among the published leagues) and one page per variant (every figure of both table sizes)."""

from __future__ import annotations

import math

import results_pages

KIND = "skill_index"
CHART = "skill_index_chart.svg"


def _interval(row: dict, name: str, digits: int, scale: float = 1.0) -> str:
    def show(v):
        return "∞" if v is None else f"{v * scale:,.{digits}f}"
    return f"{show(row[name])} [{show(row[f'{name}_ci_low'])}, {show(row[f'{name}_ci_high'])}]"


def _table(columns: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns),
            *("| " + " | ".join(str(c) for c in row) + " |" for row in rows), ""]


def overview(data: dict, stem: str) -> str:
    variants = list(dict.fromkeys(c["variant"] for c in data["cells"]))
    lines = [results_pages.render(data), "## Published values: games until skill explains half of a league's standings",
             "", "*Professional leagues: a game is one round, a tie half; the same definition as the index above, over "
             "a population of teams. The season's share is derived from the published games to half: n / (n + n½).*",
             ""]
    lines += _table(["league", "games to half", "season (games)", "skill share of a season (%)", "source"],
                    [[p["name"], p["rounds_to_half"], p["season"], f"{100 * p['season_share']:.0f}", p["source"]]
                     for p in data["published"]])
    lines += [f"The rating spread: {data['spread_source']}. Its values are spreads of human players and are not "
              "set beside the spreads of programs here.", "",
              "## Where the variants sit among the leagues", "",
              f"![Rounds until skill explains half, UNO variants among published leagues]({CHART})", "",
              "## Every variant", "", ", ".join(f"[{v}](skill/{v}.md)" for v in variants), ""]
    return "\n".join(lines)


def variant_page(data: dict, variant: str) -> str:
    cells = [c for c in data["cells"] if c["variant"] == variant]
    lines = [f"# How much is skill: {variant}", "",
             f"From [the comparable index](../{KIND}.md): the population {', '.join(f'`{p}`' for p in data['population'])} "
             "in duplicate tournaments, every figure with its 95 % interval (bootstrap over deals). Which of these "
             "compare with published games, and under what population, is said there and in "
             "[the rules, §8.6](../../rules.md).", "",
             f"Measure again: `{data['command']}`.", ""]
    for c in cells:
        d, e = c["decomposition"], c["edge"]
        lines += [f"## {c['players']} players", "",
                  f"*{c['deck']}-card deck, rules as published; {c['deals']:,} deals, {c['games']:,} games, seed "
                  f"{c['seed']}; {100 * c['no_winner_share']:.1f} % of rounds without a winner (their finishing "
                  "order is by cards left, as the ladder ranks).*", "",
                  results_pages.stamp(c), "", "**True-score decomposition** (a round's result: the share of the other "
                  "seats the player finished ahead of, ties ½)", ""]
        lines += _table(["figure", "value [95 % interval]"], [
            ["variance of true scores", _interval(d, "var_true", 5)],
            ["variance of one round's result (σ²)", _interval(d, "round_var", 4)],
            ["skill share of one round (%)", _interval(d, "share_one", 1, 100)],
            [f"skill share after {d['season']} rounds (%)", _interval(d, "share_season", 0, 100)],
            ["rounds until skill explains half", _interval(d, "rounds_to_half", 1)]])
        lines += [f"**The expert's edge over `random`**: q = {_interval(e, 'q', 3)} of the rounds finished ahead of it "
                  f"at the same table, s = 2q − 1 = {_interval(e, 's', 3)}.", "",
                  "**Rating spread by policy set** (Elo; the noise floor is the spread of identical players over the "
                  "same games, \"95 %\" its 95th percentile: a spread below it is not told apart from no skill)", ""]
        lines += _table(["policy set", "entrants", "spread", "noise floor", "floor 95 %", "spread above the floor"],
                        [[s["policy_set"], s["entrants"], _interval(s, "spread", 0), _interval(s, "floor", 1),
                          f"{s['floor_high']:.0f}", _interval(s, "corrected", 0)] for s in c["spreads"]])
    return "\n".join(lines)


def chart(data: dict) -> str:
    """Rounds until skill explains half, log scale: the published leagues and every UNO cell (SVG text)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    rows = [(p["name"], p["rounds_to_half"], None, None, "published") for p in data["published"]]
    for c in data["cells"]:
        d = c["decomposition"]
        rows.append((f"UNO {c['variant']}, {c['players']}p", d["rounds_to_half"], d["rounds_to_half_ci_low"],
                     d["rounds_to_half_ci_high"], f"{c['players']}p"))
    rows.sort(key=lambda r: math.inf if r[1] is None else r[1])
    colours = {"published": "0.35", "2p": "tab:blue", "4p": "tab:orange"}
    fig = Figure(figsize=(7, 0.32 * len(rows) + 1.6))
    ax = fig.subplots()
    finite = [v for r in rows for v in r[1:4] if v is not None]
    right = max(finite) * 3 if finite else 100
    for y, (_, value, low, high, kind) in enumerate(rows):
        if value is None:
            ax.annotate("skill not shown (var(true) ≤ 0)", (1, y), va="center", fontsize="small")
            continue
        marker = "s" if kind == "published" else "o"
        if low is not None:
            ax.plot([low, high if high is not None else right], [y, y], color=colours[kind], lw=1.5)
        ax.plot([value], [y], marker, color=colours[kind], label=kind)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize="small")
    ax.set_xscale("log")
    ax.set_xlim(left=max(min(finite) / 2, 0.5) if finite else 1, right=right)
    ax.invert_yaxis()
    ax.set_xlabel("rounds (games) until skill explains half the variance (log scale)")
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    ax.legend(unique.values(), [{"published": "published league", "2p": "UNO, 2 players", "4p": "UNO, 4 players"}[k]
                                for k in unique], fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=3)
    ticks = [t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000) if ax.get_xlim()[0] <= t <= right]
    ax.set_xticks(ticks, [f"{t:,}" for t in ticks])
    ax.set_title(f"Fewer rounds: more skill. UNO: population {', '.join(data['population'])};\n"
                 "its 4-player rounds compare with each other, not with the two-team leagues", fontsize="small")
    fig.tight_layout()
    import io
    out = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": KIND}):   # the same data, the same file
        fig.savefig(out, format="svg", metadata={"Date": None}, bbox_inches="tight")
    return out.getvalue()


def pages(data: dict, stem: str) -> dict[str, str]:
    """{path under docs/: text}: the overview, the chart and a page per variant."""
    folder = results_pages.FOLDER
    out = {f"{folder}/{stem}.md": overview(data, stem), f"{folder}/{CHART}": chart(data)}
    for variant in dict.fromkeys(c["variant"] for c in data["cells"]):
        out[f"{folder}/skill/{variant}.md"] = variant_page(data, variant)
    return out
