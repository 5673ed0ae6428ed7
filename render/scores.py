"""A group's scores as a small table picture: this game, the running totals and games won, one row a player.

The look is the table pictures': felt, a tray for each player's row, the bundled font, and the winner of
the game ringed in the colour of a tile just played; a star marks who leads the totals. ``render`` knows
no languages, so every word (title, headings, names, numbers) arrives in the sheet already in the
reader's words. The first column holds the names, start-aligned and shortened with an ellipsis to fit;
every other column is right-aligned, so the digits of its numbers line up.

Like ``render.layout``, the layout is a plain value (tests ask where a row is) and only ``draw_scores``
paints. A sheet is a few dozen words, so it is drawn in RGB and mapped to the shared palette by
``render.png.encode``: 5 to 8 ms for 8 players (half drawing, half mapping), with no cached pieces to keep.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import draw_args, text_width
from render.geometry import Box
from render.layout import SCALES, LayoutError, _line_gap, _line_height, _wrapped, fits_telegram  # as a header wraps
from render.png import encode
from render.shapes import fill_rounded
from render.theme import FELT, MAX_WIDTH, MIN_WIDTH, RACK_RING, RGB, TEXT, TEXT_DIM, TRAY, Metrics

#: The real minus sign, as wide as a plus, so a column of signed numbers lines up.
MINUS = "\u2212"
#: What a shortened name ends with.
ELLIPSIS = "\u2026"
#: The leader's mark, drawn before their name.
STAR = "\u2605"


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """What a /scores picture shows, every word already in the reader's language.

    ``rows`` holds one row of cells per player, as many as ``columns``, the name first and the rest
    formatted (``score_text`` writes a number with a real minus sign). ``winner`` is the row of this
    game's winner (ringed), ``leader`` the row leading the totals (starred), each None for none.
    ``right_to_left`` mirrors the table (names on the right) for a reader of Hebrew or Arabic; each
    text is shaped in its own direction either way.
    """

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    winner: int | None = None
    leader: int | None = None
    right_to_left: bool = False

    def __post_init__(self) -> None:
        if not self.columns:
            raise ValueError("a score sheet needs at least the names' column")
        if not self.rows:
            raise ValueError("a score sheet needs at least one player")
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"a row of {len(row)} cells under {len(self.columns)} columns: {row}")
        for name, index in (("winner", self.winner), ("leader", self.leader)):
            if index is not None and not 0 <= index < len(self.rows):
                raise ValueError(f"{name} {index} is not a row of {len(self.rows)}")


def score_text(points: int, *, plus: bool = False) -> str:
    """A score as the picture shows it: a real minus sign (U+2212, as wide as a plus), "+58" with ``plus``."""
    if points < 0:
        return f"{MINUS}{-points}"
    return f"+{points}" if plus and points > 0 else str(points)


@dataclass(frozen=True, slots=True)
class ScoreText:
    """A line of text: its box (exactly its measured width), font size and colour."""

    text: str
    box: Box
    size: int
    colour: RGB


@dataclass(frozen=True, slots=True)
class ScoreLayout:
    """A whole scores picture, in pixels. ``rows`` and ``cells`` follow the sheet's rows, ``cells`` each row's
    columns in the sheet's order (whichever way they are drawn)."""

    width: int
    height: int
    scale: float
    title: tuple[ScoreText, ...]
    headings: tuple[ScoreText, ...]
    rows: tuple[Box, ...]
    cells: tuple[tuple[ScoreText, ...], ...]
    #: the winner's ring: their row's tray grown by ``ring`` pixels; None without a winner
    ring_box: Box | None
    ring: int
    radius: int
    star: ScoreText | None

    def texts(self) -> tuple[ScoreText, ...]:
        """Every text the picture draws."""
        cells = tuple(t for row in self.cells for t in row)
        return self.title + self.headings + cells + ((self.star,) if self.star is not None else ())

    def fits_telegram(self) -> bool:
        return fits_telegram(self.width, self.height)


def render_scores(sheet: ScoreSheet) -> bytes:
    """PNG bytes of the sheet, as narrow as a phone shows well and as tall as its rows need."""
    return encode(draw_scores(layout_scores(sheet)))


@dataclass(frozen=True, slots=True)
class _Sizes:
    """Pixel sizes at one scale: the table pictures' metrics plus a table's own."""

    scale: float
    margin: int
    title_font: int
    heading_font: int
    cell_font: int
    #: inside each column, on either side of its text
    pad: int
    #: above and below a row's text, inside its tray
    row_pad: int
    #: between two rows' trays; wider than the winner's ring, so a ring never touches the next tray
    row_gap: int
    ring: int
    radius: int
    #: below the title
    section_gap: int
    #: a name is shortened to fit this many pixels, however wide the picture might grow...
    name_max: int
    #: ... and the text is made smaller before a name gets less than this
    name_min: int

    @staticmethod
    def at(scale: float) -> _Sizes:
        m = Metrics.at(scale)

        def px(value: float) -> int:
            return max(1, round(value * scale))

        return _Sizes(
            scale=scale,
            margin=m.margin,
            title_font=m.header_font,
            heading_font=m.caption_font,
            cell_font=px(26),
            pad=px(14),
            row_pad=px(9),
            row_gap=max(m.row_gap, m.ring + 2),
            ring=m.ring,
            radius=m.tray_radius,
            section_gap=m.section_gap,
            name_max=px(380),
            name_min=px(150),
        )

    @property
    def row_h(self) -> int:
        return _line_height(self.cell_font) + 2 * self.row_pad


@dataclass(frozen=True, slots=True)
class _Columns:
    """The picture's width, each column's width (sheet order) and each heading's lines."""

    width: int
    widths: tuple[int, ...]
    headings: tuple[tuple[str, ...], ...]


def layout_scores(sheet: ScoreSheet, *, scale: float | None = None) -> ScoreLayout:
    """Where every text and row goes: the largest scale (None: tried from 1 down) at which the columns fit
    ``MAX_WIDTH`` and names keep a readable width, and the picture fits Telegram's limits."""
    for s in SCALES if scale is None else (scale,):
        z = _Sizes.at(s)
        columns = _fit_columns(sheet, z)
        if columns is None:
            continue
        layout = _compose(sheet, z, columns)
        if layout.fits_telegram():
            return layout
    raise LayoutError(f"a score sheet of {len(sheet.rows)} rows and {len(sheet.columns)} columns does not fit")


def _star_slot(sheet: ScoreSheet, z: _Sizes) -> int:
    """Room before every name for the leader's star (none without a leader), so the names stay aligned."""
    return 0 if sheet.leader is None else text_width(STAR, z.cell_font) + z.pad // 2


def _fit_columns(sheet: ScoreSheet, z: _Sizes) -> _Columns | None:
    """The narrower of one-line and two-line headings (one line on a tie), the name column taking what is
    left up to the picture's width; None if names would get less than ``name_min`` even at ``MAX_WIDTH``."""
    names = [row[0] for row in sheet.rows]
    name_need = _star_slot(sheet, z) + max(text_width(t, z.cell_font) for t in names)
    name_need = min(z.name_max, max(name_need, text_width(sheet.columns[0], z.heading_font)))
    best: _Columns | None = None
    for wrap in (False, True):
        headings = [_heading_lines(c, z.heading_font, wrap) for c in sheet.columns[1:]]
        others = [
            max(
                *(text_width(line, z.heading_font) for line in lines),
                *(text_width(r[i], z.cell_font) for r in sheet.rows),
            )
            + 2 * z.pad
            for i, lines in enumerate(headings, start=1)
        ]
        inner = sum(others) + 2 * z.pad
        width = min(MAX_WIDTH, max(MIN_WIDTH, 2 * z.margin + inner + name_need))
        name_w = width - 2 * z.margin - inner
        if name_w < min(z.name_min, name_need):
            continue
        found = _Columns(width, (name_w + 2 * z.pad, *others), ((sheet.columns[0],), *(tuple(h) for h in headings)))
        if best is None or found.width < best.width:
            best = found
    return best


def _heading_lines(text: str, size: int, wrap: bool) -> list[str]:
    """A heading on one line, or (``wrap``) broken at the space that makes its wider line narrowest."""
    words = text.split()
    if not wrap or len(words) < 2:
        return [text]
    splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    return list(min(splits, key=lambda lines: max(text_width(line, size) for line in lines)))


def _compose(sheet: ScoreSheet, z: _Sizes, columns: _Columns) -> ScoreLayout:
    """Title, headings, then one tray a row, down the picture; the first column on the reader's start side."""
    width = columns.width
    y = z.margin
    title, y = _title(sheet, z, width, y)
    spans = _spans(columns, z.margin, sheet.right_to_left)
    headings, y = _headings(sheet, z, columns, spans, y)
    slot = _star_slot(sheet, z)
    rows: list[Box] = []
    cells: list[tuple[ScoreText, ...]] = []
    star: ScoreText | None = None
    for r, row in enumerate(sheet.rows):
        band = Box(z.margin, y, width - 2 * z.margin, z.row_h)
        rows.append(band)
        line_y = y + z.row_pad
        cells.append(tuple(_cell(sheet, z, c, text, spans[c], line_y, slot) for c, text in enumerate(row)))
        if r == sheet.leader:
            star = _star(sheet, z, spans[0], line_y)
        y = band.bottom + z.row_gap
    ring_box = rows[sheet.winner].grown(z.ring) if sheet.winner is not None else None
    return ScoreLayout(
        width=width,
        height=y - z.row_gap + z.margin,
        scale=z.scale,
        title=title,
        headings=headings,
        rows=tuple(rows),
        cells=tuple(cells),
        ring_box=ring_box,
        ring=z.ring,
        radius=z.radius,
        star=star,
    )


def _spans(columns: _Columns, margin: int, right_to_left: bool) -> list[tuple[int, int]]:
    """Each column's left edge and width, in the sheet's order; right to left, the first column is rightmost."""
    order = range(len(columns.widths))
    spans: dict[int, tuple[int, int]] = {}
    x = margin
    for c in reversed(order) if right_to_left else order:
        spans[c] = (x, columns.widths[c])
        x += columns.widths[c]
    return [spans[c] for c in order]


def _title(sheet: ScoreSheet, z: _Sizes, width: int, y: int) -> tuple[tuple[ScoreText, ...], int]:
    """The title's lines (wrapped as a table picture's header is) at the start side, and the y below them."""
    if not sheet.title.strip():
        return (), y
    room = width - 2 * z.margin
    placed: list[ScoreText] = []
    for line, size in _wrapped(sheet.title, z.title_font, room):
        w = min(room, text_width(line, size))
        x = width - z.margin - w if sheet.right_to_left else z.margin
        box = Box(x, y, w, _line_height(size))
        placed.append(ScoreText(line, box, size, TEXT))
        y = box.bottom + _line_gap(size)
    return tuple(placed), y - _line_gap(placed[-1].size) + z.section_gap


def _headings(
    sheet: ScoreSheet, z: _Sizes, columns: _Columns, spans: list[tuple[int, int]], y: int
) -> tuple[tuple[ScoreText, ...], int]:
    """Each column's heading, dim, its lines aligned as the column's cells and sitting on the first row."""
    size = z.heading_font
    line_h = _line_height(size) + _line_gap(size)
    most = max(len(lines) for lines in columns.headings)
    placed: list[ScoreText] = []
    for c, lines in enumerate(columns.headings):
        x, w = spans[c]
        top = y + (most - len(lines)) * line_h
        for k, line in enumerate(lines):
            room = w - 2 * z.pad
            text = _shortened(line, size, room)
            tw = text_width(text, size)
            box = Box(_aligned(x, w, tw, z.pad, at_end=_at_end(c, sheet)), top + k * line_h, tw, _line_height(size))
            placed.append(ScoreText(text, box, size, TEXT_DIM))
    return tuple(placed), y + most * line_h - _line_gap(size) + z.row_gap


def _at_end(column: int, sheet: ScoreSheet) -> bool:
    """Whether a column's texts hang from its right edge: numbers always; names right to left only."""
    return column > 0 or sheet.right_to_left


def _aligned(x: int, w: int, tw: int, pad: int, *, at_end: bool) -> int:
    return x + w - pad - tw if at_end else x + pad


def _cell(sheet: ScoreSheet, z: _Sizes, column: int, text: str, span: tuple[int, int], y: int, slot: int) -> ScoreText:
    """One cell's text: a name after the star's slot (before it, right to left) and shortened to fit."""
    x, w = span
    size = z.cell_font
    if column == 0:
        text = _shortened(text, size, w - 2 * z.pad - slot)
        if not sheet.right_to_left:
            x += slot
        w -= slot
    tw = min(w - 2 * z.pad, text_width(text, size))
    box = Box(_aligned(x, w, tw, z.pad, at_end=_at_end(column, sheet)), y, tw, _line_height(size))
    return ScoreText(text, box, size, TEXT)


def _star(sheet: ScoreSheet, z: _Sizes, span: tuple[int, int], y: int) -> ScoreText:
    """The leader's star, in the slot at the start of the name column (gold, like a played tile's ring)."""
    x, w = span
    tw = text_width(STAR, z.cell_font)
    box = Box(_aligned(x, w, tw, z.pad, at_end=sheet.right_to_left), y, tw, _line_height(z.cell_font))
    return ScoreText(STAR, box, z.cell_font, RACK_RING)


def _shortened(text: str, size: int, room: int) -> str:
    """``text`` if it fits ``room``, else its longest start that fits with an ellipsis after it (never cut
    between a letter and its accent); just the ellipsis if nothing else fits."""
    if text_width(text, size) <= room:
        return text
    low, high = 0, len(text)  # the longest start that fits is at least ``low`` and under ``high`` letters
    while low + 1 < high:
        middle = (low + high) // 2
        if text_width(_cut(text, middle), size) <= room:
            low = middle
        else:
            high = middle
    return _cut(text, low)


def _cut(text: str, keep: int) -> str:
    while 0 < keep < len(text) and unicodedata.combining(text[keep]):
        keep -= 1
    return text[:keep].rstrip() + ELLIPSIS


def draw_scores(layout: ScoreLayout) -> Image.Image:
    """The picture as an RGB image: felt, the winner's ring, each row's tray, then every text."""
    img = Image.new("RGB", (layout.width, layout.height), FELT)
    if layout.ring_box is not None:
        fill_rounded(img, layout.ring_box.as_tuple(), RACK_RING, layout.radius + layout.ring)
    for row in layout.rows:
        fill_rounded(img, row.as_tuple(), TRAY, layout.radius)
    pen = ImageDraw.Draw(img)
    for text in layout.texts():
        shown, face, direction = draw_args(text.text, text.size)
        b = text.box
        pen.text((b.x, b.y + b.h / 2), shown, fill=text.colour, font=face, anchor="lm", direction=direction)
    return img
