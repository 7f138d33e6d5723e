"""The stored table: the game document read and written, and the guard that a
channel plays `jianshou`."""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.store.models import ChannelState
from bot.systems.jianshou.documents import GameDoc
from rules.systems import jianshou as js


def require_jianshou(ctx: Context) -> None:
    if ctx.system.id != js.SYSTEM.id:
        raise CommandError("jianshou.error.wrong_system", system=ctx.system.id)


async def load(ctx: Context) -> tuple[ChannelState, js.Game]:
    require_jianshou(ctx)
    row = await ctx.document(GameDoc)
    return row, js.Game.from_dict(dict(row.data or {}))


def save(row: ChannelState, game: js.Game) -> None:
    row.data = game.to_dict()


async def running(ctx: Context) -> tuple[ChannelState, js.Game]:
    """The table, refused unless a game is being played (dealt, not over)."""
    row, game = await load(ctx)
    if game.status == "over":
        raise CommandError("jianshou.error.game_over")
    if game.status != "play":
        raise CommandError("jianshou.error.not_playing")
    return row, game


def me(ctx: Context, game: js.Game) -> js.Player:
    """The speaker's seat, refused for someone who does not play at this table."""
    found = game.find(ctx.user)
    if found is None:
        raise CommandError("jianshou.error.not_joined")
    return found
