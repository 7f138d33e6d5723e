"""The field (PL-15) as a whole: the GM's resizes and the board as text. Its cells
are ``cells.py``; placing and moving on it live with the battle (``battle.py``),
whose state holds the positions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.errors import RuleError
from rules.kits import grid
from rules.systems.plurk_trpg.cells import FIELD_MAX, _check_size, parse_cell

if TYPE_CHECKING:
    from rules.systems.plurk_trpg.battle import Battle


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
