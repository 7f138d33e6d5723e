"""The stored table: the game document read and written, the guard that a
channel plays `jianshou`, who referees a game and the players' agreements that stand
in for a referee (issue 22)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.context import Context
from bot.errors import CommandError
from bot.systems.jianshou.documents import GAME, TableGame
from rules.systems import jianshou as js


def require_jianshou(ctx: Context) -> None:
    if ctx.system.id != js.SYSTEM.id:
        raise CommandError("jianshou.error.wrong_system", system=ctx.system.id)


async def load(ctx: Context) -> js.Game:
    require_jianshou(ctx)
    return (await ctx.uow.load(GAME)).game


KICK = "kick:"
"""The prefix of a kick agreement's motion: ``kick:<user>``."""


async def save(ctx: Context, game: js.Game) -> str:
    """Store ``game`` with the pending agreements (:func:`agree`) that still make sense,
    and return the line that tells the channel which were dropped ("" if none). An
    ordinary move leaves them standing — players agree one by one, in between turns
    (issue 22). They go when what they were about is gone: a kick whose target made a
    move (not absent after all), every agreement when the players still in the game
    change (the voters are others) or the game is no longer being played. A kick of
    someone already out goes silently: the reply says they are out."""
    stored = await ctx.uow.load(GAME)
    before = stored.game
    live = voters(game) if game.status in js.PLAYING else []
    pending = {m: v for m, v in stored.agreed.items()
               if not m.startswith(KICK) or m.removeprefix(KICK) in live}
    mine = KICK + ctx.user
    key, dropped = "", []
    if pending and game.status not in js.PLAYING:
        key, dropped = "jianshou.agree.void_over", list(pending)
    elif pending and set(live) != set(voters(before)):
        key, dropped = "jianshou.agree.void_players", list(pending)
    elif mine in pending:
        key, dropped = "jianshou.agree.void_present", [mine]
    kept = {m: v for m, v in pending.items() if m not in dropped}
    ctx.uow.save(GAME, TableGame(game, kept))
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


async def agree(ctx: Context, motion: str,
                needed: Sequence[str]) -> tuple[list[str], list[str]]:
    """The speaker agrees to ``motion`` (``kick:<user>``, ``reset``) in place of a
    referee: (who agreed so far, who of ``needed`` still must). Kept next to the game
    while it makes sense (:func:`save`); once everyone has agreed the motion is carried
    out and no longer pending."""
    stored = await ctx.uow.load(GAME)
    pending = dict(stored.agreed)
    agreed = list(pending.get(motion, ()))
    if ctx.user not in agreed:
        agreed.append(ctx.user)
    missing = [u for u in needed if u not in agreed]
    if missing:
        pending[motion] = tuple(agreed)
    else:
        pending.pop(motion, None)
    ctx.uow.save(GAME, replace(stored, agreed=pending))
    return agreed, missing


async def carried_out(ctx: Context, motion: str) -> None:
    """``motion`` is done without the agreements still pending for it (a referee's
    reset after some players agreed): it no longer waits, and :func:`save` must not
    call it void (round-2 play-test: "agreements void (reset)" after the reset)."""
    stored = await ctx.uow.load(GAME)
    if motion in stored.agreed:
        pending = {m: v for m, v in stored.agreed.items() if m != motion}
        ctx.uow.save(GAME, replace(stored, agreed=pending))


async def running(ctx: Context) -> js.Game:
    """The table's game, refused unless it is being played (dealt, not over)."""
    game = await load(ctx)
    if game.status == "over":
        raise CommandError("jianshou.error.game_over")
    if game.status != "play":
        raise CommandError("jianshou.error.not_playing")
    return game


def me(ctx: Context, game: js.Game) -> js.Player:
    """The speaker's seat, refused for someone who does not play at this table. While a
    game is being played a newcomer (or a player kicked from it) cannot `.js join` it:
    they are told they are not in this game, and when they can join the next one; a
    referee (a GM not seated) that they referee it and what a referee may do."""
    found = game.find(ctx.user)
    if found is None and referee(ctx, game) and game.status in js.PLAYING:
        raise CommandError("jianshou.error.referee_not_player")  # no one asked to join
    if found is None:
        running = game.status in js.PLAYING
        raise CommandError("jianshou.error.not_in_game" if running else "jianshou.error.not_joined")
    return found
