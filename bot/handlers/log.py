"""`.log`: the table's game log — on, off, export, list (SealDice / DicePP habits).

While a log is on, every message of the table is recorded with every reply
(:mod:`bot.core` does it in the command's own transaction); private messages go
to the GM's copy only. `.log export` sends the players' copy to the channel and
the GM's copy to each GM privately, as a self-contained HTML page (or Markdown, the
default on Plurk, whose adapter posts a file's text; or the plain text story viewers
import — see docs/game-log.md).
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol, TypeVar

from bot import messages
from bot.context import Context, Services
from bot.errors import CommandError
from bot.gamelog import export
from bot.gamelog.storyline import CommandOf
from bot.handlers.pc import check_name
from bot.i18n import Catalog
from bot.messages import Attachment, Outgoing
from bot.normalize import normalize, strip_prefix
from bot.permissions import require_gm_if_any
from bot.router import command
from bot.unit_of_work import Log, LogLine, UnitOfWork

T = TypeVar("T")


class TableReader(Protocol):
    """What `trpgbot log export` reads through (the core): a table's unit of work
    outside any command, its texts and its platforms' languages."""

    catalog: Catalog
    services: Services

    def platform_locale(self, platform: str) -> str: ...

    async def read_table(self, platform: str, channel: str,
                         work: Callable[[UnitOfWork], Awaitable[T]]) -> T | None: ...

ON = ("on", "new", "開", "开", "開始", "开始")
OFF = ("off", "stop", "關", "关", "停")
EXPORT = ("export", "get", "匯出", "导出")
LIST = ("", "list", "列表")
FORMATS = {"html": "html", "md": "md", "markdown": "md", "txt": "txt", "text": "txt"}
"""``txt``: the plain text SealDice writes and story viewers import (docs/game-log.md)."""
DEFAULT_FORMAT = {"plurk": "md"}
"""Where the default is not HTML: Plurk takes no file, the GM's copy arrives as the
responses of a private plurk, and Markdown reads as text where HTML would be tags."""
MAX_LOGS = 100
"""Logs one table keeps (the oldest is not removed for you: `.log list` shows them)."""
EXPORT_EVERY = timedelta(minutes=1)
"""A table exports at most once in this time: each export posts files (on Plurk, a
private plurk of many responses per GM, spaced for anti-flood, holding up the replies
of every table). Not on the console: one person's terminal, writing local files."""
PLURK_EXPORT_CHARS = 3_000
"""Characters of a GM's copy on Plurk: about 10 responses (Plurk cuts at a line end,
so a response holds less than its 360; the adapter's own cap, 40, stays the hard
limit); the rest is on the server (`trpgbot log export`)."""


async def _logs(ctx: Context) -> list[Log]:
    return await ctx.uow.logs()


async def public_lines(ctx: Context, logs: list[Log]) -> dict[int, int]:
    """Lines of each log's players' copy, by log id: what the channel may be told.
    ``Log.lines`` counts the private lines too (the size cap is on everything
    stored), and a count that grows by one more after a hidden roll than after a
    public one tells the players how many secrets there are (issue 22)."""
    return await ctx.uow.public_line_counts(logs)


def _forget(ctx: Context) -> None:
    ctx.services.logbook.forget(ctx.channel.platform, ctx.channel.channel_key)


@command("log", "日誌", "日志")
async def log(ctx: Context) -> list[Outgoing]:
    verb, _, rest = ctx.args.strip().partition(" ")
    verb, rest = verb.casefold(), rest.strip()
    if verb in LIST and not rest:
        return await _list(ctx, await _logs(ctx))
    if verb in ON:
        require_gm_if_any(ctx)
        return await _on(ctx, rest)
    if verb in OFF:
        require_gm_if_any(ctx)
        return await _off(ctx, await _logs(ctx))
    if verb in EXPORT:
        return await _export(ctx, rest)
    raise CommandError("core.error.log_usage")


async def _list(ctx: Context, logs: list[Log]) -> list[Outgoing]:
    if not logs:
        return [ctx.reply(ctx.t("core.log.list_empty"))]
    counts = await public_lines(ctx, logs)
    rows = [ctx.t("core.log.list_row", name=row.name, lines=counts[row.id],
                  state=ctx.t("core.log.state_on") if row.active
                  else ctx.t("core.log.state_full") if row.full else "")
            for row in logs]
    return [ctx.reply(ctx.t("core.log.list", rows="\n".join(r.rstrip() for r in rows)))]


async def _on(ctx: Context, name: str) -> list[Outgoing]:
    logs = await _logs(ctx)
    if name:
        name = check_name(name)
        row = next((r for r in logs if r.name == name), None)
    else:  # resume the latest log, else start one named after the day
        row = next((r for r in reversed(logs) if not r.full), None)
        if row is None:
            day = datetime.now(UTC).strftime("%Y-%m-%d")
            taken = {r.name for r in logs}
            name = next(n for n in (day, *(f"{day} ({i})" for i in range(2, MAX_LOGS + 2)))
                        if n not in taken)
    if row is not None and row.full:
        raise CommandError("core.error.log_full", name=row.name)
    if row is None:
        if len(logs) >= MAX_LOGS:
            raise CommandError("core.error.log_too_many", limit=MAX_LOGS)
        row = await ctx.uow.new_log(name, ctx.user)
    for other in logs:
        other.active = False
    row.active = True
    _forget(ctx)
    lines = (await public_lines(ctx, [row]))[row.id]
    return [ctx.reply(ctx.t("core.log.on", name=row.name, lines=lines))]


async def _off(ctx: Context, logs: list[Log]) -> list[Outgoing]:
    row = next((r for r in logs if r.active), None)
    if row is None:
        raise CommandError("core.error.log_not_on")
    row.active = False
    _forget(ctx)
    lines = (await public_lines(ctx, [row]))[row.id]
    return [ctx.reply(ctx.t("core.log.off", name=row.name, lines=lines))]


def may_export(ctx: Context, row: Log) -> None:
    """`.log export` is a GM's, or — at a table without a GM — its starter's: each
    export posts a file (on Plurk, a private plurk of many responses)."""
    if ctx.gm_users:
        require_gm_if_any(ctx)
    elif ctx.user != row.started_by:
        raise CommandError("core.error.log_export_who")


def _not_too_often(ctx: Context, logs: list[Log]) -> datetime:
    """Now, unless the table exported a log less than :data:`EXPORT_EVERY` ago."""
    now = ctx.services.logbook.clock()
    last = max((r.exported_at for r in logs if r.exported_at is not None), default=None)
    if last is not None and now < last + EXPORT_EVERY:
        wait = math.ceil((last + EXPORT_EVERY - now).total_seconds())
        raise CommandError("core.error.log_export_wait", seconds=wait,
                           every=int(EXPORT_EVERY.total_seconds()))
    return now


async def _export(ctx: Context, rest: str) -> list[Outgoing]:
    words = rest.split()
    fmt = FORMATS.get(words[-1].casefold(), "") if words else ""
    if fmt:
        words = words[:-1]
    name = " ".join(words)
    logs = await _logs(ctx)
    if name:
        row = next((r for r in logs if r.name == name), None)
        if row is None:
            raise CommandError("core.error.log_unknown", name=name)
    else:
        row = next((r for r in logs if r.active), logs[-1] if logs else None)
        if row is None:
            raise CommandError("core.error.log_none")
    may_export(ctx, row)
    now = ctx.services.logbook.clock() if ctx.incoming.platform == "console" \
        else _not_too_often(ctx, logs)
    lines = await ctx.uow.log_lines(row)
    if not lines:
        raise CommandError("core.error.log_empty", name=row.name)
    row.exported_at = now
    platform = ctx.incoming.platform
    fmt = fmt or DEFAULT_FORMAT.get(platform, "html")
    public = export.visible(lines, None)
    # the channel is told what its own copy holds, and mentions GM copies only
    # where there are GMs to get one (issue 22)
    text = ctx.t("core.log.exported" if ctx.gm_users else "core.log.exported_no_gm",
                 name=row.name, lines=len(public))
    data = {"kind": "log_export", "name": row.name, "lines": len(public),
            "gm_copies": len(ctx.gm_users)}
    outs = _copies(ctx, lambda t, attachment: ctx.reply(t, data, attachment=attachment),
                   text, files(ctx.catalog, ctx.locale, row, public, fmt,
                               command_of=command_finder(ctx.services, ctx.channel.system)))
    for gm in ctx.gm_users:
        text = ctx.t("core.log.gm_copy", name=row.name)
        mine = export.visible(lines, gm)
        if platform == "plurk":
            made, tail = _plurk_head(ctx, row, mine, fmt)
            text = f"{text}\n{tail}" if tail else text
        else:
            made = files(ctx.catalog, ctx.locale, row, mine, fmt, gm=True,
                         command_of=command_finder(ctx.services, ctx.channel.system))
        outs += _copies(ctx, lambda t, attachment, gm=gm: ctx.private(
            gm, t, attachment=attachment), text, made)
    return outs


def _copies(ctx: Context, send: Callable[..., Outgoing], text: str,
            made: list[Attachment]) -> list[Outgoing]:
    """One message per file: the first with ``text``, each later part with its number."""
    return [send(text if n == 1 else ctx.t("core.log.part", part=n, parts=len(made)),
                 attachment=attachment) for n, attachment in enumerate(made, start=1)]


def _plurk_head(ctx: Context, row: Log, lines: list[LogLine],
                fmt: str) -> tuple[list[Attachment], str]:
    """A GM's copy on Plurk, whose adapter posts a file as the responses of a private
    plurk (anti-flood spaced: one table's long log would hold up every table): the
    lines that fit in :data:`PLURK_EXPORT_CHARS` characters (about 10 responses), and a
    note naming the server command that writes the whole file (``trpgbot log export``)."""
    command_of = command_finder(ctx.services, ctx.channel.system)
    labels = _labels(ctx.catalog, ctx.locale, row, lines, gm=True, command_of=command_of)
    if len(export.render(lines, labels, fmt)) <= PLURK_EXPORT_CHARS:
        return [_attachment(row, lines, labels, fmt, gm=True)], ""
    def note(shown: int) -> str:
        return ctx.t("core.log.plurk_rest", shown=shown, total=len(lines),
                     command=server_command("plurk", ctx.incoming.channel, row.name))

    # measured with the longest count the note may show
    shown = export.fits(lines, labels, fmt, len, PLURK_EXPORT_CHARS, note(len(lines)))
    tail = note(shown)
    labels = _labels(ctx.catalog, ctx.locale, row, lines[:shown], gm=True,
                     command_of=command_of)
    return [_attachment(row, lines[:shown], labels, fmt, gm=True, tail=tail)], tail


async def server_export(core: TableReader, platform: str, channel: str, name: str,
                        fmt: str, viewer: str | None = None) -> tuple[str, str] | None:
    """`trpgbot log export`: the whole file of the log ``name`` of the table that
    ``channel`` plays at — (file name, text), no size cap and no rate limit (it stays
    on the server) — or None when there is no such log. ``viewer``: that user's copy
    (their private lines too), else the players' copy."""

    async def read(uow: UnitOfWork) -> tuple[Log, str | None, str, list[LogLine]] | None:
        row = next((r for r in await uow.logs() if r.name == name), None)
        if row is None:
            return None
        return (row, uow.channel.locale, uow.channel.system,
                export.visible(await uow.log_lines(row), viewer))
    found = await core.read_table(platform, channel, read)
    if found is None:
        return None
    row, locale, system, lines = found
    labels = _labels(core.catalog, locale or core.platform_locale(platform), row, lines,
                     gm=viewer is not None, command_of=command_finder(core.services, system))
    suffix = "-gm" if viewer is not None else ""
    return f"{filename(row.name)}{suffix}.{fmt}", export.render(lines, labels, fmt)


def server_command(platform: str, channel: str, name: str) -> str:
    """The command that writes a log's whole file on the bot's server."""
    return shlex.join(["trpgbot", "log", "export", "--platform", platform,
                       "--channel", channel, name])


MAX_COMMAND_NAME = 12
"""The longest command name a said line's first word is matched against."""


def command_finder(services: Services, system: str) -> CommandOf:
    """Which command (by its first declared name) a said text calls at a table that
    plays ``system`` — the longest name its first word starts with (`.st力量60` is
    `.st`, `.rav` is not `.r`) — for the story view (bot/gamelog/storyline.py)."""
    def command_of(text: str) -> str | None:
        body = strip_prefix(normalize(text.strip()))
        if not body or body[:1].isspace():
            return None
        word = body.split(maxsplit=1)[0][:MAX_COMMAND_NAME].casefold()
        for end in range(len(word), 0, -1):
            found = services.command(word[:end], system)
            if found is not None:
                return found.names[0]
        return None
    return command_of


def _labels(catalog: Catalog, locale: str, row: Log, lines: list[LogLine],
            gm: bool, command_of: CommandOf | None = None) -> export.Labels:
    def t(key: str, **params: object) -> str:
        return catalog.text(locale, key, **params)

    return export.Labels(
        title=t("core.log.title_gm" if gm else "core.log.title", name=row.name),
        summary=t("core.log.summary", lines=len(lines),
                  day=row.created_at.strftime("%Y-%m-%d") if row.created_at else ""),
        bot=t("core.log.bot"),
        private=t("core.log.private"),
        gm=gm,
        story=t("core.log.story_view"),
        whole=t("core.log.whole_view"),
        speakers=export.speakers(lines),
        command_of=command_of,
    )


def files(catalog: Catalog, locale: str, row: Log, lines: list[LogLine], fmt: str,
          gm: bool = False, cap: int | None = None,
          command_of: CommandOf | None = None) -> list[Attachment]:
    """The copy of ``lines`` as attachments: one file, or numbered parts
    (``<name>-2.html``…) when one would pass the attachment cap (escaping counted)."""
    labels = _labels(catalog, locale, row, lines, gm, command_of)
    cut = export.parts(lines, labels, fmt, messages.MAX_ATTACHMENT_BYTES if cap is None
                       else cap)
    return [_attachment(row, chunk, part_labels, fmt, gm,
                        number=n if len(cut) > 1 else 0)
            for n, (part_labels, chunk) in enumerate(cut, start=1)]


def _attachment(row: Log, lines: list[LogLine], labels: export.Labels, fmt: str,
                gm: bool, tail: str = "", number: int = 0) -> Attachment:
    text = export.render(lines, labels, fmt, tail)
    suffix = ("-gm" if gm else "") + (f"-{number}" if number else "")
    return Attachment(f"{filename(row.name)}{suffix}.{fmt}", text.encode("utf-8"))


def filename(name: str) -> str:
    """A log's name as a file name: letters, digits, CJK, `-` and `_` only."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name).strip("_")
    return safe[:60] or "log"
