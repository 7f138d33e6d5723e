"""A game log as Markdown or as one self-contained HTML page (styles inline, no
external resource: it opens offline years later).

Every text is escaped for the format, so nothing a player typed becomes a heading,
a link or markup in the file: the log shows the words as the table saw them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from bot.store.models import GameLogLine


@dataclass(frozen=True, slots=True)
class Labels:
    """The few words of the page, in the table's language (from the catalog)."""

    title: str  # "{name}" already filled in
    summary: str  # e.g. "12 lines, 2026-12-01 UTC"
    bot: str  # the name shown for the bot's replies
    private: str  # "{name}" → e.g. "privately to {name}"


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _who(line: GameLogLine, labels: Labels) -> str:
    if line.kind == "reply":
        return labels.bot
    if line.kind == "private":
        return labels.private.format(name=line.name)
    return line.name


def _time(at: datetime) -> str:
    return at.strftime("%H:%M:%S")


def visible(lines: Iterable[GameLogLine], gm_copy: bool) -> list[GameLogLine]:
    """The lines of one copy: private lines only in the GM's."""
    return [line for line in lines if gm_copy or line.kind != "private"]


def markdown(lines: list[GameLogLine], labels: Labels) -> str:
    out = [f"# {_md(labels.title)}", "", _md(labels.summary), ""]
    for line in lines:
        out.append(f"**{_md(_who(line, labels))}** {_time(line.at)}  ")
        out.append("  \n".join(_md(part) for part in line.text.split("\n")))
        out.append("")
    return "\n".join(out)


_CSS = """
body{font-family:system-ui,"Noto Sans CJK TC","Microsoft JhengHei",sans-serif;
max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222;background:#fbfaf7}
h1{font-size:1.4rem;margin-bottom:.2rem}.summary{color:#777;margin-top:0}
.line{margin:.5rem 0;padding:.3rem .6rem;border-left:3px solid #ccc}
.line .who{font-weight:600}.line time{color:#999;font-size:.8rem;margin-left:.5rem}
.line p{margin:.2rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.reply{border-color:#6a8caf;background:#f0f4f8}
.private{border-color:#b06a6a;background:#f8eeee}
""".strip()


def page(lines: list[GameLogLine], labels: Labels) -> str:
    e = html.escape
    rows = "\n".join(
        f'<div class="line {e(line.kind)}"><span class="who">{e(_who(line, labels))}</span>'
        f"<time>{_time(line.at)}</time><p>{e(line.text)}</p></div>"
        for line in lines
    )
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(labels.title)}</title><style>{_CSS}</style></head>\n<body>"
        f'<h1>{e(labels.title)}</h1><p class="summary">{e(labels.summary)}</p>\n'
        f"{rows}\n</body></html>\n"
    )
