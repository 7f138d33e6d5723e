"""`plurk` field (PL-15): `.field` shows or (GM) resizes the board (`.field png`: also
as a picture), `.place` (GM) puts a combatant on a cell, `.move` moves the current
actor paying BP per cell.

Cells, distances, occupancy and BP are the rules' (``place``, ``move``,
``set_field``, ``render_board``); this module parses `B3` / `10x10`, decides who
may move whom and adds a legend so a board of CJK names stays readable.
"""

from __future__ import annotations

import re

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.systems.plurk_trpg.battle_args import current_actor, gm_target
from bot.systems.plurk_trpg.battle_state import (
    assign_marks,
    load_battle,
    load_setup,
    running_battle,
    save_battle,
    save_setup,
)
from bot.systems.plurk_trpg.battle_text import (
    battle_data,
    fallen_name,
    readable,
    sep,
    spend_text,
)
from bot.systems.plurk_trpg.documents import StoredBattle
from bot.systems.plurk_trpg.field_view import field_picture
from bot.systems.plurk_trpg.table import command
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg import Battle

PICTURE_WORDS = ("png", "pic", "picture", "image", "img", "圖", "圖片", "图", "图片", "地圖",
                 "地图")
"""`.field png` and its spellings: the board as a picture too."""
_SIZE = re.compile(r"^(\d{1,2})\s*[x×*X ]\s*(\d{1,2})$")


def markers(stored: StoredBattle, battle: Battle) -> dict[str, str]:
    """PL-15: the placed combatants' markers — given once per battle and kept
    (``battle_state.assign_marks``): placing someone never changes another's
    marker, and a marker is a lowercase letter or a symbol, never a column letter
    or a row number. The dead show :data:`DEAD_MARK` in their cell (issue 24: the
    board itself says who lies there; the legend names them)."""
    marks = assign_marks(stored.marks, [c.name for c in battle.combatants])
    return {c.name: DEAD_MARK if c.dead else marks.get(c.name, "?")
            for c in battle.combatants if c.position is not None}


DEAD_MARK = "†"
"""A dead combatant's cell on the text board (no living marker is a symbol outside
``battle_state.MARKS``)."""


def board_text(ctx: Context, stored: StoredBattle, battle: Battle) -> str:
    marks = markers(stored, battle)
    lines = [ctx.t("plurk.battle.field.header", width=battle.width, height=battle.height)]
    lines.extend(plurk.render_board(battle, markers=marks))
    if marks:
        legend = sep(ctx).join(  # the fallen marked with their state (issue 24)
            f"{m}={fallen_name(ctx, battle.get(name))}@{battle.get(name).position}"
            for name, m in marks.items())
        lines.append(ctx.t("plurk.battle.field.legend", legend=legend))
    unplaced = [c.name for c in battle.combatants if c.position is None]
    if unplaced:
        lines.append(ctx.t("plurk.battle.field.unplaced", names=sep(ctx).join(unplaced)))
    return "\n".join(lines)


def changed_lines(stored: StoredBattle, battle: Battle, *cells: str) -> list[str]:
    """The board's column header and the rows of ``cells`` (a move's start and end),
    top to bottom: what changed, without the whole board (issue 12 item 8)."""
    board = plurk.render_board(battle, markers=markers(stored, battle))
    rows = sorted({plurk.parse_cell(c, battle.width, battle.height)[1] for c in cells})
    return [board[0], *(board[r + 1] for r in rows)]


def parse_size(text: str) -> tuple[int, int]:
    match = _SIZE.match(text.strip())
    if match is None:
        raise CommandError("plurk.error.battle.field_usage")
    return int(match.group(1)), int(match.group(2))


@command("field", "場地", "场地", "戰場", "战场")
@readable
async def field(ctx: Context) -> list[Outgoing]:
    """Show the board, or (GM) set its size: for the running battle and the next ones."""
    if not ctx.args.strip():
        shown_stored, shown = await running_battle(ctx)
        return [ctx.reply(board_text(ctx, shown_stored, shown), battle_data("field", shown),
                          block=True)]
    if is_word(ctx.args.strip(), *PICTURE_WORDS):
        return await field_png(ctx)
    require_gm_if_any(ctx)
    width, height = parse_size(ctx.args)
    stored, battle = await load_battle(ctx)
    if battle is not None:
        battle = plurk.set_field(battle, width, height)
        stored = save_battle(ctx, stored, battle)
    else:  # the rules check the size on an empty board
        plurk.set_field(Battle(()), width, height)
    setup = await load_setup(ctx)
    setup.width, setup.height = width, height
    save_setup(ctx, setup)
    done = ctx.t("plurk.battle.field.size_set", width=width, height=height)
    if battle is None:
        return [ctx.reply(done)]
    return [ctx.reply(f"{done}\n{board_text(ctx, stored, battle)}",
                      battle_data("field", battle), block=True)]


async def field_png(ctx: Context) -> list[Outgoing]:
    """`.field png` (issue 16 item 3): the board as text and as a picture. Adapters
    that can send a picture send both; the others send the text, which is complete."""
    stored, battle = await running_battle(ctx)
    setup = await load_setup(ctx)
    picture, complete = await field_picture(ctx, stored, battle, setup)
    text = board_text(ctx, stored, battle)
    if not complete:
        text += "\n" + ctx.t("plurk.battle.field.picture_without_names")
    data = battle_data("field", battle, picture=picture.describe())
    return [ctx.reply(text, data, block=True, attachment=picture)]


@command("place", "放置", "配置")
@readable
async def place(ctx: Context) -> list[Outgoing]:
    """GM: put a combatant on a cell (no BP), or `off` the board."""
    tokens = ctx.args.split()
    stored, battle, name = await gm_target(ctx, tokens, 2, "plurk.error.battle.place_usage")
    off = is_word(tokens[1], "off", "none", "移除", "離場")
    battle = plurk.place(battle, name, None if off else tokens[1])
    stored = save_battle(ctx, stored, battle)
    placed = battle.get(name)
    key = "plurk.battle.field.removed" if off else "plurk.battle.field.placed"
    return [ctx.reply(ctx.t(key, name=placed.name, cell=placed.position) + "\n"
                      + board_text(ctx, stored, battle), battle_data("place", battle),
                      block=True)]


@command("move", "移動", "移动")
@readable
async def move(ctx: Context) -> list[Outgoing]:
    """PL-15: the current actor moves; Chebyshev cells × move cost in BP."""
    tokens = ctx.args.split()
    if len(tokens) != 1:
        raise CommandError("plurk.error.battle.move_usage")
    stored, battle = await running_battle(ctx)
    actor = current_actor(ctx, battle)
    battle, event = plurk.move(battle, tokens[0], actor=actor.name)
    stored = save_battle(ctx, stored, battle)
    text = ctx.t("plurk.battle.field.moved", actor=event.actor, start=event.from_cell,
                 to=event.to_cell, cells=event.distance)
    text += "\n" + "\n".join(changed_lines(stored, battle, event.from_cell, event.to_cell))
    spent = plurk.BpEvent(event.actor, "move", event.cost, event.bp_before, event.bp_after,
                          event.turn)
    return [ctx.reply(text + "\n" + spend_text(ctx, battle, spent),
                      battle_data("move", battle, move=event), block=True)]
