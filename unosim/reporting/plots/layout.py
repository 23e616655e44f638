"""How the report's figures are laid out: the desktop and the phone layout, panels, titles and labels that
fit them, the colours of an effect of practical size, and the encoders (:func:`to_png`, :func:`to_svg`).
Every chart module of :mod:`unosim.reporting.plots` draws with these."""

from __future__ import annotations

import io
import math
import textwrap
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from matplotlib import colormaps, rc_context
from matplotlib.figure import Figure

from ...analysis.practical import PRACTICAL, classify

_PANEL = (4.2, 3.2)
#: an effect of practical size (what the text states), one that is not, the minimum effect's band
SIGNIFICANT, NOT_SIGNIFICANT, BAND = "#1f5fa8", "#9a9a9a", "#e6e6e6"


@dataclass(frozen=True)
class Layout:
    """How a figure is laid out: ``narrow`` for a phone (panels in one column, ``width`` inches wide: at
    a 390-px screen's width the figure is shown at about its own size, so its text keeps its points)."""

    narrow: bool = False
    width: float = 3.6


DESKTOP = Layout()
LAYOUT: ContextVar[Layout] = ContextVar("layout", default=DESKTOP)   # Layout is frozen: one shared default
#: a phone's fonts: matplotlib's "x-small" at 11 pt is 7.6 pt, 10 px at the figure's own size
PHONE_FONT = 11


@contextmanager
def phone():
    """Figures drawn inside are laid out for a phone (:class:`Layout`): one column, larger text. The
    figure must also be saved inside (its fonts are resolved then)."""
    token = LAYOUT.set(Layout(narrow=True))
    try:
        with rc_context({"font.size": PHONE_FONT}):
            yield
    finally:
        LAYOUT.reset(token)


def pad_for_phone(fig: Figure) -> Figure:
    """More margin round a phone's figure: the browser draws its text a little wider than matplotlib
    measures it, and a phone's figure has no slack at its edges."""
    engine = fig.get_layout_engine()
    if engine is not None and hasattr(engine, "set"):
        engine.set(w_pad=0.09, h_pad=0.06)
    return fig


def fit(text: str, chars: int = 30) -> str:
    """``text`` broken into lines of at most ``chars`` characters on a phone (a title or label wider than
    the figure would be cut at its edge); unchanged otherwise."""
    if not LAYOUT.get().narrow:
        return text
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


def set_title(ax, text: str, chars: int = 30, **style) -> None:
    """A panel's title; on a phone wrapped and set flush right (the row labels take the left of a narrow
    figure, so a title centred over the axes would run past the figure's right edge)."""
    ax.set_title(fit(text, chars), loc="right" if LAYOUT.get().narrow else "center", **style)


def set_xlabel(ax, text: str, **style) -> None:
    """An x-axis label; on a phone wrapped and set flush right (as :func:`set_title`)."""
    ax.set_xlabel(fit(text), loc="right" if LAYOUT.get().narrow else "center", **style)


def one_panel(width: float, height: float) -> Figure:
    """A one-panel figure ``width`` inches wide, or a phone's width (:func:`phone`)."""
    layout = LAYOUT.get()
    return Figure(figsize=(layout.width if layout.narrow else width, height), layout="constrained")


def panels(n: int, columns: int = 3, sharey: bool = False) -> tuple[Figure, list]:
    layout = LAYOUT.get()
    cols = 1 if layout.narrow else min(n, columns)
    rows = math.ceil(n / cols)
    width = layout.width if layout.narrow else _PANEL[0] * cols
    height = _PANEL[1] * (layout.width / _PANEL[0]) * rows if layout.narrow else _PANEL[1] * rows
    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, sharey=sharey)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def dress(ax, title: str, xlabel: str, ylabel: str | None = None, legend: str | None = None) -> None:
    """A panel's title, axis labels and light grid, and its legend (at font size ``legend``) when it has
    series."""
    set_title(ax, title)
    set_xlabel(ax, xlabel)
    if ylabel is not None:
        ax.set_ylabel(fit(ylabel, 28))
    ax.grid(alpha=0.3)
    if legend:
        ax.legend(fontsize=legend)


def row_axis(ax, y, labels: list[str], xlabel: str, title: str = "", fontsize: str = "small") -> None:
    """A chart of one row per label: the labels along y, the x label, a grid along x, the title."""
    ax.set_yticks(y, [fit(label, 22) for label in labels], fontsize=fontsize)
    set_xlabel(ax, xlabel)
    ax.grid(alpha=0.3, axis="x")
    if title:
        set_title(ax, title)


def colours(n: int) -> list:
    """``n`` distinct colours: matplotlib's tab10, or tab20 beyond ten."""
    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def practical(measure: str, row: dict) -> bool:
    """The chart's blue: an effect of practical size (Holm-supported and its whole interval beyond the
    measure's minimum, :mod:`unosim.analysis.practical`) — what the text states as an effect."""
    return classify(measure, row) == PRACTICAL


def to_png(fig: Figure, dpi: int = 144) -> bytes:
    """The figure as PNG bytes (default 144 dpi: sharp at twice the size of a 72-dpi screen)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, pil_kwargs={"compress_level": 1})
    _freeze_layout(fig)
    return buffer.getvalue()


def to_svg(fig: Figure) -> bytes:
    """The figure as SVG bytes, text kept as text (small files, sharp at any zoom)."""
    buffer = io.BytesIO()
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "unosim"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    _freeze_layout(fig)
    return buffer.getvalue()


def _freeze_layout(fig: Figure) -> None:
    """Keep the layout of the first save: a second format then costs no new layout pass. No layout engine
    at all, rather than matplotlib's "none" placeholder, with which every save still runs a draw pass of its
    own to lay the figure out (a third of the second format's time)."""
    with rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)   # with both off: no engine (a user's rc could name one)


# ---- house-rule effects, survival, skill, card balance ---------------------------------------------
