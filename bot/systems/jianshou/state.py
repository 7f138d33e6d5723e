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



KICK = "kick:"
"""The prefix of a kick agreement's motion: ``kick:<user>``."""


def save(ctx: Context, row: ChannelState, game: js.Game) -> str:
    """Store ``game`` with the pending agreements (:func:`agree`) that still make sense,
    and return the line that tells the channel which were dropped ("" if none). An
    ordinary move leaves them standing — players agree one by one, in between turns
    (issue 22). They go when what they were about is gone: a kick whose target made a
    move (not absent after all), every agreement when the players still in the game
    change (the voters are others) or the game is no longer being played. A kick of
    someone already out goes silently: the reply says they are out."""
    data = dict(row.data or {})
    row.data = game.to_dict()
    pending = {m: list(v) for m, v in dict(data.get(AGREED) or {}).items()}
    if not pending:
        return ""
    before = js.Game.from_dict({k: v for k, v in data.items() if k != AGREED})
    live = voters(game) if game.status in js.PLAYING else []
    pending = {m: v for m, v in pending.items()
               if not m.startswith(KICK) or m.removeprefix(KICK) in live}
    if not pending:
        return ""
    mine = KICK + ctx.user
    if game.status not in js.PLAYING:
        key, dropped = "jianshou.agree.void_over", list(pending)
    elif set(live) != set(voters(before)):
        key, dropped = "jianshou.agree.void_players", list(pending)
    elif mine in pending:
        key, dropped = "jianshou.agree.void_present", [mine]
    else:
        key, dropped = "", []
    kept = {m: v for m, v in pending.items() if m not in dropped}
    if kept:
        row.data = {**row.data, AGREED: kept}
    if not dropped:
        return ""
    motions = ctx.t("jianshou.sep").join(_motion(ctx, before, m) for m in dropped)
    return ctx.t(key, motions=motions, target=_name(before, ctx.user))


def _motion(ctx: Context, game: js.Game, motion: str) -> str:
    if motion.startswith(KICK):
        return ctx.t("jianshou.agree.motion_kick",
                     target=_name(game, motion.removeprefix(KICK)))
    return ctx.t(f"jianshou.agree.motion_{motion}")


def _name(game: js.Game, user: str) -> str:
    found = game.find(user)
    return found.name if found is not None else user


def voters(game: js.Game) -> list[str]:
    """Who agrees in place of a referee: in a game being played the players still in
    it — a defeated player is out of it and has no say (issue 22) —, at a lobby or a
    finished game everyone seated."""
    players = game.alive() if game.status in js.PLAYING else game.players
    return [p.user for p in players]


def referee(ctx: Context, game: js.Game) -> bool:
    """A GM of the channel who does not sit at this game: only they referee it (issue
    22). A seated player who is also a GM — or takes the seat mid-game — is a player
    here: kicking, resetting or answering for another would be playing for both."""
    return ctx.is_gm and game.find(ctx.user) is None


def agree(ctx: Context, row: ChannelState, motion: str,
          needed: Sequence[str]) -> tuple[list[str], list[str]]:
    """The speaker agrees to ``motion`` (``kick:<user>``, ``reset``) in place of a
    referee: (who agreed so far, who of ``needed`` still must). Kept next to the game
    in its row while it makes sense (:func:`save`); once everyone has agreed the motion
    is carried out and no longer pending."""
    data = dict(row.data or {})
    pending = {k: list(v) for k, v in dict(data.get(AGREED) or {}).items()}
    agreed = pending.get(motion, [])
    if ctx.user not in agreed:
        agreed = [*agreed, ctx.user]
    missing = [u for u in needed if u not in agreed]
    if missing:
        pending[motion] = agreed
    else:
        pending.pop(motion, None)
    row.data = {**data, AGREED: pending} if pending else \
        {k: v for k, v in data.items() if k != AGREED}
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
    """The speaker's seat, refused for someone who does not play at this table. While a
    game is being played a newcomer (or a player kicked from it) cannot `.js join` it:
    they are told they are not in this game, and when they can join the next one."""
    found = game.find(ctx.user)
    if found is None:
        running = game.status in js.PLAYING
        raise CommandError("jianshou.error.not_in_game" if running else "jianshou.error.not_joined")
    return found
