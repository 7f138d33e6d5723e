"""The turn (JS-1 mulligans, JS-2 phases, JS-3 actions): `.mull`, `.keep`, `.hand`,
`.practise`, `.item`, `.event`, `.meditate`, `.transfer`, `.discard`, `.end`.

After a card leaves the hand the hand is sent again privately (its numbers moved).
Commands that name a card of the hand (by position or name) answer their refusals
privately (``hidden=True``): "card 3 is not an item" would tell the channel what is
in a hand. A card becomes public the moment it is played.
"""

from __future__ import annotations

from dataclasses import replace

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.systems.jianshou.args import find_player, hand_card
from bot.systems.jianshou.state import load, me, referee, running, save
from bot.systems.jianshou.table import command
from bot.systems.jianshou.text import (
    bonus_text,
    card_label,
    channel,
    defeated_lines,
    drawn_private,
    effects_text,
    hand_private,
    kind_word,
    name_of,
    over_lines,
    readable,
    sep,
    turn_start_lines,
)
from rules.systems import jianshou as js

# --------------------------------------------------------------------------- JS-1 mulligans


def _begun_lines(ctx: Context, game: js.Game, begun: js.Begun | None) -> list[str]:
    if begun is None:
        return []
    return [ctx.t("jianshou.begun", faces=len(game.players), roll=begun.roll,
                  name=name_of(game, begun.first)),
            *turn_start_lines(ctx, game, begun.starts)]


@command("mull", "mulligan", "換牌", "换牌")
@readable
async def mull(ctx: Context) -> list[Outgoing]:
    """JS-1: the hand goes back, the deck is shuffled, six new cards (privately)."""
    game = await load(ctx)
    player = me(ctx, game)
    game, done = js.mulligan(game, player.user, ctx.dice)
    note = await save(ctx, game)
    key = "jianshou.mulligan.last" if done.left == 0 else "jianshou.mulligan.done"
    lines = [ctx.t(key, name=player.name, count=done.count, draw=done.first_draw),
             *_begun_lines(ctx, game, done.begun), note]
    said = channel(ctx, lines, "mulligan", game, user=player.user, count=done.count)
    if done.begun is None:  # a redraw changes nobody's wait: no ping (round-2 play-test)
        said = replace(said, notify=())
    outs = [said, hand_private(ctx, game, player.user, ctx.t("jianshou.hand.new"))]
    if done.begun is not None:
        outs += drawn_private(ctx, game, done.begun.starts)
    return outs


@command("keep", "留牌")
@readable
async def keep(ctx: Context) -> list[Outgoing]:
    """JS-1: keep the hand; when everyone has, a die picks the first player."""
    game = await load(ctx)
    player = me(ctx, game)
    game, kept = js.keep(game, player.user, ctx.dice)
    note = await save(ctx, game)
    lines = [ctx.t("jianshou.kept", name=player.name, draw=kept.first_draw)]
    if kept.begun is None:
        lines.append(ctx.t("jianshou.mulligan.waiting", who=sep(ctx).join(
            name_of(game, u) for u in kept.waiting)))
    lines += [*_begun_lines(ctx, game, kept.begun), note]
    outs = [channel(ctx, lines, "keep", game, user=player.user)]
    if kept.begun is not None:
        outs += drawn_private(ctx, game, kept.begun.starts)
    return outs


@command("hand", "手牌")
@readable
async def hand(ctx: Context) -> list[Outgoing]:
    """Your hand, again, privately (the channel learns only that it was sent)."""
    game = await load(ctx)
    player = me(ctx, game)
    if game.status == "lobby":
        raise CommandError("jianshou.error.not_playing")
    outs = [hand_private(ctx, game, player.user)]
    if not ctx.incoming.is_private:
        outs.insert(0, ctx.reply(ctx.t("jianshou.hand.sent", name=player.name),
                                 {"kind": "jianshou.hand_sent", "user": player.user,
                                  "count": len(player.hand)}))
    return outs


# --------------------------------------------------------------------------- JS-2 phases


async def _acting(ctx: Context) -> tuple[js.Game, js.Player]:
    game = await running(ctx)
    return game, me(ctx, game)


@command("practise", "practice", "learn", "修煉", "修炼", "習武", "习武", hidden=True)
@readable
async def practise(ctx: Context) -> list[Outgoing]:
    """JS-2 practise: an art from the hand into play, or one level up."""
    if not ctx.args.strip():
        raise CommandError("jianshou.error.practise_usage")
    game, player = await _acting(ctx)
    name = hand_card(game, player, ctx.args)
    game, done = js.practise(game, player.user, name)
    note = await save(ctx, game)
    key = "jianshou.practised.new" if done.level == 1 else "jianshou.practised.up"
    text = ctx.t(key, name=player.name, card=card_label(ctx, game, done.card),
                 kind=kind_word(ctx, done.kind), level=done.level)
    return [channel(ctx, [text, note], "practise", game, user=player.user, card=done.card,
                    level=done.level), hand_private(ctx, game, player.user)]


def _card_and_target(ctx: Context, game: js.Game, player: js.Player) -> tuple[str, str]:
    tokens = ctx.args.split()
    if not tokens:
        raise CommandError(f"jianshou.error.{ctx.command}_usage")
    target = ""
    card = hand_card(game, player, tokens[0])
    if len(tokens) == 2:
        target = find_player(ctx, game, tokens[1]).user
    elif len(tokens) > 2:
        raise CommandError(f"jianshou.error.{ctx.command}_usage")
    return card, target


@command("item", "物品", hidden=True)
@readable
async def item(ctx: Context) -> list[Outgoing]:
    """JS-2 item phase: use an item at once, or equip it."""
    game, player = await _acting(ctx)
    name, target = _card_and_target(ctx, game, player)
    game, played = js.item(game, player.user, name, target)
    note = await save(ctx, game)
    card = game.card(played.card)
    if played.equipped:
        text = ctx.t("jianshou.item.equip", name=player.name, card=card_label(ctx, game, name),
                     bonus=bonus_text(ctx, card.equip))
        return [channel(ctx, [text, note], "item", game, user=player.user, card=name,
                        equipped=True), hand_private(ctx, game, player.user)]
    return _played(ctx, game, player, card, played, "jianshou.item.use", "item", note)


@command("event", "事件", hidden=True)
@readable
async def event(ctx: Context) -> list[Outgoing]:
    """JS-3: play an event as the turn's action."""
    game, player = await _acting(ctx)
    name, target = _card_and_target(ctx, game, player)
    game, played = js.event(game, player.user, name, target)
    note = await save(ctx, game)
    return _played(ctx, game, player, game.card(name), played, "jianshou.event.play", "event",
                   note)


def _played(ctx: Context, game: js.Game, player: js.Player, card: js.Card, played: js.Played,
            key: str, kind: str, note: str) -> list[Outgoing]:
    effects = played.effects
    lines = [ctx.t(key, name=player.name, card=card_label(ctx, game, card.name),
                   effects=effects_text(ctx, game, card, effects)),
             *defeated_lines(ctx, game, effects.defeated)]
    lines += turn_start_lines(ctx, game, effects.starts) if effects.starts else \
        over_lines(ctx, game)
    lines.append(note)
    outs = [channel(ctx, lines, kind, game, user=player.user, card=card.name,
                    target=effects.target or None, damage=effects.damage)]
    if game.player(player.user).alive:  # the hand again: its numbers have moved
        cards = sep(ctx).join(card_label(ctx, game, c) for c in effects.drawn)
        head = ctx.t("jianshou.hand.drew", cards=cards) if effects.drew else ""
        outs.append(hand_private(ctx, game, player.user, head))
    return [*outs, *drawn_private(ctx, game, effects.starts)]


# --------------------------------------------------------------------------- JS-3 actions


@command("meditate", "打坐")
@readable
async def meditate(ctx: Context) -> list[Outgoing]:
    """JS-3 打坐: 內力 + the highest 打坐 (1 without an internal art)."""
    game, player = await _acting(ctx)
    game, done = js.meditate(game, player.user)
    note = await save(ctx, game)
    text = ctx.t("jianshou.meditated", name=player.name, gained=done.gained, neili=done.neili)
    return [channel(ctx, [text, note], "meditate", game, user=player.user, gained=done.gained,
                    neili=done.neili)]


@command("transfer", "傳功", "传功")
@readable
async def transfer(ctx: Context) -> list[Outgoing]:
    """JS-3 傳功: `.transfer @player X`."""
    tokens = ctx.args.split()
    if len(tokens) != 2 or not tokens[1].isdigit() or len(tokens[1]) > 3:
        raise CommandError("jianshou.error.transfer_usage")
    game, player = await _acting(ctx)
    target = find_player(ctx, game, tokens[0])
    game, done = js.transfer(game, player.user, target.user, int(tokens[1]))
    note = await save(ctx, game)
    lines = [ctx.t("jianshou.transferred", name=player.name, target=target.name,
                   amount=done.amount, neili=done.neili, target_neili=done.target_neili)]
    if done.lost:
        lines.append(ctx.t("jianshou.transfer_lost", target=target.name, lost=done.lost))
    return [channel(ctx, [*lines, note], "transfer", game, user=player.user, target=target.user,
                    amount=done.amount)]


# --------------------------------------------------------------------------- JS-2 end phase


@command("discard", "棄牌", "弃牌", hidden=True)
@readable
async def discard(ctx: Context) -> list[Outgoing]:
    """JS-2 end phase: discard down to seven (`.discard 3 5`, by position or name)."""
    game, player = await _acting(ctx)
    names = _discards(game, player, ctx.args.split())
    if not names:
        raise CommandError("jianshou.error.discard_usage")
    game, done = js.discard(game, player.user, names)
    note = await save(ctx, game)
    return [_discard_reply(ctx, game, player, done, note), hand_private(ctx, game, player.user)]


def _discards(game: js.Game, player: js.Player, tokens: list[str]) -> tuple[str, ...]:
    """Positions all refer to the hand before any card goes."""
    return tuple(hand_card(game, player, t) for t in tokens)


def _discard_reply(ctx: Context, game: js.Game, player: js.Player,
                   done: js.Discarded, note: str = "") -> Outgoing:
    cards = sep(ctx).join(card_label(ctx, game, c) for c in done.cards)
    return channel(ctx, [ctx.t("jianshou.discarded", name=player.name, cards=cards,
                               hand=done.hand), note], "discard", game, user=player.user,
                   cards=list(done.cards))


@command("end", "結束", "结束", hidden=True)
@readable
async def end(ctx: Context) -> list[Outgoing]:
    """JS-2 end phase, then the next player's turn; `.end 3 5` discards first. A
    referee (a GM not seated) is told whose turn it is and what a referee may do: no
    GM ends another player's turn (issue 22)."""
    game = await running(ctx)
    if referee(ctx, game) and game.actor is not None:  # not "cannot join midway"
        raise CommandError("jianshou.error.referee_next", name=game.actor.name)
    player = me(ctx, game)
    outs: list[Outgoing] = []
    tokens = ctx.args.split()
    if tokens:  # all the discards the hand needs, or nothing happens
        game, done = js.discard(game, player.user, _discards(game, player, tokens),
                                ending=True)
        outs.append(_discard_reply(ctx, game, player, done))
    game, ended = js.end_turn(game, player.user)
    note = await save(ctx, game)
    lines = [ctx.t("jianshou.ended", name=player.name),
             *turn_start_lines(ctx, game, ended.starts), note]
    return [*outs, channel(ctx, lines, "end", game, user=player.user),
            *drawn_private(ctx, game, ended.starts)]
