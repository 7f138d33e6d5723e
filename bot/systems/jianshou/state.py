"""The stored table: the game document read and written, the guard that a
channel plays `jianshou`, who referees a game and the players' agreements that stand
in for a referee (issue 22)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.context import Context
from bot.errors import CommandError
from bot.store.models import ChannelState
from bot.systems.jianshou.documents import GameDoc
from rules.systems import jianshou as js

AGREED = "agreed"
"""The game row's key for agreements waiting for more players (:func:`agree`)."""


def require_jianshou(ctx: Context) -> None:
    if ctx.system.id != js.SYSTEM.id:
        raise CommandError("jianshou.error.wrong_system", system=ctx.system.id)


async def load(ctx: Context) -> tuple[ChannelState, js.Game]:
    require_jianshou(ctx)
    row = await ctx.document(GameDoc)
    return row, js.Game.from_dict(dict(row.data or {}))


def save(row: ChannelState, game: js.Game) -> None:
    """Store ``game``. Pending agreements (:func:`agree`) are not carried over: every
    change of the game clears them, so an agreement counts only for the game its
    players saw when they typed it (issue 22)."""
    row.data = game.to_dict()


def referee(ctx: Context, game: js.Game) -> bool:
    """A GM of the channel who does not sit at this game: only they referee it (issue
    22). A seated player who is also a GM — or takes the seat mid-game — is a player
    here: kicking, resetting or answering for another would be playing for both."""
    return ctx.is_gm and game.find(ctx.user) is None


def agree(ctx: Context, row: ChannelState, motion: str,
          needed: Sequence[str]) -> tuple[list[str], list[str]]:
    """The speaker agrees to ``motion`` (``kick:<user>``, ``reset``) in place of a
    referee: (who agreed so far, who of ``needed`` still must). Kept next to the game
    in its row until the game changes (:func:`save`) or everyone has agreed."""
    data = dict(row.data or {})
    pending = {k: list(v) for k, v in dict(data.get(AGREED) or {}).items()}
    agreed = pending.get(motion, [])
    if ctx.user not in agreed:
        agreed = [*agreed, ctx.user]
    missing = [u for u in needed if u not in agreed]
    if missing:
        row.data = {**data, AGREED: {**pending, motion: agreed}}
    return agreed, missing


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
