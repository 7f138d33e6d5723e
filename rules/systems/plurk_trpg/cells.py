"""The cells of the field (PL-15) on the ``rules.kits.grid`` kit: ``A1``… names,
a cell checked against a board of some size (8×8 by default, up to 26×26) and the
Chebyshev distance between two cells. The battle (``battle.py``) and the board
(``field.py``) both stand on these.
"""

from __future__ import annotations

from rules.errors import RuleError
from rules.kits import grid

FIELD_DEFAULT = 8
FIELD_MAX = 26


def parse_cell(
    cell: str, width: int = FIELD_DEFAULT, height: int = FIELD_DEFAULT
) -> tuple[int, int]:
    """``A1`` → (column 0, row 0); refuses malformed and off-board cells."""
    coord = grid.parse_cell(cell)
    if coord is None:
        raise RuleError("plurk.bad_cell", cell=cell)
    if not grid.contains(coord, width, height):
        raise RuleError(
            "plurk.cell_off_board", cell=cell_name(*coord), width=width, height=height
        )
    return coord


def cell_name(col: int, row: int) -> str:
    """(0, 0) → ``A1``."""
    return grid.cell_name(col, row)


def distance(a: str, b: str) -> int:
    """Chebyshev distance in cells between two cell names (diagonals count 1)."""
    return grid.chebyshev(parse_cell(a, FIELD_MAX, FIELD_MAX), parse_cell(b, FIELD_MAX, FIELD_MAX))


def _check_size(width: int, height: int) -> None:
    if not (1 <= width <= FIELD_MAX and 1 <= height <= FIELD_MAX):
        raise RuleError("plurk.field_size", width=width, height=height, max=FIELD_MAX)
