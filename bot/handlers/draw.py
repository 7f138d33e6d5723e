"""`.draw` (a public draw from a deck), `.drawh` (a secret one: the drawer and every
GM see it, the channel only that someone drew), `.draw list` / `.draw keys` (what can
be drawn). The decks are read at start (bot/decks); drawing is rules/decks.

SealDice's `.draw` (``dice/ext_deck.go``): `.draw <name> [n]` or `.draw n# <name>`,
at most 5 draws, without putting back within the command; `.draw keys [deck]`;
`.draw list`. Deck text is echoed as one line (a line break in an entry could start
a line that reads as the bot's own result) and the adapters escape it as any echoed
text (no mention, no markup, no CQ code).
"""

from __future__ import annotations

import re

from bot.context import Context
from bot.decks import DeckShelf
from bot.errors import CommandError
from bot.i18n import rule_key, simplified
from bot.kits.acting import acting_name
from bot.kits.hidden import deliver
from bot.messages import Outgoing
from bot.normalize import line_of_text
from bot.router import command
from rules import decks
from rules.decks import Deck
from rules.errors import RuleError

LISTING = 1500
"""The longest `.draw list` / `.draw keys` reply (characters)."""
ECHO = 40
"""A name the player typed is echoed up to this many characters."""
SEPARATOR = len("\n5. ")

_TIMES_FIRST = re.compile(r"^(\d+)\s*#\s*(.+)$", re.DOTALL)
_TIMES_LAST = re.compile(r"^(.+?)\s+(\d+)\s*#?$", re.DOTALL)


@command("draw", "deck", "抽牌")
async def public_draw(ctx: Context) -> list[Outgoing]:
    words = ctx.args.split(maxsplit=1)
    word = words[0].casefold() if words else "list"
    if word in ("list", "列表"):
        return [ctx.reply(listing(ctx))]
    if word in ("keys", "牌組", "牌组"):
        return [ctx.reply(keys(ctx, words[1] if len(words) > 1 else ""))]
    if word in ("help", "幫助", "帮助"):
        return [ctx.reply(ctx.t("core.help.draw"))]
    name = await acting_name(ctx)
    detail, data = drawn(ctx, name)
    return [ctx.reply(detail, data)]


@command("drawh", "暗抽", hidden=True)
async def hidden_draw(ctx: Context) -> list[Outgoing]:
    """As `.rh`: the channel learns that a secret draw happened, the drawer and every
    GM what was drawn — privately. Nothing of the draw enters the channel message."""
    name = await acting_name(ctx)
    detail, data = drawn(ctx, name)
    return deliver(ctx, ctx.user, name, detail, data, hidden=True, kind="hidden_draw",
                   words="core.draw.hidden")


def drawn(ctx: Context, name: str) -> tuple[str, dict[str, object]]:
    """The text and data of the draw ``ctx.args`` asks for, drawn by ``name``."""
    wanted, count = request(ctx.args.strip())
    if not wanted:
        raise CommandError("core.error.draw_usage")
    shelf = ctx.services.decks
    deck = find(shelf, wanted)
    key = shelf.key(deck, wanted)
    result = decks.draw(deck, key, count, ctx.dice, player=name, separator="x" * SEPARATOR)
    texts = [line_of_text(text) for text in result.texts]
    shown = line_of_text(key)
    if count == 1:
        detail = ctx.t("core.draw.result", name=name, deck=shown, text=texts[0])
    else:
        lines = "\n".join(f"{i}. {text}" for i, text in enumerate(texts, 1))
        detail = ctx.t("core.draw.results", name=name, deck=shown, count=count, lines=lines)
    data: dict[str, object] = {"kind": "draw", "deck": key, "file": deck.source,
                               "results": texts,
                               "rolls": [list(roll) for roll in result.rolls]}
    return detail, data


def request(args: str) -> tuple[str, int]:
    """(name, count) of `.draw name [n]`, `.draw name n#` (SealDice's manual) or
    `.draw n# name` (n beyond six digits is
    refused as too many, not read)."""
    match = _TIMES_FIRST.match(args)
    if match is not None:
        return match.group(2).strip(), _count(match.group(1))
    match = _TIMES_LAST.match(args)
    if match is not None:
        return match.group(1).strip(), _count(match.group(2))
    return args, 1


def _count(digits: str) -> int:
    return int(digits) if len(digits) <= 6 else 10**6


def find(shelf: DeckShelf, name: str) -> Deck:
    """The deck holding ``name``; a refusal naming the broken file that seems to hold
    it, or saying no deck has it."""
    deck = shelf.find(name)
    if deck is not None:
        return deck
    broken = shelf.broken_for(name)
    if broken is not None:
        raise broken.error
    shown = line_of_text(name)[:ECHO]
    similar = shelf.similar(name)
    if similar:
        raise RuleError("decks.similar", name=shown,
                        similar=" / ".join(line_of_text(key) for key in similar))
    raise RuleError("decks.unknown", name=shown)


def listing(ctx: Context) -> str:
    """The deck files: each one's title and names (`.draw list`), the unused ones with
    the reason."""
    shelf = ctx.services.decks
    lines = [ctx.t("core.draw.list_header", count=len(shelf.decks))]
    for deck in shelf.decks:
        title = " / ".join(for_reader(ctx, list(dict.fromkeys(deck.title.split(" / ")))))
        lines.append(ctx.t("core.draw.list_item", title=line_of_text(title),
                           keys=" / ".join(line_of_text(k)
                                           for k in for_reader(ctx, deck.shown()))))
    for broken in shelf.broken:
        reason = ctx.t(rule_key(broken.error.code), **broken.error.params)
        lines.append(ctx.t("core.draw.list_broken", reason=reason))
    lines.append(ctx.t("core.draw.list_footer"))
    return bounded(ctx, lines)


def keys(ctx: Context, wanted: str) -> str:
    """The names `.draw` can draw (`.draw keys`), of the decks whose title contains
    ``wanted`` when given."""
    shown = [line_of_text(key) for deck in ctx.services.decks.decks
             if wanted.casefold() in deck.title.casefold()
             for key in for_reader(ctx, deck.shown())]
    if not shown:
        raise RuleError("decks.no_keys", wanted=line_of_text(wanted)[:ECHO])
    return bounded(ctx, [ctx.t("core.draw.keys", count=len(shown)), " / ".join(shown)])


def for_reader(ctx: Context, names: list[str]) -> list[str]:
    """Of a deck's names (or its title's parts) the ones in the reader's script — a
    deck that names its lists in 繁, 简 and English (the bundled ones: 神諭 / 神谕 /
    oracle) is listed to an English table as ``oracle``, to a 简体 one as ``神谕`` —
    or all of them when none is (an operator's deck named in one script only). Every
    name stays drawable; only the listing is shorter and in one language."""
    if ctx.locale == "en":
        mine = [name for name in names if name.isascii()]
    else:
        han = [name for name in names if not name.isascii()]
        forms = {name: simplified(name) for name in han}
        simple = set(forms.values())
        if ctx.locale == "zh-Hans":  # a 简 name, or a 繁 one whose 简 form is not listed
            mine = [name for name in han if forms[name] == name or forms[name] not in han]
        else:  # 繁: every name but those that are another's 简 form
            mine = [name for name in han
                    if name not in simple or all(forms[other] != name
                                                 for other in han if other != name)]
    return mine or names


def bounded(ctx: Context, lines: list[str]) -> str:
    """``lines`` up to :data:`LISTING` characters, then how many were left out."""
    text = "\n".join(lines)
    if len(text) <= LISTING:
        return text
    cut = text[:LISTING].rsplit(" / ", 1)[0].rsplit("\n", 1)[0]
    return cut + "\n" + ctx.t("core.draw.more")
