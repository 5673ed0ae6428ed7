"""Axis-aligned boxes in picture pixels: the one shape layout and tests talk in."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle ``w`` wide and ``h`` high with its top-left corner at (``x``, ``y``).

    Integer pixels, half-open on the right and bottom, so two boxes that only
    touch do not overlap and a box fits a picture when ``right <= width``.
    """

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def centre(self) -> tuple[int, int]:
        return (self.x + self.w // 2, self.y + self.h // 2)

    def as_tuple(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom), the form Pillow takes."""
        return (self.x, self.y, self.right, self.bottom)

    def overlaps(self, other: Box) -> bool:
        return self.x < other.right and other.x < self.right and self.y < other.bottom and other.y < self.bottom

    def inside(self, width: int, height: int) -> bool:
        """Whether the box lies wholly within a ``width`` x ``height`` picture."""
        return self.x >= 0 and self.y >= 0 and self.right <= width and self.bottom <= height

    def contains(self, other: Box) -> bool:
        return self.x <= other.x and self.y <= other.y and other.right <= self.right and other.bottom <= self.bottom

    def moved(self, dx: int, dy: int) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def grown(self, by: int) -> Box:
        """The box with ``by`` pixels added on every side (negative shrinks)."""
        return Box(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)


def union(boxes: list[Box]) -> Box:
    """The smallest box holding all ``boxes`` (which must not be empty)."""
    left = min(b.x for b in boxes)
    top = min(b.y for b in boxes)
    right = max(b.right for b in boxes)
    bottom = max(b.bottom for b in boxes)
    return Box(left, top, right - left, bottom - top)
