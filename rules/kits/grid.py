"""A square board of lettered columns and numbered rows: ``A1`` is the top-left cell.

Columns are single letters (so at most 26), rows numbers from 1. Coordinates
are 0-based ``(column, row)`` pairs. Parsing returns None for malformed text
and ``contains`` says whether a cell is on a board: the error codes are the
system's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

MAX_COLUMNS = 26

_CELL = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")

Coord = tuple[int, int]


def cell_name(col: int, row: int) -> str:
    """(0, 0) → ``A1``."""
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_cell(text: str) -> Coord | None:
    """``"b3"`` / ``" B 3 "`` → (1, 2); None unless a letter and one or two digits."""
    match = _CELL.match(text)
    if match is None:
        return None
    return ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1


def contains(coord: Coord, width: int, height: int) -> bool:
    """Whether a coordinate lies on a ``width`` × ``height`` board."""
    col, row = coord
    return 0 <= col < width and 0 <= row < height


def chebyshev(a: Coord, b: Coord) -> int:
    """Distance in cells when a diagonal step counts 1 (a king's moves)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: Coord, b: Coord) -> int:
    """Distance in cells without diagonal steps."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def render(
    width: int, height: int, marks: Mapping[Coord, str], *, empty: str = "."
) -> list[str]:
    """A plain text board: a header of column letters, then one line per row.

    ``marks`` maps coordinates to what the cell shows (one character reads best).
    """
    lines = ["   " + " ".join(chr(ord("A") + c) for c in range(width))]
    for r in range(height):
        cells = [marks.get((c, r), empty) for c in range(width)]
        lines.append(f"{r + 1:>2} " + " ".join(cells))
    return lines
