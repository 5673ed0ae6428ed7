"""Where everything goes: tile boxes, set trays and labels, header, legend, rack.

Layout is kept apart from drawing so tests and the move list can ask where a
tile or a set is without decoding pixels, and so the drawing code only paints
what it is told. A layout is a plain value; ``render.draw`` turns it into an
image.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from render.flow import chunks, flow, rows_of
from render.fonts import text_width
from render.geometry import Box, union
from render.marks import Mark, legend_words, marks_of, summary
from render.theme import (
    MAX_WIDTH,
    MIN_WIDTH,
    TELEGRAM_MAX_RATIO,
    TELEGRAM_MAX_SUM,
    Metrics,
)
from render.wording import ENGLISH, Wording
from solver.rules import Rules
from solver.sets import TileSet
from solver.solution import Solution
from solver.tiles import Colour, Tile

#: Scales tried, largest first, until a picture fits Telegram's limits.
SCALES: tuple[float, ...] = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4, 0.35, 0.3)


class LayoutError(ValueError):
    """Nothing fits: the width is too small for one tile, or the table too big for any scale."""


class TextRole(Enum):
    HEADER = "header"
    LEGEND = "legend"
    CAPTION = "caption"
    EMPTY = "empty"
    LABEL = "label"


@dataclass(frozen=True, slots=True)
class TilePlace:
    """One tile's box and how to draw it.

    ``set_index`` is the 0-based position of its set in the table (None for a
    rack or legend tile); ``position`` is its index within that set (or the
    rack, in display order).
    """

    tile: Tile
    box: Box
    mark: Mark
    set_index: int | None
    position: int
    metrics: Metrics


@dataclass(frozen=True, slots=True)
class TextPlace:
    text: str
    box: Box
    size: int
    role: TextRole
    emphasis: Mark = Mark.PLAIN


@dataclass(frozen=True, slots=True)
class SetPlace:
    """A set's trays (one per row it spans, usually one) and their label tabs.

    ``label`` is the number the move list uses for the set (by default its
    1-based position in the table). ``emphasis`` is its strongest mark, so a set that takes rack
    tiles can show it in its label too.
    """

    index: int
    label: str
    trays: tuple[Box, ...]
    tabs: tuple[TextPlace, ...]
    emphasis: Mark

    @property
    def box(self) -> Box:
        """Everything the set takes: its trays and tabs."""
        return union([*self.trays, *(t.box for t in self.tabs)])


@dataclass(frozen=True, slots=True)
class Layout:
    """A whole picture, in pixels."""

    width: int
    height: int
    metrics: Metrics
    tiles: tuple[TilePlace, ...]
    sets: tuple[SetPlace, ...]
    rack: tuple[TilePlace, ...]
    rack_tray: Box | None
    legend: tuple[TilePlace, ...]
    texts: tuple[TextPlace, ...]
    empty_table: Box | None

    def tile(self, set_index: int, position: int) -> TilePlace:
        """The place of tile ``position`` of table set ``set_index`` (both 0-based)."""
        for place in self.tiles:
            if place.set_index == set_index and place.position == position:
                return place
        raise KeyError((set_index, position))

    def all_tiles(self) -> tuple[TilePlace, ...]:
        """Table, rack and legend tiles together (every tile that gets drawn)."""
        return self.tiles + self.rack + self.legend

    def fits_telegram(self) -> bool:
        return fits_telegram(self.width, self.height)


def fits_telegram(width: int, height: int) -> bool:
    """Telegram's photo limits on the picture's shape (the byte limit is checked on the PNG)."""
    return width + height <= TELEGRAM_MAX_SUM and max(width, height) <= TELEGRAM_MAX_RATIO * min(width, height)


@dataclass(frozen=True, slots=True)
class _Content:
    """What a picture shows, before any pixel is decided."""

    header: str | None
    #: each highlight shown, with what the legend says of it
    legend: tuple[tuple[Mark, str], ...]
    sets: tuple[TileSet, ...]
    marks: tuple[tuple[Mark, ...], ...]
    rack: tuple[Tile, ...] | None
    rack_caption: str
    #: each set's label; by default its 1-based position
    labels: tuple[str, ...] | None = None
    #: the order the sets are drawn in (indices into ``sets``); by default the table's own
    order: tuple[int, ...] | None = None
    #: each set's bare number, for a label with a note ("5, split from 1") too long for the picture
    numbers: tuple[str, ...] | None = None
    #: the words of the picture's own (the empty table's note, a set's label on its later rows)
    wording: Wording = ENGLISH


def layout_solution(
    solution: Solution,
    *,
    show_rack: bool = True,
    width: int = MAX_WIDTH,
    scale: float | None = None,
    labels: Sequence[str] | None = None,
    wording: Wording = ENGLISH,
) -> Layout:
    """The picture of a play: the new table with the play's tiles marked, a header, legend and rack left.

    ``width`` is the widest the picture may be (it shrinks to its content, not
    below ``MIN_WIDTH``); ``scale`` None picks the largest that fits Telegram.
    ``labels`` names each set (the numbers the move list uses); by default the
    sets are numbered 1, 2, ... in order. Every word comes from ``wording``.
    """
    if labels is not None and len(labels) != len(solution.table):
        raise LayoutError(f"{len(labels)} labels for {len(solution.table)} sets")
    marks = tuple(tuple(row) for row in marks_of(solution))
    used = {m for row in marks for m in row}
    legend: tuple[tuple[Mark, str], ...] = ()
    if used - {Mark.PLAIN}:
        words = legend_words(wording, seen_by_all=not show_rack)  # without a rack it is a group's picture
        legend = tuple((m, words[m]) for m in (Mark.RACK, Mark.MOVED, Mark.PLAIN) if m in used)
    rack = tuple(sorted(solution.rack_left, key=solution.rules.tile_key)) if show_rack else None
    tiles = wording.count(wording.tiles, len(solution.rack_left))
    if not solution.has_play:
        caption = wording.your_rack.format(tiles=tiles) if solution.rack_left else wording.rack_empty
    elif not solution.rack_left:
        caption = wording.rack_won
    else:
        caption = wording.rack_left.format(tiles=tiles)
    numbers = list(labels) if labels is not None else [str(i + 1) for i in range(len(solution.table))]
    order, names = split_halves(solution.kept_from, numbers, wording)
    content = _Content(
        summary(solution, wording),
        legend,
        solution.table,
        marks,
        rack,
        caption,
        tuple(names),
        order,
        tuple(numbers),
        wording,
    )
    return _fit(content, width, scale)


def split_halves(
    kept_from: Sequence[int | None], labels: Sequence[str], wording: Wording = ENGLISH
) -> tuple[tuple[int, ...], list[str]]:
    """The order to draw the sets in, and their labels: a set split off a run (two new sets continue the same
    old one) is drawn right after the half that kept the run's number, and its label says which it split from.

    The move list numbers the new half after every old set, so drawn in number order it would land far from
    its other half, with nothing to say they were one run.
    """
    home: dict[int, int] = {}
    halves: dict[int, list[int]] = {}
    for j, old in enumerate(kept_from):
        if old is None:
            continue
        if old in home:
            halves.setdefault(home[old], []).append(j)
        else:
            home[old] = j
    names = list(labels)
    order: list[int] = []
    moved = {j for js in halves.values() for j in js}
    for j in range(len(kept_from)):
        if j in moved:
            continue
        order.append(j)
        for half in halves.get(j, []):
            order.append(half)
            names[half] = wording.split_from.format(label=labels[half], home=labels[j])
    return tuple(order), names


def layout_table(
    sets: Sequence[TileSet],
    rules: Rules,
    *,
    rack: Sequence[Tile] | None = None,
    header: str | None = None,
    width: int = MAX_WIDTH,
    scale: float | None = None,
    labels: Sequence[str] | None = None,
    wording: Wording = ENGLISH,
) -> Layout:
    """A plain table (no highlights), optionally with a header (already in the reader's words) and the rack
    below; the picture's own words come from ``wording``. ``labels`` names each set (the game's numbers); by
    default the sets are numbered 1, 2, ... in order."""
    if labels is not None and len(labels) != len(sets):
        raise LayoutError(f"{len(labels)} labels for {len(sets)} sets")
    marks = tuple(tuple(Mark.PLAIN for _ in s.tiles) for s in sets)
    ordered = tuple(sorted(rack, key=rules.tile_key)) if rack is not None else None
    caption = wording.rack.format(tiles=wording.count(wording.tiles, len(rack))) if rack else wording.rack_empty
    names = tuple(labels) if labels is not None else None
    content = _Content(header, (), tuple(sets), marks, ordered, caption, names, wording=wording)
    return _fit(content, width, scale)


def _fit(content: _Content, width: int, scale: float | None) -> Layout:
    """The largest scale that fits Telegram's limits, laid out as narrow as a phone shows well.

    A phone shows a photo across the screen's width, so the wider the picture, the smaller every tile looks:
    a large table wraps onto more rows of a narrow picture rather than widening it, and it is widened (then
    shrunk) only when Telegram's limits on the picture's shape demand it. The search only measures (no tile
    is placed); the chosen picture is then laid out in full.
    """
    last: Layout | None = None
    for s in SCALES if scale is None else (scale,):
        m = Metrics.at(s)
        for w in _widths(content, m, width):
            try:
                last = _compose(content, m, w, measure=True)
            except LayoutError:
                if scale is not None:
                    raise
                break
            if last.fits_telegram():
                return _compose(content, m, w)
        if scale is not None and last is not None:
            return _compose(content, m, width)
    if last is None:
        raise LayoutError(f"a picture {width} px wide has no room for a tile")
    raise LayoutError(f"too much to show: even at scale {SCALES[-1]} the picture is {last.width}x{last.height}")


#: Step between the widths tried when a tall picture must be made wider to fit Telegram's limits.
NARROW_STEP = 40


def _widths(content: _Content, m: Metrics, width: int) -> list[int]:
    """The widths to try, narrowest first: a phone's (``MIN_WIDTH``, or the longest set on one row if that
    is wider), then wider steps up to ``width``."""
    longest = max((len(s.tiles) for s in content.sets), default=0)
    one_row = 2 * m.margin + 2 * m.tray_pad + longest * m.tile_pitch - m.tile_gap
    first = min(width, max(MIN_WIDTH, one_row))
    return [*range(first, width, NARROW_STEP), width]


def min_width(scale: float = 1.0) -> int:
    """The narrowest ``width`` a layout accepts at ``scale``: one tile on a tray, with margins."""
    m = Metrics.at(scale)
    return 2 * m.margin + 2 * m.tray_pad + m.tile_w


class _Builder:
    """Collects places while walking down the picture with a y cursor."""

    def __init__(self, metrics: Metrics, width: int, *, measure: bool = False) -> None:
        self.m = metrics
        self.width = width
        #: only the picture's size is wanted: the tiles on the table's trays are not placed
        self.measure = measure
        self.avail = width - 2 * metrics.margin
        self.y = metrics.margin
        self.tiles: list[TilePlace] = []
        self.sets: list[SetPlace] = []
        self.rack: list[TilePlace] = []
        self.legend: list[TilePlace] = []
        self.texts: list[TextPlace] = []
        self.rack_tray: Box | None = None
        self.empty_table: Box | None = None

    def text(
        self,
        text: str,
        size: int,
        role: TextRole,
        x: int | None = None,
        avail: int | None = None,
        *,
        wrap: bool = False,
    ) -> Box:
        """A line of text at the cursor, its size shrunk if it would not fit the width; with ``wrap``, a text
        that would have to shrink much (a long translation) is broken between words onto more lines instead.
        The box holding every line."""
        room = self.avail if avail is None else avail
        left = self.m.margin if x is None else x
        lines = _wrapped(text, size, room) if wrap else ((text, _fitting_size(text, size, room)),)
        boxes = []
        y = self.y
        for line, line_size in lines:
            box = Box(left, y, min(room, text_width(line, line_size)), _line_height(line_size))
            self.texts.append(TextPlace(line, box, line_size, role))
            boxes.append(box)
            y = box.bottom + _line_gap(line_size)
        return union(boxes)

    def header(self, text: str) -> None:
        box = self.text(text, self.m.header_font, TextRole.HEADER, wrap=True)
        self.y = box.bottom + self.m.section_gap // 2

    def legend_row(self, legend: Sequence[tuple[Mark, str]]) -> None:
        """Each highlight's sample tile and what it means, side by side as far as they fit; a long meaning
        shrinks, or breaks onto a second line beside its tile."""
        small = Metrics.at(self.m.legend_scale)
        size = self.m.caption_font * 3 // 4
        gap_in = self.m.tile_gap * 2
        room = max(1, self.avail - small.tile_w - gap_in)
        texts = [_wrapped(text, size, room, LEGEND_LINES) for _, text in legend]
        widths = [small.tile_w + gap_in + max(text_width(t, z) for t, z in lines) for lines in texts]
        placed = flow(widths, self.avail, self.m.set_gap * 2)
        item_h = max([small.tile_h, *(_block_height(lines) for lines in texts)])
        line = item_h + self.m.row_gap // 2
        for (mark, _), lines, (row, dx) in zip(legend, texts, placed, strict=True):
            x = self.m.margin + dx
            y = self.y + row * line
            sample = _legend_sample(mark)
            tile_y = y + (item_h - small.tile_h) // 2
            self.legend.append(TilePlace(sample, Box(x, tile_y, small.tile_w, small.tile_h), mark, None, 0, small))
            tx = x + small.tile_w + gap_in
            ty = y + (item_h - _block_height(lines)) // 2
            for text, text_size in lines:
                h = _line_height(text_size)
                box = Box(tx, ty, min(room, text_width(text, text_size)), h)
                self.texts.append(TextPlace(text, box, text_size, TextRole.LEGEND))
                ty += h + _line_gap(text_size)
        self.y += rows_of(placed) * line - self.m.row_gap // 2 + self.m.section_gap

    def table(
        self,
        sets: Sequence[TileSet],
        marks: Sequence[Sequence[Mark]],
        labels: Sequence[str] | None = None,
        order: Sequence[int] | None = None,
        numbers: Sequence[str] | None = None,
        wording: Wording = ENGLISH,
    ) -> None:
        m = self.m
        names = list(labels) if labels is not None else [str(i + 1) for i in range(len(sets))]
        tray_h = m.tile_h + 2 * m.tray_pad
        row_h = m.label_h + tray_h
        if not sets:
            self.empty_table = Box(m.margin, self.y, self.avail, row_h)
            # inside the tray with room to spare (a glyph may ink a pixel past its advance, and the fast painter cuts
            # this text out on the tray's colour), on more lines where one would have to shrink much
            room = self.avail - 2 * m.tray_pad
            lines = _wrapped(wording.empty_table, m.caption_font, room)
            tall = sum(_line_height(size) for _, size in lines) + sum(_line_gap(size) for _, size in lines[1:])
            self.y += max(0, (row_h - tall) // 2)
            for line, size in lines:
                x = m.margin + max(m.tray_pad, (self.avail - text_width(line, size)) // 2)
                self.y = self.text(line, size, TextRole.EMPTY, x=x, avail=room).bottom + _line_gap(size)
            self.y = self.empty_table.bottom + m.section_gap
            return
        per_row = (self.avail - 2 * m.tray_pad + m.tile_gap) // m.tile_pitch
        if per_row < 1:
            raise LayoutError(f"a picture {self.width} px wide has no room for a tile")
        # One flow item per row-sized piece of a set; a set only splits when it is longer than a whole row.
        items: list[tuple[int, range, str]] = []
        widths: list[int] = []
        for i in order if order is not None else range(len(sets)):
            name = names[i]
            if numbers is not None and _tab_width(name, 6, m) > self.avail:  # no room for the note, even tiny
                name = names[i] = numbers[i]
            for k, part in enumerate(chunks(len(sets[i].tiles), per_row)):
                label = name if k == 0 else wording.continued.format(label=name)
                label_size = _fitting_size(label, m.label_font, self.avail - 2 * m.tray_pad)
                tray_w = 2 * m.tray_pad + len(part) * m.tile_pitch - m.tile_gap
                items.append((i, part, label))
                widths.append(max(tray_w, _tab_width(label, label_size, m)))
        placed = flow(widths, self.avail, m.set_gap)
        trays: dict[int, list[Box]] = {}
        tabs: dict[int, list[TextPlace]] = {}
        for (i, part, label), (row, dx), w in zip(items, placed, widths, strict=True):
            x = m.margin + dx
            top = self.y + row * (row_h + m.row_gap)
            tray_w = 2 * m.tray_pad + len(part) * m.tile_pitch - m.tile_gap
            tray = Box(x, top + m.label_h, tray_w, tray_h)
            trays.setdefault(i, []).append(tray)
            if self.measure:
                continue  # the picture's size comes from the trays and texts alone (see finish)
            size = _fitting_size(label, m.label_font, w)
            tab = Box(x, top, min(w, _tab_width(label, size, m)), m.label_h)
            set_marks = marks[i]
            emphasis = _strongest(set_marks)
            tabs.setdefault(i, []).append(TextPlace(label, tab, size, TextRole.LABEL, emphasis))
            for k, j in enumerate(part):
                box = Box(tray.x + m.tray_pad + k * m.tile_pitch, tray.y + m.tray_pad, m.tile_w, m.tile_h)
                self.tiles.append(TilePlace(sets[i].tiles[j], box, set_marks[j], i, j, m))
        for i in range(len(sets)):
            self.sets.append(SetPlace(i, names[i], tuple(trays[i]), tuple(tabs.get(i, ())), _strongest(marks[i])))
        self.y += rows_of(placed) * (row_h + m.row_gap) - m.row_gap + m.section_gap

    def rack_section(self, rack: Sequence[Tile], caption: str) -> None:
        m = self.m
        box = self.text(caption, m.caption_font, TextRole.CAPTION, wrap=True)
        if not rack:
            self.y = box.bottom + m.section_gap
            return
        self.y = box.bottom + m.row_gap // 2
        per_row = (self.avail - 2 * m.tray_pad + m.tile_gap) // m.tile_pitch
        if per_row < 1:
            raise LayoutError(f"a picture {self.width} px wide has no room for a tile")
        parts = chunks(len(rack), per_row)
        longest = max(len(p) for p in parts)
        tray = Box(
            m.margin,
            self.y,
            2 * m.tray_pad + longest * m.tile_pitch - m.tile_gap,
            2 * m.tray_pad + len(parts) * (m.tile_h + m.row_gap) - m.row_gap,
        )
        self.rack_tray = tray
        for r, part in enumerate(parts):
            for k, j in enumerate(part):
                x = tray.x + m.tray_pad + k * m.tile_pitch
                y = tray.y + m.tray_pad + r * (m.tile_h + m.row_gap)
                self.rack.append(TilePlace(rack[j], Box(x, y, m.tile_w, m.tile_h), Mark.PLAIN, None, j, m))
        self.y = tray.bottom + m.section_gap

    def finish(self) -> Layout:
        """Shrink the width to the content (never below MIN_WIDTH or above the width asked for)."""
        # The empty-table note is centred afterwards, so it does not count towards the width.
        texts = [t.box for t in self.texts if t.role is not TextRole.EMPTY]
        boxes = [p.box for p in self.tiles + self.rack + self.legend] + texts
        boxes += [b for s in self.sets for b in s.trays]
        if self.rack_tray is not None:
            boxes.append(self.rack_tray)
        right = max((b.right for b in boxes), default=0)
        width = min(self.width, max(min(MIN_WIDTH, self.width), right + self.m.margin))
        empty = self.empty_table
        if empty is not None:
            empty = Box(empty.x, empty.y, width - 2 * self.m.margin, empty.h)
            self.texts = [_recentre(t, empty) if t.role is TextRole.EMPTY else t for t in self.texts]
        height = self.y - self.m.section_gap + self.m.margin
        return Layout(
            width=width,
            height=height,
            metrics=self.m,
            tiles=tuple(self.tiles),
            sets=tuple(self.sets),
            rack=tuple(self.rack),
            rack_tray=self.rack_tray,
            legend=tuple(self.legend),
            texts=tuple(self.texts),
            empty_table=empty,
        )


def _compose(content: _Content, m: Metrics, width: int, *, measure: bool = False) -> Layout:
    if width < 2 * m.margin + 2 * m.tray_pad + m.tile_w:
        raise LayoutError(f"a picture {width} px wide has no room for a tile")
    b = _Builder(m, width, measure=measure)
    if content.header:
        b.header(content.header)
    if content.legend:
        b.legend_row(content.legend)
    b.table(content.sets, content.marks, content.labels, content.order, content.numbers, content.wording)
    if content.rack is not None:
        b.rack_section(content.rack, content.rack_caption)
    return b.finish()


def _recentre(text: TextPlace, area: Box) -> TextPlace:
    x = area.x + max(0, (area.w - text.box.w) // 2)
    return TextPlace(text.text, Box(x, text.box.y, text.box.w, text.box.h), text.size, text.role, text.emphasis)


def _strongest(marks: Sequence[Mark]) -> Mark:
    for mark in (Mark.RACK, Mark.MOVED):
        if mark in marks:
            return mark
    return Mark.PLAIN


def _legend_sample(mark: Mark) -> Tile:
    return {Mark.RACK: Tile(7, Colour.RED), Mark.MOVED: Tile(7, Colour.BLUE)}.get(mark, Tile(7, Colour.BLACK))


def _tab_width(label: str, size: int, m: Metrics) -> int:
    return max(m.label_h + m.label_h // 3, text_width(label, size) + m.label_h)


def _line_height(size: int) -> int:
    return round(size * 1.25)


#: Wrapped text is no smaller than this share of its size (one line shrinks down to it before it wraps)...
WRAP_SHRINK = 0.75
#: ... and takes at most this many lines (a header or caption; a legend's meaning beside its small tile: two).
WRAP_LINES = 3
LEGEND_LINES = 2


def _line_gap(size: int) -> int:
    """Between the lines of a wrapped text, so no line's ink (a descender, an accent) touches the next's."""
    return size // 8


def _block_height(lines: Sequence[tuple[str, int]]) -> int:
    return sum(_line_height(z) for _, z in lines) + sum(_line_gap(z) for _, z in lines[:-1])


@lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, room: int, most: int = WRAP_LINES) -> tuple[tuple[str, int], ...]:
    """``text`` as lines (with their font size) that fit ``room``: one line, shrunk to fit, unless that takes it
    below ``WRAP_SHRINK`` of ``size``; then the largest size (larger than that one line's) at which it breaks
    between words onto at most ``most`` lines that each fit. Left to right or right to left, the words keep
    their reading order from the first line to the last."""
    one = _fitting_size(text, size, room)
    floor = max(6, int(size * WRAP_SHRINK))
    words = text.split()
    if one >= floor or len(words) < 2:
        return ((text, one),)
    for wrap_size in range(size, one, -1):  # below ``floor`` too, if that is still larger than one line's
        lines = _greedy_lines(words, wrap_size, room)
        if lines is not None and len(lines) <= most:
            return tuple((line, wrap_size) for line in lines)
    return ((text, one),)


def _greedy_lines(words: Sequence[str], size: int, room: int) -> list[str] | None:
    """As many words on each line as fit ``room`` at ``size``; None if one word alone does not fit."""
    lines: list[str] = []
    for word in words:
        if lines and text_width(f"{lines[-1]} {word}", size) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        elif text_width(word, size) <= room:
            lines.append(word)
        else:
            return None
    return lines


def _fitting_size(text: str, size: int, room: int) -> int:
    """The largest font size up to ``size`` at which ``text`` fits in ``room`` pixels (at least 6)."""
    while size > 6 and text_width(text, size) > room:
        size -= 1
    return size
