"""Small inline SVG pictures of a column's output profile, forged beside now: people see a change faster
than they read it. Static markup only (no script); every number also appears as text in the page."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

from scrapesmith.drift import ColumnProfile

WIDTH = 160
BAR = 10
BINS = 12
FORGED = "#adb5bd"
NOW = "#4c6ef5"
DRIFTED = "#e8590c"


def fill_bars(was: ColumnProfile | None, now: ColumnProfile | None, drifted: bool = False) -> Markup:
    """Two bars, the share of pages filled when forged (grey) and in this run (blue, orange if drifted)."""
    bars = []
    for row, (profile, colour, label) in enumerate(((was, FORGED, "forged"), (now, DRIFTED if drifted else NOW,
                                                                               "this run"))):
        if profile is None:
            continue
        width = round(WIDTH * profile.fill_rate)
        y = row * (BAR + 4)
        bars.append(f'<rect x="0" y="{y}" width="{WIDTH}" height="{BAR}" fill="#f1f3f5"/>'
                    f'<rect x="0" y="{y}" width="{width}" height="{BAR}" fill="{colour}">'
                    f"<title>{label}: {profile.filled} of {profile.pages} filled</title></rect>")
    return Markup(f'<svg class="fill" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{2 * BAR + 4}" '
                  f'role="img" aria-label="filled pages, forged and now">{"".join(bars)}</svg>')


def histogram(was: Sequence[float], now: Sequence[float], label: str, drifted: bool = False) -> Markup:
    """Forged (grey, above) and this run's (blue or orange, below) values over the same bins."""
    values = [*was, *now]
    if not values:
        return Markup("")
    low, high = min(values), max(values)
    span = (high - low) or 1.0

    def counts(sample: Sequence[float]) -> list[int]:
        bins = [0] * BINS
        for value in sample:
            bins[min(BINS - 1, int((value - low) / span * BINS))] += 1
        return bins

    step = WIDTH / BINS
    parts = []
    for row, (sample, colour) in enumerate(((was, FORGED), (now, DRIFTED if drifted else NOW))):
        bins = counts(sample)
        top = max(bins) or 1
        base = (row + 1) * 22
        for index, count in enumerate(bins):
            height = round(20 * count / top)
            if height:
                parts.append(f'<rect x="{index * step:.1f}" y="{base - height}" width="{step - 1:.1f}" '
                             f'height="{height}" fill="{colour}"/>')
    title = escape(f"{label} {low:g}–{high:g}: forged above, this run below")
    return Markup(f'<svg class="histogram" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="46" '
                  f'role="img" aria-label="{title}"><title>{title}</title>{"".join(parts)}</svg>')


def time_line(series: Sequence[tuple[str, float]], label: str) -> Markup:
    """A column's values over its dataset's dates: one line, dates left to right in order (evenly spaced:
    the order and the jumps are what shows a change), lowest value at the bottom."""
    if len(series) < 2:
        return Markup("")
    values = [value for _, value in series]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = WIDTH / (len(series) - 1)
    points = " ".join(f"{index * step:.1f},{40 - 36 * (value - low) / span + 2:.1f}"
                      for index, value in enumerate(values))
    title = escape(f"{label} over {series[0][0]} – {series[-1][0]}: {low:g} to {high:g}, {len(series)} rows")
    return Markup(f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="44" '
                  f'role="img" aria-label="{title}"><title>{title}</title><polyline points="{points}" fill="none" '
                  f'stroke="{NOW}" stroke-width="1.5"/></svg>')
