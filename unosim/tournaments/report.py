"""An HTML fragment of a tournament (standings table and chart) for a report to embed.

Self-contained (the chart is an inline PNG); the report decides where it goes.
"""

from __future__ import annotations

import base64
import html


def html_fragment(result) -> str:
    """``<section>`` with the standings (intervals 95 %, clustered by deal) and the chart."""
    from ..plots import to_png
    head = ("<tr><th>rank</th><th>policy</th><th>win rate</th><th>points scored</th><th>points left</th>"
            "<th>rating</th></tr>")
    rows = []
    for i, r in enumerate(result.standings.iter_rows(named=True)):
        cells = [str(i + 1), html.escape(r["policy"]),
                 f"{r['win_rate']:.4f} [{r['ci_low']:.4f}, {r['ci_high']:.4f}]",
                 f"{r['mean_points']:.1f} [{r['mean_points_ci_low']:.1f}, {r['mean_points_ci_high']:.1f}]",
                 f"{r['mean_points_left']:.1f} [{r['mean_points_left_ci_low']:.1f}, "
                 f"{r['mean_points_left_ci_high']:.1f}]",
                 f"{r['rating']:.1f} [{r['rating_ci_low']:.1f}, {r['rating_ci_high']:.1f}]"]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    png = base64.b64encode(to_png(result.chart(), dpi=80)).decode("ascii")
    return (f"<section class=\"tournament\"><h2>Tournament: {html.escape(result.title)}</h2>"
            f"<p>Every deal is played under every seat arrangement, so card and seat luck cancel; intervals "
            f"are 95 %, clustered by deal.</p><table>{head}{''.join(rows)}</table>"
            f"<img alt=\"tournament standings and head-to-head\" src=\"data:image/png;base64,{png}\"></section>")
