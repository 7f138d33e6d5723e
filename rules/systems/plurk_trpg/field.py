"""The field (PL-15): an 8×8 board by default (up to 26×26), cells ``A1``… on the
``rules.kits.grid`` kit, Chebyshev distance, the GM's placements and resizes, and
the board as text. Moving on it costs BP: ``move`` lives with the battle
(``battle.py``), which uses these cells.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.errors import RuleError
from rules.kits import grid
from rules.systems.plurk_trpg.common import _replace_combatant

if TYPE_CHECKING:
    from rules.systems.plurk_trpg.battle import Battle

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


def place(battle: Battle, name: str, cell: str | None) -> Battle:
    """The GM puts a combatant on a cell (no BP), or takes it off the board with None."""
    index = battle.index_of(name)
    if cell is None:
        return _replace_combatant(battle, index, position=None)
    col, row = parse_cell(cell, battle.width, battle.height)
    wanted = cell_name(col, row)
    occupant = battle.occupant(wanted)
    if occupant is not None and occupant.name != battle.combatants[index].name:
        raise RuleError("plurk.cell_occupied", cell=wanted, occupant=occupant.name)
    return _replace_combatant(battle, index, position=wanted)


def set_field(battle: Battle, width: int, height: int) -> Battle:
    """The GM resizes the field (1…26 each way); refused if someone would fall off."""
    _check_size(width, height)
    for combatant in battle.combatants:
        if combatant.position is None:
            continue
        col, row = parse_cell(combatant.position, FIELD_MAX, FIELD_MAX)
        if col >= width or row >= height:
            raise RuleError(
                "plurk.field_too_small",
                name=combatant.name,
                cell=combatant.position,
                width=width,
                height=height,
            )
    return replace(battle, width=width, height=height)


def board_grid(battle: Battle) -> list[list[str | None]]:
    """The field as rows (row 1 first) of columns (A first): a combatant name or None."""
    rows: list[list[str | None]] = [[None] * battle.width for _ in range(battle.height)]
    for combatant in battle.combatants:
        if combatant.position is not None:
            col, row = parse_cell(combatant.position, battle.width, battle.height)
            rows[row][col] = combatant.name
    return rows


def render_board(
    battle: Battle, *, markers: Mapping[str, str] | None = None, empty: str = "."
) -> list[str]:
    """Language-neutral text board: a header of column letters, then one line per row.

    Each occupied cell shows ``markers[name]`` or the name's first character;
    the bot adds a legend and chooses the font/code block.
    """
    marks = {
        (c, r): (markers or {}).get(name, name[:1])
        for r, row in enumerate(board_grid(battle))
        for c, name in enumerate(row)
        if name is not None
    }
    return grid.render(battle.width, battle.height, marks, empty=empty)
