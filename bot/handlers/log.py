"""`.log`: the table's game log — on, off, export, list (SealDice / DicePP habits).

While a log is on, every message of the table is recorded with every reply
(:mod:`bot.core` does it in the command's own transaction); private messages go
to the GM's copy only. `.log export` sends the players' copy to the channel and
the GM's copy to each GM privately, as a self-contained HTML page (or Markdown; the
default on Plurk, whose adapter posts a file's text, see docs/game-log.md).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from bot.context import Context
from bot.errors import CommandError
from bot.gamelog import export
from bot.handlers.pc import check_name
from bot.messages import Attachment, Outgoing
from bot.permissions import require_gm_if_any
from bot.router import command
from bot.store.models import GameLog, GameLogLine

ON = ("on", "new", "開", "开", "開始", "开始")
OFF = ("off", "stop", "關", "关", "停")
EXPORT = ("export", "get", "匯出", "导出")
LIST = ("", "list", "列表")
FORMATS = {"html": "html", "md": "md", "markdown": "md"}
DEFAULT_FORMAT = {"plurk": "md"}
"""Where the default is not HTML: Plurk takes no file, the GM's copy arrives as the
responses of a private plurk, and Markdown reads as text where HTML would be tags."""
MAX_LOGS = 100
"""Logs one table keeps (the oldest is not removed for you: `.log list` shows them)."""


async def _logs(ctx: Context) -> list[GameLog]:
    rows = await ctx.session.scalars(select(GameLog).where(
        GameLog.channel_id == ctx.channel.id).order_by(GameLog.id))
    return list(rows)


def _forget(ctx: Context) -> None:
    ctx.core.logbook.forget(ctx.channel.platform, ctx.channel.channel_key)


@command("log", "日誌", "日志")
async def log(ctx: Context) -> list[Outgoing]:
    verb, _, rest = ctx.args.strip().partition(" ")
    verb, rest = verb.casefold(), rest.strip()
    if verb in LIST and not rest:
        return _list(ctx, await _logs(ctx))
    if verb in ON:
        require_gm_if_any(ctx)
        return await _on(ctx, rest)
    if verb in OFF:
        require_gm_if_any(ctx)
        return _off(ctx, await _logs(ctx))
    if verb in EXPORT:
        return await _export(ctx, rest)
    raise CommandError("core.error.log_usage")


def _list(ctx: Context, logs: list[GameLog]) -> list[Outgoing]:
    if not logs:
        return [ctx.reply(ctx.t("core.log.list_empty"))]
    rows = [ctx.t("core.log.list_row", name=row.name, lines=row.lines,
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
        row = GameLog(channel_id=ctx.channel.id, name=name, active=False, lines=0,
                      chars=0, full=False)
        ctx.session.add(row)
    for other in logs:
        other.active = False
    row.active = True
    await ctx.session.flush()
    _forget(ctx)
    return [ctx.reply(ctx.t("core.log.on", name=row.name, lines=row.lines))]


def _off(ctx: Context, logs: list[GameLog]) -> list[Outgoing]:
    row = next((r for r in logs if r.active), None)
    if row is None:
        raise CommandError("core.error.log_not_on")
    row.active = False
    _forget(ctx)
    return [ctx.reply(ctx.t("core.log.off", name=row.name, lines=row.lines))]


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
    lines = list(await ctx.session.scalars(select(GameLogLine).where(
        GameLogLine.log_id == row.id).order_by(GameLogLine.id)))
    if not lines:
        raise CommandError("core.error.log_empty", name=row.name)
    fmt = fmt or DEFAULT_FORMAT.get(ctx.incoming.platform, "html")
    outs = [ctx.reply(ctx.t("core.log.exported", name=row.name, lines=row.lines),
                      attachment=_file(ctx, row, export.visible(lines, False), fmt))]
    gm_copy = _file(ctx, row, lines, fmt, gm=True)
    outs += [ctx.private(gm, ctx.t("core.log.gm_copy", name=row.name),
                         attachment=gm_copy) for gm in ctx.gm_users]
    return outs


def _file(ctx: Context, row: GameLog, lines: list[GameLogLine], fmt: str,
          gm: bool = False) -> Attachment:
    labels = export.Labels(
        title=ctx.t("core.log.title_gm" if gm else "core.log.title", name=row.name),
        summary=ctx.t("core.log.summary", lines=len(lines),
                      day=row.created_at.strftime("%Y-%m-%d")),
        bot=ctx.t("core.log.bot"),
        private=ctx.t("core.log.private"),
    )
    text = export.page(lines, labels) if fmt == "html" else export.markdown(lines, labels)
    suffix = "-gm" if gm else ""
    return Attachment(f"{_filename(row.name)}{suffix}.{fmt}", text.encode("utf-8"))


def _filename(name: str) -> str:
    """A log's name as a file name: letters, digits, CJK, `-` and `_` only."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name).strip("_")
    return safe[:60] or "log"
