"""The bot side of the encounter kit (issue 24, DESIGN.md "Fights: one encounter kit"):
one fight vocabulary, one way to say who is down, to pass over the fallen, to ping the
next actor, and to keep an enemy's numbers the GM's.

A system's `.init` hands :func:`route_init` its handler per shared verb
(``join add start next list end remove``); players type the words of every system,
in 繁, 简 and English, and get one usage line listing them when a word is unknown. The
life states and health bands are ``rules.kits.encounter``'s; here they get words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from rules.kits.encounter import VERBS, Band, Life

Handler = Callable[[Context], Awaitable[list[Outgoing]]]

#: Every spelling of each shared verb (`.init <verb>`); a system's own commands
#: (`.battle`, `.act`, `.pass`, `.js` …) stay as aliases of the same handlers.
INIT_WORDS: Mapping[str, tuple[str, ...]] = {
    "join": ("join", "加入", "參戰", "参战"),
    "add": ("add", "new", "新增"),
    "start": ("start", "開始", "开始", "開戰", "开战"),
    "next": ("next", "pass", "下一位", "結束回合", "结束回合"),
    "list": ("list", "ls", "show", "列表", "顯示", "显示"),
    "end": ("end", "clr", "clear", "結束", "结束", "清除"),
    "remove": ("remove", "del", "rm", "刪除", "删除", "移除"),
}
assert tuple(INIT_WORDS) == VERBS
_VERB_OF = {word.casefold(): verb for verb, words in INIT_WORDS.items() for word in words}


def init_verb(word: str) -> str | None:
    """The shared verb a word spells (``開始`` → ``start``), or None."""
    return _VERB_OF.get(word.casefold())


async def route_init(ctx: Context, handlers: Mapping[str, Handler],
                     *, fallback: Handler | None = None) -> list[Outgoing]:
    """Run `.init <verb> [rest]` through the system's handler for ``verb`` (``list``
    when no word is given), with ``rest`` as the handler's arguments. A first word
    that is no verb goes to ``fallback`` with the whole line (a system whose `.init`
    also takes a name), else gets the usage listing the verbs this system knows."""
    word, _, rest = ctx.args.strip().partition(" ")
    verb = init_verb(word) if word else "list"
    if verb is not None and verb in handlers:
        return await handlers[verb](replace(ctx, args=rest.strip()))
    if fallback is not None and word and verb is None:
        return await fallback(ctx)
    raise CommandError("encounter.error.init_usage", verbs=" / ".join(
        ctx.t(f"encounter.verb.{v}") for v in VERBS if v in handlers))


def life_text(ctx: Context, life: Life) -> str:
    return ctx.t(f"encounter.life.{life.value}")


def band_text(ctx: Context, band: Band) -> str:
    return ctx.t(f"encounter.band.{band.value}")


def skipped_line(ctx: Context, fallen: Iterable[tuple[str, Life]]) -> str:
    """One line naming each combatant the turn passed over, with its state
    (empty when none was)."""
    names = [ctx.t("encounter.turn.fallen", name=name, life=life_text(ctx, life))
             for name, life in fallen]
    return ctx.t("encounter.turn.skipped", names=ctx.t("encounter.separator").join(names)) \
        if names else ""


def ping(out: Outgoing, owner: str | None, gms: Iterable[str] = ()) -> Outgoing:
    """A turn announcement that notifies the next actor's player (a mention on the
    platforms that notify). An enemy's turn (no owner) pings the GMs who play it —
    the caller passes ``ctx.gm_users`` there (a GM playing by post was never pinged,
    the issue-24 play-test); with neither, nobody is pinged."""
    who = (owner,) if owner else tuple(gms)
    return replace(out, notify=who) if who else out


def for_gms(ctx: Context, public: str, public_data: dict[str, Any] | None,
            secret: str, secret_data: dict[str, Any] | None) -> list[Outgoing]:
    """An enemy's numbers: the channel gets ``public`` (a name, a health band), every
    GM — the asker too — ``secret`` privately. In a private conversation the asker
    gets ``secret`` there. Without a GM at the table there is nobody to keep numbers
    from: the channel gets ``secret``."""
    if ctx.incoming.is_private or not ctx.gm_users:
        return [ctx.reply(secret, secret_data)]
    return [ctx.reply(public, public_data), *ctx.to_gms(secret, secret_data)]


def life_words(ctx: Context) -> tuple[tuple[Life, str], ...]:
    """The reader's word for every state but active: the key of the map picture's
    legend (``bot.kits.field_picture.FieldView.life_words``)."""
    return tuple((life, life_text(ctx, life)) for life in Life if life is not Life.ACTIVE)


def with_skipped(ctx: Context, line: str, fallen: Iterable[tuple[str, Life]]) -> str:
    """``line`` followed on the same line by :func:`skipped_line` — with the space
    between that the reader's language writes there (English) or none (中文) — or
    ``line`` alone when the turn passed over nobody."""
    skipped = skipped_line(ctx, fallen)
    return f"{line}{ctx.t('encounter.turn.gap')}{skipped}" if skipped else line
