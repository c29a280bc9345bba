"""What the page looks like to a person: one JavaScript pass over the live page, then attributes a task can name.

:data:`PERCEIVE_JS` reads every rendered element that has no rendered element child (a *leaf*: a coloured box, an
SVG shape, a label, a button) from the live page in one pass: its text, tag, whether it is a form control, whether
it is disabled, its bounding box, its computed colours (an SVG shape's fill, else the background, and the text's
ink), its shape (an SVG tag; a polygon's or path's number of sides; an HTML box with full rounding is a circle) and
its size (an SVG text's font size, else its larger side). :func:`perceive` turns the reply into :class:`Percept` s
and derives what is relative: the colour as the nearest CSS colour name and as a shade (red, green, blue, …), the
size class among its peers (``small``/``large`` when the peers come in two sizes), and its row, column and order
among its peers (elements of the same parent). The candidate policy (``insta.appearance``, ``insta.compare``), the
judge and the prompt read the same percepts (``Element.looks``).
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass, field
from typing import Any

from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.colours import CSS_COLOURS

#: At most this many leaves are read from a page (a page of thousands of cells is cut, in page order).
MAX_PERCEPTS = 600

PERCEIVE_JS = """(limit) => {
  const out = [];
  const root = document.body;
  if (!root) return out;
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'BR', 'META', 'LINK', 'DEFS', 'TITLE',
                        'CLIPPATH', 'LINEARGRADIENT', 'RADIALGRADIENT', 'STOP', 'MASK', 'PATTERN']);
  const controls = new Set(['INPUT', 'BUTTON', 'SELECT', 'TEXTAREA', 'A', 'OPTION']);
  const shown = (el, style) => style.display !== 'none' && style.visibility !== 'hidden'
    && parseFloat(style.opacity || '1') > 0;
  const rendered = (el) => {
    if (skip.has(el.tagName.toUpperCase())) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 || box.height > 0;
  };
  const sides = (el) => {
    const tag = el.tagName.toLowerCase();
    if (tag === 'polygon' || tag === 'polyline') {
      const n = (el.getAttribute('points') || '').trim().split(/[\\s,]+/).filter(Boolean).length / 2;
      return Math.floor(n);
    }
    if (tag === 'path') {
      const d = el.getAttribute('d') || '';
      if (/[aAcCqQsS]/.test(d)) return 0;
      return (d.match(/[MLHVmlhv]/g) || []).length;
    }
    return null;
  };
  for (const el of root.querySelectorAll('*')) {
    if (out.length >= limit) break;
    const id = el.getAttribute('data-ss-id');
    if (!id || !rendered(el)) continue;
    const tag = el.tagName.toLowerCase();
    if (tag === 'svg' || tag === 'g') continue;
    if (Array.from(el.children).some(rendered) && !controls.has(el.tagName.toUpperCase())) continue;
    const style = getComputedStyle(el);
    if (!shown(el, style)) continue;
    let hidden = false;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (!shown(a, s)) { hidden = true; break; }
    }
    if (hidden) continue;
    const box = el.getBoundingClientRect();
    const isSvg = el instanceof SVGElement;
    const radius = parseFloat(style.borderTopLeftRadius) || 0;
    out.push({
      id: parseInt(id, 10), tag: tag, svg: isSvg,
      parent: el.parentElement ? parseInt(el.parentElement.getAttribute('data-ss-id') || '0', 10) : 0,
      text: (el.textContent || '').trim().slice(0, 80),
      control: controls.has(el.tagName.toUpperCase()) || el.getAttribute('role') === 'button',
      disabled: !!el.disabled || el.getAttribute('aria-disabled') === 'true',
      x: box.left + window.scrollX, y: box.top + window.scrollY, w: box.width, h: box.height,
      fill: isSvg ? style.fill : style.backgroundColor, ink: style.color,
      font: parseFloat(style.fontSize) || 0,
      round: !isSvg && radius > 0 && radius * 2 >= Math.min(box.width, box.height) - 1,
      sides: sides(el),
    });
  }
  return out;
}"""

#: Shades a person names a colour by, from its hue (degrees where the shade begins), lightness and saturation.
SHADE_HUES = ((15, "red"), (45, "orange"), (70, "yellow"), (160, "green"), (195, "cyan"), (255, "blue"),
              (290, "purple"), (335, "magenta"), (360, "red"))
SHADES = frozenset({"red", "orange", "yellow", "green", "cyan", "blue", "purple", "magenta", "pink", "brown",
                    "black", "white", "grey", "gray"})
#: Two sizes are told apart when the larger peer is at least this much larger than the smaller.
SIZE_RATIO = 1.4


@dataclass
class Percept:
    """One rendered leaf of the page, as a person sees it."""

    id: int
    tag: str
    parent: int
    text: str = ""
    control: bool = False
    disabled: bool = False
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0
    rgb: tuple[int, int, int] | None = None
    colour: str | None = None
    shade: str | None = None
    shape: str | None = None
    sides: int | None = None
    size: float = 0.0
    size_class: str | None = None
    row: int | None = None
    column: int | None = None
    order: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2

    @property
    def kind(self) -> str:
        """``letter``, ``digit`` or ``text`` for text, ``shape`` for an SVG shape or a coloured box, else ``blank``."""
        text = self.text
        if self.shape not in (None, "text"):
            return "shape"
        if len(text) == 1 and text.isalpha():
            return "letter"
        if text.isdigit():
            return "digit"
        return "text" if text else "blank"

    def seen(self) -> dict[str, Any]:
        """What the judge needs to check a description against it later (``Element.seen``)."""
        return {"kind": self.kind, "shape": self.shape, "text": self.text, "rgb": list(self.rgb) if self.rgb else None,
                "colour": self.colour, "shade": self.shade, "size_class": self.size_class, "row": self.row,
                "column": self.column, "tag": self.tag}

    def looks(self) -> str:
        """What it looks like, in words: ``large red circle``, ``small blue letter "q"``, ``row 2, column 3``."""
        words = [self.size_class or "", self.colour or ""]
        if self.shade and self.shade != self.colour:
            words.append(f"({self.shade})")
        kind = self.kind
        words.append(self.shape if kind == "shape" and self.shape else kind)
        if kind in ("letter", "digit"):
            words.append(f'"{self.text}"')
        if self.row is not None and self.column is not None:
            words.append(f"at row {self.row + 1}, column {self.column + 1}")
        return " ".join(word for word in words if word)


def parse_rgb(css: str | None) -> tuple[int, int, int] | None:
    """``rgb(1, 2, 3)`` / ``rgba(1, 2, 3, 0.5)`` as a triple; None for a transparent or unknown colour."""
    if not css or not css.startswith("rgb"):
        return None
    parts = [p.strip() for p in css[css.index("(") + 1: css.rindex(")")].replace("/", ",").split(",")]
    try:
        values = [float(p) for p in parts if p]
    except ValueError:
        return None
    if len(values) < 3 or (len(values) > 3 and values[3] == 0):
        return None
    return round(values[0]), round(values[1]), round(values[2])


def colour_distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """A perceptual distance between two colours (the "redmean" weighting of RGB)."""
    mean = (a[0] + b[0]) / 2
    dr, dg, db = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return math.sqrt((2 + mean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean) / 256) * db * db)


def colour_name(rgb: tuple[int, int, int]) -> str:
    """The nearest CSS colour name."""
    return min(CSS_COLOURS, key=lambda name: colour_distance(rgb, CSS_COLOURS[name]))


def shade_of(rgb: tuple[int, int, int]) -> str:
    """The shade a person would name: black, white or grey when there is little colour, else by hue (pink for a
    light red, brown for a dark orange)."""
    h, lightness, saturation = colorsys.rgb_to_hls(*(channel / 255 for channel in rgb))
    if lightness < 0.12:
        return "black"
    if lightness > 0.94:
        return "white"
    if saturation < 0.15 or (max(rgb) - min(rgb)) < 30:
        return "grey"
    degrees = h * 360
    shade = next(name for start, name in SHADE_HUES if degrees < start)
    if shade in ("red", "magenta") and lightness > 0.7:
        return "pink"
    if shade == "orange" and lightness < 0.35:
        return "brown"
    return shade


def _shape(item: dict[str, Any]) -> tuple[str | None, int | None]:
    tag, sides = item.get("tag", ""), item.get("sides")
    if tag in ("circle", "ellipse"):
        return "circle", None
    if tag == "rect":
        return "rectangle", 4
    if tag in ("polygon", "polyline", "path") and sides:
        return {3: "triangle", 4: "rectangle"}.get(int(sides), "polygon"), int(sides)
    if tag == "line":
        return "line", None
    if tag == "text":
        return "text", None
    if item.get("svg") or item.get("text") or parse_rgb(item.get("fill")) is None:
        return None, None  # an HTML element is drawn as a shape only by a colour of its own
    return ("circle", None) if item.get("round") else ("rectangle", 4)


def percept_of(item: dict[str, Any]) -> Percept:
    """One element of :data:`PERCEIVE_JS`'s reply, with its colour and shape named."""
    shape, sides = _shape(item)
    text = str(item.get("text") or "")
    fill, ink = parse_rgb(item.get("fill")), parse_rgb(item.get("ink"))
    rgb = fill if fill is not None and (shape not in (None, "text") or not text) else (ink if text else fill)
    if item.get("svg") and shape == "text":
        rgb = fill or ink
    size = float(item.get("font") or 0) if shape == "text" or (text and not shape) else \
        max(float(item.get("w") or 0), float(item.get("h") or 0))
    return Percept(id=int(item["id"]), tag=str(item.get("tag") or ""), parent=int(item.get("parent") or 0), text=text,
                   control=bool(item.get("control")), disabled=bool(item.get("disabled")),
                   x=float(item.get("x") or 0), y=float(item.get("y") or 0), w=float(item.get("w") or 0),
                   h=float(item.get("h") or 0), rgb=rgb, colour=colour_name(rgb) if rgb else None,
                   shade=shade_of(rgb) if rgb else None, shape=shape, sides=sides, size=size)


def _cluster(values: list[float], tolerance: float) -> list[int]:
    """The index of each value's cluster, clusters ordered by value (values within ``tolerance`` of the previous
    one share a cluster)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    labels = [0] * len(values)
    label, last = -1, None
    for i in order:
        if last is None or values[i] - last > tolerance:
            label += 1
        labels[i] = label
        last = values[i]
    return labels


def relate_peers(percepts: list[Percept]) -> list[Percept]:
    """Size class, row, column and order of each percept among its peers (the leaves of the same parent: shapes
    and characters drawn side by side are compared by their drawn size, a character by its font size)."""
    groups: dict[int, list[Percept]] = {}
    for percept in percepts:
        groups.setdefault(percept.parent, []).append(percept)
    for peers in groups.values():
        for order, percept in enumerate(peers):
            percept.order = order
        if len(peers) < 2:
            continue
        sizes = [p.size for p in peers if p.size > 0]
        if sizes and max(sizes) >= SIZE_RATIO * min(sizes):
            cut = math.sqrt(max(sizes) * min(sizes))
            for percept in peers:
                percept.size_class = "large" if percept.size >= cut else "small"
        step = min((p.h for p in peers if p.h > 0), default=0.0) / 2 or 1.0
        rows = _cluster([p.centre[1] for p in peers], step)
        columns = _cluster([p.centre[0] for p in peers], min((p.w for p in peers if p.w > 0), default=2.0) / 2)
        for percept, row, column in zip(peers, rows, columns, strict=True):
            percept.row, percept.column = row, column
    return percepts


def perceive(browser: Any, limit: int = MAX_PERCEPTS) -> tuple[list[Percept], str | None]:
    """The page's rendered leaves, related to their peers, and None; or no leaves and why the page could not be read
    (tried twice; the episode goes on without what the page looks like, and the step says so)."""
    error = None
    for _ in range(2):
        try:
            reply = browser.evaluate(PERCEIVE_JS, limit)
        except ScrapesmithError as exc:
            error = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
            continue
        items = [percept_of(item) for item in reply or [] if isinstance(item, dict) and "id" in item]
        return relate_peers(items), None
    return [], error


__all__ = ["PERCEIVE_JS", "SHADES", "Percept", "colour_distance", "colour_name", "parse_rgb", "perceive",
           "relate_peers", "shade_of"]
