"""`.js` (劍手): the table — who sits, the deal (JS-1), the deck (load, paste, sample),
a card's text, resigning, kick and reset (JS-5): a referee's (a GM who does not play
the game), or the seated players' together (issue 22)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from bot.context import Context
from bot.errors import CommandError
from bot.kits.acting import acting_name
from bot.messages import Outgoing
from bot.names import visible_name
from bot.permissions import require_gm_if_any
from bot.systems.jianshou.args import card_named, find_player, is_word, short
from bot.systems.jianshou.decks import deck_from_file, sample, table_deck
from bot.systems.jianshou.documents import DECK, DRAFT, NO_DRAFT, Draft, TableDeck
from bot.systems.jianshou.state import (
    agree,
    carried_out,
    load,
    me,
    referee,
    require_jianshou,
    save,
    voters,
)
from bot.systems.jianshou.table import command
from bot.systems.jianshou.text import (
    card_text,
    channel,
    data,
    deck_label,
    drawn_private,
    hand_private,
    kind_word,
    names,
    over_lines,
    readable,
    sep,
    status_lines,
    turn_start_lines,
)
from rules.errors import RuleError
from rules.systems import jianshou as js
from rules.systems.jianshou.cards import MAX_CARDS, parse_card

Verb = Callable[[Context, list[str]], Awaitable[list[Outgoing]]]


@command("js", "劍手", "剑手", "jianshou")
@readable
async def table_command(ctx: Context) -> list[Outgoing]:
    tokens = ctx.args.split()
    verb, rest = (tokens[0], tokens[1:]) if tokens else ("", [])
    for spellings, handler in VERBS:
        if is_word(verb, *spellings):
            return await handler(ctx, rest)
    raise CommandError("jianshou.error.usage")


async def show(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    game = await load(ctx)
    if game.status == "lobby":
        deck, _ = await table_deck(ctx)
        players = sep(ctx).join(
            p.name + (ctx.t("jianshou.status.team", team=p.team) if p.team else "")
            for p in game.players) or ctx.t("jianshou.nobody")
        text = ctx.t("jianshou.lobby", deck=deck_label(ctx, deck), count=len(game.players),
                     players=players)
        return [ctx.reply(text, data("show", game))]
    if game.status == "mulligan":
        waiting = [p.user for p in game.players if not p.kept]
        lines = [ctx.t("jianshou.mulligan.waiting", who=names(ctx, game, waiting)),
                 *status_lines(ctx, game)]
        return [ctx.reply("\n".join(lines), data("show", game))]
    return [ctx.reply("\n".join([*status_lines(ctx, game), *over_lines(ctx, game)]),
                      data("show", game))]


async def join(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """JS-1: sit down, optionally in a team (`.js join 紅`), under the name the bot
    calls the player by — their active character, else their `.nn` nickname, else
    their display name; the account stays the seat's key. Joining again takes the
    name anew."""
    if len(rest) > 1:
        raise CommandError("jianshou.error.join_usage")
    game = await load(ctx)
    game, joined = js.join(game, ctx.user, short(await acting_name(ctx)),
                           visible_name(rest[0]) if rest else "")
    await save(ctx, game)
    key = "jianshou.rejoined" if joined.rejoined else "jianshou.joined"
    team = ctx.t("jianshou.status.team", team=joined.team) if joined.team else ""
    return [ctx.reply(ctx.t(key, name=joined.name, team=team, count=joined.players),
                      data("join", game, user=ctx.user))]


async def leave(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """Leave the lobby; in a running game, resign (JS-5: defeated)."""
    game = await load(ctx)
    player = me(ctx, game)
    return await _remove(ctx, game, player)


async def kick(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """Take a player out of the lobby, or out of a running game (the others win by it):
    a referee's call (a GM who does not play this game). Without one, every other
    player still in the game types it — and at least two of them, so nobody wins by
    kicking their last opponent; two left need a referee (issue 22). A player already
    defeated is out: there is nothing to kick."""
    if len(rest) != 1:
        raise CommandError("jianshou.error.kick_usage")
    game = await load(ctx)
    target = find_player(ctx, game, rest[0])
    if game.status in js.PLAYING and not target.alive:
        raise RuleError("jianshou.target_defeated", who=target.name)
    if target.user == ctx.user:  # kicking oneself is leaving
        return await _remove(ctx, game, target)
    if referee(ctx, game):
        return await _remove(ctx, game, target,
                             ("referee", [ctx.user], short(await acting_name(ctx))))
    player = _voter_or_refuse(ctx, game)
    needed = [u for u in voters(game) if u != target.user]
    if len(needed) < 2:
        raise CommandError("jianshou.error.kick_needs_referee")
    agreed, missing = await agree(ctx, f"kick:{target.user}", needed)
    if missing:
        return [_agreement(ctx, game, "kick", player, agreed, missing, target)]
    return await _remove(ctx, game, target, ("agreed", needed, names(ctx, game, needed)))


def _voter_or_refuse(ctx: Context, game: js.Game) -> js.Player:
    """The speaker's seat, for agreeing in place of a referee; someone who neither
    referees nor plays is told who may, and so is a player already out of the game
    (:func:`~bot.systems.jianshou.state.voters`)."""
    found = game.find(ctx.user)
    if found is None:
        raise CommandError("jianshou.error.not_referee")
    if found.user not in voters(game):
        raise CommandError("jianshou.error.not_voter")
    return found


def _agreement(ctx: Context, game: js.Game, motion: str, player: js.Player,
               agreed: list[str], missing: list[str],
               target: js.Player | None = None) -> Outgoing:
    """The channel is told who agreed and how many (and who) still must."""
    typed = ".init end" if ctx.command == "init" else ".js reset"  # the words they used
    text = ctx.t(f"jianshou.agree.{motion}", name=player.name,
                 target=target.name if target else "", count=len(missing),
                 who=names(ctx, game, missing), command=typed)
    return ctx.reply(text, {"kind": "jianshou.agree", "motion": motion,
                            "target": target.user if target else None,
                            "agreed": agreed, "missing": missing})


Kicked = tuple[str, list[str], str]
"""How a kick was decided: ``("referee" | "agreed", the deciders' ids, their names)``."""


async def _remove(ctx: Context, game: js.Game, player: js.Player,
                  kicked: Kicked | None = None) -> list[Outgoing]:
    """The player leaves the table (lobby, finished game) or the game (JS-5: resigns,
    or is kicked — the channel is told which, and by whom)."""
    event, extra = ("kick", {"by": kicked[1]}) if kicked else ("leave", {})
    if game.status in ("lobby", "over"):
        game = js.leave(js.reset(game), player.user)
        await save(ctx, game)
        text = ctx.t(f"jianshou.kicked.{kicked[0]}_table", name=player.name, by=kicked[2]) \
            if kicked else ctx.t("jianshou.left", name=player.name)
        return [ctx.reply(text, data(event, game, user=player.user, **extra))]
    game, resigned = js.resign(game, player.user)
    note = await save(ctx, game)
    head = ctx.t(f"jianshou.kicked.{kicked[0]}", name=player.name, by=kicked[2]) \
        if kicked else ctx.t("jianshou.defeated.resigned", name=player.name)
    lines = [head, *turn_start_lines(ctx, game, resigned.starts), note]  # ends with the winner
    return [channel(ctx, lines, "kick" if kicked else "resign", game, user=player.user,
                    **extra), *drawn_private(ctx, game, resigned.starts)]


async def start(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """JS-1: seats, HP, 內力, a shuffled deck each and six cards dealt privately."""
    game = await load(ctx)
    if game.status in ("lobby", "over"):
        if ctx.gm_users:
            require_gm_if_any(ctx)
        else:
            me(ctx, game)
    deck, _ = await table_deck(ctx)
    game, started = js.start(game, deck, ctx.dice)
    await save(ctx, game)
    order = sep(ctx).join(f"{i}.{p.name}" for i, p in enumerate(game.players, start=1))
    text = ctx.t("jianshou.started", order=order, hp=started.hp, neili=started.neili,
                 deck=started.deck_size, name=deck_label(ctx, deck))
    outs = [channel(ctx, [text], "start", game)]  # pings the players to .keep
    outs += [hand_private(ctx, game, user, ctx.t("jianshou.hand.dealt"))
             for user in started.order]
    return outs


async def reset(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """JS-5: a new game with the same players. A game being played (mulligans or
    turns) is reset by a referee (a GM who does not play it) or by every player still
    in it, each typing it (issue 22); a lobby or a finished game by a GM, or by anyone
    at a table without a GM."""
    game = await load(ctx)
    if game.status in js.PLAYING:
        if not referee(ctx, game):
            player = _voter_or_refuse(ctx, game)
            agreed, missing = await agree(ctx, "reset", voters(game))
            if missing:
                return [_agreement(ctx, game, "reset", player, agreed, missing)]
    elif game.status != "over" or ctx.gm_users:
        require_gm_if_any(ctx)
    await carried_out(ctx, "reset")
    game = js.reset(game)
    note = await save(ctx, game)
    text = "\n".join(line for line in (ctx.t("jianshou.reset", count=len(game.players)), note)
                     if line)
    return [ctx.reply(text, data("reset", game))]


# --------------------------------------------------------------------------- cards and decks


async def card(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """A card's text (public: every card of the deck is known to the table)."""
    require_jianshou(ctx)
    if not rest:
        raise CommandError("jianshou.error.card_usage")
    game = await load(ctx)
    cards = game.cards or (await table_deck(ctx))[0].cards
    found = card_named(cards, " ".join(rest))
    return [ctx.reply(card_text(ctx, found),
                      {"kind": "jianshou.card", "card": js.card_json(found)})]


async def deck(ctx: Context, rest: list[str]) -> list[Outgoing]:
    require_jianshou(ctx)
    verb = rest[0] if rest else ""
    for spellings, handler in DECK_VERBS:
        if is_word(verb, *spellings):
            return await handler(ctx, rest[1:])
    raise CommandError("jianshou.error.deck_usage")


async def deck_show(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    current, is_sample = await table_deck(ctx)
    counts: dict[str, int] = {}
    for c in current.cards:
        counts[c.kind] = counts.get(c.kind, 0) + c.copies
    kinds = sep(ctx).join(f"{kind_word(ctx, k)} {n}" for k, n in counts.items())
    key = "jianshou.deck.sample" if is_sample else "jianshou.deck.loaded"
    return [ctx.reply(ctx.t("jianshou.deck.show", name=deck_label(ctx, current), count=current.size,
                            kinds=kinds, origin=ctx.t(key)),
                      {"kind": "jianshou.deck", "deck": js.deck_json(current)})]


async def deck_begin(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: start pasting a deck (`.js deck begin [name]`)."""
    require_gm_if_any(ctx)
    ctx.uow.save(DRAFT, Draft(short(" ".join(rest))))
    return [ctx.reply(ctx.t("jianshou.deck.begin"), {"kind": "jianshou.deck_draft", "cards": 0})]


async def deck_add(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: paste a part of the deck — a card, a list of cards or a whole deck object —
    each card checked at once."""
    require_gm_if_any(ctx)
    text = ctx.args.split(None, 2)[2] if len(ctx.args.split(None, 2)) > 2 else ""
    try:
        part = json.loads(text)
    except (ValueError, RecursionError):
        raise RuleError("jianshou.deck_bad_json", detail="") from None
    whole = isinstance(part, dict) and "cards" in part
    items = part["cards"] if whole else part
    items = items if isinstance(items, list) else [items]
    if not items:  # `[]` or `{"cards": []}`: nothing to add, and not "received 0"
        raise CommandError("jianshou.error.part_empty")
    draft = await ctx.uow.load(DRAFT)
    name = str(part.get("name", draft.name))[:40] if whole else draft.name
    for offset, raw in enumerate(items, start=len(draft.cards) + 1):
        parse_card(raw, offset)
    cards = (*draft.cards, *items)
    if len(cards) > MAX_CARDS:
        raise RuleError("jianshou.deck_too_large", count=len(cards), limit=MAX_CARDS)
    ctx.uow.save(DRAFT, Draft(name, cards))
    total = sum(int(c.get("copies", 1)) for c in cards)
    return [ctx.reply(ctx.t("jianshou.deck.added", added=len(items), kinds=len(cards),
                            count=total), {"kind": "jianshou.deck_draft", "cards": total})]


async def deck_file(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    """GM: load the ``.json`` deck file sent with the command (JS-1 validated) for the
    next games; a draft being pasted stays as it is."""
    require_gm_if_any(ctx)
    upload = ctx.incoming.attachment
    if upload is None:
        if ctx.incoming.uploads != "attached":  # QQ: upload first; Plurk: paste instead
            raise CommandError(f"platform.uploads.how.{ctx.incoming.uploads}")
        raise CommandError("jianshou.error.deck_file_usage")
    loaded = deck_from_file(upload.filename, upload.data)
    ctx.uow.save(DECK, TableDeck(loaded))
    return [ctx.reply(ctx.t("jianshou.deck.done", name=deck_label(ctx, loaded), count=loaded.size),
                      {"kind": "jianshou.deck", "deck": js.deck_json(loaded)})]


async def deck_done(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """GM: validate the pasted deck (JS-1) and use it from the next game on — or, with
    a file sent along (`.js deck load` + a file), load that file."""
    if ctx.incoming.attachment is not None:
        return await deck_file(ctx, rest)
    require_gm_if_any(ctx)
    draft = await ctx.uow.load(DRAFT)
    if not draft.begun:
        raise CommandError("jianshou.error.no_draft")
    if not draft.cards:  # begun, nothing pasted yet: the draft stays
        raise CommandError("jianshou.error.draft_empty")
    loaded = js.parse_deck({"name": draft.name or ctx.t("jianshou.deck.unnamed"),
                            "cards": list(draft.cards)})
    ctx.uow.save(DECK, TableDeck(loaded))
    ctx.uow.save(DRAFT, NO_DRAFT)
    return [ctx.reply(ctx.t("jianshou.deck.done", name=deck_label(ctx, loaded), count=loaded.size),
                      {"kind": "jianshou.deck", "deck": js.deck_json(loaded)})]


async def deck_cancel(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    require_gm_if_any(ctx)
    ctx.uow.save(DRAFT, NO_DRAFT)
    return [ctx.reply(ctx.t("jianshou.deck.cancelled"), {"kind": "jianshou.deck_draft",
                                                         "cards": 0})]


async def deck_sample(ctx: Context, _rest: list[str]) -> list[Outgoing]:
    require_gm_if_any(ctx)
    ctx.uow.save(DECK, TableDeck())
    return [ctx.reply(ctx.t("jianshou.deck.to_sample", name=deck_label(ctx, sample())),
                      {"kind": "jianshou.deck", "deck": js.deck_json(sample())})]


DECK_VERBS: list[tuple[tuple[str, ...], Verb]] = [
    (("", "show", "顯示", "显示"), deck_show),
    (("begin", "new", "開始", "开始", "新"), deck_begin),
    (("add", "加", "貼", "贴"), deck_add),
    (("done", "end", "load", "完成", "載入", "载入"), deck_done),
    (("file", "upload", "檔案", "档案", "文件", "上傳", "上传"), deck_file),
    (("cancel", "取消"), deck_cancel),
    (("sample", "default", "範例", "范例"), deck_sample),
]

VERBS: list[tuple[tuple[str, ...], Verb]] = [
    (("", "show", "status", "狀態", "状态"), show),
    (("join", "加入", "入座"), join),
    (("leave", "quit", "resign", "離開", "离开", "認輸", "认输"), leave),
    (("start", "deal", "開始", "开始", "開局", "开局"), start),
    (("reset", "重置", "重開", "重开"), reset),
    (("kick", "踢"), kick),
    (("deck", "牌組", "牌组"), deck),
    (("card", "卡", "牌"), card),
]
